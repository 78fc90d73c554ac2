// The item operations through the cuckoo module (bindings/redis-module), on a
// server that has it: the items go as their bytes and the server hashes them,
// one command per shard and run of at most ITEMS_PER_COMMAND items, each
// addressed to the shard's chunk 0 and followed by the shard's 52 fixed
// header bytes as this process opened them (which the module takes in place
// of the filter id: {T}:0 <header>), so that it reaches one hash slot and is
// refused, having written nothing, if the filter was dropped or its header
// changed, as the scripts refuse. The
// module makes the scripts' choices (the core's kernel), so the answers and
// the bytes are the same either way.

import { CuckooFilterError } from '../index.js';
import { itemAsBytes, itemsAsBytes, LOCATION_WORDS, locateItem, locateItems } from '../parts.js';
import { errorText, type RedisArgument, type RedisConnection } from './connection.js';
import { commandError, ITEMS_PER_COMMAND, type OpenedFilter } from './opened.js';
import { refusalError } from './scripts.js';
import type { Mutation } from './mutations.js';

/** How a filter's items are handled: the server's module, or the Lua scripts. */
export type Engine = 'module' | 'scripts';
/** What a caller asks for: the module when the server has it ('auto'), or one of the two. */
export type EngineChoice = 'auto' | Engine;

const modules = new WeakMap<RedisConnection, Promise<boolean>>();

/** Whether the server behind `connection` has the module: asked once per connection (COMMAND INFO). */
export function serverHasModule(connection: RedisConnection, key: string): Promise<boolean> {
  let known = modules.get(connection);
  if (known === undefined) {
    known = connection.call(key, ['COMMAND', 'INFO', 'CUCKOO.MADD'], true).then(
      (reply) => Array.isArray(reply) && Array.isArray(reply[0]),
      () => {
        // Asked again next time: a failure says nothing about the server.
        modules.delete(connection);
        return false;
      },
    );
    modules.set(connection, known);
  }
  return known;
}

/** The engine for a filter of `key` on `connection`, as `choice` asks. */
export async function engineFor(connection: RedisConnection, key: string, choice: EngineChoice, what: string): Promise<Engine> {
  if (choice === 'scripts') return 'scripts';
  const present = await serverHasModule(connection, key);
  if (choice === 'module' && !present) {
    throw new CuckooFilterError('NOT_FOUND', `${what}: the server has no cuckoo module (load cuckoo-redis.so with --loadmodule), and engine 'module' was asked for`);
  }
  return present ? 'module' : 'scripts';
}

// The codes the module refuses with are the scripts' (and WRONGTYPE's, as for any command).
const refusalCodes: readonly string[] = ['NOT_FOUND', 'EXISTS', 'BAD_MAGIC', 'UNSUPPORTED_VERSION', 'TRUNCATED', 'BAD_PARAMETERS', 'INCONSISTENT'];

async function send(opened: OpenedFilter, shard: number, command: RedisArgument[], readOnly: boolean, what: string): Promise<unknown> {
  const key = opened.keys[shard]![0]!;
  try {
    return await opened.connection.call(key, command, readOnly);
  } catch (error) {
    const text = errorText(error);
    const space = text.indexOf(' ');
    const code = space < 0 ? text : text.slice(0, space);
    if (refusalCodes.includes(code)) throw refusalError(code, text.slice(space + 1), what);
    throw commandError(error, key, what);
  }
}

/** The shard of each item (all 0 with one shard, without hashing here). */
function shardsOf(opened: OpenedFilter, items: readonly RedisArgument[], what: string): Uint16Array {
  const shards = new Uint16Array(items.length);
  const count = opened.layout.shards;
  if (count === 1) return shards;
  const located = locateItems(opened.layout.params, items, what);
  for (let k = 0; k < items.length; k++) shards[k] = Math.floor((located[LOCATION_WORDS * k + 3]! * count) / 2 ** 32);
  return shards;
}

function shardOf(opened: OpenedFilter, item: unknown, what: string): number {
  if (opened.layout.shards === 1) return 0;
  return Math.floor((locateItem(opened.layout.params, item, what)[LOCATION_WORDS - 1]! * opened.layout.shards) / 2 ** 32);
}

/**
 * A run of one shard's items, at most ITEMS_PER_COMMAND: items [first,
 * first + length) of the batch when the filter has one shard, else those at
 * `positions`.
 */
interface Run {
  readonly first: number;
  readonly length: number;
  readonly positions: readonly number[] | null;
}

/** Per shard, its runs. */
function runsByShard(opened: OpenedFilter, items: readonly RedisArgument[], what: string): Run[][] {
  if (opened.layout.shards === 1) {
    const runs: Run[] = [];
    for (let first = 0; first < items.length; first += ITEMS_PER_COMMAND) {
      runs.push({ first, length: Math.min(ITEMS_PER_COMMAND, items.length - first), positions: null });
    }
    return [runs];
  }
  const shards = shardsOf(opened, items, what);
  const positions: number[][] = Array.from({ length: opened.layout.shards }, () => []);
  for (let k = 0; k < items.length; k++) positions[shards[k]!]!.push(k);
  return positions.map((list) => {
    const runs: Run[] = [];
    for (let first = 0; first < list.length; first += ITEMS_PER_COMMAND) {
      const part = list.slice(first, first + ITEMS_PER_COMMAND);
      runs.push({ first: 0, length: part.length, positions: part });
    }
    return runs;
  });
}

