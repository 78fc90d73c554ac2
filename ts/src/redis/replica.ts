// FilterReplica: an in-process copy of a Redis filter, one CuckooFilter per
// shard kept current by its change log (follower.ts), answering lookups
// locally and synchronously, as CuckooFilter does.

import { CuckooFilterError, type CuckooFilter, type Item, type ItemBatch } from '../index.js';
import { described, gettersBelow, inspectCustom, type Facts, type Inspect } from '../describe.js';
import { describeValue, LOCATION_WORDS, locateItem, locateItems } from '../parts.js';
import { currentCounts, ShardFollower } from './follower.js';
import { LOGGED_VERSION } from './layout.js';
import { itemsByShard, type OpenedFilter } from './opened.js';
import type { RedisCuckooFilterParams } from './options.js';
import type { DuplicateConnection } from './connection.js';

/** Symbol.asyncDispose, or the same well-known stand-in where the runtime lacks it (as handles.ts does for Symbol.dispose). */
const asyncDisposeSymbol: typeof Symbol.asyncDispose =
  (Symbol as { asyncDispose?: typeof Symbol.asyncDispose }).asyncDispose ?? (Symbol.for('Symbol.asyncDispose') as typeof Symbol.asyncDispose);

/**
 * An in-process replica of a {@link RedisCuckooFilter}, made by
 * `RedisCuckooFilter.openReplica`: `has`, `hasMany` and `count` answer here,
 * synchronously and without a round trip, from a copy that every writer's
 * changes reach through the filter's change log within milliseconds.
 * `sync()` waits for every change acknowledged before it; `lag` says how
 * stale the copy may be. A replica that falls behind the log, or loses its
 * server, reloads the filter by itself. `close()` (or `await using`) ends it.
 *
 * @example
 * ```ts
 * const replica = await RedisCuckooFilter.openReplica(redis, 'seen');
 * replica.has('alice');            // answered in-process
 * await seen.add('bob');           // any process, any writer
 * await replica.sync();            // read your writes
 * replica.has('bob');              // true
 * await replica.close();
 * ```
 */
export class FilterReplica implements AsyncDisposable {
  readonly #opened: OpenedFilter;
  readonly #followers: readonly ShardFollower[];
  /** The follower of a filter of one shard: lookups go straight to its filter. */
  readonly #single: ShardFollower | undefined;
  readonly #params: RedisCuckooFilterParams;
  /** The connection every shard's records are published to it on, when the client can make one. */
  readonly #subscriber: DuplicateConnection | undefined;
  #closed = false;

  private constructor(opened: OpenedFilter, followers: readonly ShardFollower[], subscriber: DuplicateConnection | undefined) {
    this.#opened = opened;
    this.#followers = followers;
    this.#subscriber = subscriber;
    this.#single = followers.length === 1 ? followers[0] : undefined;
    this.#params = Object.freeze({ ...opened.layout.params, shards: opened.layout.shards });
  }

  /** @internal RedisCuckooFilter.openReplica's work, on a filter opened and checked. */
  static async open(opened: OpenedFilter, what: string): Promise<FilterReplica> {
    const { layout } = opened;
    if (layout.version !== LOGGED_VERSION) {
      throw new CuckooFilterError(
        'INCOMPATIBLE',
        `${what}: filter '${layout.name}' has no change log (it was made before change logs, or with logLength 0), so no replica can follow it; ` +
          `RedisCuckooFilter.addChangeLog(redis, '${layout.name}') gives it one`,
      );
    }
    const followers: ShardFollower[] = [];
    let subscriber: DuplicateConnection | undefined;
    try {
      for (let shard = 0; shard < layout.shards; shard++) followers.push(await ShardFollower.open(opened, shard, what));
      subscriber = await opened.connection.duplicate?.();
      if (subscriber?.subscribe === undefined) {
        subscriber?.close();
        subscriber = undefined;
      }
      await Promise.all(followers.map((follower) => follower.start(subscriber)));
    } catch (error) {
      await Promise.all(followers.map((follower) => follower.stop()));
      subscriber?.close();
      throw error;
    }
    return new FilterReplica(opened, followers, subscriber);
  }

