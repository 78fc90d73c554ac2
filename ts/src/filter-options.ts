// The options and parameters of a CuckooFilter: what `new CuckooFilter`,
// `CuckooFilter.create` and `filter.params` take and give (filter.ts).

import type { CuckooFilter } from './filter.js';

/** Options of `new CuckooFilter(...)`: the table's exact shape. */
export interface CuckooFilterOptions {
  /**
   * Number of buckets m: an integer from 1 to 2^32. A power of two keeps the
   * XOR layout (hash id 1); any other count uses its own layout (hash id 2,
   * see FORMAT.md), as fast and as accurate.
   */
  bucketCount: number;
  /** Slots per bucket b: 1, 2, 4 or 8. 4 is the paper's default. */
  bucketSize: 1 | 2 | 4 | 8;
  /** Fingerprint width f in bits, 2 to 32. The false-positive rate is about 2b / 2^f. */
  fingerprintBits: number;
  /** Evictions an insert may do before the filter counts as full: 0 to 1,000,000 (default 500). */
  maxKicks?: number;
  /**
   * Seeds the item hash and the eviction choices: a non-negative safe
   * integer or a bigint below 2^64. Default: 64 random bits from the
   * platform's cryptographic source, so that nobody who has not seen the
   * filter's bytes can aim items at one pair of buckets; give one to build
   * the same bytes again or to merge filters made apart.
   */
  seed?: number | bigint;
  /**
   * The paper's semi-sorted buckets (Section 5.2): each entry takes one bit
   * less, so a filter with `fingerprintBits: 13` has the space of a plain one
   * with 12 and half its false-positive rate; lookups cost a little more.
   * Needs `bucketSize: 4` and `fingerprintBits` from 5 to 32 (default false).
   */
  semiSort?: boolean;
  /**
   * Hash items with SipHash-1-3 keyed by the seed (hash ids 4 and 5,
   * FORMAT.md) instead of XXH3 (default false): for filters that outsiders
   * fill and query, since XXH3 does not keep its seed from those who see
   * its answers. Slower per item (about 2x the hash); every other rule the same.
   * Not with {@link CuckooFilterOptions.multiplyShiftHash}.
   */
  keyedHash?: boolean;
  /**
   * Hash 8-byte items (numbers and bigints, whose bytes are an int64, or any
   * 8 bytes) by a 64-bit mix of the key XOR a word drawn from the seed, and
   * offset fingerprints by one multiplication (hash ids 10 and 11, FORMAT.md
   * version 7), instead of XXH3 (default false): for filters of numeric keys,
   * whose hash then takes a few instructions rather than about 30. (The name
   * is that of the first such hash, multiply-shift.) Filters saved with hash
   * ids 6 to 9 (versions 5 and 6) still load and answer as before; new ones
   * get 10 and 11, which fill as XXH3 does on structured keys (sequential
   * ids, multiples, timestamps), where ids 6 and 7 could stop a filter well
   * short of its capacity, and hash faster than 8 and 9. From
   * JavaScript a single `has(number)` costs the same (the crossing dominates)
   * and `add`/`delete` of numbers less (README, Benchmarks). Items of other
   * lengths hash with XXH3 as before; every other rule is the same.
   *
   * Not for items outsiders choose: the hash is not keyed, so whoever knows
   * the seed (it is in the bytes) can choose keys that collide. Use
   * {@link CuckooFilterOptions.keyedHash} there; the two cannot be combined
   * (a RangeError naming both).
   * @example
   * ```ts
   * using ids = CuckooFilter.create({ capacity: 1_000_000, multiplyShiftHash: true });
   * ids.addMany(new BigUint64Array([1n, 2n, 3n]));
   * ids.has(2); // true: 2 and 2n are the same item
   * ids.toBytes()[4]; // 7: format version 7
   * ```
   */
  multiplyShiftHash?: boolean;
}

/** Options of `CuckooFilter.create(...)`: what the filter must hold. */
export interface CreateOptions {
  /** How many items the filter must hold: an integer from 1 to 2^53 - 1. */
  capacity: number;
  /**
   * The largest false-positive rate acceptable: greater than 0 and less than 1
   * (default 0.001, 0.1 %: 13-bit fingerprints, about 13.8 bits per item at capacity).
   */
  fpr?: number;
  /** As in {@link CuckooFilterOptions.maxKicks}. */
  maxKicks?: number;
  /** As in {@link CuckooFilterOptions.seed}. */
  seed?: number | bigint;
  /**
   * Semi-sorted buckets, as in {@link CuckooFilterOptions.semiSort}: the filter
   * gets bucketSize 4 and one bit less per entry, at any rate.
   */
  semiSort?: boolean;
  /** As in {@link CuckooFilterOptions.keyedHash}. */
  keyedHash?: boolean;
  /** As in {@link CuckooFilterOptions.multiplyShiftHash}: for filters of numeric keys that outsiders do not choose. */
  multiplyShiftHash?: boolean;
}

/** The parameters of a filter, as returned by {@link CuckooFilter.params}. */
export interface CuckooFilterParams {
  readonly bucketCount: number;
  readonly bucketSize: 1 | 2 | 4 | 8;
  readonly fingerprintBits: number;
  readonly maxKicks: number;
  readonly seed: bigint;
  readonly semiSort: boolean;
  /** Items hashed with the keyed hash (SipHash-1-3) rather than XXH3. */
  readonly keyedHash: boolean;
  /** 8-byte items hashed by the hash of 64-bit keys (hash ids 10 and 11; 6 to 9 in filters saved before them) rather than XXH3. */
  readonly multiplyShiftHash: boolean;
}
