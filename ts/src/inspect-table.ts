// cuckoo-wasm/inspect's reads of a filter's table (re-exported there):
// copies of its slots and stash, a semi-sorted bucket as stored, and the
// relation of a fingerprint's two buckets. Read-only
// (bindings/inspect_table_bindings.cpp).

import type { CuckooFilter } from './filter.js';
import { requireFull } from './full-module.js';
import { checkBucket, checkReadRange, filterHandle } from './inspect-reads.js';
import type { SemiSortedBucketView, StashView, TableView } from './inspect-types.js';
import { describeValue } from './items.js';

/**
 * The victim stash of `filter`.
 * @example
 * ```ts
 * const { occupied, fingerprint, bucket, alternateBucket } = stash(filter);
 * occupied === (filter.stashed === 1); // true: the stash holds at most one fingerprint
 * ```
 */
export function stash(filter: CuckooFilter): StashView {
  const handle = filterHandle(filter, 'stash');
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
  const handle = filterHandle(filter, 'buckets');
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
 * A bucket of a semi-sorted filter as its table stores it: the 12-bit rank of
 * its sorted high nibbles and each fingerprint's low bits (paper Section 5.2),
 * read from the table's bits, with the fingerprints a lookup decodes from them.
 * @example
 * ```ts
 * using filter = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8, semiSort: true });
 * filter.add('apple');
 * const { rank, highNibbles, lowBits, storedBits, plainBits } = semiSortedBucket(filter, locate(filter, 'apple').i1);
 * plainBits - storedBits; // 4: one bit saved per entry
 * ```
 */
export function semiSortedBucket(filter: CuckooFilter, bucket: number): SemiSortedBucketView {
  const handle = filterHandle(filter, 'semiSortedBucket');
  const { full } = requireFull('inspect.semiSortedBucket');
  const { bucketCount, fingerprintBits, semiSort } = filter.params;
  if (!semiSort) throw new TypeError('inspect.semiSortedBucket: filter must be semi-sorted (semiSort: true)');
  checkBucket(bucket, bucketCount, 'inspect.semiSortedBucket: bucket');
  const stored = full.inspectReadSemiSortedBucket(handle, bucket);
  const lowBitsPerSlot = fingerprintBits - 4;
  const highNibbles = [0, 1, 2, 3].map((s) => (stored.nibbles >>> (4 * s)) & 0xf);
  return {
    bucket,
    fingerprints: highNibbles.map((nibble, s) => nibble * 2 ** lowBitsPerSlot + stored.lowBits[s]!),
    highNibbles,
    rank: stored.rank,
    rankCount: full.semiSortedRanks,
    lowBits: stored.lowBits,
    lowBitsPerSlot,
    storedBits: full.nibbleRankBits + 4 * lowBitsPerSlot,
    plainBits: 4 * fingerprintBits,
  };
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
  const handle = filterHandle(filter, 'alternateBucket');
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
  const handle = filterHandle(filter, 'tableBits');
  return requireFull('inspect.tableBits').full.inspectTableBits(handle);
}
