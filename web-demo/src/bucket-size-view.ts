// Paper Sec. 5.1: the same memory in buckets of 1, 2, 4 or 8 slots. Larger
// buckets fill fuller before the first failure, but a lookup compares 2b
// fingerprints, so with the same f the false-positive rate grows with b, and
// keeping a rate costs log2(2b) bits (eq. 6). Measured as the page opens, in
// a worker, at a size where the loads are the paper's (2^16 slots of 12 bits,
// long enough not to limit them), and again for the table on show, whose
// small size fills fuller: both are shown, with the paper's values.

import { count, element, percent, rate } from './format.js';
import { svg } from './gauges.js';
import type { BucketSizeJob, BucketSizeRow, BucketSizeSetup } from './measure-jobs.js';
import { MeasureControl } from './measure-control.js';
import { byId } from './page.js';
import { drawAxes, linearAxis, PAD, W } from './paper-chart.js';
import { PAPER } from './paper-values.js';
import { sameParams, type DemoParams } from './params.js';

export const BUCKET_SIZE_TRIALS = 10;
export const BUCKET_SIZE_PROBES = 100_000;
/** The size the loads are measured at to compare with the paper's: large enough that they settle. */
export const PAPER_SCALE: BucketSizeSetup = { slotCount: 2 ** 16, fingerprintBits: 12, seed: 1, maxKicks: 500 };
/** Rates at which the view works out which b takes the fewest bits (eq. 6), as the paper's Fig. 3 compares them. */
const TARGET_RATES = [0.01, 0.001];

function loads(rows: readonly BucketSizeRow[]): string {
  return rows.map((row) => (row.load * 100).toFixed(1)).join(', ');
}

export class BucketSizeView {
  readonly #panel = byId('bsize-panel');
  readonly #rule = byId('bsize-rule');
  readonly #chart = byId('bsize-chart') as unknown as SVGSVGElement;
  readonly #rows = byId('bsize-rows');
  readonly #bits = byId('bsize-bits');
  readonly #control = new MeasureControl<BucketSizeJob>(this.#panel, byId('bsize-progress'), byId('bsize-status'));
  #params: DemoParams | undefined;
  /** The paper-scale rows, measured once; the page's table's are measured for each new table. */
  #paperRows: BucketSizeRow[] | undefined;

