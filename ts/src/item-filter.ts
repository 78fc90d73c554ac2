// What CuckooFilter and ScalableCuckooFilter share: the item methods, their
// batches and the bytes, over the core calls each class names
// (runtime.ts: cuckooCallsOf, scalableCallsOf). No filter logic lives here.
//
// The per-call methods are the hot path: a string, a short byte array and a
// number each reach the core in one plain wasm call, with nothing allocated
// and nothing checked twice; every other case (bigints, other views, large
// items, bad items) takes one cold path that checks and names the item.

import { answersOverChunks, countOverChunks } from './batches.js';
import type { Handle, ItemCalls } from './core-exports.js';
import { disposedError, handleOrZero, movedTo, rebuildIn, WasmOwned, type Release } from './handles.js';
import { describeValue, writeUtf8, writeView, type Item, type NumericItemArray } from './items.js';
import { SCRATCH_BYTES, type Runtime } from './runtime.js';

/** What the batch methods accept: any iterable of items, or a typed array of integer items. */
export type ItemBatch = Iterable<Item> | NumericItemArray;

/** Strings up to this many UTF-16 units are written to the scratch block (3 bytes each at most). */
const SCRATCH_UNITS = Math.floor(SCRATCH_BYTES / 3);

type BytesCall = ItemCalls['has'];

/** A class's item calls in a runtime (CuckooFilter's or ScalableCuckooFilter's). */
export const callsIn: unique symbol = Symbol('cuckoo-wasm calls');
type NumberCall = ItemCalls['hasNumber'];

/**
 * The item methods of both filter classes. Items are strings (as UTF-8),
 * byte arrays, safe-integer numbers and bigints (as 8-byte little-endian
 * int64): `'abc'` equals `new TextEncoder().encode('abc')`, `5` equals `5n`,
 * and `'5'` is a different item.
 */
export abstract class ItemFilter extends WasmOwned {
  readonly #className: string;
  #calls: ItemCalls;

  /** @internal */
  protected constructor(runtime: Runtime, handle: Handle, className: string, release: Release) {
    super(runtime, handle, className, release);
    this.#className = className;
    this.#calls = this[callsIn](runtime);
  }

  /** @internal The class's calls in `runtime` (stripped with its implementations, as [rebuildIn] is). */
  protected abstract [callsIn](runtime: Runtime): ItemCalls;

  /** @internal */
  protected override [rebuildIn](to: Runtime, from: Runtime, handle: Handle): Handle {
    const bytes = serialized(from, this[callsIn](from), handle, `${this.#className}.moveTo`);
    const status = to.withTemporary(bytes.length, `${this.#className}.moveTo`, (address) => {
      to.u8.set(bytes, address);
      return this[callsIn](to).deserialize(address, bytes.length, to.results);
    });
    if (status !== to.statusOk) throw new RangeError(`${this.#className}: could not move to the full module (status ${status})`);
    return to.takeResultHandle();
  }

  /** @internal */
  protected override [movedTo](to: Runtime): void {
    this.#calls = this[callsIn](to);
  }

