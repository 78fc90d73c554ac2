// What the growth mode measures on the core: the false-positive rate, on the
// same never-added items each time, so that measurements compare; and every
// added item looked up again. Measured at each growth, after each add, and
// each time a fast-forwarded run shows its progress. A split changes no answer (an entry
// trades a tail bit for a bucket-number bit), so the rate just after a growth
// is the rate at the load it grew at: just past 90 %, or more in a small table.

import { count } from './format.js';
import { BUCKET_SIZE } from './growth-split.js';
import { rateInterval } from './probes.js';
import { drawBitsChart, drawRateChart } from './growth-charts.js';
import { showGrowthGauges, showGrowthLog, type GaugeReading } from './growth-gauges.js';
import { growthGauges, growthUi } from './growth-page.js';
import { currentGrowth, type RatePoint } from './growth-state.js';
import type { ScalableShape } from 'cuckoo-wasm/inspect';

export const GROWTH_PROBE_COUNT = 100_000;
// Never added: the page adds strings, and these are 8-byte integers whose
// encodings no string item can have (their top bytes are 0).
const probes = Float64Array.from({ length: GROWTH_PROBE_COUNT }, (_, i) => 2 ** 40 + i);

function hits(answers: Uint8Array): number {
  let sum = 0;
  for (const answer of answers) sum += answer;
  return sum;
}

/** Measures the rate now, records it for the gauges, and returns it as a chart point; `from`: the table just grew from that shape. */
export function measure(from?: ScalableShape): RatePoint {
  const fromBuckets = from?.bucketCount;
  const d = currentGrowth();
  const { filter } = d;
  const items = d.items.length;
  const hitCount = hits(filter.hasMany(probes));
  const measured = hitCount / GROWTH_PROBE_COUNT;
  d.reading = { items, measured, found: hits(filter.hasMany(d.items)) };
  const bitsPerItem = filter.bitsPerItem;
  return {
    items,
    buckets: filter.bucketCount,
    load: filter.loadFactor,
    measured,
    interval: rateInterval(hitCount, GROWTH_PROBE_COUNT),
    bound: filter.fprBound,
    // The add that grew it brought one entry more than the smaller table had.
    grewAt: from === undefined ? undefined : (from.entryCount + 1) / (BUCKET_SIZE * from.bucketCount),
    bitsPerItem,
    // Table bits grow with the buckets: before the growth, the smaller table held one item fewer.
    bitsBefore: fromBuckets === undefined ? bitsPerItem : (bitsPerItem * items * fromBuckets) / (filter.bucketCount * (items - 1)),
  };
}

/**
 * One moment of the growth mode, everything its panels show: the gauges'
 * numbers, and how many rows of the log and points of the charts existed.
 * Each frame carries one, so that the table, the caption, the gauges, the
 * log and the charts always show the same moment.
 */
export interface GrowthMoment {
  readonly gauges: GaugeReading;
  readonly rows: number;
  readonly points: number;
}

/** The moment now; measure() first, so that the rates are of this moment. */
export function momentNow(): GrowthMoment {
  const d = currentGrowth();
  const { filter, params, reading } = d;
  return {
    gauges: {
      shape: d.shape,
      items: d.items.length,
      bitsPerItem: filter.bitsPerItem,
      bound: filter.fprBound,
      fpr: params.fpr,
      measured: reading.measured,
      probes: GROWTH_PROBE_COUNT,
      found: reading.found,
      measuredAt: reading.items,
    },
    rows: d.rows.length,
    points: d.points.length,
  };
}

/**
 * The moment just before the growth that `after` shows: the add done, the
 * table not yet grown, its last row and point not yet made. A split changes
 * no answer, so the rates measured after the growth hold before it; the
 * bound is the smaller table's (the last point's), the bits its own.
 */
export function momentBefore(after: GrowthMoment, from: ScalableShape, copies: number, point: RatePoint): GrowthMoment {
  const previous = currentGrowth().points[after.points - 2];
  return {
    gauges: {
      ...after.gauges,
      shape: { ...from, entryCount: after.gauges.shape.entryCount - copies },
      bitsPerItem: point.bitsBefore,
      bound: previous?.bound ?? after.gauges.bound,
    },
    rows: after.rows - 1,
    points: after.points - 1,
  };
}

/** Shows a moment: the gauges, the charts and the log as they were then. */
export function showMoment(moment: GrowthMoment): void {
  const d = currentGrowth();
  const { params } = d;
  showGrowthGauges(growthGauges, moment.gauges);
  const points = d.points.slice(0, moment.points);
  const { shape } = moment.gauges;
  drawRateChart(growthUi.rateChart, points, params.fpr, params.initialCapacity);
  drawBitsChart(growthUi.bitsChart, points, shape.fixedBits + shape.tailBits, params.initialCapacity);
  showGrowthLog(growthUi.log, d.rows.slice(0, moment.rows), points);
  growthUi.probeCount.textContent = count(GROWTH_PROBE_COUNT);
}
