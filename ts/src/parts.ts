// A filter whose table lives outside this process (cuckoo-wasm/redis keeps it
// in Redis): its items hashed here exactly as a CuckooFilter of the same
// shape hashes them, and its table moved to and from an in-process
// CuckooFilter, so that bytes travel both ways without the items.
// Internal: the Redis entry's way into the core.

import { forEachChunk } from './batches.js';
import { CuckooFilter, type CuckooFilterParams, type ItemBatch } from './filter.js';
import { adopted, takeHandle } from './handles.js';
import { NUMERIC_ITEM_BYTES, withTemporary } from './items.js';
import { requireRuntime } from './loader.js';
import { checkSeed } from './validate.js';

/** What locating an item depends on. */
export interface TableShape {
  readonly bucketCount: number;
  readonly fingerprintBits: number;
  readonly seed: bigint;
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
  const runtime = requireRuntime(what);
  const { module, writer } = runtime;
  const [seedLow, seedHigh] = checkSeed(shape.seed, `${what}: seed`);
  const located: number[][] = [];
  let total = 0;
  forEachChunk(writer, items, what, false, (count, packed) => {
    const words = withTemporary(module, count * LOCATION_WORDS * 4, what, (out) => {
      if (packed) {
        module.partsLocatePacked(shape.fingerprintBits, shape.bucketCount, seedLow, seedHigh, writer.data.address, writer.aux.address, count, out);
      } else {
        module.partsLocateFixed(shape.fingerprintBits, shape.bucketCount, seedLow, seedHigh, writer.data.address, NUMERIC_ITEM_BYTES, count, out);
      }
      return Array.from(module.HEAPU32.subarray(out >>> 2, (out >>> 2) + count * LOCATION_WORDS));
    });
    located.push(words);
    total += count;
  });
  const result = new Uint32Array(total * LOCATION_WORDS);
  let at = 0;
  for (const words of located) {
    result.set(words, at);
    at += words.length;
  }
  return result;
}

/** A filter's contents apart from its parameters. */
export interface FilterParts {
  /** The table in FORMAT.md's payload layout. */
  readonly payload: Uint8Array;
  /** The homeless fingerprint and the bucket it last failed to enter, or null. */
  readonly stash: { readonly fingerprint: number; readonly bucket: number } | null;
  /** Items stored, the stashed one included. */
  readonly itemCount: number;
}

/** A copy of `filter`'s table, stash and item count. */
export function partsOf(filter: CuckooFilter): FilterParts {
  const handle = filter.live('toBytes');
  const runtime = requireRuntime('partsOf');
  const { module } = runtime;
  module.partsOf(handle, runtime.results);
  const words = module.HEAPU32.slice(runtime.results >>> 2, (runtime.results >>> 2) + 7);
  const [address, length, stashed, fingerprint, bucket, countLow, countHigh] = words as unknown as number[];
  return {
    payload: module.HEAPU8.slice(address!, address! + length!),
    stash: stashed === 1 ? { fingerprint: fingerprint!, bucket: bucket! } : null,
    itemCount: countHigh! * 2 ** 32 + countLow!,
  };
}

/**
 * A CuckooFilter of `params` holding `parts`, checked as `fromBytes` checks
 * bytes: a FormatError (TRUNCATED, INCONSISTENT) for parts that do not fit
 * the parameters or disagree, a RangeError for parameters out of range.
 */
export function filterFromParts(params: CuckooFilterParams, parts: FilterParts, what: string): CuckooFilter {
  const runtime = requireRuntime(what);
  const { module } = runtime;
  const [seedLow, seedHigh] = checkSeed(params.seed, `${what}: seed`);
  const status = withTemporary(module, parts.payload.length, what, (address) => {
    module.HEAPU8.set(parts.payload, address);
    return module.partsRestore(
      params.fingerprintBits,
      params.bucketSize,
      params.bucketCount,
      params.maxKicks,
      seedLow,
      seedHigh,
      params.semiSort,
      address,
      parts.payload.length,
      parts.stash !== null,
      parts.stash?.fingerprint ?? 0,
      parts.stash?.bucket ?? 0,
      parts.itemCount,
      runtime.results,
    );
  });
  return new CuckooFilter(adopted(takeHandle(runtime, status, what, params as unknown as Record<string, unknown>)));
}
