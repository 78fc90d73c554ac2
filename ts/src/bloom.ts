// The public BloomFilter class: argument checking, ownership and conversion
// around the core's StandardBloomFilter and BlockedBloomFilter
// (cpp/include/cuckoo/bloom_filter.hpp). No filter logic lives here.
//
// The argument checks, the disposal plumbing and the batch chunking below
// repeat private helpers of filter.ts in minimal form; they belong in a
// shared module once filter.ts's restructuring allows moving them there.

import { forEachChunk } from './batches.js';
import type { ItemBatch } from './filter.js';
import { takeHandle, WasmOwned, type ItemCall } from './handles.js';
import { describeValue, type Item } from './items.js';
import { requireRuntime, type Runtime } from './loader.js';
import { BloomInfoField, type Handle } from './raw.js';
import { checkFlag, checkInteger, checkObject, checkSeed } from './validate.js';

/** Options of `new BloomFilter(...)`: an exact bit array. */
export interface BloomFilterOptions {
  /**
   * Bits in the array, m: an integer from 1 to 2^32. A blocked filter rounds
   * it up to a multiple of 512 (whole 64-byte blocks).
   */
  bitCount: number;
  /** Bits set per item, k: an integer from 1 to 32. Best near 0.69 × bitCount / items. */
  hashCount: number;
  /**
   * True for a blocked Bloom filter: all of an item's bits in one 64-byte
   * block (one cache line), faster but with a higher false-positive rate at
   * the same size. Default false.
   */
  blocked?: boolean;
  /** Seeds the item hash: a non-negative safe integer or a bigint below 2^64 (default 0). */
  seed?: number | bigint;
}

/** Options of `BloomFilter.create(...)`: what the filter must hold. */
export interface BloomCreateOptions {
  /** How many items the filter is sized for: an integer from 1 to 2^53 - 1. */
  capacity: number;
  /**
   * The target false-positive rate at capacity: less than 1, and not below
   * about 2^-32.5 (which would need more than 32 hash functions). A standard
   * filter lands within 1 % of it (up to 12 % above for targets over 0.3,
   * where k is 1 or 2); a blocked filter gets the same memory and a higher
   * rate, which {@link BloomFilter.expectedFpr} reports.
   */
  fpr: number;
  /** As in {@link BloomFilterOptions.blocked}. */
  blocked?: boolean;
  /** As in {@link BloomFilterOptions.seed}. */
  seed?: number | bigint;
}

const MAX_BIT_COUNT = 2 ** 32;
const MAX_HASH_COUNT = 32;

// Set only while BloomFilter.create wraps a handle it already owns.
let adoptedHandle: Handle | undefined;

const bloomInsertItem: ItemCall<boolean> = (module, handle, item, length) => module.bloomInsertItem(handle, item, length);
const bloomContainsItem: ItemCall<boolean> = (module, handle, item, length) =>
  module.bloomContainsItem(handle, item, length);

/** Checks the options of `new BloomFilter` and creates the core filter. */
function createBloomHandle(runtime: Runtime, options: unknown): Handle {
  const o = checkObject(options, 'new BloomFilter: options', '{ bitCount, hashCount, blocked?, seed? }');
  const bitCount = checkInteger(o.bitCount, 'new BloomFilter: bitCount', 1, MAX_BIT_COUNT, 'an integer from 1 to 2^32');
  const hashCount = checkInteger(o.hashCount, 'new BloomFilter: hashCount', 1, MAX_HASH_COUNT, 'an integer from 1 to 32');
  const blocked = checkFlag(o.blocked, 'new BloomFilter: blocked');
  const [seedLow, seedHigh] = checkSeed(o.seed, 'new BloomFilter: seed');
  const status = runtime.module.createBloom(blocked, bitCount, hashCount, seedLow, seedHigh, runtime.results);
  return takeHandle(runtime, status, 'new BloomFilter');
}

