// The public ScalableCuckooFilter class: argument checking, ownership and
// conversion around the core's growable filter (cpp/include/cuckoo/scalable_filter.hpp).

import type { CoreExports, Handle, ItemCalls } from './core-exports.js';
import { adopted, adoptedHandle, checkStatus, takeHandle, type Adopted, type Release } from './handles.js';
import { callsIn, ItemFilter } from './item-filter.js';
import { describeValue } from './items.js';
import { requireRuntime } from './loader.js';
import type { Runtime } from './runtime.js';
import { checkEvictionOptions, checkNumberOption, checkObject } from './validate.js';

/** Options of `ScalableCuckooFilter.create(...)`: all optional, `new ScalableCuckooFilter()` works. */
export interface ScalableCreateOptions {
  /**
   * Items the first table holds before it grows: an integer from 1 to 2^32
   * (default 100: 28 buckets, under 300 bytes at the default rate). The filter grows past it as needed.
   */
  initialCapacity?: number;
  /** The false-positive rate kept at every size: from 10^-7 to less than 1 (default 0.001, 0.1 %). */
  fpr?: number;
  /** How much the table grows each time it grows: from 1.01 to 2 (default 1.2). */
  growth?: number;
  /** Evictions an insert may do before the table grows: 0 to 1,000,000 (default 500). */
  maxKicks?: number;
  /** Seeds the item hash and the eviction choices: a non-negative safe integer or a bigint below 2^64 (default 0). */
  seed?: number | bigint;
  /** Semi-sorted buckets: one bit less per slot (default false). */
  semiSort?: boolean;
}

/** The parameters of a growable filter, as returned by {@link ScalableCuckooFilter.params}. */
export interface ScalableCuckooFilterParams {
  readonly initialCapacity: number;
  readonly fpr: number;
  readonly growth: number;
  readonly maxKicks: number;
  readonly seed: bigint;
  readonly semiSort: boolean;
}

function createHandle(runtime: Runtime, options: unknown = {}, what: string): Handle {
  const o = checkObject(options, `${what}: options`, '{ initialCapacity?, fpr?, growth?, maxKicks?, seed?, semiSort? }');
  const initialCapacity = checkNumberOption(runtime, o, 'initialCapacity', what);
  const fpr = checkNumberOption(runtime, o, 'fpr', what);
  const growth = checkNumberOption(runtime, o, 'growth', what);
  const { maxKicks, seedLow, seedHigh, semiSort } = checkEvictionOptions(runtime, o, what);
  const status = runtime.core.scalable_create(initialCapacity, fpr, growth, maxKicks, seedLow, seedHigh, semiSort ? 1 : 0, runtime.results);
  return takeHandle(runtime, status, what, o);
}

/** The class's calls in each module it has lived in. */
const calls = new WeakMap<Runtime, ItemCalls>();

/** ScalableCuckooFilter's item calls, named one by one (bindings/scalable_exports.cpp). */
function callsOfModule(x: CoreExports): ItemCalls {
  return {
    add: x.scalable_add,
    addUnique: x.scalable_add_unique,
    has: x.scalable_has,
    delete: x.scalable_delete,
    count: x.scalable_count,
    addNumber: x.scalable_add_number,
    addUniqueNumber: x.scalable_add_unique_number,
    hasNumber: x.scalable_has_number,
    deleteNumber: x.scalable_delete_number,
    countNumber: x.scalable_count_number,
    addPacked: x.scalable_add_packed,
    hasPacked: x.scalable_has_packed,
    deletePacked: x.scalable_delete_packed,
    addFixed: x.scalable_add_fixed,
    hasFixed: x.scalable_has_fixed,
    deleteFixed: x.scalable_delete_fixed,
    serializedSize: x.scalable_serialized_size,
    serialize: x.scalable_serialize,
    deserialize: x.scalable_deserialize,
    clone: x.scalable_clone,
    destroy: x.scalable_destroy,
    merge: x.scalable_merge,
  };
}

const release: Release = (runtime, handle) => runtime.core.scalable_destroy(handle);

