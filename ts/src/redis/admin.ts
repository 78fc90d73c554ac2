// Making, opening, exporting and removing a filter's keys.
//
// Making: the root key (the filter's name) is claimed first with SET NX, in
// the state "being created"; then each shard is made by a script that refuses
// if any of its keys exists; then the root turns "ready". So two processes
// creating one name cannot both succeed, a shard's keys never exist without
// a root that names them, and `open` refuses a filter whose making has not
// finished. Removing goes the other way: the shards, then the root.

import { CuckooFilter, CuckooFilterError, FormatError, type CuckooFilterParams } from '../index.js';
import { describeValue, filterFromParts, partsOf } from '../parts.js';
import { fromBitfieldOrder, toBitfieldOrder } from './buckets.js';
import type { RedisArgument, RedisCommand, RedisConnection } from './connection.js';
import { checkShardHeader, decodeRoot, fixedHeader, getBigEndian, getBigEndianBig, initialHeader } from './header.js';
import { AT, chunkExtent, HEADER_BYTES, LOGGED_VERSION, MAX_SHARDS, planChunks, ROOT_BEING_CREATED, ROOT_MAGIC, ROOT_READY, UNLOGGED_VERSION, type FilterLayout } from './layout.js';
import type { Engine } from './module-engine.js';
import { commandError, openedFilter, type OpenedFilter } from './opened.js';
import { asOwnError, checkFilterBytesForRedis } from './options.js';
import { runScript, SCRIPTS } from './scripts.js';

/**
 * A new filter's layout: its chunking, a random id (never 0) that tells it
 * from a later filter of the same name, and a change log of `logLength`
 * records (layout version 2), or none (version 1) when it is 0.
 */
export function newLayout(name: string, params: CuckooFilterParams, shards: number, logLength: number): FilterLayout {
  const version = logLength > 0 ? LOGGED_VERSION : UNLOGGED_VERSION;
  return Object.freeze({ name, params, shards, ...planChunks(params), id: 1 + Math.floor(Math.random() * (2 ** 48 - 1)), version, logLength });
}

/** The contents of one shard being loaded: its table in BITFIELD order, stash and item count. */
export interface ShardContents {
  readonly table: Uint8Array;
  readonly stash: { readonly fingerprint: number; readonly bucket: number } | null;
  readonly itemCount: number;
}

async function call(connection: RedisConnection, key: string, command: RedisCommand, what: string, readOnly = false): Promise<unknown> {
  try {
    return await connection.call(key, command, readOnly);
  } catch (error) {
    throw commandError(error, key, what);
  }
}

/**
 * What `fromBytes` stores: one filter's bytes, or each shard's, loaded and
 * checked to be shards of one filter, as their parameters and each shard's
 * table (in BITFIELD order), stash and count.
 */
export function shardContentsOf(bytes: unknown, what: string): { params: CuckooFilterParams; contents: ShardContents[] } {
  const sharded = Array.isArray(bytes);
  const list: readonly unknown[] = sharded ? bytes : [bytes];
  if (list.length < 1 || list.length > MAX_SHARDS || !list.every((each) => each instanceof Uint8Array)) {
    throw new TypeError(`${what}: bytes must be a Uint8Array, or an array of 1 to ${MAX_SHARDS} of them (one per shard), got ${describeValue(bytes)}`);
  }
  const filters: CuckooFilter[] = [];
  try {
    list.forEach((each, shard) => {
      const named = sharded ? `${what}: bytes[${shard}]` : what;
      try {
        filters.push(CuckooFilter.fromBytes(each as Uint8Array));
      } catch (error) {
        throw asOwnError(error, named);
      }
      checkFilterBytesForRedis(each as Uint8Array, named);
    });
    const { params } = filters[0]!;
    const differing = filters.findIndex((filter) => Object.entries(filter.params).some(([key, value]) => params[key as keyof CuckooFilterParams] !== value));
    if (differing >= 0) throw new CuckooFilterError('INCOMPATIBLE', `${what}: bytes[${differing}] has other parameters than bytes[0]: not shards of one filter`);
    const contents = filters.map((filter): ShardContents => {
      const parts = partsOf(filter);
      return { table: toBitfieldOrder(params, parts.payload), stash: parts.stash, itemCount: parts.itemCount };
    });
    return { params, contents };
  } finally {
    for (const filter of filters) filter.dispose();
  }
}

