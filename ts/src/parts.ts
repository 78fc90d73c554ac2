// A filter whose table lives outside this process (cuckoo-wasm/redis keeps it
// in Redis): its items hashed here exactly as a CuckooFilter of the same
// shape hashes them, and its table moved to and from an in-process
// CuckooFilter, so that bytes travel both ways without the items.
// Internal: the Redis entry's way into the core. Its calls live in the full
// module, which importing this file makes init() load.

import { forEachChunk, itemsAsBytes } from './batches.js';
import { CuckooFilter, type CuckooFilterParams, type ItemBatch } from './filter.js';
import { adopted, checkStatus, takeHandle } from './handles.js';
import { describeValue, itemAsBytes, NUMERIC_ITEM_BYTES } from './items.js';
import { requireFull, type StateArguments } from './full-module.js';
import { checkEvictionOptions, checkFlag, checkInteger, checkNumberOption, checkObject, checkSeed, tableFlags } from './validate.js';

/** What locating an item depends on. */
export interface TableShape {
  readonly bucketCount: number;
  readonly fingerprintBits: number;
  readonly seed: bigint;
  /** The keyed item hash (hash ids 4 and 5); absent: XXH3. */
  readonly keyedHash?: boolean;
  /** The hash of 8-byte items of `multiplyShiftHash` (hash ids 10 and 11, or 6 to 9 in filters saved before they existed); absent: XXH3. */
  readonly multiplyShiftHash?: boolean;
}

/** Words per item in what {@link locateItems} returns. */
export const LOCATION_WORDS = 4;

/**
 * Where each item goes in a table of `shape`: for item k, words 4k to 4k + 3
 * are its fingerprint, first bucket, second bucket and shard route word
 * (cpp/include/cuckoo/hashing.hpp: a filter of S shards keeps the item in
 * shard (route × S) >> 32). `what` names the items in errors.
 */
export function locateItems(shape: TableShape, items: ItemBatch, what: string): Uint32Array {
  const { runtime, core } = requireFull(what);
  const [seedLow, seedHigh] = checkSeed(shape.seed, `${what}: seed`);
  const flags = tableFlags(false, shape.keyedHash, shape.multiplyShiftHash);
  const located: Uint32Array[] = [];
  let total = 0;
  forEachChunk(runtime, items, what, false, (count, packed) => {
    const words = runtime.withTemporary(count * LOCATION_WORDS * 4, what, (out) => {
      const data = runtime.batchData.address;
      if (packed) {
        core.parts_locate_packed(shape.fingerprintBits, shape.bucketCount, seedLow, seedHigh, flags, data, runtime.batchOffsets.address, count, out);
      } else {
        core.parts_locate_fixed(shape.fingerprintBits, shape.bucketCount, seedLow, seedHigh, flags, data, NUMERIC_ITEM_BYTES, count, out);
      }
      return runtime.u32.slice(out >>> 2, (out >>> 2) + count * LOCATION_WORDS);
    });
    located.push(words);
    total += count;
  });
  // One chunk (a batch of up to 1,024 items) is already its own copy.
  if (located.length === 1) return located[0]!;
  const result = new Uint32Array(total * LOCATION_WORDS);
  let at = 0;
  for (const words of located) {
    result.set(words, at);
    at += words.length;
  }
  return result;
}

/** The state arguments of parts_restore and parts_replace_buckets. */
function stateArguments(stash: FilterParts['stash'], itemCount: number, prngState: bigint, what: string): StateArguments {
  const [prngLow, prngHigh] = checkSeed(prngState, `${what}: prngState`);
  return [stash !== null ? 1 : 0, stash?.fingerprint ?? 0, stash?.bucket ?? 0, itemCount, prngLow, prngHigh];
}

/** A new filter's eviction PRNG state is its seed XOR this (FORMAT.md, "Eviction PRNG"). */
export const INITIAL_PRNG_OFFSET = 0x6a09e667f3bcc909n;

