// The public CuckooFilter class: argument checking, ownership and conversion
// around the core. No filter logic lives here.

import type { CoreExports, Handle, ItemCalls } from './core-exports.js';
import { adopted, adoptedHandle, checkStatus, takeHandle, type Adopted, type Release } from './handles.js';
import { callsIn, ItemFilter } from './item-filter.js';
import { describeValue } from './items.js';
import { requireRuntime } from './loader.js';
import type { Runtime } from './runtime.js';
import { checkEvictionOptions, checkInteger, checkNumberOption, checkObject, checkTableFlags } from './validate.js';
import type { CreateOptions, CuckooFilterOptions, CuckooFilterParams } from './filter-options.js';

export type { CreateOptions, CuckooFilterOptions, CuckooFilterParams } from './filter-options.js';
export type { ItemBatch } from './item-filter.js';

/**
 * Creates the core filter for `new CuckooFilter`. Only types are checked
 * here: the core checks every range and its status names the option.
 */
function createHandle(runtime: Runtime, options: unknown): Handle {
  const what = 'new CuckooFilter';
  const o = checkObject(options, `${what}: options`, '{ bucketCount, bucketSize, fingerprintBits, maxKicks?, seed?, semiSort?, keyedHash?, multiplyShiftHash? }');
  const bucketCount = checkNumberOption(runtime, o, 'bucketCount', what);
  const bucketSize = checkNumberOption(runtime, o, 'bucketSize', what);
  const bits = checkNumberOption(runtime, o, 'fingerprintBits', what);
  const { maxKicks, seedLow, seedHigh, semiSort } = checkEvictionOptions(runtime, o, what);
  const flags = checkTableFlags(o, semiSort, what);
  const status = runtime.core.cuckoo_create(bits, bucketSize, bucketCount, maxKicks, seedLow, seedHigh, flags, runtime.results);
  return takeHandle(runtime, status, what, o);
}

/** The class's calls in each module it has lived in. */
const calls = new WeakMap<Runtime, ItemCalls>();

/** CuckooFilter's item calls, named one by one (bindings/cuckoo_exports.cpp). */
function callsOfModule(x: CoreExports): ItemCalls {
  return {
    add: x.cuckoo_add,
    addUnique: x.cuckoo_add_unique,
    has: x.cuckoo_has,
    delete: x.cuckoo_delete,
    count: x.cuckoo_count,
    addNumber: x.cuckoo_add_number,
    addUniqueNumber: x.cuckoo_add_unique_number,
    hasNumber: x.cuckoo_has_number,
    deleteNumber: x.cuckoo_delete_number,
    countNumber: x.cuckoo_count_number,
    addPacked: x.cuckoo_add_packed,
    hasPacked: x.cuckoo_has_packed,
    deletePacked: x.cuckoo_delete_packed,
    addFixed: x.cuckoo_add_fixed,
    hasFixed: x.cuckoo_has_fixed,
    deleteFixed: x.cuckoo_delete_fixed,
    serializedSize: x.cuckoo_serialized_size,
    serialize: x.cuckoo_serialize,
    deserialize: x.cuckoo_deserialize,
    clone: x.cuckoo_clone,
    destroy: x.cuckoo_destroy,
    merge: x.cuckoo_merge,
  };
}

const release: Release = (runtime, handle) => runtime.core.cuckoo_destroy(handle);

/**
 * A cuckoo filter: a compact set that answers "probably present" or
 * "definitely absent", supports deletion, and never loses an item it
 * accepted. Its memory lives in WebAssembly: call {@link CuckooFilter.dispose}
 * (or use `using`) when done.
 *
 * Items are strings (as UTF-8), byte arrays, safe-integer numbers and bigints
 * (as 8-byte little-endian int64): `'abc'` equals `new TextEncoder().encode('abc')`,
 * `5` equals `5n`, and `'5'` is a different item.
 *
 * @example
 * ```ts
 * import { init, CuckooFilter } from 'cuckoo-wasm';
 * await init();
 * using filter = CuckooFilter.create({ capacity: 1_000_000, fpr: 0.001 });
 * filter.add('alice');
 * filter.has('alice'); // true
 * filter.has('bob');   // false (or, rarely, a false positive)
 * filter.delete('alice');
 * ```
 */
export class CuckooFilter extends ItemFilter {
  #params: CuckooFilterParams | undefined;

  /**
   * A filter with an exact table shape. Most users want {@link CuckooFilter.create}.
   *
   * @throws TypeError when an option has the wrong type; RangeError when a value
   *   is out of range or the table does not fit in memory; CuckooFilterError
   *   before `init()` resolved.
   * @example
   * ```ts
   * const filter = new CuckooFilter({ bucketCount: 65536, bucketSize: 4, fingerprintBits: 12 });
   * ```
   */
  constructor(options: CuckooFilterOptions);
  /** @internal */
  constructor(options: CuckooFilterOptions | Adopted);
  constructor(options: CuckooFilterOptions | Adopted) {
    const runtime = requireRuntime('new CuckooFilter');
    super(runtime, adoptedHandle(options) ?? createHandle(runtime, options), 'CuckooFilter', release);
  }