  /** A new table: its own loads are measured again (the paper-scale ones only the first time). */
  setup(params: DemoParams): void {
    const old = this.#params;
    this.#params = params;
    if (sameParams(old, params, ['bucketCount', 'bucketSize', 'fingerprintBits', 'seed', 'maxKicks'])) return;
    const { bucketCount, bucketSize, fingerprintBits, seed, maxKicks } = params;
    const table: BucketSizeSetup = { slotCount: bucketCount * bucketSize, fingerprintBits, seed, maxKicks };
    this.#rule.textContent =
      `The rule: the same memory and the same f, cut into buckets of 1, 2, 4 and 8: ${count(PAPER_SCALE.slotCount)} slots of ` +
      `${PAPER_SCALE.fingerprintBits} bits (long enough not to limit the load), and this page's table, ${count(table.slotCount)} slots of ${fingerprintBits} bits.`;
    const setups = this.#paperRows === undefined ? [PAPER_SCALE, table] : [table];
    this.#control.run(this.#job(setups), `Filling ${BUCKET_SIZE_TRIALS} filters of each bucket size to their first failure…`, (results) => {
      this.#paperRows ??= results[0]!;
      const mine = results.at(-1)!;
      this.#show(this.#paperRows, mine, table);
      return this.#story(this.#paperRows, mine, table);
    });
  }

  #job(setups: BucketSizeSetup[]): BucketSizeJob {
    return { kind: 'bucket-size', setups, trials: BUCKET_SIZE_TRIALS, probeCount: BUCKET_SIZE_PROBES };
  }

  /** The loads against the paper's, and the table on show against both, in words computed from them. */
  #story(paper: BucketSizeRow[], mine: BucketSizeRow[], table: BucketSizeSetup): string {
    const quoted = [1, 2, 4, 8].map((b) => Math.round(PAPER.bucketSizeLoads[b as 1 | 2 | 4 | 8] * 100)).join(', ');
    const lead =
      `Larger buckets fill fuller: at ${count(PAPER_SCALE.slotCount)} slots, b = 1, 2, 4, 8 reach ${loads(paper)} % before their first failure ` +
      `(mean of ${BUCKET_SIZE_TRIALS} seeds; the paper: ${quoted} %). `;
    const fuller = mine.filter((row, i) => row.load > paper[i]!.highest).length;
    if (table.slotCount >= PAPER_SCALE.slotCount / 4 || fuller === 0) {
      return `${lead}This page's table of ${count(table.slotCount)} slots: ${loads(mine)} %.`;
    }
    return (
      `${lead}This page's table of ${count(table.slotCount)} slots reaches ${loads(mine)} %, fuller than any of the ${BUCKET_SIZE_TRIALS} large tables ${fuller === 4 ? 'for every b' : `for ${fuller} of the 4 sizes`}: ` +
      `its ${count(table.slotCount)} slots are few enough for 500 kicks to find almost any free one, where in a large table a walk sees only a corner.`
    );
  }

  #show(paper: BucketSizeRow[], mine: BucketSizeRow[], table: BucketSizeSetup): void {
    this.#drawChart(paper, mine, table);
    this.#rows.replaceChildren(
      ...paper.map((row, i) => {
        const tr = element('tr');
        const quoted = PAPER.bucketSizeLoads[row.bucketSize];
        Object.assign(tr.dataset, {
          b: String(row.bucketSize),
          buckets: String(row.bucketCount),
          load: String(row.load),
          lowest: String(row.lowest),
          highest: String(row.highest),
          paper: String(quoted),
          table: String(mine[i]!.load),
          fpr: String(row.measuredFpr),
          bound: String(row.fprBound),
          bits: String(row.bitsPerItem),
        });
        const cells = [
          String(row.bucketSize),
          percent(row.load),
          `${percent(row.lowest, 0)}–${percent(row.highest, 0)}`,
          percent(quoted, 0),
          percent(mine[i]!.load),
          rate(row.measuredFpr),
          rate(row.fprBound),
          row.bitsPerItem.toFixed(2),
        ];
        for (const text of cells) tr.append(element('td', '', text));
        return tr;
      }),
    );
    this.#bits.textContent = this.#bestBucketSize(paper);
  }

  /** Eq. (6) with the measured loads: for each target rate, the b with the fewest bits per item. */
  #bestBucketSize(paper: BucketSizeRow[]): string {
    const parts = TARGET_RATES.map((fpr) => {
      const costs = paper.map((row) => {
        const f = Math.ceil(Math.log2((2 * row.bucketSize) / fpr));
        return { b: row.bucketSize, f, bits: f / row.load };
      });
      const best = costs.reduce((a, b) => (b.bits < a.bits ? b : a));
      return `for ε = ${rate(fpr)}, f = ${costs.map((c) => c.f).join(', ')} bits give ${costs.map((c) => c.bits.toFixed(1)).join(', ')} bits per item: fewest at b = ${best.b}`;
    });
    return (
      `But with the same f, a lookup compares 2b fingerprints, so the rate grows with b (the table's “false pos.” column, under the bound 2b / 2^f). ` +
      `Keeping a rate ε takes f = ⌈log2(2b / ε)⌉ (eq. 6), bits per item f / load. With the loads above, ${parts.join('; ')}. ` +
      `The paper's Fig. 3 finds the same: b = 2 for rates above about 0.2 %, b = 4 below.`
    );
  }

  #drawChart(paper: BucketSizeRow[], mine: BucketSizeRow[], table: BucketSizeSetup): void {
    const slotWidth = (W - PAD.left - PAD.right) / paper.length;
    const x = linearAxis(0, paper.length, paper.map((row, i) => [i + 0.5, `b = ${row.bucketSize}`]), false);
    const y = linearAxis(0, 1, [0, 0.25, 0.5, 0.75, 1].map((v) => [v, percent(v, 0)]), true);
    drawAxes(this.#chart, x, y, 'slots per bucket', 'load at first failure');
    paper.forEach((row, i) => {
      const center = x.at(i + 0.5);
      const half = slotWidth * 0.22;
      const bar = svg('rect', { x: center - half, y: y.at(row.load), width: 2 * half, height: y.at(0) - y.at(row.load), class: 'load-bar' });
      bar.append(svg('title', {}, `b = ${row.bucketSize}: ${percent(row.load)} at ${count(PAPER_SCALE.slotCount)} slots (${percent(row.lowest)}–${percent(row.highest)})`));
      const whisker = svg('line', { x1: center, x2: center, y1: y.at(row.lowest), y2: y.at(row.highest), class: 'whisker' });
      const quoted = PAPER.bucketSizeLoads[row.bucketSize];
      const paperMark = svg('line', { x1: center - half - 5, x2: center + half + 5, y1: y.at(quoted), y2: y.at(quoted), class: 'paper-mark' });
      paperMark.append(svg('title', {}, `the paper: ${percent(quoted, 0)}`));
      const mineMark = svg('circle', { cx: center + half + 9, cy: y.at(mine[i]!.load), r: 3.2, class: 'here' });
      mineMark.append(svg('title', {}, `this page's table, ${count(table.slotCount)} slots: ${percent(mine[i]!.load)}`));
      this.#chart.append(bar, whisker, paperMark, mineMark);
    });
    this.#chart.dataset.bars = String(paper.length);
  }
}