/** A filter's contents apart from its parameters. */
export interface FilterParts {
  /** The table in FORMAT.md's payload layout. */
  readonly payload: Uint8Array;
  /** The homeless fingerprint and the bucket it last failed to enter, or null. */
  readonly stash: { readonly fingerprint: number; readonly bucket: number } | null;
  /** Items stored, the stashed one included. */
  readonly itemCount: number;
  /** The eviction PRNG's state (FORMAT.md); without it, the state a new filter of the seed starts in. */
  readonly prngState?: bigint;
}

/** A copy of `filter`'s table, stash and item count. */
export function partsOf(filter: CuckooFilter): FilterParts {
  const handle = filter.live('toBytes');
  const { runtime, core } = requireFull('partsOf');
  core.parts_of(handle, runtime.results);
  const words = runtime.u32.slice(runtime.results >>> 2, (runtime.results >>> 2) + 9);
  const [address, length, stashed, fingerprint, bucket, countLow, countHigh, prngLow, prngHigh] = words as unknown as number[];
  return {
    payload: runtime.u8.slice(address!, address! + length!),
    stash: stashed === 1 ? { fingerprint: fingerprint!, bucket: bucket! } : null,
    itemCount: countHigh! * 2 ** 32 + countLow!,
    prngState: (BigInt(prngHigh!) << 32n) | BigInt(prngLow!),
  };
}

/**
 * A CuckooFilter of `params` holding `parts`, checked as `fromBytes` checks
 * bytes: a FormatError (TRUNCATED, INCONSISTENT) for parts that do not fit
 * the parameters or disagree, a RangeError for parameters out of range.
 */
export function filterFromParts(params: CuckooFilterParams, parts: FilterParts, what: string): CuckooFilter {
  const { runtime, core } = requireFull(what);
  const [seedLow, seedHigh] = checkSeed(params.seed, `${what}: seed`);
  const state = stateArguments(parts.stash, parts.itemCount, parts.prngState ?? (params.seed ^ INITIAL_PRNG_OFFSET), what);
  const status = runtime.withTemporary(parts.payload.length, what, (address) => {
    runtime.u8.set(parts.payload, address);
    return core.parts_restore(
      params.fingerprintBits,
      params.bucketSize,
      params.bucketCount,
      params.maxKicks,
      seedLow,
      seedHigh,
      tableFlags(params.semiSort, params.keyedHash, params.multiplyShiftHash),
      address,
      parts.payload.length,
      ...state,
      runtime.results,
    );
  });
  return new CuckooFilter(adopted(takeHandle(runtime, status, what, params as unknown as Record<string, unknown>)));
}

/** Bucket contents reported by a table kept elsewhere, and the state after them. */
export interface BucketChanges {
  readonly buckets: Uint32Array;
  /** Bucket k's bits in FORMAT.md's payload order, at byte k · stride. */
  readonly contents: Uint8Array;
  readonly stride: number;
  readonly stash: { readonly fingerprint: number; readonly bucket: number } | null;
  readonly itemCount: number;
  readonly prngState: bigint;
}

/**
 * Writes the buckets and the state into `filter` (cuckoo::replaceBuckets):
 * checked first, so that a FormatError (INCONSISTENT) leaves the filter as it was.
 */
export function replaceBuckets(filter: CuckooFilter, changes: BucketChanges, what: string): void {
  const handle = filter.live('replaceBuckets');
  const { runtime, core } = requireFull(what);
  const state = stateArguments(changes.stash, changes.itemCount, changes.prngState, what);
  const count = changes.buckets.length;
  const status = runtime.withTemporary(4 * count + changes.contents.length, what, (address) => {
    runtime.u32.set(changes.buckets, address >>> 2);
    runtime.u8.set(changes.contents, address + 4 * count);
    return core.parts_replace_buckets(
      handle,
      address,
      count,
      address + 4 * count,
      changes.stride,
      ...state,
    );
  });
  checkStatus(runtime, status, what);
}