/**
 * A cuckoo filter that grows as items come: no capacity to know in advance,
 * and its false-positive rate stays at or below `fpr` however far it grows.
 * Adds fail only when memory runs out, or for items added many times each
 * (README, Limits). Same items, methods and batches as
 * {@link CuckooFilter}; its own byte format (FORMAT.md, version 3). The design
 * and its costs (bits per item, speed) are in the README.
 *
 * @example
 * ```ts
 * import { init, ScalableCuckooFilter } from 'cuckoo-wasm';
 * await init();
 * using seen = new ScalableCuckooFilter(); // starts at 100 items, fpr 0.001 at every size
 * for (const url of crawl()) if (!seen.has(url)) seen.add(url);
 * ```
 */
export class ScalableCuckooFilter extends ItemFilter {
  #params: ScalableCuckooFilterParams | undefined;

  /**
   * The same as {@link ScalableCuckooFilter.create}: every option has a default.
   * @example
   * ```ts
   * const filter = new ScalableCuckooFilter(); // initialCapacity 100, fpr 0.001
   * const coarse = new ScalableCuckooFilter({ initialCapacity: 1000, fpr: 0.01 });
   * ```
   */
  constructor(options?: ScalableCreateOptions);
  /** @internal */
  constructor(options?: ScalableCreateOptions | Adopted);
  constructor(options?: ScalableCreateOptions | Adopted) {
    const what = 'new ScalableCuckooFilter';
    const runtime = requireRuntime(what);
    super(runtime, adoptedHandle(options) ?? createHandle(runtime, options, what), 'ScalableCuckooFilter', release);
  }

  /** @internal */
  protected override [callsIn](runtime: Runtime): ItemCalls {
    let found = calls.get(runtime);
    if (found === undefined) calls.set(runtime, (found = callsOfModule(runtime.core)));
    return found;
  }

  /**
   * A growable filter whose first table holds `initialCapacity` items
   * (default 100) and whose false-positive rate stays at most `fpr`
   * (default 0.001) at every size.
   *
   * @throws TypeError / RangeError for bad options (each names the option).
   * @example
   * ```ts
   * const small = ScalableCuckooFilter.create(); // 100 items at first, fpr 0.001
   * const filter = ScalableCuckooFilter.create({ initialCapacity: 1000, fpr: 0.001, seed: 42 });
   * filter.addMany(new Uint32Array(1_000_000).map((_, i) => i)); // 1000000: it grew
   * ```
   */
  static create(options?: ScalableCreateOptions): ScalableCuckooFilter {
    const what = 'ScalableCuckooFilter.create';
    return new ScalableCuckooFilter(adopted(createHandle(requireRuntime(what), options, what)));
  }