/** Makes the filter's keys, empty or holding `contents` (one per shard); nothing is left behind on failure. */
export async function makeFilter(
  connection: RedisConnection,
  layout: FilterLayout,
  contents: readonly ShardContents[] | null,
  what: string,
  engine: Engine = 'scripts',
): Promise<OpenedFilter> {
  const opened = openedFilter(connection, layout, engine);
  const { name } = layout;
  const beingCreated = fixedHeader(layout, ROOT_MAGIC, ROOT_BEING_CREATED);
  const claimed = await call(connection, name, ['SET', name, beingCreated, 'NX'], what);
  if (claimed === null) throw new CuckooFilterError('EXISTS', `${what}: the name '${name}' is taken (a filter, or another key, exists under it)`);
  try {
    await Promise.all(
      opened.keys.map((keys, shard) => {
        const loaded = contents?.[shard];
        const header = initialHeader(layout, shard, loaded?.stash, loaded?.itemCount);
        const chunks = keys.map((_, chunk) => chunkExtent(layout, chunk));
        const args: RedisArgument[] =
          loaded === undefined
            ? ['zero', ...chunks.map((chunk) => String(chunk.bytes))]
            : ['contents', ...chunks.map((chunk, index) => loaded.table.subarray((chunk.first * opened.bucketBits) / 8, (chunk.first * opened.bucketBits) / 8 + chunk.bytes - (index === 0 ? HEADER_BYTES : 0)))];
        return runScript(connection, SCRIPTS.createShard, opened.scriptKeys[shard]!, [header, ...args], what);
      }),
    );
    await runScript(connection, SCRIPTS.root, [name], ['replace', beingCreated, fixedHeader(layout, ROOT_MAGIC, ROOT_READY)], what);
  } catch (error) {
    await removeKeys(opened, beingCreated, what, true).catch(() => undefined);
    throw error;
  }
  return opened;
}

/**
 * Deletes the shards that belong to this filter (a shard of another filter is
 * left alone), then its root if it still holds `root`: after every shard went,
 * or in any case when undoing a creation (`alsoAfterARefusal`). Rejects with
 * the first refusal.
 */
export async function removeKeys(opened: OpenedFilter, root: Uint8Array, what: string, alsoAfterARefusal = false): Promise<void> {
  const outcomes = await Promise.allSettled(
    opened.scriptKeys.map((keys, shard) => runScript(opened.connection, SCRIPTS.dropShard, keys, [opened.fixedHeaders[shard]!], what)),
  );
  const refused = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (refused === undefined || alsoAfterARefusal) await runScript(opened.connection, SCRIPTS.root, [opened.layout.name], ['delete', root], what);
  if (refused !== undefined) throw refused.reason;
}

/** The layout in the root key `name` and the root's bytes; null when there is none. */
export async function readRoot(connection: RedisConnection, name: string, what: string): Promise<{ layout: FilterLayout; state: number; root: Uint8Array } | null> {
  const reply = await call(connection, name, ['GET', name], what);
  if (reply === null) return null;
  const root = reply as Uint8Array;
  return { ...decodeRoot(root, name, what), root };
}

/** Opens the filter `name`: its root and every shard's header and chunks checked. */
export async function openFilter(connection: RedisConnection, name: string, what: string, engine: Engine = 'scripts'): Promise<OpenedFilter> {
  const found = await readRoot(connection, name, what);
  if (found === null) throw new CuckooFilterError('NOT_FOUND', `${what}: there is no filter named '${name}'`);
  if (found.state === ROOT_BEING_CREATED) {
    throw new CuckooFilterError('NOT_FOUND', `${what}: filter '${name}' is being created, or its creation did not finish (RedisCuckooFilter.drop removes it)`);
  }
  const opened = openedFilter(connection, found.layout, engine);
  // The fixed header and the lengths never change: read in any order.
  await Promise.all(
    opened.keys.map(async (keys, shard) => {
      const [header, ...lengths] = await Promise.all([
        call(connection, keys[0]!, ['GETRANGE', keys[0]!, '0', String(HEADER_BYTES - 1)], what),
        ...keys.map((key) => call(connection, key, ['STRLEN', key], what)),
      ]);
      checkShardHeader(header as Uint8Array, found.layout, shard, keys[0]!, what);
      keys.forEach((key, chunk) => checkChunkLength(Number(lengths[chunk]), found.layout, chunk, key, what));
    }),
  );
  return opened;
}

