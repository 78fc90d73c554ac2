// An open filter: its layout, keys and the commands on its shards that every
// operation shares. Reads are BITFIELD_RO commands, no script: each item's two
// buckets and the shard's stash come from one command when the shard is one
// chunk, or from one MULTI/EXEC over its chunks, so that a lookup never sees a
// fingerprint halfway through a concurrent move (which would read as a false
// negative). The copies are then counted as the core counts them (buckets.ts).

import { CuckooFilterError, FormatError } from '../index.js';
import { LOCATION_WORDS } from '../parts.js';
import { bucketWords, countInBucketWords, type BucketWord } from './buckets.js';
import { errorText, type RedisConnection } from './connection.js';
import { fixedHeader } from './header.js';
import { AT, bucketBitsOf, placeOf, SHARD_MAGIC, shardKeys, type FilterLayout } from './layout.js';

/** Items per command: a read of 1,000 items is about 2,000 bucket reads; a script of 1,000 items runs a few milliseconds. */
export const ITEMS_PER_COMMAND = 1000;

export interface OpenedFilter {
  readonly connection: RedisConnection;
  readonly layout: FilterLayout;
  /** Per shard, its chunk keys. */
  readonly keys: readonly (readonly string[])[];
  /** Per shard, the fixed part of its header, which every script compares. */
  readonly fixedHeaders: readonly Uint8Array[];
  readonly bucketBits: number;
  readonly words: readonly BucketWord[];
  /** Per word, its BITFIELD type (`u52`). */
  readonly wordTypes: readonly string[];
}

export function openedFilter(connection: RedisConnection, layout: FilterLayout): OpenedFilter {
  const words = bucketWords(layout.params);
  return {
    connection,
    layout,
    keys: shardKeys(layout),
    fixedHeaders: Array.from({ length: layout.shards }, (_, shard) => fixedHeader(layout, SHARD_MAGIC, shard)),
    bucketBits: bucketBitsOf(layout.params),
    words,
    wordTypes: words.map((word) => `u${word.width}`),
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
export function itemsByShard(opened: OpenedFilter, located: Uint32Array): number[][] {
  const shards = opened.layout.shards;
  const groups: number[][] = Array.from({ length: shards }, () => []);
  for (let k = 0; k < located.length / LOCATION_WORDS; k++) {
    groups[Math.floor((located[LOCATION_WORDS * k + 3]! * shards) / 2 ** 32)]!.push(k);
  }
  return groups;
}

/** `items` cut into runs of at most ITEMS_PER_COMMAND. */
export function runsOf(items: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (let start = 0; start < items.length; start += ITEMS_PER_COMMAND) runs.push(items.slice(start, start + ITEMS_PER_COMMAND));
  return runs;
}

// The header fields a read takes: the filter id (to notice a dropped filter)
// and the stash, by BITFIELD offsets in chunk 0.
const HEADER_READS = ['GET', 'u48', String(8 * AT.id), 'GET', 'u32', String(8 * AT.stashFingerprint), 'GET', 'u32', String(8 * AT.stashBucket)];

/** Copies of each item's fingerprint (count()), for items `run` of one shard. */
async function countRun(opened: OpenedFilter, shard: number, run: readonly number[], located: Uint32Array, what: string): Promise<Uint32Array> {
  const { layout, words, wordTypes, bucketBits } = opened;
  const keys = opened.keys[shard]!;
  const wordCount = words.length;
  // Per chunk: its command, and for each of its GETs the word it fills.
  const commands: string[][] = [['BITFIELD_RO', keys[0]!, ...HEADER_READS]];
  const targets: number[][] = [[]];
  for (let position = 0; position < run.length; position++) {
    const base = LOCATION_WORDS * run[position]!;
    for (let which = 0; which < 2; which++) {
      const [chunk, bit] = placeOf(layout, located[base + 1 + which]!, bucketBits);
      const command = (commands[chunk] ??= ['BITFIELD_RO', keys[chunk]!]);
      const target = (targets[chunk] ??= []);
      for (let w = 0; w < wordCount; w++) {
        command.push('GET', wordTypes[w]!, String(bit + words[w]!.offset));
        target.push((2 * position + which) * wordCount + w);
      }
    }
  }
  const chunks = commands.flatMap((command, chunk) => (command === undefined ? [] : [chunk]));
  let replies: unknown[];
  try {
    replies =
      chunks.length === 1
        ? [await opened.connection.call(keys[0]!, commands[0]!, true)]
        : await opened.connection.transaction(keys[0]!, chunks.map((chunk) => commands[chunk]!));
  } catch (error) {
    throw commandError(error, keys[0]!, what);
  }
  const values = new Float64Array(run.length * 2 * wordCount);
  let stash = { fingerprint: 0, bucket: 0 };
  chunks.forEach((chunk, index) => {
    const reply = replies[index] as number[];
    let first = 0;
    if (chunk === 0) {
      checkFilterId(opened, Number(reply[0]), keys[0]!, what);
      stash = { fingerprint: Number(reply[1]), bucket: Number(reply[2]) };
      first = 3;
    }
    const target = targets[chunk]!;
    for (let g = 0; g < target.length; g++) values[target[g]!] = reply[first + g]!;
  });
  const counts = countInBucketWords(layout.params, values, located, run, stash, what);
  if (counts === null) throw new FormatError('INCONSISTENT', `${what}: a semi-sorted bucket of shard ${shard} has a rank that names no bucket`);
  return counts;
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
    for (const run of runsOf(items)) {
      work.push(
        countRun(opened, shard, run, located, what).then((runCounts) => {
          run.forEach((item, position) => (counts[item] = runCounts[position]!));
        }),
      );
    }
  });
  await Promise.all(work);
  return counts;
}
