/**
 * cuckoo-wasm/inspect: a look inside a {@link CuckooFilter}, for teaching,
 * debugging and tests. Every number comes from the core: where an item lives
 * (its hash, fingerprint and two buckets), step-by-step traces of add, has
 * and delete, and copies of the table's slots and stash.
 *
 * Partial-key cuckoo hashing in one line: i2 = i1 XOR (hash(fingerprint) mod m),
 * and since XOR undoes itself, i1 = i2 XOR (hash(fingerprint) mod m) too. That
 * needs m to be a power of two; for any other bucket count the filter uses
 * i2 = (c − i1) mod m with c = hash(fingerprint) scaled to [0, m), a
 * reflection, which undoes itself just as well ({@link ItemLocation.hashId}).
 *
 * @example
 * ```ts
 * import { init, CuckooFilter } from 'cuckoo-wasm';
 * import { traceAdd, buckets } from 'cuckoo-wasm/inspect';
 * await init();
 * using filter = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6 });
 * const trace = traceAdd(filter, 'apple');
 * trace.i2 === (trace.i1 ^ trace.fingerprintHashMod); // true
 * buckets(filter).slots; // Uint32Array(64): 0 = empty, else a fingerprint
 * ```
 *
 * For a {@link ScalableCuckooFilter}, {@link scalableShape} and
 * {@link scalableBuckets} show how its table grows: its shape (linear hashing:
 * m = 2^L + s buckets, split one at a time) and its slots.
 * @packageDocumentation
 */

import { CuckooFilter } from './filter.js';
import type { Handle } from './core-exports.js';
import { requireFull, type RawLocation } from './full-module.js';
import { describeValue, type Item } from './items.js';
import { checkBucket, checkReadRange, MAX_SLOTS_PER_READ } from './inspect-reads.js';

export { MAX_SLOTS_PER_READ };
export { scalableBuckets, scalableShape, type ScalableShape, type ScalableTableView } from './inspect-scalable.js';

/** Where an item lives: its hash, fingerprint and two candidate buckets. */
export interface ItemLocation {
  /** The item's 64-bit hash, XXH3-64 with the filter's seed. */
  readonly hash: bigint;
  /** f bits from the hash's high half, 1 to 2^f − 1 (0 marks an empty slot). */
  readonly fingerprint: number;
  /** The first candidate bucket: the hash's low 32 bits reduced to [0, m) (masked, or scaled when m is not a power of two). */
  readonly i1: number;
  /** The second candidate bucket: i1 XOR fingerprintHashMod (hash id 1), or (fingerprintHashMod − i1) mod m (hash id 2). */
  readonly i2: number;
  /** hash(fingerprint): the 32-bit mix of the fingerprint (mix32 in hashing.hpp). */
  readonly fingerprintHash: number;
  /**
   * fingerprintHash reduced to [0, m), what relates i1 and i2: with hash id 1
   * its low bits, the XOR offset (i2 = i1 XOR it, and i1 = i2 XOR it); with
   * hash id 2 fingerprintHash × m / 2^32, the point c the two buckets reflect
   * about (i2 = (c − i1) mod m, and i1 = (c − i2) mod m).
   */
  readonly fingerprintHashMod: number;
  /**
   * The bucket layout (FORMAT.md): 1 when the bucket count is a power of two
   * (the XOR relation), 2 for any other count (the reflection).
   */
  readonly hashId: 1 | 2;
}

/** One eviction of an insert: `incoming` took `slot` of `bucket`, and `evicted` left for `nextBucket`. */
export interface Kick {
  readonly bucket: number;
  /** The slot chosen at random; in a semi-sorted bucket, a position in its sorted order. */
  readonly slot: number;
  /** The homeless fingerprint that moved in. */
  readonly incoming: number;
  /** The fingerprint that was there and is now homeless. */
  readonly evicted: number;
  /** The evicted fingerprint's other bucket: bucket XOR evictedHashMod, or (evictedHashMod − bucket) mod m. */
  readonly nextBucket: number;
  /** hash(evicted) reduced to [0, m), as {@link ItemLocation.fingerprintHashMod}. */
  readonly evictedHashMod: number;
}

