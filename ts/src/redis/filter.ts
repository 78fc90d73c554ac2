// The public RedisCuckooFilter: argument checks and the shape of each call.
// The client hashes (through the wasm core, exactly as CuckooFilter does);
// lookups read buckets with BITFIELD_RO (opened.ts); adds and deletes run the
// mutating script (mutations.ts), or either goes to the cuckoo module
// (item-operations.ts chooses); making and removing keys is admin.ts.

import { CuckooFilterError, type Item, type ItemBatch } from '../index.js';
import { LOCATION_WORDS, locateItem, paramsForCapacity } from '../parts.js';
import { connectionOf, type RedisClientLike } from './connection.js';
import { addLog, dropOpened, makeFilter, newLayout, openFilter, readRoot, removeKeys, shardBytes, shardContentsOf } from './admin.js';
import { DEFAULT_LOG_LENGTH } from './layout.js';
import {
  checkEngine,
  checkLogLength,
  checkName,
  checkNoMultiplyShift,
  checkShards,
  OPTIONS_SHAPE,
  shardCapacity,
  type RedisCreateOptions,
  type RedisCuckooFilterParams,
  type RedisOpenOptions,
} from './options.js';
import { answersFor, copiesOf, mutateItem, mutateItems } from './item-operations.js';
import { engineFor, type Engine } from './module-engine.js';
import { itemCountOf, openedFilter, type OpenedFilter } from './opened.js';
import { FilterReplica } from './replica.js';
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
    const given = typeof options === 'object' && options !== null ? (options as { shards?: unknown; logLength?: unknown }) : {};
    checkNoMultiplyShift(options, what);
    const shards = checkShards(given.shards, what);
    const logLength = checkLogLength(given.logLength, what);
    const params = paramsForCapacity(options, what, OPTIONS_SHAPE, (capacity) => shardCapacity(capacity, shards));
    const engine = await engineFor(connection, name, checkEngine(options, what), what);
    return new RedisCuckooFilter(await makeFilter(connection, newLayout(name, params, shards, logLength), null, what, engine));
  }

  /**
   * Opens the filter named `name`, reading and checking its stored
   * parameters and every shard's header: a CuckooFilterError with code
   * NOT_FOUND when there is none, a FormatError for a damaged one.
   * `options.engine` as in `create`.
   * @example
   * ```ts
   * const seen = await RedisCuckooFilter.open(redis, 'seen');   // in another process
   * ```
   */
  static async open(redis: RedisClientLike, name: string, options?: RedisOpenOptions): Promise<RedisCuckooFilter> {
    const what = 'RedisCuckooFilter.open';
    const connection = connectionOf(redis, what);
    checkName(name, what);
    const engine = await engineFor(connection, name, checkEngine(options, what), what);
    return new RedisCuckooFilter(await openFilter(connection, name, what, engine));
  }

  /**
   * Makes a filter named `name` holding a CuckooFilter's bytes (its
   * `toBytes()`), or, as an array, each shard's bytes from a sharded
   * filter's `toBytes(shard)`, in shard order. Checked as
   * CuckooFilter.fromBytes checks them; EXISTS when the name is taken.
   * `options.engine` as in `create`.
   * @example
   * ```ts
   * using local = CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
   * local.add('x');
   * const shared = await RedisCuckooFilter.fromBytes(redis, 'copy', local.toBytes());
   * await shared.has('x'); // true
   * ```
   */
  static async fromBytes(
    redis: RedisClientLike,
    name: string,
    bytes: Uint8Array | readonly Uint8Array[],
    options?: RedisOpenOptions,
  ): Promise<RedisCuckooFilter> {
    const what = 'RedisCuckooFilter.fromBytes';
    const connection = connectionOf(redis, what);
    checkName(name, what);
    const choice = checkEngine(options, what);
    const { params, contents } = shardContentsOf(bytes, what);
    const engine = await engineFor(connection, name, choice, what);
    return new RedisCuckooFilter(await makeFilter(connection, newLayout(name, params, contents.length, DEFAULT_LOG_LENGTH), contents, what, engine));
  }

  /**
   * An in-process replica of the filter named `name`: its lookups answered
   * locally and synchronously, kept current by every writer's changes
   * through the filter's change log. Resolves once the replica holds the
   * filter as it was when opened. NOT_FOUND when there is no such filter;
   * INCOMPATIBLE for a filter without a change log (made before them, or with
   * `logLength: 0`: {@link RedisCuckooFilter.addChangeLog} gives it one).
   * @example
   * ```ts
   * await using replica = await RedisCuckooFilter.openReplica(redis, 'seen');
   * replica.has('alice'); // no round trip
   * ```
   */
  static async openReplica(redis: RedisClientLike, name: string): Promise<FilterReplica> {
    const what = 'RedisCuckooFilter.openReplica';
    const connection = connectionOf(redis, what);
    return FilterReplica.open(await openFilter(connection, checkName(name, what), what), what);
  }

  /**
   * Gives the filter named `name` a change log of `logLength` records (default
   * 1,000) if it has none (it was made before change logs, or with
   * `logLength: 0`), so that replicas can follow it: resolves to true when
   * it gained one, false when it had one. From then on releases of
   * cuckoo-wasm/redis that predate change logs refuse to write it, so that no
   * write escapes the log; this one's handles already open go on working.
   * @example
   * ```ts
   * await RedisCuckooFilter.addChangeLog(redis, 'seen');
   * const replica = await RedisCuckooFilter.openReplica(redis, 'seen');
   * ```
   */
  static async addChangeLog(redis: RedisClientLike, name: string, options?: { logLength?: number }): Promise<boolean> {
    const what = 'RedisCuckooFilter.addChangeLog';
    const connection = connectionOf(redis, what);
    const logLength = checkLogLength(options?.logLength, what);
    if (logLength === 0) throw new RangeError(`${what}: logLength must be an integer from 1 to 65535, got 0`);
    return addLog(await openFilter(connection, checkName(name, what), what), logLength, what);
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
   * Who handles this handle's items: `'module'`, the server's cuckoo module
   * (bindings/redis-module), or `'scripts'`, the Lua scripts; the same
   * answers and bytes either way.
   * @example
   * ```ts
   * const seen = await RedisCuckooFilter.open(redis, 'seen');
   * seen.engine; // 'module' on a server started with --loadmodule cuckoo-redis.so
   * ```
   */
  get engine(): Engine {
    return this.#opened.engine;
  }

  /**
   * What the handle knows without asking Redis, for `JSON.stringify` and
   * logs: `name`, `params` (the seed as its decimal string) and `engine`; `size()` and
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

  /**
   * Adds an item; false when its shard is full (nothing changed, nothing lost).
   * @example
   * ```ts
   * if (!(await seen.add('alice'))) console.warn('filter full');
   * ```
   */
  async add(item: Item): Promise<boolean> {
    return (await mutateItem(this.#live('add'), 'add', item, 'RedisCuckooFilter.add')) === 1;
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
    return (await mutateItem(this.#live('addUnique'), 'addUnique', item, 'RedisCuckooFilter.addUnique')) === 0;
  }

  /**
   * True if the item may be in the filter, false if it certainly is not.
   * @example
   * ```ts
   * await seen.has('alice'); // true after seen.add('alice'), in any process
   * ```
   */
  async has(item: Item): Promise<boolean> {
    return (await copiesOf(this.#live('has'), item, true, 'RedisCuckooFilter.has')) > 0;
  }

  /**
   * How many stored copies match the item (its adds, plus colliding items).
   * @example
   * ```ts
   * await seen.add(7); await seen.add(7n);
   * await seen.count(7); // 2
   * ```
   */
  async count(item: Item): Promise<number> {
    return copiesOf(this.#live('count'), item, false, 'RedisCuckooFilter.count');
  }

  /**
   * Removes one copy of an item; false if it was not there. Delete only items you added.
   * @example
   * ```ts
   * await seen.delete('alice'); // true
   * ```
   */
  async delete(item: Item): Promise<boolean> {
    return (await mutateItem(this.#live('delete'), 'delete', item, 'RedisCuckooFilter.delete')) === 1;
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
    return mutateItems(this.#live('addMany'), 'add', items, 'RedisCuckooFilter.addMany');
  }

  /**
   * Looks up many items: entry k is 1 if item k may be present, 0 if not.
   * @example
   * ```ts
   * await seen.hasMany(['alice', 'bob']); // Uint8Array [1, 0]
   * ```
   */
  async hasMany(items: ItemBatch): Promise<Uint8Array> {
    return answersFor(this.#live('hasMany'), items, 'RedisCuckooFilter.hasMany');
  }

  /**
   * Deletes one copy of each item; resolves to how many were found and deleted.
   * @example
   * ```ts
   * await seen.deleteMany(['a', 'b', 'zzz']); // 2 when only 'a' and 'b' were added
   * ```
   */
  async deleteMany(items: ItemBatch): Promise<number> {
    return mutateItems(this.#live('deleteMany'), 'delete', items, 'RedisCuckooFilter.deleteMany');
  }

  /**
   * Items stored across all processes and shards (copies counted, a stashed one included).
   * @example
   * ```ts
   * await seen.size(); // 1
   * ```
   */
  async size(): Promise<number> {
    return itemCountOf(this.#live('size'), 'RedisCuckooFilter.size');
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
    const located = locateItem(this.#live('shardOf').layout.params, item, 'RedisCuckooFilter.shardOf: item');
    return Math.floor((located[LOCATION_WORDS - 1]! * this.#opened.layout.shards) / 2 ** 32);
  }

  /**
   * The filter as CuckooFilter bytes (FORMAT.md), read atomically: for a
   * sharded filter, those of shard `shard` (required then). The bytes carry
   * the shard's whole state, its eviction PRNG included: a CuckooFilter
   * loaded from them makes the same choices as the Redis filter.
   * @example
   * ```ts
   * using copy = CuckooFilter.fromBytes(await seen.toBytes());
   * ```
   */
  async toBytes(shard?: number): Promise<Uint8Array> {
    return shardBytes(this.#live('toBytes'), shard, 'RedisCuckooFilter.toBytes');
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
    await dropOpened(this.#live('drop'), 'RedisCuckooFilter.drop');
    this.#dropped = true;
  }
}