  /**
   * One item through `bytes` (written to wasm memory) or `number` (passed as
   * itself): the hot path of every per-call method.
   */
  #itemCall(method: string, item: unknown, bytes: BytesCall, number: NumberCall): number {
    const handle = this[handleOrZero];
    if (handle === 0) throw this[disposedError](method);
    const runtime = this.runtime;
    // Numbers are tested first: with the string test first, Node 20's V8
    // (11.3) scheduled the string's length load above the type tests once
    // it had inlined the wasm calls below, and crashed on a number item.
    if (typeof item === 'number') {
      if (Number.isSafeInteger(item)) return number(handle, item);
    } else if (typeof item === 'string') {
      if (item.length <= SCRATCH_UNITS) return bytes(handle, runtime.scratch, writeUtf8(item, runtime.u8, runtime.scratch));
    } else if (item instanceof Uint8Array && item.length <= SCRATCH_BYTES) {
      return bytes(handle, runtime.scratch, writeView(item, runtime.u8, runtime.scratch));
    }
    return this.#itemCallChecked(method, item, bytes, handle);
  }

  /** The cold path of {@link ItemFilter.#itemCall}: checks the item, names it in errors, and writes a large one to its own block. */
  #itemCallChecked(method: string, item: unknown, bytes: BytesCall, handle: Handle): number {
    return this.runtime.withItem(item, `${this.#className}.${method}: item`, (address, length) => bytes(handle, address, length));
  }

  /**
   * Adds an item. Adding an item twice stores it twice (see `addUnique`).
   * A CuckooFilter returns false when it is full (nothing changed, no item
   * lost); a ScalableCuckooFilter grows instead, and returns false only for
   * a ninth copy of one item, or while it is `full` (README, Limits).
   * @example
   * ```ts
   * if (!filter.add('alice')) console.warn('filter full');
   * ```
   */
  add(item: Item): boolean {
    const calls = this.#calls;
    return this.#itemCall('add', item, calls.add, calls.addNumber) !== 0;
  }

  /**
   * Adds an item only if `has` is false for it. Returns true when it was
   * added; false when it (or a false positive) was already there or the
   * filter is full.
   * @example
   * ```ts
   * filter.addUnique('alice'); // true
   * filter.addUnique('alice'); // false
   * ```
   */
  addUnique(item: Item): boolean {
    const calls = this.#calls;
    return this.#itemCall('addUnique', item, calls.addUnique, calls.addUniqueNumber) !== 0;
  }

  /**
   * True if the item may be in the filter (a false positive happens at the
   * filter's rate); false if it is certainly not.
   * @example
   * ```ts
   * filter.has('alice'); // true after filter.add('alice')
   * ```
   */
  has(item: Item): boolean {
    const calls = this.#calls;
    return this.#itemCall('has', item, calls.has, calls.hasNumber) !== 0;
  }

  /**
   * Removes one copy of an item. Returns false if it was not there. Only delete
   * items you added: deleting a false positive removes another item's copy.
   * @example
   * ```ts
   * filter.delete('alice'); // true
   * ```
   */
  delete(item: Item): boolean {
    const calls = this.#calls;
    return this.#itemCall('delete', item, calls.delete, calls.deleteNumber) !== 0;
  }

  /**
   * How many stored copies match the item: the number of times it was added,
   * plus any colliding items.
   * @example
   * ```ts
   * filter.add(7); filter.add(7n);
   * filter.count(7); // 2
   * ```
   */
  count(item: Item): number {
    const calls = this.#calls;
    return this.#itemCall('count', item, calls.count, calls.countNumber);
  }

  /**
   * Adds items in order and stops at the first that does not fit (as `add`
   * refuses); returns how many were added. A typed array
   * of integers is the fastest input. If an item is invalid, the items
   * before it are added and the error is thrown.
   * @example
   * ```ts
   * filter.addMany(['a', 'b', 'c']);               // 3
   * filter.addMany(new Uint32Array([1, 2, 3]));    // 3
   * ```
   */
  addMany(items: ItemBatch): number {
    const handle = this.live('addMany');
    const calls = this.#calls;
    return countOverChunks(this.runtime, items, `${this.#className}.addMany: items`, {
      packed: (data, offsets, n) => calls.addPacked(handle, data, offsets, n),
      fixed: (data, width, n) => calls.addFixed(handle, data, width, n),
    }, true);
  }

  /**
   * Looks up many items at once: entry k of the result is 1 if item k may be
   * present, 0 if not.
   * @example
   * ```ts
   * filter.hasMany(new Float64Array([1, 2, 3])); // Uint8Array [1, 1, 0]
   * ```
   */
  hasMany(items: ItemBatch): Uint8Array {
    const handle = this.live('hasMany');
    const calls = this.#calls;
    return answersOverChunks(this.runtime, items, `${this.#className}.hasMany: items`, {
      packed: (data, offsets, n, out) => calls.hasPacked(handle, data, offsets, n, out),
      fixed: (data, width, n, out) => calls.hasFixed(handle, data, width, n, out),
    });
  }

  /**
   * Deletes one copy of each item; returns how many were found and deleted.
   * If an item is invalid, the items before it are deleted and the error is thrown.
   * @example
   * ```ts
   * filter.deleteMany(['a', 'b', 'zzz']); // 2 when only 'a' and 'b' were added
   * ```
   */
  deleteMany(items: ItemBatch): number {
    const handle = this.live('deleteMany');
    const calls = this.#calls;
    return countOverChunks(this.runtime, items, `${this.#className}.deleteMany: items`, {
      packed: (data, offsets, n) => calls.deletePacked(handle, data, offsets, n),
      fixed: (data, width, n) => calls.deleteFixed(handle, data, width, n),
    }, false);
  }

  /**
   * The filter as bytes (FORMAT.md): parameters, seed, contents and a
   * checksum; the class's `fromBytes` restores an identical filter on any platform.
   * @example
   * ```ts
   * await fs.promises.writeFile('words.cf', filter.toBytes());
   * ```
   */
  toBytes(): Uint8Array {
    return serialized(this.runtime, this.#calls, this.live('toBytes'), `${this.#className}.toBytes`);
  }

  /**
   * Adds every entry of `other` (a filter of the same class) into this one;
   * no item is needed: a stored fingerprint and its bucket give both its
   * buckets. Returns the core's status for the class to interpret.
   * @internal
   */
  protected mergeStatus(other: unknown, what: string): number {
    const handle = this.live('merge');
    if (!(other instanceof this.constructor)) {
      throw new TypeError(`${what}: other must be a ${this.#className}, got ${describeValue(other)}`);
    }
    return this.#calls.merge(handle, (other as ItemFilter).live('merge'));
  }
}

/** The bytes of the filter `handle` in `runtime` (FORMAT.md). */
function serialized(runtime: Runtime, calls: ItemCalls, handle: Handle, context: string): Uint8Array {
  const size = calls.serializedSize(handle);
  return runtime.withTemporary(size, context, (address) => {
    calls.serialize(handle, address);
    return runtime.u8.slice(address, address + size);
  });
}
