// The public RedisCuckooFilter: argument checks and the shape of each call.
// The client hashes (through the wasm core, exactly as CuckooFilter does);
// lookups read buckets with BITFIELD_RO (opened.ts); adds and deletes run the
// mutating script (mutations.ts); making and removing keys is admin.ts.

import { CuckooFilter, CuckooFilterError, type CuckooFilterParams, type Item, type ItemBatch } from '../index.js';
import { describeValue, LOCATION_WORDS, locateItem, locateItems, paramsForCapacity, partsOf } from '../parts.js';
import { toBitfieldOrder } from './buckets.js';
import { connectionOf, type RedisClientLike } from './connection.js';
import { makeFilter, newLayout, openFilter, readRoot, removeKeys, shardAsFilter, type ShardContents } from './admin.js';
import { fixedHeader } from './header.js';
import { AT, MAX_SHARDS, ROOT_MAGIC, ROOT_READY } from './layout.js';
import { asOwnError, checkName, checkShards, OPTIONS_SHAPE, shardCapacity, type RedisCreateOptions, type RedisCuckooFilterParams } from './options.js';
import { mutateMany, mutateOne } from './mutations.js';
import { checkFilterId, commandError, countCopies, openedFilter, type OpenedFilter } from './opened.js';
import { described, gettersBelow, inspectCustom, type Facts, type Inspect } from '../describe.js';

/**
 * A cuckoo filter kept in Redis, shared by every process that opens it: the
 * same filter as CuckooFilter (same hashing, same table, same guarantees: no
 * false negatives, and a full filter refuses an add and loses nothing),
 * with each add and delete atomic in Redis and each lookup reading its two
 * buckets in one atomic read. Needs `await init()` first, like CuckooFilter.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { init } from 'cuckoo-wasm';
 * import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
 * await init();
 * const redis = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * const seen = await RedisCuckooFilter.create(redis, 'seen', { capacity: 1_000_000, fpr: 0.001 });
 * await seen.add('alice');   // true
 * await seen.has('alice');   // true
 * ```
 */
export class RedisCuckooFilter {
  readonly #opened: OpenedFilter;
  readonly #params: RedisCuckooFilterParams;
  #dropped = false;

  private constructor(opened: OpenedFilter) {
    this.#opened = opened;
    this.#params = Object.freeze({ ...opened.layout.params, shards: opened.layout.shards });
  }

  /**
   * Makes a filter named `name` sized as CuckooFilter.create sizes one (per
   * shard; `fpr` 0.001 unless given). Fails with a CuckooFilterError (code
   * EXISTS) when the name is taken, by a filter or by any other key.
   * @example
   * ```ts
   * const seen = await RedisCuckooFilter.create(redis, 'seen', { capacity: 1_000_000 }); // fpr 0.001
   * const spread = await RedisCuckooFilter.create(cluster, 'urls', { capacity: 10_000_000, fpr: 0.001, shards: 3 });
   * ```
   */
  static async create(redis: RedisClientLike, name: string, options: RedisCreateOptions): Promise<RedisCuckooFilter> {
    const what = 'RedisCuckooFilter.create';
    const connection = connectionOf(redis, what);
    checkName(name, what);
    const shards = typeof options === 'object' && options !== null ? checkShards((options as { shards?: unknown }).shards, what) : 1;
    const params = paramsForCapacity(options, what, OPTIONS_SHAPE, (capacity) => shardCapacity(capacity, shards));
    return new RedisCuckooFilter(await makeFilter(connection, newLayout(name, params, shards), null, what));
  }

  /**
   * Opens the filter named `name`, reading and checking its stored
   * parameters and every shard's header: a CuckooFilterError with code
   * NOT_FOUND when there is none, a FormatError for a damaged one.
   * @example
   * ```ts
   * const seen = await RedisCuckooFilter.open(redis, 'seen');   // in another process
   * ```
   */
  static async open(redis: RedisClientLike, name: string): Promise<RedisCuckooFilter> {
    const what = 'RedisCuckooFilter.open';
    const connection = connectionOf(redis, what);
    return new RedisCuckooFilter(await openFilter(connection, checkName(name, what), what));
  }

