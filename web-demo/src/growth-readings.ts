// What the growth mode measures on the core: the false-positive rate, on the
// same never-added items each time, so that measurements compare; and every
// added item looked up again. Measured at each growth and when a run or an
// add ends, not on every frame of a run. A split changes no answer (an entry
// trades a tail bit for a bucket-number bit), so the rate just after a growth
// is the rate at its fullest, 90 % load.

import { count } from './format.js';
import { drawBitsChart, drawRateChart } from './growth-charts.js';
import { showGrowthGauges, showGrowthLog } from './growth-gauges.js';
import { growthGauges, growthUi } from './growth-page.js';
import { currentGrowth, type RatePoint } from './growth-state.js';

export const GROWTH_PROBE_COUNT = 100_000;
// Never added: the page adds strings, and these are 8-byte integers whose
// encodings no string item can have (their top bytes are 0).
const probes = Float64Array.from({ length: GROWTH_PROBE_COUNT }, (_, i) => 2 ** 40 + i);

function hits(answers: Uint8Array): number {
  let sum = 0;
  for (const answer of answers) sum += answer;
  return sum;
}

/** Measures the rate now, records it for the gauges, and returns it as a chart point; `fromBuckets`: the table just grew from that many. */
export function measure(fromBuckets?: number): RatePoint {
  const d = currentGrowth();
  const { filter } = d;
  const items = d.items.length;
  const measured = hits(filter.hasMany(probes)) / GROWTH_PROBE_COUNT;
  d.reading = { items, measured, found: hits(filter.hasMany(d.items)) };
  const bitsPerItem = filter.bitsPerItem;
  return {
    items,
    buckets: filter.bucketCount,
    load: filter.loadFactor,
    measured,
    bound: filter.fprBound,
    bitsPerItem,
    // Table bits grow with the buckets: before the growth, the smaller table held one item fewer.
    bitsBefore: fromBuckets === undefined ? bitsPerItem : (bitsPerItem * items * fromBuckets) / (filter.bucketCount * (items - 1)),
  };
}

/** The gauges from the shape now and the last measurement; with `charts`, the charts and the log too. */
export function showReadings(charts: boolean): void {
  const d = currentGrowth();
  const { filter, params, reading } = d;
  showGrowthGauges(growthGauges, {
    shape: d.shape,
    items: d.items.length,
    bitsPerItem: filter.bitsPerItem,
    bound: filter.fprBound,
    fpr: params.fpr,
    measured: reading.measured,
    probes: GROWTH_PROBE_COUNT,
    found: reading.found,
    measuredAt: reading.items,
  });
  if (!charts) return;
  drawRateChart(growthUi.rateChart, d.points, params.fpr, params.initialCapacity);
  drawBitsChart(growthUi.bitsChart, d.points, d.shape.fixedBits + d.shape.tailBits, params.initialCapacity);
  showGrowthLog(growthUi.log, d.rows, d.points);
  growthUi.probeCount.textContent = count(GROWTH_PROBE_COUNT);
}