// ---------------------------------------------------------------------------
// For cuckoo-wasm/redis: sizing without a table, one item located, and the
// semi-sorted rank map to decode buckets read from Redis.

export { describeValue, itemAsBytes, itemsAsBytes };

/**
 * Checks `options` exactly as CuckooFilter.create checks its own (a TypeError
 * or RangeError naming `what`; `optionsShape` is the object the message
 * asks for) and returns the parameters create would choose for
 * `sizedCapacity(capacity)` items, without making a table.
 */
export function paramsForCapacity(
  options: unknown,
  what: string,
  optionsShape: string,
  sizedCapacity: (capacity: number) => number,
): CuckooFilterParams {
  const { runtime, core } = requireFull(what);
  const o = checkObject(options, `${what}: options`, optionsShape);
  const capacity = checkInteger(o.capacity, `${what}: capacity`, 1, Number.MAX_SAFE_INTEGER, 'an integer from 1 to 2^53 - 1');
  const fpr = checkNumberOption(runtime, o, 'fpr', what);
  const { maxKicks, seedLow, seedHigh, semiSort } = checkEvictionOptions(runtime, o, what);
  const keyedHash = checkFlag(o.keyedHash, `${what}: keyedHash`);
  const multiplyShiftHash = checkFlag(o.multiplyShiftHash, `${what}: multiplyShiftHash`);
  const flags = tableFlags(semiSort, keyedHash, multiplyShiftHash);
  const status = core.parts_size_for(sizedCapacity(capacity), fpr, maxKicks, seedLow, seedHigh, flags, runtime.results);
  checkStatus(runtime, status, what, o);
  const at = runtime.results >>> 2;
  const [fingerprintBits, bucketSize, countLow, countHigh] = runtime.u32.slice(at, at + 4) as unknown as number[];
  return Object.freeze({
    bucketCount: countHigh! * 2 ** 32 + countLow!,
    bucketSize: bucketSize as 1 | 2 | 4 | 8,
    fingerprintBits: fingerprintBits!,
    maxKicks,
    seed: (BigInt(seedHigh) << 32n) | BigInt(seedLow),
    semiSort,
    keyedHash,
    multiplyShiftHash,
  });
}

/** One item located as {@link locateItems} locates it, its errors naming it `what` (not `what[0]`). */
export function locateItem(shape: TableShape, item: unknown, what: string): Uint32Array {
  const { runtime, core } = requireFull(what);
  const [seedLow, seedHigh] = checkSeed(shape.seed, `${what}: seed`);
  return runtime.withItem(item, what, (address, length) => {
    // One item of `length` bytes is a fixed-width batch of one.
    core.parts_locate_fixed(shape.fingerprintBits, shape.bucketCount, seedLow, seedHigh, tableFlags(false, shape.keyedHash, shape.multiplyShiftHash), address, length, 1, runtime.results);
    const at = runtime.results >>> 2;
    return runtime.u32.slice(at, at + LOCATION_WORDS);
  });
}

/** C(19, 4): the sorted multisets of four nibbles (FORMAT.md). */
export const SEMI_SORTED_RANKS = 3876;
let unrankTable: Uint16Array | undefined;

/**
 * The semi-sorted table's map from a bucket's 12-bit rank to its four sorted
 * nibbles (nibble s at bits 4s..4s+3), 3,876 entries, as the core decodes
 * buckets: cuckoo-wasm/redis decodes the buckets it reads from Redis with it.
 */
export function semiSortedUnrankTable(what: string): Uint16Array {
  if (unrankTable === undefined) {
    const { runtime, core } = requireFull(what);
    unrankTable = runtime.withTemporary(2 * SEMI_SORTED_RANKS, what, (address) => {
      core.parts_unrank_table(address);
      // wasm memory is little-endian, as every host this runs on.
      return new Uint16Array(runtime.u8.slice(address, address + 2 * SEMI_SORTED_RANKS).buffer);
    });
  }
  return unrankTable;
}
