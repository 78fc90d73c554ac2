// The growth mode's state: the growable filter on show, the items it was
// given, and what the page recorded as it grew (one row per growth, the rate
// measurements). Replaced whole by a new filter, so nothing of an old one
// lingers; reading it before the first filter exists is one clear error.

import { ScalableCuckooFilter } from 'cuckoo-wasm';
import { scalableBuckets, scalableShape, type ScalableShape } from 'cuckoo-wasm/inspect';
import type { GrowthParams } from './growth-params.js';

/** One growth, as the log and the charts show it. */
export interface GrowthRow {
  index: number;
  /** Items in the filter once it had grown (the one that grew it included). */
  items: number;
  item: string;
  from: ScalableShape;
  to: ScalableShape;
  copies: number;
  /** The add's evictions ran out, and the table grew before its load reached 90 %. */
  early: boolean;
}

/** A false-positive measurement just after a growth: at the load the table grew at, as a split changes no answer. */
export interface RatePoint {
  items: number;
  buckets: number;
  load: number;
  measured: number;
  /** Its 95 % interval from the probes' sampling. */
  interval: [number, number];
  bound: number;
  /** The share of the old table's slots in use when it grew: just past 90 %, or more in a small table. */
  grewAt: number | undefined;
  bitsPerItem: number;
  /** Bits per item just before the growth, at the fullest. */
  bitsBefore: number;
}

/** The last measurement the gauges show: never-added items that got "maybe", and added items found. */
export interface Reading {
  items: number;
  measured: number;
  found: number;
}

export interface GrowthDemo {
  params: GrowthParams;
  filter: ScalableCuckooFilter;
  items: string[];
  nextItem: number;
  shape: ScalableShape;
  rows: GrowthRow[];
  points: RatePoint[];
  reading: Reading;
}

let demo: GrowthDemo | undefined;

export const growthReady = (): boolean => demo !== undefined;

export function currentGrowth(): GrowthDemo {
  return demo ?? notReady();
}

function notReady(): never {
  throw new Error('the growth demo is not ready');
}

export function newGrowthDemo(params: GrowthParams): GrowthDemo {
  demo?.filter.dispose();
  const filter = ScalableCuckooFilter.create({
    initialCapacity: params.initialCapacity,
    fpr: params.fpr,
    growth: params.growth,
    seed: params.seed,
  });
  demo = {
    params,
    filter,
    items: [],
    nextItem: 1,
    shape: scalableShape(filter),
    rows: [],
    points: [],
    reading: { items: 0, measured: 0, found: 0 },
  };
  return demo;
}

/** The whole table as the core has it now. */
export function readGrowthTable(): Uint32Array {
  return scalableBuckets(currentGrowth().filter).slots;
}