  /**
   * Makes a filter named `name` holding a CuckooFilter's bytes (its
   * `toBytes()`), or, as an array, each shard's bytes from a sharded
   * filter's `toBytes(shard)`, in shard order. Checked as
   * CuckooFilter.fromBytes checks them; EXISTS when the name is taken.
   * @example
   * ```ts
   * using local = CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
   * local.add('x');
   * const shared = await RedisCuckooFilter.fromBytes(redis, 'copy', local.toBytes());
   * await shared.has('x'); // true
   * ```
   */
  static async fromBytes(redis: RedisClientLike, name: string, bytes: Uint8Array | readonly Uint8Array[]): Promise<RedisCuckooFilter> {
    const what = 'RedisCuckooFilter.fromBytes';
    const connection = connectionOf(redis, what);
    checkName(name, what);
    const sharded = Array.isArray(bytes);
    const list: readonly unknown[] = sharded ? bytes : [bytes];
    if (list.length < 1 || list.length > MAX_SHARDS || !list.every((each) => each instanceof Uint8Array)) {
      throw new TypeError(`${what}: bytes must be a Uint8Array, or an array of 1 to ${MAX_SHARDS} of them (one per shard), got ${describeValue(bytes)}`);
    }
    const filters: CuckooFilter[] = [];
    try {
      list.forEach((each, shard) => {
        try {
          filters.push(CuckooFilter.fromBytes(each as Uint8Array));
        } catch (error) {
          throw asOwnError(error, sharded ? `${what}: bytes[${shard}]` : what);
        }
      });
      const { params } = filters[0]!;
      const differing = filters.findIndex((filter) => Object.entries(filter.params).some(([key, value]) => params[key as keyof CuckooFilterParams] !== value));
      if (differing >= 0) throw new CuckooFilterError('INCOMPATIBLE', `${what}: bytes[${differing}] has other parameters than bytes[0]: not shards of one filter`);
      const contents = filters.map((filter): ShardContents => {
        const parts = partsOf(filter);
        return { table: toBitfieldOrder(params, parts.payload), stash: parts.stash, itemCount: parts.itemCount };
      });
      return new RedisCuckooFilter(await makeFilter(connection, newLayout(name, params, filters.length), contents, what));
    } finally {
      for (const filter of filters) filter.dispose();
    }
  }

  /**
   * Deletes the filter named `name`, whatever its state (also one whose
   * creation did not finish); resolves to false when there was none.
   * @example
   * ```ts
   * await RedisCuckooFilter.drop(redis, 'seen'); // true
   * ```
   */
  static async drop(redis: RedisClientLike, name: string): Promise<boolean> {
    const what = 'RedisCuckooFilter.drop';
    const connection = connectionOf(redis, what);
    const found = await readRoot(connection, checkName(name, what), what);
    if (found === null) return false;
    await removeKeys(openedFilter(connection, found.layout), found.root, what);
    return true;
  }

  /** The filter's name: its root key in Redis. */
  get name(): string {
    return this.#opened.layout.name;
  }

  /** The parameters of every shard (as CuckooFilter.params) and the shard count. */
  get params(): RedisCuckooFilterParams {
    return this.#params;
  }

