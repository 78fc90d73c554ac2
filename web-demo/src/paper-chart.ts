// Axes and lines for the charts of the paper's views, in the style of the
// gauges' charts (gauges.ts): a 320-wide SVG user space that scales to its
// box, a light plot area, small ticks. Every value drawn is passed in.

import { svg } from './gauges.js';

export const W = 320;
export const H = 190;
export const PAD = { left: 40, right: 10, top: 10, bottom: 30 };

export interface Axis {
  /** A value's position in the SVG's user space. */
  at(value: number): number;
  ticks: Array<[value: number, label: string]>;
}

/** A linear axis over [min, max]; y axes run upwards. */
export function linearAxis(min: number, max: number, ticks: Array<[number, string]>, vertical: boolean): Axis {
  const [from, length] = vertical ? [H - PAD.bottom, -(H - PAD.top - PAD.bottom)] : [PAD.left, W - PAD.left - PAD.right];
  return { at: (value) => from + (length * (value - min)) / (max - min), ticks };
}

/** A logarithmic x axis over [min, max], a tick per decade. */
export function logAxis(min: number, max: number, label: (value: number) => string): Axis {
  const length = W - PAD.left - PAD.right;
  const span = Math.log10(max) - Math.log10(min);
  const ticks: Array<[number, string]> = [];
  for (let e = Math.ceil(Math.log10(min)); e <= Math.floor(Math.log10(max)); e++) ticks.push([10 ** e, label(10 ** e)]);
  return { at: (value) => PAD.left + (length * (Math.log10(value) - Math.log10(min))) / span, ticks };
}

/** The plot area, grid lines at the y ticks, tick labels and the axis titles. */
export function drawAxes(chart: SVGSVGElement, x: Axis, y: Axis, xTitle: string, yTitle: string): void {
  chart.replaceChildren();
  chart.append(svg('rect', { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom, class: 'plot' }));
  for (const [value, label] of y.ticks) {
    const at = y.at(value);
    chart.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: at, y2: at, class: 'grid' }));
    chart.append(svg('text', { x: PAD.left - 4, y: at + 3, class: 'tick', 'text-anchor': 'end' }, label));
  }
  for (const [value, label] of x.ticks) {
    chart.append(svg('text', { x: x.at(value), y: H - PAD.bottom + 11, class: 'tick', 'text-anchor': 'middle' }, label));
  }
  chart.append(svg('text', { x: PAD.left + (W - PAD.left - PAD.right) / 2, y: H - 3, class: 'axis', 'text-anchor': 'middle' }, xTitle));
  chart.append(svg('text', { x: 10, y: PAD.top + (H - PAD.top - PAD.bottom) / 2, class: 'axis', 'text-anchor': 'middle', transform: `rotate(-90 10 ${PAD.top + (H - PAD.top - PAD.bottom) / 2})` }, yTitle));
}

/** A polyline through points; `steps` draws a staircase (flat until the next x), for values that jump. */
export function polyline(points: Array<[number, number]>, className: string, steps = false): SVGPolylineElement {
  const drawn: Array<[number, number]> = [];
  for (const [x, y] of points) {
    if (steps && drawn.length > 0) drawn.push([x, drawn.at(-1)![1]]);
    drawn.push([x, y]);
  }
  return svg('polyline', { class: className, points: drawn.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ') });
}
