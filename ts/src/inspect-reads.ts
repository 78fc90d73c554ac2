// The arguments cuckoo-wasm/inspect's functions check: a live filter, and
// the bucket ranges the reads (buckets, scalableBuckets) accept. For the
// inspect entry only, so that none of it is in the main download.

import type { Handle } from './core-exports.js';
import { CuckooFilter } from './filter.js';
import { describeValue } from './items.js';
import { ScalableCuckooFilter } from './scalable.js';

/** The handle of a live CuckooFilter, for `inspect.<method>`. */
export function filterHandle(filter: unknown, method: string): Handle {
  if (!(filter instanceof CuckooFilter)) {
    throw new TypeError(`inspect.${method}: filter must be a CuckooFilter, got ${describeValue(filter)}`);
  }
  return filter.live(method);
}

/** The handle of a live ScalableCuckooFilter, for `inspect.<method>`. */
export function scalableHandle(filter: unknown, method: string): Handle {
  if (!(filter instanceof ScalableCuckooFilter)) {
    throw new TypeError(`inspect.${method}: filter must be a ScalableCuckooFilter, got ${describeValue(filter)}`);
  }
  return filter.live(method);
}

/**
 * One `inspect` read (`buckets`, `scalableBuckets`) copies at most this many slots (64 MiB); read larger tables in ranges.
 * @example
 * ```ts
 * const perRead = Math.floor(MAX_SLOTS_PER_READ / filter.params.bucketSize);
 * for (let first = 0; first < filter.params.bucketCount; first += perRead) {
 *   const { slots } = buckets(filter, first, Math.min(perRead, filter.params.bucketCount - first));
 * }
 * ```
 */
export const MAX_SLOTS_PER_READ = 2 ** 24;

/** A bucket number below `bucketCount`. */
export function checkBucket(value: unknown, bucketCount: number, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${what} must be an integer from 0 to ${bucketCount - 1}, got ${describeValue(value)}`);
  }
  if (value < 0 || value >= bucketCount) throw new RangeError(`${what} must be from 0 to ${bucketCount - 1}, got ${value}`);
  return value;
}

/**
 * Buckets [first, first + count) of a table of `total` buckets: `count` the
 * rest of the table when absent, at most MAX_SLOTS_PER_READ slots.
 */
export function checkReadRange(
  method: string, firstBucket: unknown, bucketCount: unknown, total: number, bucketSize: number,
): { first: number; count: number } {
  const first = checkBucket(firstBucket, total, `inspect.${method}: firstBucket`);
  const count = bucketCount === undefined ? total - first : checkBucket(bucketCount, total - first + 1, `inspect.${method}: bucketCount`);
  if (count * bucketSize > MAX_SLOTS_PER_READ) {
    throw new RangeError(
      `inspect.${method}: at most ${MAX_SLOTS_PER_READ} slots per call, asked for ${count * bucketSize}; read the table in ranges`,
    );
  }
  return { first, count };
}