/** What {@link traceAdd} saw. */
export interface InsertTrace extends ItemLocation {
  /** False only when the filter was full (the stash occupied): then nothing changed. */
  readonly added: boolean;
  /** Evictions done. */
  readonly kickCount: number;
  /** The evictions in order: all of them, or the first {@link MAX_RECORDED_KICKS}. */
  readonly kicks: readonly Kick[];
  /** Where the last homeless fingerprint found an empty slot, or null. */
  readonly placed: { readonly bucket: number; readonly slot: number; readonly fingerprint: number } | null;
  /** When evictions ran out: the fingerprint that went to the stash and the bucket it was last evicted from, or null. */
  readonly stashed: { readonly bucket: number; readonly fingerprint: number } | null;
}

/** What {@link traceHas} saw. */
export interface LookupTrace extends ItemLocation {
  /** The filter's answer, `has(item)`. */
  readonly found: boolean;
  /** Slots of bucket i1 that hold the fingerprint. */
  readonly slotsInI1: readonly number[];
  /** Slots of bucket i2 that hold the fingerprint (the same as slotsInI1 when i1 = i2). */
  readonly slotsInI2: readonly number[];
  /** True when the stash holds the fingerprint for one of the item's buckets. */
  readonly inStash: boolean;
}

/** What {@link traceDelete} saw. */
export interface DeleteTrace extends ItemLocation {
  /** The filter's answer, `delete(item)`. */
  readonly deleted: boolean;
  /** Where the removed copy was: a bucket, the stash, or nowhere (not deleted). */
  readonly from: 'bucket' | 'stash' | null;
  /** The bucket and slot the copy was removed from (null unless from a bucket). */
  readonly bucket: number | null;
  readonly slot: number | null;
  /**
   * True when the stash was occupied and the freed slot let the core place
   * the stashed fingerprint again. That walk is not traced, so other buckets
   * may have changed too: read {@link buckets} afresh.
   */
  readonly stashReinserted: boolean;
}

/** The victim stash: the one fingerprint left homeless when evictions ran out. */
export interface StashView {
  readonly occupied: boolean;
  /** 0 when empty. */
  readonly fingerprint: number;
  /** The bucket it was last evicted from, and that bucket's alternate for it. */
  readonly bucket: number;
  readonly alternateBucket: number;
}

/** A copy of buckets [firstBucket, firstBucket + bucketCount) and of the stash. */
export interface TableView {
  readonly firstBucket: number;
  readonly bucketCount: number;
  readonly bucketSize: number;
  /** Slot s of bucket firstBucket + i is slots[i * bucketSize + s]; 0 = empty. */
  readonly slots: Uint32Array;
  readonly stash: StashView;
}

/**
 * {@link InsertTrace.kicks} holds at most this many evictions; kickCount counts all.
 * @example
 * ```ts
 * const trace = traceAdd(filter, 'x');
 * const complete = trace.kicks.length === trace.kickCount; // false only beyond MAX_RECORDED_KICKS
 * ```
 */
export const MAX_RECORDED_KICKS = 65536;

function handleOf(filter: unknown, method: string): Handle {
  if (!(filter instanceof CuckooFilter)) {
    throw new TypeError(`inspect.${method}: filter must be a CuckooFilter, got ${describeValue(filter)}`);
  }
  return filter.live(method);
}

function itemLocation(raw: RawLocation): ItemLocation {
  return {
    hash: (BigInt(raw.hashHigh) << 32n) | BigInt(raw.hashLow),
    fingerprint: raw.fingerprint,
    i1: raw.i1,
    i2: raw.i2,
    fingerprintHash: raw.fingerprintHash,
    fingerprintHashMod: raw.fingerprintHashMod,
    hashId: raw.hashId as 1 | 2,
  };
}