function checkChunkLength(length: number, layout: FilterLayout, chunk: number, key: string, what: string): void {
  const expected = chunkExtent(layout, chunk).bytes;
  if (length < expected) throw new FormatError('TRUNCATED', `${what}: key '${key}' holds ${length} bytes, the filter needs ${expected}`);
  if (length > expected) throw new FormatError('INCONSISTENT', `${what}: key '${key}' holds ${length} bytes, the filter needs ${expected}`);
}

/** Shard `shard` as an in-process CuckooFilter (read atomically), eviction PRNG state included; the caller disposes it. */
export async function shardAsFilter(opened: OpenedFilter, shard: number, what: string): Promise<CuckooFilter> {
  const chunks = (await runScript(opened.connection, SCRIPTS.exportShard, opened.keys[shard]!, [opened.fixedHeaders[shard]!], what)) as Uint8Array[];
  return filterFromChunks(opened, shard, chunks, what);
}

/** A CuckooFilter of shard `shard`'s chunks as read from Redis (header first), every length and header field checked. */
export function filterFromChunks(opened: OpenedFilter, shard: number, chunks: readonly Uint8Array[], what: string): CuckooFilter {
  const keys = opened.keys[shard]!;
  const { layout } = opened;
  const first = chunks[0]!;
  checkShardHeader(first.subarray(0, HEADER_BYTES), layout, shard, keys[0]!, what);
  const table = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0) - HEADER_BYTES);
  let at = 0;
  chunks.forEach((bytes, index) => {
    checkChunkLength(bytes.length, layout, index, keys[index]!, what);
    table.set(index === 0 ? bytes.subarray(HEADER_BYTES) : bytes, at);
    at += bytes.length - (index === 0 ? HEADER_BYTES : 0);
  });
  const stashFingerprint = getBigEndian(first, AT.stashFingerprint, 4);
  return filterFromParts(
    layout.params,
    {
      payload: fromBitfieldOrder(layout.params, table),
      stash: stashFingerprint === 0 ? null : { fingerprint: stashFingerprint, bucket: getBigEndian(first, AT.stashBucket, 4) },
      itemCount: getBigEndian(first, AT.itemCount, 8),
      prngState: getBigEndianBig(first, AT.prng, 8),
    },
    what,
  );
}

/**
 * Gives every shard, then the root, a change log of `logLength` records
 * (CHANGE-LOG.md, "The upgrade from version 1"); false when the filter had one.
 */
export async function addLog(opened: OpenedFilter, logLength: number, what: string): Promise<boolean> {
  const { layout, connection } = opened;
  if (layout.version === LOGGED_VERSION) return false;
  const length = new Uint8Array([logLength >> 8, logLength & 0xff]);
  await Promise.all(opened.scriptKeys.map((keys, shard) => runScript(connection, SCRIPTS.addLog, keys, [opened.fixedHeaders[shard]!, length], what)));
  const logged = { ...layout, version: LOGGED_VERSION, logLength };
  await runScript(connection, SCRIPTS.root, [layout.name], ['replace', fixedHeader(layout, ROOT_MAGIC, ROOT_READY), fixedHeader(logged, ROOT_MAGIC, ROOT_READY)], what);
  return true;
}

/** One shard's bytes as `CuckooFilter.toBytes` writes them; `shard` may be left out of a one-shard filter. */
export async function shardBytes(opened: OpenedFilter, shard: unknown, what: string): Promise<Uint8Array> {
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

/** Removes an opened filter's keys, with its root as it is now: it may have gained a change log since it was opened. */
export async function dropOpened(opened: OpenedFilter, what: string): Promise<void> {
  const found = await readRoot(opened.connection, opened.layout.name, what);
  const root = found?.layout.id === opened.layout.id ? found.root : fixedHeader(opened.layout, ROOT_MAGIC, ROOT_READY);
  await removeKeys(opened, root, what);
}