  /**
   * What the handle knows without asking Redis, for `JSON.stringify` and
   * logs: `name` and `params` (the seed as its decimal string); `size()` and
   * the contents need a round trip. `{ name, dropped: true }` once dropped.
   * @example
   * ```ts
   * JSON.stringify(seen); // '{"name":"seen","params":{"bucketCount":264551,...,"shards":1}}'
   * ```
   */
  toJSON(): Facts<this> | { readonly name: string; readonly dropped: true } {
    return (this.#dropped ? { name: this.name, dropped: true } : gettersBelow(this, Object.prototype)) as Facts<this>;
  }

  /**
   * The class and {@link RedisCuckooFilter.toJSON}'s facts on one line.
   * @example
   * ```ts
   * `${seen}`; // 'RedisCuckooFilter {"name":"seen","params":{...}}'
   * ```
   */
  toString(): string {
    return this[inspectCustom]();
  }

  /**
   * What `console.log(filter)` and `util.inspect(filter)` show: the class and
   * {@link RedisCuckooFilter.toJSON}'s facts.
   * @example
   * ```ts
   * console.log(seen); // RedisCuckooFilter { name: 'seen', params: { bucketCount: 264551, ... } }
   * ```
   */
  [inspectCustom](_depth?: number, options?: object, inspect?: Inspect): string {
    return described('RedisCuckooFilter', this.toJSON(), options, inspect);
  }

  #live(method: string): OpenedFilter {
    if (this.#dropped) throw new CuckooFilterError('DISPOSED', `RedisCuckooFilter.${method}: this filter was dropped`);
    return this.#opened;
  }

  #locateOne(method: string, item: unknown): Uint32Array {
    const opened = this.#live(method);
    return locateItem(opened.layout.params, item, `RedisCuckooFilter.${method}: item`);
  }

