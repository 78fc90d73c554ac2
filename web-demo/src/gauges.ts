// Gauges and the two small charts. Every value is passed in from the core;
// this file only draws.

import { count, element, percent, rate } from './format.js';

export interface GaugeRow {
  name: string;
  label: string;
  value: number;
  text: string;
  /** Bar length as a share of the full width, 0..1; none for a plain number. */
  bar?: number;
  /** A mark on the bar, 0..1, with its label. */
  mark?: { at: number; label: string };
  note?: string;
}

/** A list of labelled values with bars, built once and updated in place. */
export class GaugeList {
  readonly #rows = new Map<string, { row: HTMLElement; text: HTMLElement; fill: HTMLElement; mark: HTMLElement; note: HTMLElement }>();

  constructor(private readonly container: HTMLElement) {}

  show(rows: GaugeRow[]): void {
    for (const gauge of rows) {
      let entry = this.#rows.get(gauge.name);
      if (entry === undefined) {
        const row = element('div', 'gauge');
        row.dataset.gauge = gauge.name;
        const text = element('span', 'gauge-value');
        const track = element('span', 'gauge-track');
        const fill = element('span', 'gauge-fill');
        const mark = element('span', 'gauge-mark');
        track.append(fill, mark);
        const note = element('span', 'gauge-note');
        row.append(element('span', 'gauge-label', gauge.label), text, track, note);
        this.container.append(row);
        entry = { row, text, fill, mark, note };
        this.#rows.set(gauge.name, entry);
      }
      entry.row.dataset.value = String(gauge.value);
      entry.text.textContent = gauge.text;
      entry.fill.parentElement!.hidden = gauge.bar === undefined;
      entry.fill.style.transform = `scaleX(${Math.min(1, Math.max(0, gauge.bar ?? 0))})`;
      entry.mark.hidden = gauge.mark === undefined;
      if (gauge.mark !== undefined) {
        entry.mark.style.left = `${Math.min(1, gauge.mark.at) * 100}%`;
        entry.mark.title = gauge.mark.label;
      }
      entry.note.textContent = gauge.note ?? '';
      entry.note.title = gauge.note ?? '';
    }
  }
}

export interface FprPoint {
  load: number;
  expected: number;
  measured: number;
}

const SVG = 'http://www.w3.org/2000/svg';
const W = 320;
const H = 170;
const PAD = { left: 52, right: 16, top: 10, bottom: 26 };

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The plot area, y ticks at the given shares of its height, load ticks below, and the y axis named on its left. */
function axes(chart: SVGSVGElement, yTicks: ReadonlyArray<readonly [fraction: number, label: string]>, yTitle: string): void {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  chart.append(svg('rect', { x: PAD.left, y: PAD.top, width: plotW, height: plotH, class: 'plot' }));
  for (const [fraction, label] of yTicks) {
    const y = PAD.top + plotH * (1 - fraction);
    chart.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y, y2: y, class: 'grid' }));
    chart.append(svg('text', { x: PAD.left - 4, y: y + 3, class: 'tick', 'text-anchor': 'end' }, label));
  }
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    const x = PAD.left + plotW * fraction;
    chart.append(svg('text', { x, y: H - 13, class: 'tick', 'text-anchor': 'middle' }, percent(fraction, 0)));
  }
  chart.append(svg('text', { x: PAD.left + plotW / 2, y: H - 3, class: 'axis', 'text-anchor': 'middle' }, 'load'));
  const middle = PAD.top + plotH / 2;
  chart.append(svg('text', { x: 9, y: middle, class: 'axis', 'text-anchor': 'middle', transform: `rotate(-90 9 ${middle})` }, yTitle));
}

/** Measured and expected false-positive rate against load, with the bound as the top line. */
export function drawFprChart(chart: SVGSVGElement, points: readonly FprPoint[], bound: number): void {
  chart.replaceChildren();
  const yMax = bound;
  axes(chart, [0, 0.5, 1].map((fraction) => [fraction, rate(yMax * fraction)] as const), 'false positives');
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (load: number) => PAD.left + plotW * Math.min(1, load);
  const y = (value: number) => PAD.top + plotH * (1 - Math.min(1, value / yMax));
  // Top left, where no curve goes (they start at the bottom left): the top line is the bound.
  chart.append(svg('text', { x: PAD.left + 4, y: PAD.top + 10, class: 'tick bound', 'text-anchor': 'start' }, 'top: the bound 2b/2^f'));
  const byLoad = [...points].sort((a, b) => a.load - b.load);
  if (byLoad.length > 0) {
    chart.append(svg('polyline', { class: 'expected', points: byLoad.map((p) => `${x(p.load).toFixed(1)},${y(p.expected).toFixed(1)}`).join(' ') }));
  }
  // Keeps the chart light: at most ~300 measured dots, evenly thinned.
  const step = Math.max(1, Math.ceil(points.length / 300));
  const dots = svg('g', { class: 'measured' });
  for (let i = 0; i < points.length; i += step) {
    const p = points[i]!;
    dots.append(svg('circle', { cx: x(p.load).toFixed(1), cy: y(p.measured).toFixed(1), r: 2.2 }));
  }
  chart.append(dots);
  chart.dataset.points = String(points.length);
}

export interface KickBar {
  load: number;
  kicks: number;
  stashed: boolean;
}

/** Kick counts that label a log scale up to `top`: 0, the powers of ten below it (not crowding it), and `top`. */
export function kickTicks(top: number): number[] {
  const ticks = [0];
  for (let power = 1; power * 3 <= top; power *= 10) ticks.push(power);
  return [...ticks, top];
}

/** One bar per insert: kicks on a log scale (log of 1 + kicks) against the load before it. */
export function drawKickChart(chart: SVGSVGElement, bars: readonly KickBar[], maxKicks: number): void {
  chart.replaceChildren();
  const top = Math.max(1, maxKicks);
  const scale = (kicks: number) => Math.log2(1 + kicks) / Math.log2(1 + top);
  axes(chart, kickTicks(top).map((kicks) => [scale(kicks), count(kicks)] as const), 'kicks (log scale)');
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  let path = '';
  let stashPath = '';
  for (const bar of bars) {
    if (bar.kicks === 0 && !bar.stashed) continue;
    const x = (PAD.left + plotW * Math.min(1, bar.load)).toFixed(1);
    const y = (PAD.top + plotH * (1 - scale(bar.kicks))).toFixed(1);
    const line = `M${x} ${PAD.top + plotH}V${y}`;
    if (bar.stashed) stashPath += line;
    else path += line;
  }
  chart.append(svg('path', { class: 'kick-bars', d: path || 'M0 0' }), svg('path', { class: 'stash-bars', d: stashPath || 'M0 0' }));
  chart.dataset.bars = String(bars.length);
}