  /** @internal */
  protected override [callsIn](runtime: Runtime): ItemCalls {
    let found = calls.get(runtime);
    if (found === undefined) calls.set(runtime, (found = callsOfModule(runtime.core)));
    return found;
  }

  /**
   * A filter sized to hold `capacity` items at a false-positive rate of at most
   * `fpr`: the bucket size and fingerprint width with the fewest bits per item
   * for the rate (the paper's Section 5.1), and the smallest bucket count whose
   * tables hold `capacity` items before their first refused add, so bits per
   * item at capacity is about fingerprintBits / 0.95. Adding `capacity` items
   * succeeds (with the default maxKicks or more); more may not. Without
   * `fpr`, the rate is at most 0.001 (0.1 %).
   *
   * @throws TypeError / RangeError for bad options, or when the rate would
   *   need fingerprints over 32 bits or the table does not fit in memory.
   * @example
   * ```ts
   * const filter = CuckooFilter.create({ capacity: 1000 }); // fpr 0.001: 269 buckets of 4, 13-bit fingerprints
   * const precise = CuckooFilter.create({ capacity: 1_000_000, fpr: 0.001, seed: 42 });
   * precise.params; // { bucketCount: 264551, bucketSize: 4, fingerprintBits: 13, maxKicks: 500, seed: 42n, semiSort: false, keyedHash: false, multiplyShiftHash: false }
   * const compact = CuckooFilter.create({ capacity: 1_000_000, fpr: 0.001, semiSort: true }); // 1 bit less per entry
   * ```
   */
  static create(options: CreateOptions): CuckooFilter {
    const what = 'CuckooFilter.create';
    const runtime = requireRuntime(what);
    const o = checkObject(options, `${what}: options`, '{ capacity, fpr?, maxKicks?, seed?, semiSort?, keyedHash?, multiplyShiftHash? }');
    // A JavaScript number is exact only up to 2^53 - 1: that limit is ours, not the core's.
    const capacity = checkInteger(o.capacity, `${what}: capacity`, 1, Number.MAX_SAFE_INTEGER, 'an integer from 1 to 2^53 - 1');
    const fpr = checkNumberOption(runtime, o, 'fpr', what);
    const { maxKicks, seedLow, seedHigh, semiSort } = checkEvictionOptions(runtime, o, what);
    const flags = checkTableFlags(o, semiSort, what);
    const status = runtime.core.cuckoo_create_for_capacity(capacity, fpr, maxKicks, seedLow, seedHigh, flags, runtime.results);
    return new CuckooFilter(adopted(takeHandle(runtime, status, what, o)));
  }

  /**
   * Loads a filter from {@link CuckooFilter.toBytes} output. Every field and
   * the checksum are verified (FORMAT.md).
   *
   * @throws TypeError if `bytes` is not a Uint8Array; FormatError (with a
   *   `code`) for invalid bytes; RangeError if the filter does not fit in memory.
   * @example
   * ```ts
   * const copy = CuckooFilter.fromBytes(await fs.promises.readFile('words.cf'));
   * ```
   */
  static fromBytes(bytes: Uint8Array): CuckooFilter {
    const runtime = requireRuntime('CuckooFilter.fromBytes');
    if (!(bytes instanceof Uint8Array)) {
      throw new TypeError(`CuckooFilter.fromBytes: bytes must be a Uint8Array, got ${describeValue(bytes)}`);
    }
    const { core } = runtime;
    // The header first: a foreign or oversized input is refused before it is
    // copied into wasm memory (a 2 GiB array of zeros is BAD_MAGIC, not out of memory).
    const headerLength = Math.min(bytes.length, core.serialized_header_bytes());
    const headerStatus = runtime.withTemporary(headerLength, 'CuckooFilter.fromBytes', (address) => {
      runtime.u8.set(bytes.subarray(0, headerLength), address);
      return core.cuckoo_check_header(address, bytes.length);
    });
    checkStatus(runtime, headerStatus, 'CuckooFilter.fromBytes');
    const status = runtime.withTemporary(bytes.length, 'CuckooFilter.fromBytes', (address) => {
      runtime.u8.set(bytes, address);
      return core.cuckoo_deserialize(address, bytes.length, runtime.results);
    });
    return new CuckooFilter(adopted(takeHandle(runtime, status, 'CuckooFilter.fromBytes')));
  }

  /**
   * Removes every item; the filter is then identical to a new one with the same parameters.
   * @example
   * ```ts
   * filter.clear(); filter.size; // 0
   * ```
   */
  clear(): void {
    this.runtime.core.cuckoo_clear(this.live('clear'));
  }

  /**
   * An independent copy with the same contents and parameters; dispose it separately.
   * @example
   * ```ts
   * using snapshot = filter.clone();
   * ```
   */
  clone(): CuckooFilter {
    const handle = this.live('clone');
    const status = this.runtime.core.cuckoo_clone(handle, this.runtime.results);
    return new CuckooFilter(adopted(takeHandle(this.runtime, status, 'CuckooFilter.clone')));
  }

