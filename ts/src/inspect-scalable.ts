/**
 * The growable filter's part of cuckoo-wasm/inspect (re-exported there): the
 * shape of a {@link ScalableCuckooFilter}'s table as it grows and copies of its
 * slots, read from the core, changing nothing.
 * @packageDocumentation
 */

import { requireFull } from './full-module.js';
import type { ScalableCuckooFilter } from './scalable.js';
import { checkReadRange, scalableHandle } from './inspect-reads.js';

/**
 * The table of a {@link ScalableCuckooFilter} (hash id 3, linear hashing):
 * m = 2^L + s buckets of 4 slots. Buckets [0, s) and [2^L, m) are split
 * (their bucket numbers have L + 1 bits), the rest not yet (L bits); growing
 * splits bucket s into s and 2^L + s. A slot holds fingerprint << T | tail:
 * the tail is the next e bits x of the item's bucket number past its bucket's
 * bits, unary-terminated as 2^e + x, and a split sends each entry to the half
 * its lowest tail bit names, removing that bit.
 */
export interface ScalableShape {
  /** L: bucket numbers have L bits, or L + 1 in split buckets. */
  readonly level: number;
  /** s: the next bucket to split; buckets [0, s) are split in this round. */
  readonly splitBucket: number;
  /** m = 2^L + s. */
  readonly bucketCount: number;
  /** L when the filter was created: the table has doubled level − initialLevel times. */
  readonly initialLevel: number;
  /** r: bits of the fingerprint, which picks the other bucket. */
  readonly fixedBits: number;
  /** T: bits of the tail; a slot has r + T bits. */
  readonly tailBits: number;
  /** Slots per bucket: always 4. */
  readonly bucketSize: 4;
  /** Entries stored, the stash and the copies splits made of spent tails included: what the load counts. */
  readonly entryCount: number;
  /** Entries out of the table: 0 except while the table cannot grow. */
  readonly stashCount: number;
}

/** A copy of buckets [firstBucket, firstBucket + bucketCount) of a {@link ScalableCuckooFilter}. */
export interface ScalableTableView {
  readonly firstBucket: number;
  readonly bucketCount: number;
  readonly bucketSize: 4;
  /** Slot s of bucket firstBucket + i is slots[i * 4 + s]: fingerprint << T | tail, 0 = empty. */
  readonly slots: Uint32Array;
  readonly shape: ScalableShape;
}

/**
 * The shape of a growable filter's table now: level L, split pointer s and
 * slot layout, with the entries it holds. Changes nothing.
 * @example
 * ```ts
 * using filter = ScalableCuckooFilter.create({ initialCapacity: 16, fpr: 0.01 });
 * scalableShape(filter); // { level: 2, splitBucket: 1, bucketCount: 5, fixedBits: 8, tailBits: 8, ... }
 * for (let i = 0; i < 100; i++) filter.add(i);
 * const { level, splitBucket } = scalableShape(filter);
 * filter.bucketCount === 2 ** level + splitBucket; // true
 * ```
 */
export function scalableShape(filter: ScalableCuckooFilter): ScalableShape {
  const handle = scalableHandle(filter, 'scalableShape');
  const { runtime, full } = requireFull('inspect.scalableShape');
  const { core } = runtime;
  const { entryCount, ...shape } = full.inspectScalableShape(handle);
  return {
    ...shape,
    bucketCount: core.scalable_bucket_count(handle),
    fixedBits: core.scalable_fingerprint_bits(handle),
    tailBits: core.scalable_tail_bits(handle),
    bucketSize: 4,
    entryCount,
  };
}

/**
 * A copy of the slot values of buckets [firstBucket, firstBucket + bucketCount)
 * of a growable filter (by default the whole table), with its shape. At most
 * {@link MAX_SLOTS_PER_READ} slots per call.
 * @example
 * ```ts
 * const { slots, shape } = scalableBuckets(filter);
 * const value = slots[5 * 4]!;                   // bucket 5, slot 0
 * const fingerprint = value >>> shape.tailBits; // 0 when empty
 * const tail = value & (2 ** shape.tailBits - 1);
 * const known = 31 - Math.clz32(tail);          // e: bucket-number bits the tail still holds
 * const next = tail & 1;                        // the half the next split sends it to (when e > 0)
 * ```
 */
export function scalableBuckets(filter: ScalableCuckooFilter, firstBucket = 0, bucketCount?: number): ScalableTableView {
  const handle = scalableHandle(filter, 'scalableBuckets');
  const { runtime, full } = requireFull('inspect.scalableBuckets');
  const shape = scalableShape(filter);
  const total = shape.bucketCount;
  const { first, count } = checkReadRange('scalableBuckets', firstBucket, bucketCount, total, 4);
  const slots = runtime.withTemporary(count * 16, 'inspect.scalableBuckets', (address) => {
    full.inspectReadScalableSlots(handle, first, count, address);
    return runtime.u32.slice(address >>> 2, (address >>> 2) + count * 4);
  });
  return { firstBucket: first, bucketCount: count, bucketSize: 4, slots, shape };
}

/**
 * The bits of a bucket's number in a growable table of this shape (linear
 * hashing, hash id 3): L + 1 for the buckets split in this round, [0, s) and
 * [2^L, m), L for the rest. An entry's tail holds the bits of its virtual
 * bucket number past these.
 * @example
 * ```ts
 * const shape = scalableShape(filter); // e.g. L = 3, s = 2: m = 10
 * bucketNumberBits(shape, 1); // 4: split in this round
 * bucketNumberBits(shape, 5); // 3
 * bucketNumberBits(shape, 9); // 4: a new bucket of this round
 * ```
 */
export function bucketNumberBits(shape: Pick<ScalableShape, 'level' | 'splitBucket'>, bucket: number): number {
  const { level, splitBucket } = shape;
  return bucket < splitBucket || bucket >= 2 ** level ? level + 1 : level;
}
