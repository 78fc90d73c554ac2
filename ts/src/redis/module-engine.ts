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

/** Per shard, the positions of its items, cut into runs of at most ITEMS_PER_COMMAND. */
function runsByShard(opened: OpenedFilter, items: readonly RedisArgument[], what: string): number[][][] {
  const shards = shardsOf(opened, items, what);
  const runs: number[][][] = Array.from({ length: opened.layout.shards }, () => []);
  for (let k = 0; k < items.length; k++) {
    const list = runs[shards[k]!]!;
    const last = list[list.length - 1];
    if (last === undefined || last.length === ITEMS_PER_COMMAND) list.push([k]);
    else last.push(k);
  }
  return runs;
}

function command(opened: OpenedFilter, name: string, shard: number, items: readonly RedisArgument[]): RedisArgument[] {
  return [name, opened.keys[shard]![0]!, opened.fixedHeaders[shard]!, ...items];
}

/** EXISTS or COUNT of one item: its copies (EXISTS: 1 or 0). */
export async function moduleCopies(opened: OpenedFilter, item: unknown, exists: boolean, what: string): Promise<number> {
  const bytes = itemAsBytes(item, `${what}: item`);
  const shard = shardOf(opened, bytes, `${what}: item`);
  return Number(await send(opened, shard, command(opened, exists ? 'CUCKOO.EXISTS' : 'CUCKOO.COUNT', shard, [bytes]), true, what));
}

/** One add, addUnique or delete, answered as the mutating script answers it (mutateOne). */
export async function moduleMutateOne(opened: OpenedFilter, operation: Mutation, item: unknown, what: string): Promise<number> {
  const bytes = itemAsBytes(item, `${what}: item`);
  const shard = shardOf(opened, bytes, `${what}: item`);
  const name = operation === 'add' ? 'CUCKOO.ADD' : operation === 'delete' ? 'CUCKOO.DEL' : 'CUCKOO.ADDNX';
  const reply = Number(await send(opened, shard, command(opened, name, shard, [bytes]), false, what));
  // ADDNX: 1 added, 0 present, -1 full; the script's addUnique: 0 added, 1 present, 2 full.
  return operation === 'addUnique' ? (reply === 1 ? 0 : reply === 0 ? 1 : 2) : reply;
}

/** Adds (each shard stopping at its first refused item) or deletes items; resolves to how many. */
export async function moduleMutateMany(opened: OpenedFilter, operation: 'add' | 'delete', items: unknown, what: string): Promise<number> {
  const bytes = itemsAsBytes(items, `${what}: items`);
  const name = operation === 'add' ? 'CUCKOO.MADD' : 'CUCKOO.DEL';
  const perShard = runsByShard(opened, bytes, `${what}: items`).map(async (runs, shard) => {
    let done = 0;
    for (const run of runs) {
      const counted = Number(await send(opened, shard, command(opened, name, shard, run.map((k) => bytes[k]!)), false, what));
      done += counted;
      if (operation === 'add' && counted < run.length) break;
    }
    return done;
  });
  return (await Promise.all(perShard)).reduce((sum, done) => sum + done, 0);
}

/** MEXISTS: entry k is 1 if item k may be present, 0 if not. */
export async function moduleHasMany(opened: OpenedFilter, items: unknown, what: string): Promise<Uint8Array> {
  const bytes = itemsAsBytes(items, `${what}: items`);
  const answers = new Uint8Array(bytes.length);
  const work: Promise<void>[] = [];
  runsByShard(opened, bytes, `${what}: items`).forEach((runs, shard) => {
    for (const run of runs) {
      work.push(
        send(opened, shard, command(opened, 'CUCKOO.MEXISTS', shard, run.map((k) => bytes[k]!)), true, what).then((reply) => {
          const found = reply as number[];
          run.forEach((k, position) => (answers[k] = Number(found[position])));
        }),
      );
    }
  });
  await Promise.all(work);
  return answers;
}