  /**
   * Adds every item of `other` into this filter, without the items: a stored
   * fingerprint and its bucket give both its buckets. `other` must have the
   * same parameters and seed (a CuckooFilterError with code INCOMPATIBLE
   * names the first that differs). Returns false, with nothing changed, when
   * this filter cannot hold them all.
   * @example
   * ```ts
   * using a = CuckooFilter.create({ capacity: 2000, fpr: 0.01, seed: 7 });
   * using b = CuckooFilter.create({ capacity: 2000, fpr: 0.01, seed: 7 });
   * a.add('x'); b.add('y');
   * a.merge(b); // true: a has 'x' and 'y'
   * ```
   */
  merge(other: CuckooFilter): boolean {
    const status = this.mergeStatus(other, 'CuckooFilter.merge');
    if (status === this.runtime.core.status_merge_would_overfill()) return false;
    checkStatus(this.runtime, status, 'CuckooFilter.merge');
    return true;
  }

  /** Number of items stored (copies counted), including one waiting in the stash. */
  get size(): number {
    return this.runtime.core.cuckoo_size(this.live('size'));
  }

  /** Number of slots, bucketCount × bucketSize. */
  get slotCount(): number {
    return this.runtime.core.cuckoo_slot_count(this.live('slotCount'));
  }

  /**
   * The table's load: the share of its slots in use, (size − stashed) /
   * slotCount, at most 1. Inserts start failing around 0.46, 0.87, 0.96,
   * 0.985 for bucket sizes 1, 2, 4, 8 (large tables).
   * @example
   * ```ts
   * filter.loadFactor; // 0.5 with 2,048 items in 1,024 buckets of 4
   * ```
   */
  get loadFactor(): number {
    return this.runtime.core.cuckoo_load_factor(this.live('loadFactor'));
  }

  /**
   * Items waiting in the stash, outside the table: 0, or 1 once an insert ran
   * out of evictions (the paper's first failure; later adds still succeed
   * wherever they find room). `size` counts it; `loadFactor` does not.
   * @example
   * ```ts
   * while (filter.stashed === 0) filter.add(`item-${i++}`);
   * filter.loadFactor; // about 0.95 with 4 slots a bucket: the paper's load at the first failure
   * ```
   */
  get stashed(): number {
    return this.runtime.core.cuckoo_stashed(this.live('stashed'));
  }

  /** Bytes of WebAssembly memory the table uses (toBytes() adds a 64-byte header and checksum). */
  get byteLength(): number {
    return this.runtime.core.cuckoo_byte_length(this.live('byteLength'));
  }

  /** Table bits per stored item, fingerprintBits / loadFactor (Infinity when empty). */
  get bitsPerItem(): number {
    return this.runtime.core.cuckoo_bits_per_item(this.live('bitsPerItem'));
  }

  /** The false-positive rate expected at the current load: 1 - (1 - 2^-f)^(2b × load). */
  get expectedFpr(): number {
    return this.runtime.core.cuckoo_expected_fpr(this.live('expectedFpr'));
  }

  /** The paper's bound on the false-positive rate of a full filter, 2b / 2^f. */
  get fprBound(): number {
    return this.runtime.core.cuckoo_fpr_bound(this.live('fprBound'));
  }

  /**
   * True when the most recent `add` was refused: its item could not be placed
   * (its evictions ran out while the stash was occupied), and nothing
   * changed. False again after an add succeeds, a delete or `clear()`; not
   * saved in the bytes (a filter from `fromBytes` starts not full).
   * @example
   * ```ts
   * if (!filter.add(item)) console.assert(filter.full); // time to grow or rebuild
   * ```
   */
  get full(): boolean {
    return this.runtime.core.cuckoo_full(this.live('full')) !== 0;
  }

  /** The filter's parameters. */
  get params(): CuckooFilterParams {
    const handle = this.live('params');
    if (this.#params === undefined) {
      const { core } = this.runtime;
      // Hash ids 1 and 2 are XXH3's, 4 and 5 the keyed hash's, 6 to 11 those of 64-bit keys (FORMAT.md).
      const hashPair = core.cuckoo_hash_id(handle) >> 1;
      this.#params = Object.freeze({
        bucketCount: core.cuckoo_bucket_count(handle),
        bucketSize: core.cuckoo_bucket_size(handle) as 1 | 2 | 4 | 8,
        fingerprintBits: core.cuckoo_fingerprint_bits(handle),
        maxKicks: core.cuckoo_max_kicks(handle),
        seed: (BigInt(core.cuckoo_seed_high(handle) >>> 0) << 32n) | BigInt(core.cuckoo_seed_low(handle) >>> 0),
        semiSort: core.cuckoo_semi_sort(handle) !== 0,
        keyedHash: hashPair === 2,
        multiplyShiftHash: hashPair >= 3 && hashPair <= 5,
      });
    }
    return this.#params;
  }
}