/**
 * A Bloom filter: the classic compact set of Bloom (1970) that answers
 * "probably present" or "definitely absent", as the standard ("BF") or the
 * cache-blocked ("blk-BF") variant that the cuckoo filter paper compares
 * against. It cannot delete; use {@link CuckooFilter} for that. Its memory
 * lives in WebAssembly: call {@link BloomFilter.dispose} (or use `using`) when done.
 *
 * Items are the same as a CuckooFilter's: strings (as UTF-8), byte arrays,
 * safe-integer numbers and bigints (as 8-byte little-endian int64), so
 * `'abc'` equals `new TextEncoder().encode('abc')` and `5` equals `5n`.
 *
 * Each item is hashed once (XXH3-64, seeded). A standard filter sets bits
 * (h1 + i·h2) mod m for i = 0 … k−1, with h1 and h2 the low and high 32 bits
 * of the hash (h2 made odd); a blocked filter picks a 512-bit block from the
 * high 32 bits and k bits inside it from the low 32. {@link BloomFilter.probePositions}
 * shows where.
 *
 * @example
 * ```ts
 * import { init, BloomFilter } from 'cuckoo-wasm';
 * await init();
 * using filter = BloomFilter.create({ capacity: 1_000_000, fpr: 0.001 });
 * filter.add('alice');
 * filter.has('alice'); // true
 * filter.has('bob');   // false (or, rarely, a false positive)
 * ```
 */
export class BloomFilter extends WasmOwned {
  #bitCount: number;
  #hashCount: number;
  #byteLength: number;
  #blocked: boolean;
  #seed: bigint;

  /**
   * A filter with an exact bit count and hash count. Most users want
   * {@link BloomFilter.create}.
   *
   * @throws TypeError when an option has the wrong type; RangeError when a value
   *   is out of range or the array does not fit in memory; CuckooFilterError
   *   before `init()` resolved.
   * @example
   * ```ts
   * // 13 bits per item for 100,000 items, k = round(0.69 × 13) = 9: the paper's Table 3 setting.
   * const filter = new BloomFilter({ bitCount: 1_300_000, hashCount: 9, blocked: true });
   * ```
   */
  constructor(options: BloomFilterOptions) {
    const runtime = requireRuntime('new BloomFilter');
    super(runtime, adoptedHandle ?? createBloomHandle(runtime, options), 'BloomFilter', (module, handle) =>
      module.destroyBloom(handle),
    );
    const info = this.#describe(this.live('constructor'));
    this.#bitCount = info[BloomInfoField.BitCount]!;
    this.#hashCount = info[BloomInfoField.HashCount]!;
    this.#byteLength = info[BloomInfoField.SizeInBytes]!;
    this.#blocked = info[BloomInfoField.Blocked] === 1;
    this.#seed = (BigInt(info[BloomInfoField.SeedHigh]!) << 32n) | BigInt(info[BloomInfoField.SeedLow]!);
  }

  /**
   * A filter for `capacity` items at a false-positive rate near `fpr`:
   * m = ⌈−capacity · ln(fpr) / (ln 2)²⌉ bits and k = round(ln 2 · m / capacity).
   *
   * @throws TypeError / RangeError for bad options, or when the rate would
   *   need more than 32 hash functions or the array more than 2^32 bits.
   * @example
   * ```ts
   * const filter = BloomFilter.create({ capacity: 1_000_000, fpr: 0.001 });
   * filter.bitCount;  // 14377588 (14.4 bits per item)
   * filter.hashCount; // 10
   * ```
   */
  static create(options: BloomCreateOptions): BloomFilter {
    const runtime = requireRuntime('BloomFilter.create');
    const o = checkObject(options, 'BloomFilter.create: options', '{ capacity, fpr, blocked?, seed? }');
    const capacity = checkInteger(o.capacity, 'BloomFilter.create: capacity', 1, Number.MAX_SAFE_INTEGER, 'an integer from 1 to 2^53 - 1');
    if (typeof o.fpr !== 'number') {
      throw new TypeError(`BloomFilter.create: fpr must be a number greater than 0 and less than 1, got ${describeValue(o.fpr)}`);
    }
    if (!(o.fpr > 0 && o.fpr < 1)) throw new RangeError(`BloomFilter.create: fpr must be greater than 0 and less than 1, got ${o.fpr}`);
    const blocked = checkFlag(o.blocked, 'BloomFilter.create: blocked');
    const [seedLow, seedHigh] = checkSeed(o.seed, 'BloomFilter.create: seed');
    const status = runtime.module.createBloomForCapacity(blocked, capacity, o.fpr, seedLow, seedHigh, runtime.results);
    const handle = takeHandle(runtime, status, 'BloomFilter.create');
    adoptedHandle = handle;
    try {
      return new BloomFilter(undefined as unknown as BloomFilterOptions);
    } finally {
      adoptedHandle = undefined;
    }
  }