  /** The filter's name: its root key in Redis. */
  get name(): string {
    return this.#opened.layout.name;
  }

  /** The parameters of every shard (as CuckooFilter.params) and the shard count. */
  get params(): RedisCuckooFilterParams {
    return this.#params;
  }

  /** The shard's filter, or the error that ended the replica. */
  #live(method: string): readonly ShardFollower[] {
    if (this.#closed) throw new CuckooFilterError('DISPOSED', `FilterReplica.${method}: the replica was closed`);
    const failed = this.#followers.find((follower) => follower.failure !== undefined);
    if (failed !== undefined) throw failed.failure!;
    return this.#followers;
  }

  #filterFor(method: string, item: unknown): CuckooFilter {
    const followers = this.#live(method);
    if (followers.length === 1) return followers[0]!.filter;
    const located = locateItem(this.#opened.layout.params, item, `FilterReplica.${method}: item`);
    return followers[Math.floor((located[LOCATION_WORDS - 1]! * followers.length) / 2 ** 32)]!.filter;
  }

  /**
   * True if the item may be in the filter, false if it certainly is not, as
   * of the replica's copy (see `lag` and `sync()`).
   * @example
   * ```ts
   * if (!replica.has(url)) await crawl(url);
   * ```
   */
  has(item: Item): boolean {
    const single = this.#single;
    if (single?.usable === true) return single.filter.has(item);
    return this.#filterFor('has', item).has(item);
  }

  /**
   * How many stored copies match the item, as RedisCuckooFilter.count answers.
   * @example
   * ```ts
   * replica.count('alice'); // 1
   * ```
   */
  count(item: Item): number {
    return this.#filterFor('count', item).count(item);
  }

  /**
   * Looks up many items: entry k is 1 if item k may be present, 0 if not.
   * @example
   * ```ts
   * replica.hasMany(['alice', 'bob']); // Uint8Array [1, 0]
   * ```
   */
  hasMany(items: ItemBatch): Uint8Array {
    const single = this.#single;
    if (single?.usable === true) return single.filter.hasMany(items);
    const followers = this.#live('hasMany');
    const list = Array.isArray(items) ? (items as readonly Item[]) : ArrayBuffer.isView(items) ? Array.from(items as ArrayLike<number | bigint>) : [...(items as Iterable<Item>)];
    const located = locateItems(this.#opened.layout.params, list, 'FilterReplica.hasMany: items');
    const answers = new Uint8Array(list.length);
    itemsByShard(this.#opened, located).forEach((indices, shard) => {
      const found = followers[shard]!.filter.hasMany(Array.from(indices, (k) => list[k]!));
      indices.forEach((k, position) => (answers[k] = found[position]!));
    });
    return answers;
  }

  /** Items stored in the replica's copy, over all shards (copies counted, a stashed one included). */
  get size(): number {
    return this.#live('size').reduce((sum, follower) => sum + follower.filter.size, 0);
  }