function slotList(bits: number): number[] {
  const slots: number[] = [];
  for (let s = 0; bits >>> s !== 0; s++) if ((bits >>> s) & 1) slots.push(s);
  return slots;
}

/**
 * Where an item lives in `filter`: its hash, fingerprint, i1, hash(fingerprint)
 * and i2. Changes nothing.
 * @example
 * ```ts
 * const { fingerprint, i1, i2, fingerprintHashMod } = locate(filter, 'apple');
 * (i1 ^ fingerprintHashMod) === i2 && (i2 ^ fingerprintHashMod) === i1; // true
 * ```
 */
export function locate(filter: CuckooFilter, item: Item): ItemLocation {
  const handle = handleOf(filter, 'locate');
  const { runtime, full } = requireFull('inspect.locate');
  return itemLocation(runtime.withItem(item, 'inspect.locate: item', (address, length) => full.inspectLocate(handle, address, length)));
}

/**
 * Adds an item, as {@link CuckooFilter.add} does (the same result and the same
 * filter afterwards), and reports every step: the item's location, each
 * eviction, and where the last homeless fingerprint went.
 * @example
 * ```ts
 * const trace = traceAdd(filter, 'apple');
 * for (const kick of trace.kicks) {
 *   console.log(`${kick.incoming} took bucket ${kick.bucket} slot ${kick.slot}; ${kick.evicted} moves to ${kick.nextBucket}`);
 * }
 * trace.placed; // { bucket, slot, fingerprint }, or null when trace.stashed
 * ```
 */
export function traceAdd(filter: CuckooFilter, item: Item): InsertTrace {
  const handle = handleOf(filter, 'traceAdd');
  const { runtime, full } = requireFull('inspect.traceAdd');
  const capacity = Math.min(filter.params.maxKicks, MAX_RECORDED_KICKS);
  const trace = runtime.withItem(item, 'inspect.traceAdd: item', (address, length) =>
    full.inspectTraceInsert(handle, address, length, capacity),
  );
  return {
    ...itemLocation(trace.location),
    added: trace.added,
    kickCount: trace.kickCount,
    kicks: trace.kicks,
    placed:
      trace.end === full.InsertEnd.placed
        ? { bucket: trace.endBucket, slot: trace.endSlot, fingerprint: trace.endFingerprint }
        : null,
    stashed: trace.end === full.InsertEnd.stashed ? { bucket: trace.endBucket, fingerprint: trace.endFingerprint } : null,
  };
}

/**
 * Looks an item up, as {@link CuckooFilter.has} does, and reports which slots
 * of its two buckets (and whether the stash) hold its fingerprint.
 * @example
 * ```ts
 * const trace = traceHas(filter, 'apple');
 * trace.found;     // true
 * trace.slotsInI1; // e.g. [2]: slot 2 of bucket trace.i1 holds trace.fingerprint
 * ```
 */
export function traceHas(filter: CuckooFilter, item: Item): LookupTrace {
  const handle = handleOf(filter, 'traceHas');
  const { runtime, full } = requireFull('inspect.traceHas');
  const trace = runtime.withItem(item, 'inspect.traceHas: item', (address, length) => full.inspectTraceLookup(handle, address, length));
  return {
    ...itemLocation(trace.location),
    found: trace.found,
    slotsInI1: slotList(trace.slotsInI1),
    slotsInI2: slotList(trace.slotsInI2),
    inStash: trace.copiesInStash > 0,
  };
}

/**
 * Deletes one copy of an item, as {@link CuckooFilter.delete} does, and
 * reports where the copy was.
 * @example
 * ```ts
 * const trace = traceDelete(filter, 'apple');
 * if (trace.from === 'bucket') console.log(`removed from bucket ${trace.bucket}, slot ${trace.slot}`);
 * ```
 */