  #describe(handle: Handle): Float64Array {
    const { module, results } = this.runtime;
    module.describeBloom(handle, results);
    return module.HEAPF64.subarray(results >>> 3, (results >>> 3) + BloomInfoField.Count);
  }

  /**
   * Adds an item: sets its k bits. Returns true when at least one of them was
   * still 0, so the item was certainly new; false when all were set already (a
   * repeat, or an item that was a false positive). It counts in
   * {@link BloomFilter.size} either way.
   * @example
   * ```ts
   * filter.add('alice'); // true
   * filter.add('alice'); // false: nothing changed
   * ```
   */
  add(item: Item): boolean {
    return this.withItem('add', 'BloomFilter.add: item', item, bloomInsertItem);
  }

  /**
   * True if the item may be in the filter (false positives happen at about
   * {@link BloomFilter.expectedFpr}); false if it certainly is not.
   * @example
   * ```ts
   * filter.has('alice'); // true after filter.add('alice')
   * ```
   */
  has(item: Item): boolean {
    return this.withItem('has', 'BloomFilter.has: item', item, bloomContainsItem);
  }

  /**
   * Adds items in order; returns how many were certainly new (set at least one
   * bit), as {@link BloomFilter.add}'s true. Every item is added: a Bloom
   * filter never refuses one. A typed array of integers is the fastest input.
   * If an item is invalid, the items before it are added and the error is thrown.
   * @example
   * ```ts
   * filter.addMany(['a', 'b', 'a']);            // 2
   * filter.addMany(new Uint32Array([1, 2, 3])); // 3
   * ```
   */
  addMany(items: ItemBatch): number {
    const handle = this.live('addMany');
    const { module, writer } = this.runtime;
    let fresh = 0;
    forEachChunk(writer, items, 'BloomFilter.addMany: items', true, (count, packed) => {
      fresh += packed
        ? module.bloomInsertPacked(handle, writer.data.address, writer.aux.address, count)
        : module.bloomInsertFixed(handle, writer.data.address, 8, count);
    });
    return fresh;
  }

  /**
   * Looks up many items at once: entry i of the result is 1 if item i may be
   * present, 0 if not.
   * @example
   * ```ts
   * filter.hasMany(new Float64Array([1, 2, 3])); // Uint8Array [1, 1, 0]
   * ```
   */
  hasMany(items: ItemBatch): Uint8Array {
    const handle = this.live('hasMany');
    const { module, writer } = this.runtime;
    const parts: Uint8Array[] = [];
    forEachChunk(writer, items, 'BloomFilter.hasMany: items', false, (count, packed) => {
      const out = writer.answers.reserve(count);
      if (packed) module.bloomContainsPacked(handle, writer.data.address, writer.aux.address, count, out);
      else module.bloomContainsFixed(handle, writer.data.address, 8, count, out);
      parts.push(module.HEAPU8.slice(out, out + count));
    });
    if (parts.length === 1) return parts[0]!;
    const answers = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      answers.set(part, offset);
      offset += part.length;
    }
    return answers;
  }

  /**
   * The k bit positions (0 … bitCount − 1) that the item sets and that
   * {@link BloomFilter.has} tests, in probe order; a position can repeat.
   * For a blocked filter they all lie in one 512-bit block. For drawing the
   * filter: `has(item)` is true exactly when every one of these bits is set.
   * @example
   * ```ts
   * const filter = new BloomFilter({ bitCount: 64, hashCount: 3 });
   * filter.probePositions('alice'); // Uint32Array [48, 7, 30]
   * ```
   */
  probePositions(item: Item): Uint32Array {
    const handle = this.live('probePositions');
    const { module, writer } = this.runtime;
    const length = writer.writeSingle(item, 'BloomFilter.probePositions: item');
    const out = writer.answers.reserve(this.#hashCount * 4);
    const count = module.bloomProbePositions(handle, writer.data.address, length, out);
    return module.HEAPU32.slice(out >>> 2, (out >>> 2) + count);
  }

  /**
   * Items added so far, repeats included (every `add`, and every item of `addMany`).
   * @example
   * ```ts
   * filter.add('a'); filter.add('a'); filter.size; // 2
   * ```
   */
  get size(): number {
    return this.runtime.module.bloomItemCount(this.live('size'));
  }

  /**
   * Bits in the array, m (for a blocked filter, rounded up to a multiple of 512).
   * @example
   * ```ts
   * new BloomFilter({ bitCount: 1000, hashCount: 3, blocked: true }).bitCount; // 1024
   * ```
   */
  get bitCount(): number {
    this.live('bitCount');
    return this.#bitCount;
  }

  /**
   * Bits set and tested per item, k.
   * @example
   * ```ts
   * BloomFilter.create({ capacity: 1000, fpr: 0.01 }).hashCount; // 7
   * ```
   */
  get hashCount(): number {
    this.live('hashCount');
    return this.#hashCount;
  }

  /**
   * Bytes of WebAssembly memory the bit array uses: bitCount / 8 rounded up to whole 8-byte words.
   * @example
   * ```ts
   * new BloomFilter({ bitCount: 100, hashCount: 3 }).byteLength; // 16
   * ```
   */
  get byteLength(): number {
    this.live('byteLength');
    return this.#byteLength;
  }

  /**
   * True for a blocked Bloom filter.
   * @example
   * ```ts
   * BloomFilter.create({ capacity: 1000, fpr: 0.01, blocked: true }).blocked; // true
   * ```
   */
  get blocked(): boolean {
    this.live('blocked');
    return this.#blocked;
  }

  /**
   * The seed of the item hash.
   * @example
   * ```ts
   * new BloomFilter({ bitCount: 64, hashCount: 2, seed: 7 }).seed; // 7n
   * ```
   */
  get seed(): bigint {
    this.live('seed');
    return this.#seed;
  }

  /**
   * bitCount / size: bits per item added (Infinity while empty).
   * @example
   * ```ts
   * const filter = new BloomFilter({ bitCount: 1000, hashCount: 7 });
   * filter.addMany(['a', 'b']); filter.bitsPerItem; // 500
   * ```
   */
  get bitsPerItem(): number {
    return this.#describe(this.live('bitsPerItem'))[BloomInfoField.BitsPerItem]!;
  }

  /**
   * The false-positive rate expected with {@link BloomFilter.size} items in:
   * (1 − e^(−k·n/m))^k for a standard filter; for a blocked filter, that rate
   * for one 512-bit block averaged over the Poisson-distributed number of
   * items per block (Putze, Sanders and Singler), which is higher.
   * @example
   * ```ts
   * const filter = BloomFilter.create({ capacity: 1000, fpr: 0.01 });
   * filter.addMany(Array.from({ length: 1000 }, (_, i) => i));
   * filter.expectedFpr; // 0.0100 (about)
   * ```
   */
  get expectedFpr(): number {
    return this.#describe(this.live('expectedFpr'))[BloomInfoField.ExpectedFpr]!;
  }
}
