// Paper Sec. 4 and Fig. 2: how full a table gets before its first failed
// insert, against the fingerprint length f, for this table's m and for the
// sizes of a Fig. 2 (b = 4). Short fingerprints give an item few possible
// second buckets, so groups that share both buckets overflow early; past a
// few bits the load stops improving. Measured in a worker on real filters.

import { count, element, percent } from './format.js';
import { svg } from './gauges.js';
import type { FingerprintLengthJob, LoadCurve } from './measure-jobs.js';
import { MeasureControl } from './measure-control.js';
import { byId } from './page.js';
import { drawAxes, linearAxis, polyline } from './paper-chart.js';
import { sameParams, type DemoParams } from './params.js';

/** The sizes drawn besides this table's: Fig. 2 has 2^15 … 2^30, which a page cannot fill in seconds. */
export const FIGURE_BUCKET_COUNTS = [2 ** 4, 2 ** 8, 2 ** 12, 2 ** 16];
export const FINGERPRINT_WIDTHS = Array.from({ length: 15 }, (_, i) => i + 2);
/** Fig. 2 reports the lowest load of ten runs; three keep the page quick. */
export const LOAD_TRIALS = 3;

function exponent(m: number): string {
  const e = Math.log2(m);
  return Number.isInteger(e) ? `2^${e}` : count(m);
}

export class FingerprintLengthView {
  readonly #panel = byId('fplen-panel');
  readonly #chart = byId('fplen-chart') as unknown as SVGSVGElement;
  readonly #legend = byId('fplen-legend');
  readonly #list = byId<HTMLOListElement>('fplen-loads');
  readonly #control = new MeasureControl<FingerprintLengthJob>(this.#panel, byId('fplen-progress'), byId('fplen-status'));
  #params: DemoParams | undefined;

  constructor() {
    byId('fplen-measure').addEventListener('click', () => this.measure());
  }

  /** A new table: what was measured for another m, seed or max kicks no longer applies. */
  setup(params: DemoParams): void {
    const old = this.#params;
    this.#params = params;
    if (sameParams(old, params, ['bucketCount', 'seed', 'maxKicks'])) return;
    this.#control.reset(`Not measured yet for m = ${count(params.bucketCount)}: press the button (a few seconds).`);
    this.#chart.replaceChildren();
    this.#legend.replaceChildren();
    this.#list.replaceChildren();
  }

  measure(): void {
    const { bucketCount, seed, maxKicks } = this.#params!;
    const bucketCounts = [...new Set([...FIGURE_BUCKET_COUNTS, bucketCount])].sort((a, b) => a - b);
    const job: FingerprintLengthJob = { kind: 'fingerprint-length', bucketCounts, fingerprintBits: FINGERPRINT_WIDTHS, seed, maxKicks, trials: LOAD_TRIALS };
    this.#control.run(job, `Filling ${LOAD_TRIALS} × ${FINGERPRINT_WIDTHS.length} filters for each of ${bucketCounts.length} table sizes…`, (curves) => {
      this.#draw(curves, bucketCount);
      const mine = curves.find((curve) => curve.bucketCount === bucketCount)!;
      const best = Math.max(...mine.loads);
      const enough = FINGERPRINT_WIDTHS[mine.loads.findIndex((load) => load >= best - 0.02)]!;
      return `For m = ${count(bucketCount)} (${count(4 * bucketCount)} slots), the load reaches within 2 points of its best (${percent(best)}) at f = ${enough}; larger tables need a bit or two more, as eq. (3) predicts.`;
    });
  }

  #draw(curves: LoadCurve[], current: number): void {
    const x = linearAxis(2, 16, [2, 4, 6, 8, 10, 12, 14, 16].map((f) => [f, String(f)]), false);
    const y = linearAxis(0, 1, [0, 0.25, 0.5, 0.75, 1].map((v) => [v, percent(v, 0)]), true);
    drawAxes(this.#chart, x, y, 'fingerprint bits f', 'load at first failure');
    this.#legend.replaceChildren();
    curves.forEach((curve, index) => {
      const mine = curve.bucketCount === current;
      const points = curve.loads.map((load, i): [number, number] => [x.at(FINGERPRINT_WIDTHS[i]!), y.at(load)]);
      const line = polyline(points, `curve series-${index}${mine ? ' current' : ''}`);
      line.dataset.m = String(curve.bucketCount);
      line.dataset.loads = curve.loads.join(',');
      this.#chart.append(line);
      if (mine) for (const [cx, cy] of points) this.#chart.append(svg('circle', { cx, cy, r: 2.4, class: `dot series-${index}` }));
      const key = element('span', 'legend-item');
      key.append(element('span', `key-line series-${index}`), `m = ${exponent(curve.bucketCount)}${mine ? ' (this table)' : ''}`);
      this.#legend.append(key);
    });
    const mine = curves.find((curve) => curve.bucketCount === current)!;
    this.#list.replaceChildren(
      ...mine.loads.map((load, i) => {
        const item = element('li', '', `f = ${FINGERPRINT_WIDTHS[i]}: ${percent(load)}`);
        item.dataset.f = String(FINGERPRINT_WIDTHS[i]);
        item.dataset.value = String(load);
        return item;
      }),
    );
  }
}
