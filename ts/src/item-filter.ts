// What CuckooFilter and ScalableCuckooFilter share: the item methods, their
// batches and the bytes, over the core calls each class's bindings register
// under its prefix (bindings/item_calls.hpp). No filter logic lives here.

import { answersOverChunks, countOverChunks, type AnswerCall, type ChunkCall } from './batches.js';
import { WasmOwned, type ItemCall } from './handles.js';
import { describeValue, withTemporary, type Item, type NumericItemArray } from './items.js';
import type { Runtime } from './loader.js';
import type { Handle, RawModule } from './raw.js';

/** What the batch methods accept: any iterable of items, or a typed array of integer items. */
export type ItemBatch = Iterable<Item> | NumericItemArray;

/** @internal The prefix of a filter class's core calls. */
export type FilterPrefix = 'cuckoo' | 'scalable';

/** The core calls of one filter class, made once per class so that a call allocates nothing. */
interface FilterCalls {
  readonly add: ItemCall<boolean>;
  readonly addUnique: ItemCall<boolean>;
  readonly has: ItemCall<boolean>;
  readonly delete: ItemCall<boolean>;
  readonly count: ItemCall<number>;
  readonly addMany: (module: RawModule, handle: Handle) => ChunkCall<number>;
  readonly hasMany: (module: RawModule, handle: Handle) => AnswerCall;
  readonly deleteMany: (module: RawModule, handle: Handle) => ChunkCall<number>;
}

function callsOf(prefix: FilterPrefix): FilterCalls {
  const name = <const Call extends string>(call: Call) => `${prefix}${call}` as const;
  const [insert, insertUnique, contains, erase, count] = [
    name('InsertItem'),
    name('InsertUniqueItem'),
    name('ContainsItem'),
    name('EraseItem'),
    name('CountItem'),
  ];
  const [insertPacked, insertFixed, containsPacked, containsFixed, erasePacked, eraseFixed] = [
    name('InsertPacked'),
    name('InsertFixed'),
    name('ContainsPacked'),
    name('ContainsFixed'),
    name('ErasePacked'),
    name('EraseFixed'),
  ];
  return {
    add: (module, handle, item, length) => module[insert](handle, item, length),
    addUnique: (module, handle, item, length) => module[insertUnique](handle, item, length),
    has: (module, handle, item, length) => module[contains](handle, item, length),
    delete: (module, handle, item, length) => module[erase](handle, item, length),
    count: (module, handle, item, length) => module[count](handle, item, length),
    addMany: (module, handle) => ({
      packed: (data, offsets, n) => module[insertPacked](handle, data, offsets, n),
      fixed: (data, width, n) => module[insertFixed](handle, data, width, n),
    }),
    hasMany: (module, handle) => ({
      packed: (data, offsets, n, out) => module[containsPacked](handle, data, offsets, n, out),
      fixed: (data, width, n, out) => module[containsFixed](handle, data, width, n, out),
    }),
    deleteMany: (module, handle) => ({
      packed: (data, offsets, n) => module[erasePacked](handle, data, offsets, n),
      fixed: (data, width, n) => module[eraseFixed](handle, data, width, n),
    }),
  };
}

const CALLS: Readonly<Record<FilterPrefix, FilterCalls>> = { cuckoo: callsOf('cuckoo'), scalable: callsOf('scalable') };

/**
 * The item methods of both filter classes. Items are strings (as UTF-8),
 * byte arrays, safe-integer numbers and bigints (as 8-byte little-endian
 * int64): `'abc'` equals `new TextEncoder().encode('abc')`, `5` equals `5n`,
 * and `'5'` is a different item.
 */
export abstract class ItemFilter extends WasmOwned {
  readonly #prefix: FilterPrefix;
  readonly #className: string;
  readonly #calls: FilterCalls;
  // "<Class>.<method>: item(s)", put together once per filter rather than per call.
  readonly #labels: Readonly<Record<'add' | 'addUnique' | 'has' | 'delete' | 'count' | 'addMany' | 'hasMany' | 'deleteMany', string>>;

  /** @internal */
  protected constructor(runtime: Runtime, handle: Handle, className: string, prefix: FilterPrefix) {
    const destroy = `${prefix}Destroy` as const;
    super(runtime, handle, className, (module, owned) => module[destroy](owned));
    this.#prefix = prefix;
    this.#className = className;
    this.#calls = CALLS[prefix];
    const label = (method: string, what: string) => `${className}.${method}: ${what}`;
    this.#labels = {
      add: label('add', 'item'),
      addUnique: label('addUnique', 'item'),
      has: label('has', 'item'),
      delete: label('delete', 'item'),
      count: label('count', 'item'),
      addMany: label('addMany', 'items'),
      hasMany: label('hasMany', 'items'),
      deleteMany: label('deleteMany', 'items'),
    };
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
    return this.withItem('add', this.#labels.add, item, this.#calls.add);
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
    return this.withItem('addUnique', this.#labels.addUnique, item, this.#calls.addUnique);
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
    return this.withItem('has', this.#labels.has, item, this.#calls.has);
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
    return this.withItem('delete', this.#labels.delete, item, this.#calls.delete);
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
    return this.withItem('count', this.#labels.count, item, this.#calls.count);
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
    const { module, writer } = this.runtime;
    return countOverChunks(writer, items, this.#labels.addMany, this.#calls.addMany(module, handle), true);
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
    const { module, writer } = this.runtime;
    return answersOverChunks(writer, items, this.#labels.hasMany, this.#calls.hasMany(module, handle));
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
    const { module, writer } = this.runtime;
    return countOverChunks(writer, items, this.#labels.deleteMany, this.#calls.deleteMany(module, handle), false);
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
    const handle = this.live('toBytes');
    const { module } = this.runtime;
    const size = module[`${this.#prefix}SerializedSize`](handle);
    return withTemporary(module, size, `${this.#className}.toBytes`, (address) => {
      module[`${this.#prefix}Serialize`](handle, address);
      return module.HEAPU8.slice(address, address + size);
    });
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
    return this.runtime.module[`${this.#prefix}Merge`](handle, (other as ItemFilter).live('merge'));
  }
}