  /**
   * Loads a growable filter from {@link ScalableCuckooFilter.toBytes} output;
   * every field and the checksum are verified (FORMAT.md, version 3).
   *
   * @throws TypeError if `bytes` is not a Uint8Array; FormatError (with a
   *   `code`) for invalid bytes, including those of a CuckooFilter
   *   (UNSUPPORTED_VERSION); RangeError if it does not fit in memory.
   * @example
   * ```ts
   * const copy = ScalableCuckooFilter.fromBytes(filter.toBytes());
   * ```
   */
  static fromBytes(bytes: Uint8Array): ScalableCuckooFilter {
    const what = 'ScalableCuckooFilter.fromBytes';
    const runtime = requireRuntime(what);
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`${what}: bytes must be a Uint8Array, got ${describeValue(bytes)}`);
    const status = runtime.withTemporary(bytes.length, what, (address) => {
      runtime.u8.set(bytes, address);
      return runtime.core.scalable_deserialize(address, bytes.length, runtime.results);
    });
    return new ScalableCuckooFilter(adopted(takeHandle(runtime, status, what)));
  }

  /**
   * Removes every item: the filter is then identical to a new one with the
   * same options, back to its first table.
   * @example
   * ```ts
   * filter.clear(); filter.size; // 0
   * ```
   */
  clear(): void {
    checkStatus(this.runtime, this.runtime.core.scalable_clear(this.live('clear')), 'ScalableCuckooFilter.clear');
  }

  /**
   * An independent copy; dispose it separately.
   * @example
   * ```ts
   * using snapshot = filter.clone();
   * ```
   */
  clone(): ScalableCuckooFilter {
    const status = this.runtime.core.scalable_clone(this.live('clone'), this.runtime.results);
    return new ScalableCuckooFilter(adopted(takeHandle(this.runtime, status, 'ScalableCuckooFilter.clone')));
  }

  /**
   * Adds every item of `other`, growing as needed. Both must have the same
   * fpr, initialCapacity, seed and semiSort and the same current table size
   * (a CuckooFilterError with code INCOMPATIBLE says what differs).
   * Copies of one item share its two buckets at every size, so a merge
   * that would hold more than 8 copies of an item throws a RangeError, as
   * `add` refuses a ninth (a fifth while both of its buckets are one
   * bucket, in small tables); so does one whose copies crowd buckets that
   * growth cannot separate (README, Limits). On any error nothing changes.
   * @example
   * ```ts
   * using a = ScalableCuckooFilter.create({ initialCapacity: 1000, fpr: 0.001, seed: 3 });
   * using b = ScalableCuckooFilter.create({ initialCapacity: 1000, fpr: 0.001, seed: 3 });
   * a.add('x'); b.add('y');
   * a.merge(b); a.has('y'); // true
   * ```
   */
  merge(other: ScalableCuckooFilter): void {
    checkStatus(this.runtime, this.mergeStatus(other, 'ScalableCuckooFilter.merge'), 'ScalableCuckooFilter.merge');
  }

  /** Number of items added and not deleted. */
  get size(): number {
    return this.runtime.core.scalable_size(this.live('size'));
  }

  /** Buckets of the table now: it grows by `growth` each time its load reaches 0.9. */
  get bucketCount(): number {
    return this.runtime.core.scalable_bucket_count(this.live('bucketCount'));
  }

  /** Bits per slot: fingerprint plus tail, chosen once so the rate holds up to the largest table. */
  get slotBits(): number {
    const handle = this.live('slotBits');
    return this.runtime.core.scalable_fingerprint_bits(handle) + this.runtime.core.scalable_tail_bits(handle);
  }

  /**
   * The table's load: the share of its slots in use, at most 1 (entries
   * include the copies a split makes of entries whose tail is spent; the
   * stash is `stashed`). The table grows once it passes 0.9.
   * @example
   * ```ts
   * seen.loadFactor; // between 0.9 / growth and 0.9 once it has grown
   * ```
   */
  get loadFactor(): number {
    return this.runtime.core.scalable_load_factor(this.live('loadFactor'));
  }

  /**
   * Entries waiting in the stash, outside the table: 0 except while the
   * table cannot grow (the filter is then `full`).
   * @example
   * ```ts
   * seen.stashed; // 0
   * ```
   */
  get stashed(): number {
    return this.runtime.core.scalable_stashed(this.live('stashed'));
  }

  /** Bytes of WebAssembly memory the table uses. */
  get byteLength(): number {
    return this.runtime.core.scalable_byte_length(this.live('byteLength'));
  }

  /** Table bits per item (Infinity when empty). */
  get bitsPerItem(): number {
    return this.runtime.core.scalable_bits_per_item(this.live('bitsPerItem'));
  }

  /** The bound on the false-positive rate at the current size; at most `fpr` at every size. */
  get fprBound(): number {
    return this.runtime.core.scalable_fpr_bound(this.live('fprBound'));
  }

  /**
   * True while an entry waits for room that growth cannot give, and adds
   * fail: the table could not grow (memory), or the entry's buckets are
   * crowded by copies no split separates while the table has 256 buckets or
   * more and over 4 per item (README, Limits). Deletes that free its
   * buckets end it; no item is lost meanwhile.
   */
  get full(): boolean {
    return this.runtime.core.scalable_full(this.live('full')) !== 0;
  }

  /** The options the filter was created with. */
  get params(): ScalableCuckooFilterParams {
    const handle = this.live('params');
    if (this.#params === undefined) {
      const { core } = this.runtime;
      this.#params = Object.freeze({
        initialCapacity: core.scalable_initial_capacity(handle),
        fpr: core.scalable_fpr(handle),
        growth: core.scalable_growth(handle),
        maxKicks: core.scalable_max_kicks(handle),
        seed: (BigInt(core.scalable_seed_high(handle) >>> 0) << 32n) | BigInt(core.scalable_seed_low(handle) >>> 0),
        semiSort: core.scalable_semi_sort(handle) !== 0,
      });
    }
    return this.#params;
  }
}
