// The public BloomFilter class: argument checking, ownership and conversion
// around the core's StandardBloomFilter and BlockedBloomFilter
// (cpp/include/cuckoo/bloom_filter.hpp). No filter logic lives here.

import { answersOverChunks, countOverChunks } from './batches.js';
import type { Address, Handle } from './core-exports.js';
import { requireFull, type BloomInfo, type FullModule } from './full-module.js';
import { adopted, adoptedHandle, rebuildIn, takeHandle, WasmOwned, type Adopted, type Release } from './handles.js';
import type { ItemBatch } from './item-filter.js';
import type { Item } from './items.js';
import type { Runtime } from './runtime.js';
import { checkFlag, checkInteger, checkNumberOption, checkObject, checkSeed } from './validate.js';

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
   * about 2^-32.5 (which would need more than 32 hash functions); default
   * 0.001, as for a CuckooFilter. A standard
   * filter lands within 1 % of it (up to 12 % above for targets over 0.3,
   * where k is 1 or 2); a blocked filter gets the same memory and a higher
   * rate, which {@link BloomFilter.expectedFpr} reports.
   */
  fpr?: number;
  /** As in {@link BloomFilterOptions.blocked}. */
  blocked?: boolean;
  /** As in {@link BloomFilterOptions.seed}. */
  seed?: number | bigint;
}

/** The full module's embind functions, where every BloomFilter lives. */
const embindOf = (runtime: Runtime): FullModule => runtime.embind as FullModule;

const release: Release = (runtime, handle) => embindOf(runtime).destroyBloom(handle);

/** Creates the core filter for `new BloomFilter`; the core checks the ranges (see filter.ts). */
function createBloomHandle(runtime: Runtime, options: unknown): Handle {
  const what = 'new BloomFilter';
  const o = checkObject(options, `${what}: options`, '{ bitCount, hashCount, blocked?, seed? }');
  const bitCount = checkNumberOption(runtime, o, 'bitCount', what);
  const hashCount = checkNumberOption(runtime, o, 'hashCount', what);
  const blocked = checkFlag(o.blocked, `${what}: blocked`);
  const [seedLow, seedHigh] = checkSeed(o.seed, `${what}: seed`);
  const status = embindOf(runtime).createBloom(blocked, bitCount, hashCount, seedLow, seedHigh, runtime.results);
  return takeHandle(runtime, status, what, o);
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
  constructor(options: BloomFilterOptions);
  /** @internal */
  constructor(options: BloomFilterOptions | Adopted);
  constructor(options: BloomFilterOptions | Adopted) {
    const { runtime } = requireFull('new BloomFilter');
    super(runtime, adoptedHandle(options) ?? createBloomHandle(runtime, options), 'BloomFilter', release);
    const info = this.#describe('constructor');
    this.#bitCount = info.bitCount;
    this.#hashCount = info.hashCount;
    this.#byteLength = info.byteLength;
    this.#blocked = info.blocked;
    this.#seed = (BigInt(info.seedHigh) << 32n) | BigInt(info.seedLow);
  }

  /**
   * A filter for `capacity` items at a false-positive rate near `fpr`:
   * m = ⌈−capacity · ln(fpr) / (ln 2)²⌉ bits and k = round(ln 2 · m / capacity).
   *
   * @throws TypeError / RangeError for bad options, or when the rate would
   *   need more than 32 hash functions or the array more than 2^32 bits.
   * @example
   * ```ts
   * const filter = BloomFilter.create({ capacity: 1_000_000 }); // fpr 0.001
   * filter.bitCount;  // 14377588 (14.4 bits per item)
   * filter.hashCount; // 10
   * ```
   */
  static create(options: BloomCreateOptions): BloomFilter {
    const what = 'BloomFilter.create';
    const { runtime, full } = requireFull(what);
    const o = checkObject(options, `${what}: options`, '{ capacity, fpr?, blocked?, seed? }');
    // A JavaScript number is exact only up to 2^53 - 1: that limit is ours, not the core's.
    const capacity = checkInteger(o.capacity, `${what}: capacity`, 1, Number.MAX_SAFE_INTEGER, 'an integer from 1 to 2^53 - 1');
    const fpr = checkNumberOption(runtime, o, 'fpr', what);
    const blocked = checkFlag(o.blocked, `${what}: blocked`);
    const [seedLow, seedHigh] = checkSeed(o.seed, `${what}: seed`);
    const status = full.createBloomForCapacity(blocked, capacity, fpr, seedLow, seedHigh, runtime.results);
    return new BloomFilter(adopted(takeHandle(runtime, status, what, o)));
  }

  /** @internal A BloomFilter lives in the full module, which nothing replaces: it never moves. */
  protected override [rebuildIn](): Handle {
    throw new Error('cuckoo-wasm: a BloomFilter cannot move to another module');
  }

  #describe(method: string): BloomInfo {
    return embindOf(this.runtime).describeBloom(this.live(method));
  }

  /** One item written to wasm memory and passed to `call`. */
  #itemCall<T>(method: string, item: unknown, call: (handle: Handle, address: Address, length: number) => T): T {
    const handle = this.live(method);
    return this.runtime.withItem(item, `BloomFilter.${method}: item`, (address, length) => call(handle, address, length));
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
    return this.#itemCall('add', item, embindOf(this.runtime).bloomInsertItem);
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
    return this.#itemCall('has', item, embindOf(this.runtime).bloomContainsItem);
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
    const full = embindOf(this.runtime);
    return countOverChunks(
      this.runtime,
      items,
      'BloomFilter.addMany: items',
      {
        packed: (data, offsets, count) => full.bloomInsertPacked(handle, data, offsets, count),
        fixed: (data, width, count) => full.bloomInsertFixed(handle, data, width, count),
      },
      false,
    );
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
    const full = embindOf(this.runtime);
    return answersOverChunks(this.runtime, items, 'BloomFilter.hasMany: items', {
      packed: (data, offsets, count, out) => full.bloomContainsPacked(handle, data, offsets, count, out),
      fixed: (data, width, count, out) => full.bloomContainsFixed(handle, data, width, count, out),
    });
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
    const runtime = this.runtime;
    const out = runtime.batchAnswers.reserve(this.#hashCount * 4);
    return this.#itemCall('probePositions', item, (handle, address, length) => {
      const count = embindOf(runtime).bloomProbePositions(handle, address, length, out);
      return runtime.u32.slice(out >>> 2, (out >>> 2) + count);
    });
  }

  /**
   * Items added so far, repeats included (every `add`, and every item of `addMany`).
   * @example
   * ```ts
   * filter.add('a'); filter.add('a'); filter.size; // 2
   * ```
   */
  get size(): number {
    return embindOf(this.runtime).bloomItemCount(this.live('size'));
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
    return this.#describe('bitsPerItem').bitsPerItem;
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
    return this.#describe('expectedFpr').expectedFpr;
  }
}