export function traceDelete(filter: CuckooFilter, item: Item): DeleteTrace {
  const handle = handleOf(filter, 'traceDelete');
  const { runtime, full } = requireFull('inspect.traceDelete');
  const trace = runtime.withItem(item, 'inspect.traceDelete: item', (address, length) => full.inspectTraceErase(handle, address, length));
  const fromBucket = trace.from === full.DeleteSource.bucket;
  return {
    ...itemLocation(trace.location),
    deleted: trace.deleted,
    from: fromBucket ? 'bucket' : trace.from === full.DeleteSource.stash ? 'stash' : null,
    bucket: fromBucket ? trace.bucket : null,
    slot: fromBucket && trace.slot !== full.noSlot ? trace.slot : null,
    stashReinserted: trace.stashReinserted,
  };
}

/**
 * The victim stash of `filter`.
 * @example
 * ```ts
 * const { occupied, fingerprint, bucket, alternateBucket } = stash(filter);
 * occupied === filter.full; // true
 * ```
 */
export function stash(filter: CuckooFilter): StashView {
  const handle = handleOf(filter, 'stash');
  return requireFull('inspect.stash').full.inspectReadStash(handle);
}

/**
 * A copy of the slots of buckets [firstBucket, firstBucket + bucketCount)
 * (by default the whole table) and of the stash. At most
 * {@link MAX_SLOTS_PER_READ} slots per call.
 * @example
 * ```ts
 * const { slots, bucketSize, stash } = buckets(filter);
 * const bucket5 = slots.subarray(5 * bucketSize, 6 * bucketSize); // 0 = empty slot
 * ```
 */
export function buckets(filter: CuckooFilter, firstBucket = 0, bucketCount?: number): TableView {
  const handle = handleOf(filter, 'buckets');
  const { runtime, full } = requireFull('inspect.buckets');
  const { bucketCount: total, bucketSize } = filter.params;
  const { first, count } = checkReadRange('buckets', firstBucket, bucketCount, total, bucketSize);
  const slots = runtime.withTemporary(count * bucketSize * 4, 'inspect.buckets', (address) => {
    full.inspectReadSlots(handle, first, count, address);
    return runtime.u32.slice(address >>> 2, (address >>> 2) + count * bucketSize);
  });
  return { firstBucket: first, bucketCount: count, bucketSize, slots, stash: stash(filter) };
}

/**
 * The other bucket of a fingerprint stored in `bucket`: bucket XOR (hash(fingerprint) mod m),
 * or (c − bucket) mod m when m is not a power of two. Applying it twice gives `bucket` back.
 * @example
 * ```ts
 * const j = alternateBucket(filter, 5, 0b101101);
 * alternateBucket(filter, j, 0b101101); // 5
 * ```
 */
export function alternateBucket(filter: CuckooFilter, bucket: number, fingerprint: number): number {
  const handle = handleOf(filter, 'alternateBucket');
  const { full } = requireFull('inspect.alternateBucket');
  const { bucketCount, fingerprintBits } = filter.params;
  checkBucket(bucket, bucketCount, 'inspect.alternateBucket: bucket');
  if (!Number.isInteger(fingerprint) || fingerprint < 1 || fingerprint > 2 ** fingerprintBits - 1) {
    throw new RangeError(`inspect.alternateBucket: fingerprint must be an integer from 1 to ${2 ** fingerprintBits - 1}, got ${describeValue(fingerprint)}`);
  }
  return full.inspectAlternateBucket(handle, bucket, fingerprint);
}

/**
 * hash(fingerprint), the 32-bit mix that relates a fingerprint's two buckets (reduced to [0, m) first).
 * @example
 * ```ts
 * fingerprintHash(45) & (filter.params.bucketCount - 1); // what bucket numbers of fingerprint 45 differ by
 * ```
 */
