// An open filter: its layout, keys and the commands on its shards that every
// operation shares. Reads are BITFIELD_RO commands, no script: each item's two
// buckets and the shard's stash come from one command when the shard is one
// chunk, or from one MULTI/EXEC over its chunks, so that a lookup never sees a
// fingerprint halfway through a concurrent move (which would read as a false
// negative). The copies are then counted as the core counts them (buckets.ts).

import { CuckooFilterError, FormatError } from '../index.js';
import { LOCATION_WORDS } from '../parts.js';
import { bucketDecoder, bucketWords, countWith, type BucketDecoder, type BucketWord } from './buckets.js';
import { errorText, type RedisConnection } from './connection.js';
import { fixedHeader } from './header.js';
import { AT, bitInChunk, bucketBitsOf, chunkOf, logKeys, SHARD_MAGIC, shardKeys, type FilterLayout } from './layout.js';
import type { Engine } from './module-engine.js';

/** Items per command: a read of 1,000 items is about 2,000 bucket reads; a script of 1,000 items runs a few milliseconds. */
export const ITEMS_PER_COMMAND = 1000;

export interface OpenedFilter {
  readonly connection: RedisConnection;
  readonly layout: FilterLayout;
  /** Who handles the items: the server's cuckoo module, or the Lua scripts. */
  readonly engine: Engine;
  /** Per shard, its chunk keys. */
  readonly keys: readonly (readonly string[])[];
  /** Per shard, its change log's keys (CHANGE-LOG.md): the Stream, and its count of records. */
  readonly logKeys: readonly (readonly [string, string])[];
  /** Per shard, what the scripts that write it take as KEYS: the chunk keys, then the log's. */
  readonly scriptKeys: readonly (readonly string[])[];
  /** Per shard, the fixed part of its header, which every script compares. */
  readonly fixedHeaders: readonly Uint8Array[];
  readonly bucketBits: number;
  readonly words: readonly BucketWord[];
  /** Per word, its BITFIELD type (`u52`). */
  readonly wordTypes: readonly string[];
  /** Per word, its first bit in a bucket. */
  readonly wordOffsets: readonly number[];
  /** How the words of a bucket decode into counts. */
  readonly decoder: BucketDecoder;
}

export function openedFilter(connection: RedisConnection, layout: FilterLayout, engine: Engine = 'scripts'): OpenedFilter {
  const words = bucketWords(layout.params);
  const keys = shardKeys(layout);
  const logs = logKeys(layout);
  return {
    connection,
    layout,
    engine,
    keys,
    logKeys: logs,
    scriptKeys: keys.map((chunks, shard) => [...chunks, ...logs[shard]!]),
    fixedHeaders: Array.from({ length: layout.shards }, (_, shard) => fixedHeader(layout, SHARD_MAGIC, shard)),
    bucketBits: bucketBitsOf(layout.params),
    words,
    wordTypes: words.map((word) => `u${word.width}`),
    wordOffsets: words.map((word) => word.offset),
    decoder: bucketDecoder(layout.params),
  };
}

/** The error for a failed command on `key`: a key of another type is not a filter; anything else as it came. */
export function commandError(error: unknown, key: string, what: string): unknown {
  if (errorText(error).startsWith('WRONGTYPE')) {
    return new FormatError('BAD_MAGIC', `${what}: key '${key}' holds another type of value, not a cuckoo-wasm filter`);
  }
  return error;
}

/** Item indices per shard, in order: shard = (route × S) >> 32 (hashing.hpp). */
export function itemsByShard(opened: OpenedFilter, located: Uint32Array): Uint32Array[] {
  const shards = opened.layout.shards;
  const total = located.length / LOCATION_WORDS;
  if (shards === 1) {
    const all = new Uint32Array(total);
    for (let k = 0; k < total; k++) all[k] = k;
    return [all];
  }
  const shardOf = new Uint16Array(total);
  const sizes = new Uint32Array(shards);
  for (let k = 0; k < total; k++) {
    const shard = Math.floor((located[LOCATION_WORDS * k + 3]! * shards) / 2 ** 32);
    shardOf[k] = shard;
    sizes[shard]!++;
  }
  const groups = Array.from(sizes, (size) => new Uint32Array(size));
  sizes.fill(0);
  for (let k = 0; k < total; k++) {
    const shard = shardOf[k]!;
    groups[shard]![sizes[shard]!++] = k;
  }
  return groups;
}

/** `items` cut into runs of at most ITEMS_PER_COMMAND (views, not copies). */
export function runsOf(items: Uint32Array): Uint32Array[] {
  const runs: Uint32Array[] = [];
  for (let start = 0; start < items.length; start += ITEMS_PER_COMMAND) runs.push(items.subarray(start, start + ITEMS_PER_COMMAND));
  return runs;
}

// The header fields a read takes: the filter id (to notice a dropped filter)
// and the stash, by BITFIELD offsets in chunk 0, whose read always goes.
const HEADER_READS = ['GET', 'u48', String(8 * AT.id), 'GET', 'u32', String(8 * AT.stashFingerprint), 'GET', 'u32', String(8 * AT.stashBucket)];
const HEADER_VALUES = HEADER_READS.length / 3;

