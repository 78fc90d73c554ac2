// Paper Sec. 4 and Fig. 2: how full a table gets before its first failed
// insert, against the fingerprint length f (b = 4). Short fingerprints give
// an item few possible second buckets, so groups that share both buckets
// overflow early, the sooner the larger the table; past a few bits the load
// stops improving. Measured as the page opens, in a worker, on tables up to
// the smallest of Fig. 2, with the paper's own value drawn beside them.

import { count, element, percent } from './format.js';
import { svg } from './gauges.js';
import type { FingerprintLengthJob, LoadCurve } from './measure-jobs.js';
import { MeasureControl } from './measure-control.js';
import { byId } from './page.js';
import { drawAxes, linearAxis, polyline } from './paper-chart.js';
import { PAPER } from './paper-values.js';

/** 2^15 is the smallest table of Fig. 2; the two smaller ones show the trend with size in a second. */
export const FIGURE_BUCKET_COUNTS = [2 ** 10, 2 ** 12, 2 ** 15];
/** Every f while the load still climbs, then every other: past 8 bits no curve moves. */
export const FINGERPRINT_WIDTHS = [2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16];
/** Fig. 2 plots the lowest load of ten runs, with 500 kicks. */
export const LOAD_TRIALS = 10;
export const FIGURE_SEED = 1;
export const FIGURE_MAX_KICKS = 500;
/** Within this of its plateau, a curve counts as having reached it. */
const NEAR_PLATEAU = 0.01;

function exponent(m: number): string {
  return `2^${Math.log2(m)}`;
}

/** The load a curve levels off at (the mean from f = 10 on, where no curve moves), and the f from which it stays near it. */
export function plateauOf(curve: LoadCurve): { plateau: number; from: number } {
  const tail = curve.loads.filter((_, i) => FINGERPRINT_WIDTHS[i]! >= 10);
  const plateau = tail.reduce((sum, load) => sum + load, 0) / tail.length;
  let from = FINGERPRINT_WIDTHS.at(-1)!;
  for (let i = FINGERPRINT_WIDTHS.length - 1; i >= 0 && curve.loads[i]! >= plateau - NEAR_PLATEAU; i--) from = FINGERPRINT_WIDTHS[i]!;
  return { plateau, from };
}

export class FingerprintLengthView {
  readonly #panel = byId('fplen-panel');
  readonly #chart = byId('fplen-chart') as unknown as SVGSVGElement;
  readonly #legend = byId('fplen-legend');
  readonly #control = new MeasureControl<FingerprintLengthJob>(this.#panel, byId('fplen-progress'), byId('fplen-status'));

  /** Measures once: the figure does not depend on the table on show. */
  start(): void {
    const job: FingerprintLengthJob = {
      kind: 'fingerprint-length',
      bucketCounts: FIGURE_BUCKET_COUNTS,
      fingerprintBits: FINGERPRINT_WIDTHS,
      seed: FIGURE_SEED,
      maxKicks: FIGURE_MAX_KICKS,
      trials: LOAD_TRIALS,
    };
    this.#draw([]);
    this.#control.run(
      job,
      `Filling ${LOAD_TRIALS} tables per point, ${FINGERPRINT_WIDTHS.length} points per size, sizes ${FIGURE_BUCKET_COUNTS.map(exponent).join(', ')}…`,
      (curves) => {
        this.#draw(curves);
        return this.#summary(curves);
      },
      (curves) => this.#draw(curves),
    );
  }

  /** What the curves show, in words, with each number read off them. */
  #summary(curves: LoadCurve[]): string {
    const largest = curves.at(-1)!;
    const smallest = curves[0]!;
    const { plateau, from } = plateauOf(largest);
    const atTwo = (curve: LoadCurve) => curve.loads[0]!;
    const trend =
      atTwo(largest) < atTwo(smallest) - NEAR_PLATEAU
        ? ` With 2-bit fingerprints the larger table fills less (${percent(atTwo(largest), 0)} against ${percent(atTwo(smallest), 0)} at ${exponent(smallest.bucketCount)}): ` +
          'more items share each pair of buckets, as eq. (3) predicts; the paper needs a bit or two more at 2^30.'
        : '';
    return (
      `Lowest of ${LOAD_TRIALS} seeds per point. At m = ${exponent(largest.bucketCount)} (${count(4 * largest.bucketCount)} slots) the load stays within ` +
      `${percent(NEAR_PLATEAU, 0)} of its plateau, ${percent(plateau)}, from f = ${from} on; the paper's tables reach ${percent(PAPER.fig2PlateauLoad, 0)} ` +
      `once f passes ${PAPER.fig2EnoughBits} bits.${trend}`
    );
  }

  #draw(curves: LoadCurve[]): void {
    const x = linearAxis(2, 16, [2, 4, 6, 8, 10, 12, 14, 16].map((f) => [f, String(f)]), false);
    const y = linearAxis(0, 1, [0, 0.25, 0.5, 0.75, 1].map((v) => [v, percent(v, 0)]), true);
    drawAxes(this.#chart, x, y, 'fingerprint bits f', 'load at first failure');
    // The paper's value: about 95 % once f passes 6 bits, at every size up to 2^30 buckets.
    const paperY = y.at(PAPER.fig2PlateauLoad);
    const paper = svg('line', { x1: x.at(PAPER.fig2EnoughBits + 1), x2: x.at(16), y1: paperY, y2: paperY, class: 'paper-mark' });
    paper.append(svg('title', {}, `the paper: ${percent(PAPER.fig2PlateauLoad, 0)} once f passes ${PAPER.fig2EnoughBits} bits`));
    this.#chart.append(paper, svg('text', { x: x.at(16) - 2, y: paperY + 11, class: 'tick paper-label', 'text-anchor': 'end' }, `paper ${percent(PAPER.fig2PlateauLoad, 0)}`));
    this.#legend.replaceChildren();
    curves.forEach((curve, index) => {
      // How far one table's luck moves a point: the highest load of the seeds above the lowest, faint.
      const band = [
        ...curve.highest.map((load, i): [number, number] => [x.at(FINGERPRINT_WIDTHS[i]!), y.at(load)]),
        ...curve.loads.map((load, i): [number, number] => [x.at(FINGERPRINT_WIDTHS[i]!), y.at(load)]).reverse(),
      ];
      this.#chart.append(svg('polygon', { class: `band series-${index}`, points: band.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ') }));
      const points = curve.loads.map((load, i): [number, number] => [x.at(FINGERPRINT_WIDTHS[i]!), y.at(load)]);
      const line = polyline(points, `curve series-${index}`);
      line.dataset.m = String(curve.bucketCount);
      line.dataset.loads = curve.loads.join(',');
      line.dataset.highest = curve.highest.join(',');
      this.#chart.append(line);
      for (const [cx, cy] of points) this.#chart.append(svg('circle', { cx, cy, r: 1.8, class: `dot series-${index}` }));
      const key = element('span', 'legend-item');
      key.append(element('span', `key-line series-${index}`), `m = ${exponent(curve.bucketCount)}`);
      this.#legend.append(key);
    });
    const paperKey = element('span', 'legend-item');
    paperKey.append(element('span', 'key-line paper-mark'), 'the paper (Fig. 2)');
    const bandKey = element('span', 'legend-item');
    bandKey.append(element('span', 'key-band'), `lowest to highest of ${LOAD_TRIALS} seeds`);
    this.#legend.append(paperKey, bandKey);
    this.#chart.dataset.curves = String(curves.length);
  }
}