/** The batch position of a run's item `k`. */
const positionOf = (run: Run, k: number): number => (run.positions === null ? run.first + k : run.positions[k]!);

// Where node's Buffer exists (node-redis sends a Buffer as it is, any other
// bytes after a copy into one), the bytes this engine sends are Buffers.
interface BufferClass {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): Uint8Array;
  allocUnsafeSlow(length: number): Uint8Array;
}
const buffers = (globalThis as { Buffer?: BufferClass }).Buffer;
const asSent = (bytes: Uint8Array): Uint8Array => (buffers === undefined ? bytes : buffers.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
// A block of its own (not a slice of node's pool): itemsAsBytes writes numbers into it from its buffer's start.
const allocate = (length: number): Uint8Array => (buffers === undefined ? new Uint8Array(length) : buffers.allocUnsafeSlow(length));
const headersSent = new WeakMap<OpenedFilter, Uint8Array[]>();

/** An item as the module takes it: a string as itself, bytes as a Buffer where node's exists. */
function itemAsSent(item: unknown, what: string): RedisArgument {
  const bytes = itemAsBytes(item, what);
  return typeof bytes === 'string' ? bytes : asSent(bytes);
}

/** A command on shard `shard`: its chunk 0, its fixed header as opened, then the run's items. */
function command(opened: OpenedFilter, name: string, shard: number, items: readonly RedisArgument[], run: Run): RedisArgument[] {
  let headers = headersSent.get(opened);
  if (headers === undefined) {
    headers = opened.fixedHeaders.map(asSent);
    headersSent.set(opened, headers);
  }
  const out = new Array<RedisArgument>(3 + run.length);
  out[0] = name;
  out[1] = opened.keys[shard]![0]!;
  out[2] = headers[shard]!;
  for (let k = 0; k < run.length; k++) out[3 + k] = items[positionOf(run, k)]!;
  return out;
}

const ONE: Run = { first: 0, length: 1, positions: null };

/** EXISTS or COUNT of one item: its copies (EXISTS: 1 or 0). */
export async function moduleCopies(opened: OpenedFilter, item: unknown, exists: boolean, what: string): Promise<number> {
  const bytes = itemAsSent(item, `${what}: item`);
  const shard = shardOf(opened, bytes, `${what}: item`);
  return Number(await send(opened, shard, command(opened, exists ? 'CUCKOO.EXISTS' : 'CUCKOO.COUNT', shard, [bytes], ONE), true, what));
}

/** One add, addUnique or delete, answered as the mutating script answers it (mutateOne). */
export async function moduleMutateOne(opened: OpenedFilter, operation: Mutation, item: unknown, what: string): Promise<number> {
  const bytes = itemAsSent(item, `${what}: item`);
  const shard = shardOf(opened, bytes, `${what}: item`);
  const name = operation === 'add' ? 'CUCKOO.ADD' : operation === 'delete' ? 'CUCKOO.DEL' : 'CUCKOO.ADDNX';
  const reply = Number(await send(opened, shard, command(opened, name, shard, [bytes], ONE), false, what));
  // ADDNX: 1 added, 0 present, -1 full; the script's addUnique: 0 added, 1 present, 2 full.
  return operation === 'addUnique' ? (reply === 1 ? 0 : reply === 0 ? 1 : 2) : reply;
}

/** Adds (each shard stopping at its first refused item) or deletes items; resolves to how many. */
export async function moduleMutateMany(opened: OpenedFilter, operation: 'add' | 'delete', items: unknown, what: string): Promise<number> {
  const bytes = itemsAsBytes(items, `${what}: items`, allocate);
  const name = operation === 'add' ? 'CUCKOO.MADD' : 'CUCKOO.DEL';
  const perShard = runsByShard(opened, bytes, `${what}: items`).map(async (runs, shard) => {
    let done = 0;
    for (const run of runs) {
      const counted = Number(await send(opened, shard, command(opened, name, shard, bytes, run), false, what));
      done += counted;
      if (operation === 'add' && counted < run.length) break;
    }
    return done;
  });
  return (await Promise.all(perShard)).reduce((sum, done) => sum + done, 0);
}

/** MEXISTS: entry k is 1 if item k may be present, 0 if not. */
export async function moduleHasMany(opened: OpenedFilter, items: unknown, what: string): Promise<Uint8Array> {
  const bytes = itemsAsBytes(items, `${what}: items`, allocate);
  const answers = new Uint8Array(bytes.length);
  const work: Promise<void>[] = [];
  runsByShard(opened, bytes, `${what}: items`).forEach((runs, shard) => {
    for (const run of runs) {
      work.push(
        send(opened, shard, command(opened, 'CUCKOO.MEXISTS', shard, bytes, run), true, what).then((reply) => {
          const found = reply as number[];
          for (let k = 0; k < run.length; k++) answers[positionOf(run, k)] = Number(found[k]);
        }),
      );
    }
  });
  await Promise.all(work);
  return answers;
}
