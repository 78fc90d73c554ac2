// Paper Sec. 5.1: the same memory in buckets of 1, 2, 4 or 8 slots. The rule:
// this table's slots (m·b of f bits) stay, cut into buckets of each size, with
// the same f. Larger buckets fill fuller before the first failure, but a
// lookup compares 2b fingerprints, so the false-positive rate grows with b.
// Measured in a worker on real filters: mean of several seeds.

import { count, element, percent, rate } from './format.js';
import type { BucketSizeJob, BucketSizeRow } from './measure-jobs.js';
import { MeasureControl } from './measure-control.js';
import { byId } from './page.js';
import { sameParams, type DemoParams } from './params.js';

export const BUCKET_SIZE_TRIALS = 10;
export const BUCKET_SIZE_PROBES = 100_000;

export class BucketSizeView {
  readonly #panel = byId('bsize-panel');
  readonly #rule = byId('bsize-rule');
  readonly #rows = byId('bsize-rows');
  readonly #control = new MeasureControl<BucketSizeJob>(this.#panel, byId('bsize-progress'), byId('bsize-status'));
  #params: DemoParams | undefined;

  constructor() {
    byId('bsize-measure').addEventListener('click', () => this.measure());
  }

  setup(params: DemoParams): void {
    const old = this.#params;
    this.#params = params;
    if (sameParams(old, params, ['bucketCount', 'bucketSize', 'fingerprintBits', 'seed', 'maxKicks'])) return;
    const { bucketCount, bucketSize, fingerprintBits } = params;
    this.#rule.textContent =
      `The rule: the same memory and the same f. This table's ${count(bucketCount * bucketSize)} slots of ${fingerprintBits} bits ` +
      `(${count(bucketCount * bucketSize * fingerprintBits)} bits) cut into buckets of 1, 2, 4 and 8.`;
    this.#control.reset('Not measured yet: press the button.');
    this.#rows.replaceChildren();
  }

  measure(): void {
    const { bucketCount, bucketSize, fingerprintBits, seed, maxKicks } = this.#params!;
    const job: BucketSizeJob = {
      kind: 'bucket-size',
      slotCount: bucketCount * bucketSize,
      fingerprintBits,
      seed,
      maxKicks,
      trials: BUCKET_SIZE_TRIALS,
      probeCount: BUCKET_SIZE_PROBES,
    };
    this.#control.run(job, `Filling ${BUCKET_SIZE_TRIALS} filters of each bucket size to their first failure…`, (rows) => {
      this.#show(rows);
      const fewest = rows.reduce((a, b) => (b.bitsPerItem < a.bitsPerItem ? b : a));
      return (
        `Mean of ${BUCKET_SIZE_TRIALS} seeds; rates from ${count(BUCKET_SIZE_PROBES)} never-added items per filter. ` +
        `Fewest bits per item here: b = ${fewest.bucketSize}. For the same rate as b = 1, b = 4 needs log2(4) = 2 more bits (eq. 6): ` +
        `${fingerprintBits + 2} bits at ${percent(rows[2]!.load)} load is ${((fingerprintBits + 2) / rows[2]!.load).toFixed(2)} bits per item against b = 1's ${rows[0]!.bitsPerItem.toFixed(2)}.`
      );
    });
  }

  #show(rows: BucketSizeRow[]): void {
    this.#rows.replaceChildren(
      ...rows.map((row) => {
        const tr = element('tr');
        Object.assign(tr.dataset, {
          b: String(row.bucketSize),
          buckets: String(row.bucketCount),
          load: String(row.load),
          fpr: String(row.measuredFpr),
          bound: String(row.fprBound),
          bits: String(row.bitsPerItem),
        });
        for (const text of [String(row.bucketSize), count(row.bucketCount), percent(row.load), rate(row.measuredFpr), rate(row.fprBound), row.bitsPerItem.toFixed(2)]) {
          tr.append(element('td', '', text));
        }
        return tr;
      }),
    );
  }
}
