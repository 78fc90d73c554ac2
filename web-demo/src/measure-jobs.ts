// What the Web Worker measures for the paper's views, as plain data that
// crosses postMessage: each job's request and its result. The page asks
// (measure-client.ts), the worker answers (measure-worker.ts, measurements.ts).

/** Paper Sec. 4, Fig. 2: the load at the first failure against f, for several table sizes (b = 4). */
export interface FingerprintLengthJob {
  kind: 'fingerprint-length';
  bucketCounts: number[];
  fingerprintBits: number[];
  /** Filters per point, seeds seed, seed + 1, …; the point is their lowest load, as in Fig. 2. */
  seed: number;
  maxKicks: number;
  trials: number;
}

export interface LoadCurve {
  bucketCount: number;
  /** Per fingerprint width of the job, the lowest load at the first failure over the trials. */
  loads: number[];
  /** Per fingerprint width, the highest: how far one table's luck moves a point. */
  highest: number[];
}

/** Paper Sec. 4, eq. (3): 2b + 1 items with one fingerprint and one pair of buckets, which no eviction can place. */
export interface CollisionJob {
  kind: 'collision';
  /** Null: an example item whose two buckets differ (example-item.ts). */
  item: string | null;
  bucketCount: number;
  fingerprintBits: number;
  seed: number;
  maxKicks: number;
  /** Numbered items searched at most. */
  searchLimit: number;
}

export interface LocatedItem {
  item: string;
  fingerprint: number;
  i1: number;
  i2: number;
}

export interface CollisionResult {
  chosen: LocatedItem;
  /** The chosen item, then the numbered items found, in the order they are added. */
  group: LocatedItem[];
  /** 2b + 1, or b + 1 when the two buckets are one. */
  needed: number;
  /** Numbered items looked at. */
  searched: number;
  /** Where each of the group went: a slot, or the stash after `kickCount` kicks. */
  outcomes: Array<{ bucket: number; slot: number | null; kickCount: number; stashed: boolean }>;
  /** The two buckets afterwards, b slots each (one bucket when i1 = i2), and the stash's fingerprint (0: empty). */
  buckets: Array<{ bucket: number; slots: number[] }>;
  stash: number;
  /** Whether one more copy of the chosen item was then refused (its kicks run out too, and the stash is taken). */
  nextRefused: boolean;
  /** An item outside the group, added after that, and whether it went in: null when not tried (the group was incomplete). */
  other: { item: string; added: boolean } | null;
}

/** Paper Sec. 5.1: the same memory, in buckets of 1, 2, 4 and 8 slots of the same f. */
export interface BucketSizeSetup {
  slotCount: number;
  fingerprintBits: number;
  seed: number;
  maxKicks: number;
}

/** Each setup measured for every bucket size, its filters filled to their first failure. */
export interface BucketSizeJob {
  kind: 'bucket-size';
  setups: BucketSizeSetup[];
  trials: number;
  probeCount: number;
}

export interface BucketSizeRow {
  bucketSize: 1 | 2 | 4 | 8;
  bucketCount: number;
  /** Mean over the trials of the load at the first failure, and the lowest and highest. */
  load: number;
  lowest: number;
  highest: number;
  /** Never-added probes answered yes, over all trials' probes, at the first failure. */
  measuredFpr: number;
  /** The core's bound 2b / 2^f. */
  fprBound: number;
  /** Mean over the trials of the core's bits per item at the first failure. */
  bitsPerItem: number;
}

/** Paper Sec. 5.2, Table 2, Fig. 4: bits per item against the false-positive rate, by the core's sizing. */
export interface SpaceJob {
  kind: 'space';
  capacity: number;
  rates: number[];
}

export interface SpaceResult {
  capacity: number;
  rates: number[];
  /** Bits per item at each rate; NaN where the core refuses it. */
  plain: number[];
  semiSorted: number[];
  bloom: number[];
  /** The bucket size and f `create` chose at each rate (plain). */
  plainShape: Array<{ bucketSize: number; fingerprintBits: number }>;
  /** The largest rate below which each filter always takes fewer bits per item than a Bloom filter. */
  crossover: { plain: number | null; semiSorted: number | null };
  /** The largest rate at which it takes fewer at all (above the crossover, only just after a step of f). */
  firstWin: { plain: number | null; semiSorted: number | null };
}

export type Job = FingerprintLengthJob | CollisionJob | BucketSizeJob | SpaceJob;

export type ResultOf<J extends Job> = J extends FingerprintLengthJob
  ? LoadCurve[]
  : J extends CollisionJob
    ? CollisionResult
    : J extends BucketSizeJob
      ? BucketSizeRow[][]
      : SpaceResult;

/**
 * Worker to page: progress from 0 to 1, partial results (a job that has some
 * of its answer early sends it, as the result so far), then the result or an error.
 */
export type WorkerMessage =
  | { type: 'progress'; done: number }
  | { type: 'partial'; result: unknown }
  | { type: 'result'; result: unknown }
  | { type: 'error'; message: string };