  #locateMany(method: string, items: unknown): Uint32Array {
    const opened = this.#live(method);
    return locateItems(opened.layout.params, items as ItemBatch, `RedisCuckooFilter.${method}: items`);
  }

  /**
   * Adds an item; false when its shard is full (nothing changed, nothing lost).
   * @example
   * ```ts
   * if (!(await seen.add('alice'))) console.warn('filter full');
   * ```
   */
  async add(item: Item): Promise<boolean> {
    const located = this.#locateOne('add', item);
    return (await mutateOne(this.#opened, 'add', located, 'RedisCuckooFilter.add')) === 1;
  }

  /**
   * Adds an item only if `has` is false for it, atomically: true when added;
   * false when it (or a false positive) was there, or the filter is full.
   * @example
   * ```ts
   * await seen.addUnique('coupon-17'); // true the first time, then false
   * ```
   */
  async addUnique(item: Item): Promise<boolean> {
    const located = this.#locateOne('addUnique', item);
    return (await mutateOne(this.#opened, 'addUnique', located, 'RedisCuckooFilter.addUnique')) === 0;
  }

  /**
   * True if the item may be in the filter, false if it certainly is not.
   * @example
   * ```ts
   * await seen.has('alice'); // true after seen.add('alice'), in any process
   * ```
   */
  async has(item: Item): Promise<boolean> {
    return (await this.#copies('has', item)) > 0;
  }

  /**
   * How many stored copies match the item (its adds, plus colliding items).
   * @example
   * ```ts
   * await seen.add(7); await seen.add(7n);
   * await seen.count(7); // 2
   * ```
   */
  count(item: Item): Promise<number> {
    return this.#copies('count', item);
  }

  async #copies(method: string, item: unknown): Promise<number> {
    const located = this.#locateOne(method, item);
    return (await countCopies(this.#opened, located, `RedisCuckooFilter.${method}`))[0]!;
  }

  /**
   * Removes one copy of an item; false if it was not there. Delete only items you added.
   * @example
   * ```ts
   * await seen.delete('alice'); // true
   * ```
   */
  async delete(item: Item): Promise<boolean> {
    const located = this.#locateOne('delete', item);
    return (await mutateOne(this.#opened, 'delete', located, 'RedisCuckooFilter.delete')) === 1;
  }

  /**
   * Adds items; resolves to how many were added. Each shard adds its items
   * in order and stops at its first refused one, so with one shard the items
   * added are exactly the first ones, as with CuckooFilter.addMany.
   * @example
   * ```ts
   * await seen.addMany(['a', 'b', 'c']);            // 3
   * await seen.addMany(new Uint32Array([1, 2, 3])); // 3
   * ```
   */
  async addMany(items: ItemBatch): Promise<number> {
    const located = this.#locateMany('addMany', items);
    return mutateMany(this.#opened, 'add', located, 'RedisCuckooFilter.addMany');
  }

  /**
   * Looks up many items: entry k is 1 if item k may be present, 0 if not.
   * @example
   * ```ts
   * await seen.hasMany(['alice', 'bob']); // Uint8Array [1, 0]
   * ```
   */
  async hasMany(items: ItemBatch): Promise<Uint8Array> {
    const located = this.#locateMany('hasMany', items);
    const counts = await countCopies(this.#opened, located, 'RedisCuckooFilter.hasMany');
    const answers = new Uint8Array(counts.length);
    for (let k = 0; k < counts.length; k++) answers[k] = counts[k]! > 0 ? 1 : 0;
    return answers;
  }

  /**
   * Deletes one copy of each item; resolves to how many were found and deleted.
   * @example
   * ```ts
   * await seen.deleteMany(['a', 'b', 'zzz']); // 2 when only 'a' and 'b' were added
   * ```
   */
  async deleteMany(items: ItemBatch): Promise<number> {
    const located = this.#locateMany('deleteMany', items);
    return mutateMany(this.#opened, 'delete', located, 'RedisCuckooFilter.deleteMany');
  }

  /**
   * Items stored across all processes and shards (copies counted, a stashed one included).
   * @example
   * ```ts
   * await seen.size(); // 1
   * ```
   */
  async size(): Promise<number> {
    const opened = this.#live('size');
    const what = 'RedisCuckooFilter.size';
    // The count is the header's 8-byte field; its low 53 bits hold any count there can be.
    const read = ['GET', 'u48', String(8 * AT.id), 'GET', 'u53', String(8 * AT.itemCount + 11)];
    const counts = await Promise.all(
      opened.keys.map(async (keys) => {
        let reply: number[];
        try {
          reply = (await opened.connection.call(keys[0]!, ['BITFIELD_RO', keys[0]!, ...read], true)) as number[];
        } catch (error) {
          throw commandError(error, keys[0]!, what);
        }
        checkFilterId(opened, Number(reply[0]), keys[0]!, what);
        return Number(reply[1]);
      }),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  }

  /**
   * The shard an item belongs to (0 with one shard): `toBytes(shard)` of
   * that shard answers for it in-process.
   * @example
   * ```ts
   * using local = CuckooFilter.fromBytes(await urls.toBytes(urls.shardOf('x')));
   * local.has('x'); // as urls.has('x')
   * ```
   */
  shardOf(item: Item): number {
    const located = this.#locateOne('shardOf', item);
    return Math.floor((located[LOCATION_WORDS - 1]! * this.#opened.layout.shards) / 2 ** 32);
  }

  /**
   * The filter as CuckooFilter bytes (FORMAT.md), read atomically: for a
   * sharded filter, those of shard `shard` (required then). The eviction
   * PRNG in the bytes starts again from the seed.
   * @example
   * ```ts
   * using copy = CuckooFilter.fromBytes(await seen.toBytes());
   * ```
   */
  async toBytes(shard?: number): Promise<Uint8Array> {
    const what = 'RedisCuckooFilter.toBytes';
    const opened = this.#live('toBytes');
    const shards = opened.layout.shards;
    if (shard === undefined && shards > 1) {
      throw new RangeError(`${what}: this filter has ${shards} shards: pass the shard to export (0 to ${shards - 1})`);
    }
    const chosen = shard ?? 0;
    if (typeof chosen !== 'number') throw new TypeError(`${what}: shard must be a number (an integer from 0 to ${shards - 1}), got ${describeValue(chosen)}`);
    if (!Number.isInteger(chosen) || chosen < 0 || chosen >= shards) throw new RangeError(`${what}: shard must be an integer from 0 to ${shards - 1}, got ${chosen}`);
    const filter = await shardAsFilter(opened, chosen, what);
    try {
      return filter.toBytes();
    } finally {
      filter.dispose();
    }
  }

  /**
   * Deletes this filter's keys in Redis; the handle then refuses every call
   * (code DISPOSED). NOT_FOUND if the filter was already dropped elsewhere.
   * @example
   * ```ts
   * await seen.drop();
   * ```
   */
  async drop(): Promise<void> {
    const opened = this.#live('drop');
    await removeKeys(opened, fixedHeader(opened.layout, ROOT_MAGIC, ROOT_READY), 'RedisCuckooFilter.drop');
    this.#dropped = true;
  }
}