  /**
   * Milliseconds since the replica last knew it held every change: 0 while
   * it is waiting on the server with nothing left to read (a change then
   * reaches it within a round trip); growing while it catches up, reloads or
   * has lost its server, as long as it holds older changes only.
   * @example
   * ```ts
   * if (replica.lag > 1000) console.warn('answers may be a second old');
   * ```
   */
  get lag(): number {
    const now = Date.now();
    return Math.max(...this.#followers.map((follower) => follower.lagAt(now)));
  }

  /** Times the replica loaded the filter again (a gap in the log, a lost server), over all shards. */
  get reloads(): number {
    return this.#followers.reduce((sum, follower) => sum + follower.reloads, 0);
  }

  /**
   * Resolves once the replica holds every change acknowledged to any writer
   * before the call (read your writes): it reads each shard's count of
   * changes and waits until it has applied as many.
   * @example
   * ```ts
   * await seen.addMany(batch);
   * await replica.sync();
   * replica.hasMany(batch); // all 1
   * ```
   */
  async sync(): Promise<void> {
    const followers = this.#live('sync');
    let counts: number[];
    try {
      counts = await currentCounts(this.#opened, 'FilterReplica.sync');
    } catch (error) {
      // The filter is gone: so is what the replica follows.
      if (error instanceof CuckooFilterError && error.code === 'NOT_FOUND') for (const follower of followers) follower.fail(error);
      throw error;
    }
    await Promise.all(followers.map((follower, shard) => follower.waitFor(counts[shard]!)));
  }

  /**
   * The replica's copy as CuckooFilter bytes (FORMAT.md): for a sharded
   * filter, those of shard `shard` (required then). Once synced, equal to the
   * Redis filter's `toBytes(shard)`.
   * @example
   * ```ts
   * await replica.sync();
   * replica.toBytes(); // equals await seen.toBytes()
   * ```
   */
  toBytes(shard?: number): Uint8Array {
    const what = 'FilterReplica.toBytes';
    const followers = this.#live('toBytes');
    if (shard === undefined && followers.length > 1) {
      throw new RangeError(`${what}: this filter has ${followers.length} shards: pass the shard to export (0 to ${followers.length - 1})`);
    }
    const chosen = shard ?? 0;
    if (typeof chosen !== 'number') throw new TypeError(`${what}: shard must be a number (an integer from 0 to ${followers.length - 1}), got ${describeValue(chosen)}`);
    if (!Number.isInteger(chosen) || chosen < 0 || chosen >= followers.length) {
      throw new RangeError(`${what}: shard must be an integer from 0 to ${followers.length - 1}, got ${chosen}`);
    }
    return followers[chosen]!.filter.toBytes();
  }

  /**
   * What the replica is, for `JSON.stringify` and logs: `name`, `params` (the
   * seed as its decimal string), `size`, `lag` and `reloads`, read when asked.
   * `{ name, closed: true }` once closed; `{ name, failed }` (the error's
   * message) once the error that ended it is known, rather than an error.
   * @example
   * ```ts
   * JSON.stringify(replica); // '{"name":"seen","params":{...},"size":1000,"lag":0,"reloads":0}'
   * ```
   */
  toJSON(): Facts<this> | { readonly name: string; readonly closed: true } | { readonly name: string; readonly failed: string } {
    if (this.#closed) return { name: this.name, closed: true };
    const failed = this.#followers.find((follower) => follower.failure !== undefined);
    if (failed !== undefined) return { name: this.name, failed: failed.failure!.message };
    return gettersBelow(this, Object.prototype) as Facts<this>;
  }

  /**
   * The class and {@link FilterReplica.toJSON}'s facts on one line.
   * @example
   * ```ts
   * `${replica}`; // 'FilterReplica {"name":"seen","params":{...},"size":1000,"lag":0,"reloads":0}'
   * ```
   */
  toString(): string {
    return this[inspectCustom]();
  }

  /**
   * What `console.log(replica)` and `util.inspect(replica)` show: the class
   * and {@link FilterReplica.toJSON}'s facts.
   * @example
   * ```ts
   * console.log(replica); // FilterReplica { name: 'seen', params: { ... }, size: 1000, lag: 0, reloads: 0 }
   * ```
   */
  [inspectCustom](_depth?: number, options?: object, inspect?: Inspect): string {
    return described('FilterReplica', this.toJSON(), options, inspect);
  }

  /**
   * Stops following the filter and frees the replica's memory and
   * connections; `sync()` calls still waiting reject, and every other call
   * then throws (code DISPOSED). Idempotent.
   * @example
   * ```ts
   * await replica.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#subscriber?.close();
    await Promise.all(this.#followers.map((follower) => follower.stop()));
  }

  /**
   * Same as {@link FilterReplica.close}, for `await using replica = ...`.
   * @example
   * ```ts
   * { await using replica = await RedisCuckooFilter.openReplica(redis, 'seen'); } // closed here
   * ```
   */
  [asyncDisposeSymbol](): Promise<void> {
    return this.close();
  }
}