export function fingerprintHash(fingerprint: number): number {
  const { full } = requireFull('inspect.fingerprintHash');
  if (!Number.isInteger(fingerprint) || fingerprint < 0 || fingerprint > 0xffffffff) {
    throw new RangeError(`inspect.fingerprintHash: fingerprint must be an integer from 0 to 2^32 - 1, got ${describeValue(fingerprint)}`);
  }
  return full.inspectMix32(fingerprint) >>> 0;
}

/**
 * Bits of the filter's table, without padding: m·b·f, or m·(4f − 4) semi-sorted.
 * A Bloom filter with this many bits uses the same memory.
 * @example
 * ```ts
 * tableBits(new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6 })); // 384
 * ```
 */
export function tableBits(filter: CuckooFilter): number {
  const handle = handleOf(filter, 'tableBits');
  return requireFull('inspect.tableBits').full.inspectTableBits(handle);
}

/**
 * The kernel serving the filter: the code compiled for its shape and bucket
 * layout (plain b = 4 with f = 12, semi-sorted f = 13, ...), or `'generic'`,
 * which decides the shape at run time and serves the rest.
 * @example
 * ```ts
 * kernelName(new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 12 })); // 'plain b=4 f=12, hash id 1'
 * kernelName(new CuckooFilter({ bucketCount: 1024, bucketSize: 8, fingerprintBits: 12 })); // 'generic'
 * ```
 */
export function kernelName(filter: CuckooFilter): string {
  const handle = handleOf(filter, 'kernelName');
  return requireFull('inspect.kernelName').full.inspectKernelName(handle);
}

/**
 * Switches the filter to the generic kernel, to compare its speed with the
 * filter's own: the answers and the bytes stay exactly the same, only slower.
 * Its clones keep the generic kernel; a filter loaded from its bytes gets its own.
 * @example
 * ```ts
 * const filter = CuckooFilter.create({ capacity: 100_000, fpr: 0.001 });
 * useGenericKernel(filter);
 * kernelName(filter); // 'generic'
 * ```
 */
export function useGenericKernel(filter: CuckooFilter): void {
  const handle = handleOf(filter, 'useGenericKernel');
  requireFull('inspect.useGenericKernel').full.inspectUseGenericKernel(handle);
}

/**
 * The load large tables of a bucket size are sized to (0.43, 0.84, 0.945 and
 * 0.975 for 1, 2, 4 and 8 slots): what they reach before their first refused
 * add, less a margin. Smaller tables are sized lower.
 * @example
 * ```ts
 * practicalMaxLoad(4); // 0.945
 * ```
 */
export function practicalMaxLoad(bucketSize: 1 | 2 | 4 | 8): number {
  const { full } = requireFull('inspect.practicalMaxLoad');
  if (![1, 2, 4, 8].includes(bucketSize)) {
    throw new RangeError(`inspect.practicalMaxLoad: bucketSize must be 1, 2, 4 or 8, got ${describeValue(bucketSize)}`);
  }
  return full.inspectPracticalMaxLoad(bucketSize);
}

/**
 * The number of hash functions k that minimises a Bloom filter's
 * false-positive rate at `bitsPerItem` bits per item: round(ln 2 · bitsPerItem), 1 to 32.
 * @example
 * ```ts
 * optimalBloomHashCount(384 / 61); // 4: a Bloom filter of a 16 x 4 x 6-bit table's memory, at 95 % load
 * ```
 */
export function optimalBloomHashCount(bitsPerItem: number): number {
  const { full } = requireFull('inspect.optimalBloomHashCount');
  if (typeof bitsPerItem !== 'number' || !(bitsPerItem > 0)) {
    throw new RangeError(`inspect.optimalBloomHashCount: bitsPerItem must be a positive number, got ${describeValue(bitsPerItem)}`);
  }
  return full.inspectOptimalBloomHashCount(bitsPerItem);
}
