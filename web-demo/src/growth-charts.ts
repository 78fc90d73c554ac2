// The two charts of the growth mode, against the number of items on a log
// scale: the false-positive rate measured at each growth, with its 95 %
// interval (at the load it grew at, less
// when it grew early) under the bound and the promise, on a log scale too;
// and the bits each item costs. Every value comes from the core.

import { count, rate } from './format.js';
import { svg } from './gauges.js';
import type { RatePoint } from './growth-state.js';

const W = 320;
const H = 180;
const PAD = { left: 50, right: 12, top: 10, bottom: 28 };
const plotW = W - PAD.left - PAD.right;
const plotH = H - PAD.top - PAD.bottom;

interface Scale {
  at(value: number): number;
  ticks: number[];
}

/** A log scale over whole decades around [low, high]. */
function logScale(low: number, high: number, from: number, length: number, flip: boolean): Scale {
  const a = Math.floor(Math.log10(low));
  const b = Math.max(a + 1, Math.ceil(Math.log10(high)));
  const ticks = Array.from({ length: b - a + 1 }, (_, k) => 10 ** (a + k));
  return {
    at: (value) => {
      const t = (Math.log10(Math.max(value, 10 ** a)) - a) / (b - a);
      return from + length * (flip ? 1 - t : t);
    },
    ticks,
  };
}

function frameAndTicks(chart: SVGSVGElement, x: Scale, y: Scale, yLabel: (v: number) => string, xTitle: string): void {
  chart.append(svg('rect', { x: PAD.left, y: PAD.top, width: plotW, height: plotH, class: 'plot' }));
  for (const tick of y.ticks) {
    const at = y.at(tick);
    chart.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: at, y2: at, class: 'grid' }));
    chart.append(svg('text', { x: PAD.left - 4, y: at + 3, class: 'tick', 'text-anchor': 'end' }, yLabel(tick)));
  }
  for (const tick of x.ticks) {
    chart.append(svg('text', { x: x.at(tick), y: H - 14, class: 'tick', 'text-anchor': 'middle' }, count(tick)));
  }
  chart.append(svg('text', { x: PAD.left + plotW / 2, y: H - 2, class: 'axis', 'text-anchor': 'middle' }, xTitle));
}

function itemScale(points: readonly RatePoint[], first: number): Scale {
  const items = points.map((p) => p.items);
  return logScale(Math.max(1, Math.min(first, ...items)), Math.max(first * 10, ...items), PAD.left, plotW, false);
}

function polyline(points: Array<[number, number]>, className: string): SVGPolylineElement {
  return svg('polyline', { class: className, points: points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ') });
}

/** Measured rates as dots, the bound as steps, the promise as a line. */
export function drawRateChart(chart: SVGSVGElement, points: readonly RatePoint[], fpr: number, firstItems: number): void {
  chart.replaceChildren();
  const x = itemScale(points, firstItems);
  const positive = points.flatMap((p) => [p.measured, p.bound, p.interval[1]]).filter((v) => v > 0);
  const y = logScale(Math.min(fpr / 100, ...positive), fpr * 2, PAD.top, plotH, true);
  frameAndTicks(chart, x, y, (v) => rate(v), 'items (log scale)');
  const promise = y.at(fpr);
  chart.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: promise, y2: promise, class: 'promise' }));
  chart.append(svg('text', { x: W - PAD.right - 3, y: promise - 3, class: 'tick promise-label', 'text-anchor': 'end' }, `promise ${rate(fpr)}`));
  const steps: Array<[number, number]> = [];
  for (const p of points) {
    if (steps.length > 0) steps.push([x.at(p.items), steps.at(-1)![1]]);
    steps.push([x.at(p.items), y.at(p.bound)]);
  }
  if (steps.length > 0) chart.append(polyline(steps, 'bound-line'));
  const dots = svg('g', { class: 'rate-dots' });
  for (const p of points) {
    // The 95 % interval as a bar; its low end clamped to the chart where it reaches 0.
    const [low, high] = p.interval;
    dots.append(svg('line', { x1: x.at(p.items).toFixed(1), x2: x.at(p.items).toFixed(1), y1: y.at(Math.max(low, 1e-12)).toFixed(1), y2: y.at(high).toFixed(1), class: 'interval' }));
    const circle = svg('circle', { cx: x.at(p.items).toFixed(1), cy: y.at(p.measured).toFixed(1), r: 2.6 });
    circle.append(svg('title', {}, `${count(p.items)} items, ${count(p.buckets)} buckets: ${rate(p.measured)} measured, bound ${rate(p.bound)}`));
    dots.append(circle);
  }
  chart.append(dots);
  chart.dataset.points = String(points.length);
}

/** Bits per item: the table's bits over the items, W / load, a saw: up at each growth, down as the table fills. */
export function drawBitsChart(chart: SVGSVGElement, points: readonly RatePoint[], slotBits: number, firstItems: number): void {
  chart.replaceChildren();
  const x = itemScale(points, firstItems);
  const shown = points.filter((p) => Number.isFinite(p.bitsPerItem) && Number.isFinite(p.bitsBefore));
  const top = Math.ceil(Math.max(slotBits / 0.65, ...shown.map((p) => p.bitsPerItem)) / 10) * 10;
  const ticks = [0, top / 2, top];
  const y: Scale = { at: (v) => PAD.top + plotH * (1 - Math.min(v, top) / top), ticks };
  frameAndTicks(chart, x, y, (v) => String(v), 'items (log scale)');
  const floor = y.at(slotBits / 0.9);
  chart.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: floor, y2: floor, class: 'grid floor' }));
  chart.append(svg('text', { x: W - PAD.right - 3, y: floor - 3, class: 'tick', 'text-anchor': 'end' }, `W / 0.9 = ${(slotBits / 0.9).toFixed(1)}`));
  const saw = shown.flatMap((p): Array<[number, number]> => [
    [x.at(p.items - 1), y.at(p.bitsBefore)],
    [x.at(p.items), y.at(p.bitsPerItem)],
  ]);
  if (saw.length > 0) chart.append(polyline(saw, 'bits-line'));
  chart.dataset.points = String(shown.length);
}