/**
 * Counts the copies of items `run` of one shard into `counts` (at each item's
 * index): one BITFIELD_RO per chunk holding any of their buckets, in one
 * MULTI/EXEC when there are several (an item's two buckets may lie in two
 * chunks, and are read at one instant). The commands are written into arrays
 * of their final length: pushing the GETs one by one, with a pair per
 * bucket's place, was a fifth of a lookup's time in the client (--cpu-prof).
 */
async function countRun(opened: OpenedFilter, shard: number, run: Uint32Array, located: Uint32Array, counts: Uint32Array, what: string): Promise<void> {
  const { layout, wordTypes, wordOffsets, bucketBits } = opened;
  const keys = opened.keys[shard]!;
  const wordCount = wordTypes.length;
  // Bucket j is item run[j >> 1]'s first (j even) or second bucket.
  const bucketTotal = 2 * run.length;
  const chunks = new Uint16Array(bucketTotal);
  const bits = new Float64Array(bucketTotal);
  const readsIn = new Uint32Array(layout.chunkCount);
  for (let j = 0; j < bucketTotal; j++) {
    const bucket = located[LOCATION_WORDS * run[j >> 1]! + 1 + (j & 1)]!;
    const chunk = chunkOf(layout, bucket);
    chunks[j] = chunk;
    bits[j] = bitInChunk(layout, bucket, chunk, bucketBits);
    readsIn[chunk]!++;
  }
  const commands: string[][] = [];
  const filled = new Uint32Array(layout.chunkCount);
  const sent: number[] = [];
  for (let chunk = 0; chunk < layout.chunkCount; chunk++) {
    if (chunk > 0 && readsIn[chunk] === 0) continue;
    const head = chunk === 0 ? ['BITFIELD_RO', keys[0]!, ...HEADER_READS] : ['BITFIELD_RO', keys[chunk]!];
    const command = new Array<string>(head.length + 3 * wordCount * readsIn[chunk]!);
    for (let k = 0; k < head.length; k++) command[k] = head[k]!;
    commands[chunk] = command;
    filled[chunk] = head.length;
    sent.push(chunk);
  }
  for (let j = 0; j < bucketTotal; j++) {
    const command = commands[chunks[j]!]!;
    let at = filled[chunks[j]!]!;
    for (let w = 0; w < wordCount; w++) {
      command[at++] = 'GET';
      command[at++] = wordTypes[w]!;
      command[at++] = `${bits[j]! + wordOffsets[w]!}`;
    }
    filled[chunks[j]!] = at;
  }
  let replies: unknown[];
  try {
    replies =
      sent.length === 1
        ? [await opened.connection.call(keys[0]!, commands[0]!, true)]
        : await opened.connection.transaction(keys[0]!, sent.map((chunk) => commands[chunk]!));
  } catch (error) {
    throw commandError(error, keys[0]!, what);
  }
  const header = replies[0] as number[];
  checkFilterId(opened, Number(header[0]), keys[0]!, what);
  const stash = { fingerprint: Number(header[1]), bucket: Number(header[2]) };
  // The words in bucket order, each taken from its chunk's reply in turn.
  const replyOf: number[][] = [];
  sent.forEach((chunk, index) => (replyOf[chunk] = replies[index] as number[]));
  const taken = new Uint32Array(layout.chunkCount);
  taken[0] = HEADER_VALUES;
  const values = new Float64Array(bucketTotal * wordCount);
  for (let j = 0, at = 0; j < bucketTotal; j++) {
    const reply = replyOf[chunks[j]!]!;
    let next = taken[chunks[j]!]!;
    for (let w = 0; w < wordCount; w++) values[at++] = Number(reply[next++]);
    taken[chunks[j]!] = next;
  }
  if (countWith(opened.decoder, values, located, run, stash, what, counts) === null) {
    throw new FormatError('INCONSISTENT', `${what}: a semi-sorted bucket of shard ${shard} has a rank that names no bucket`);
  }
}

export function checkFilterId(opened: OpenedFilter, id: number, key: string, what: string): void {
  if (id === opened.layout.id) return;
  const reason = id === 0 ? 'was dropped' : 'was dropped and its name used for another filter';
  throw new CuckooFilterError('NOT_FOUND', `${what}: filter '${opened.layout.name}' ${reason} (key '${key}')`);
}

/** For each located item, the copies of its fingerprint in the filter, as CuckooFilter.count answers. */
export async function countCopies(opened: OpenedFilter, located: Uint32Array, what: string): Promise<Uint32Array> {
  const counts = new Uint32Array(located.length / LOCATION_WORDS);
  const work: Promise<void>[] = [];
  itemsByShard(opened, located).forEach((items, shard) => {
    for (const run of runsOf(items)) work.push(countRun(opened, shard, run, located, counts, what));
  });
  await Promise.all(work);
  return counts;
}

/** The items stored in every shard: each header's count, read with its filter id checked. */
export async function itemCountOf(opened: OpenedFilter, what: string): Promise<number> {
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
