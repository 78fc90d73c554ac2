// Where a filter lives in Redis and what its keys hold.
//
// A filter named N is a root key N (its parameters, 52 bytes) and, per shard,
// chunk keys {T}:0, {T}:1, ... whose hash tag T (N:shard:salt) puts every
// chunk of a shard in one slot and the shards in evenly spread slot ranges.
// Chunk 0 starts with the shard's header (76 bytes), then buckets; the other
// chunks hold buckets only, in BITFIELD order (buckets.ts). One string
// per shard would be simpler, but Redis's allocator (jemalloc) rounds a
// string up to its size class, 4 per doubling: up to 25 % more memory. Chunks
// are sized to fill their class.
//
// Header, big-endian, as BITFIELD and the scripts read it:
//   0  4  magic "CKFR" (the root: "CKFN")       24  8  bucket count m
//   4  1  layout version: 1, or 2 (logged)      32  4  buckets in chunk 0
//   5  1  flags: bit 0 semi-sorted               36  4  buckets in each later chunk (0: one chunk)
//   6  1  hash id: 1 (m a power of two) or 2,    40  2  shard (the root: 0 ready, 1 being created)
//         4 or 5 with the keyed hash; never 6
//         to 11 (MULTIPLY_SHIFT_REFUSAL below)
//   7  1  fingerprint bits f                    42  2  shard count
//   8  1  bucket size b                         44  6  filter id: random, never 0
//   9  1  reserved, 0                           50  2  version 2: log length; 1: reserved, 0
//  10  2  chunk count                           52  4  stash fingerprint (0: empty)
//  12  4  maxKicks                              56  4  stash bucket
//  16  8  seed                                  60  8  item count
//                                               68  8  eviction PRNG state
// Bytes [0, 52) never change, but for the upgrade from version 1 to 2 (bytes
// 4 and 50-51); the root is those bytes. Scripts compare them with what the
// caller opened: the same filter, undamaged.
//
// Layout version 2 adds a change log per shard, the keys {T}:log (a Stream)
// and {T}:seq, which every write appends to in the same script: CHANGE-LOG.md
// beside this file specifies them for every writer of these keys.

import type { CuckooFilterParams } from '../index.js';

export const HEADER_BYTES = 76;
export const FIXED_HEADER_BYTES = 52;
/** Layout versions: 1 without a change log, 2 with one (CHANGE-LOG.md). */
export const UNLOGGED_VERSION = 1;
export const LOGGED_VERSION = 2;
/** Records a log keeps at least, by default; at most 65,535 (header bytes 50-51). */
export const DEFAULT_LOG_LENGTH = 1000;
export const MAX_LOG_LENGTH = 65535;
export const MAX_SHARDS = 1024;
export const ROOT_READY = 0;
export const ROOT_BEING_CREATED = 1;

/** Byte offsets of the header's fields. */
export const AT = {
  magic: 0,
  version: 4,
  flags: 5,
  hashId: 6,
  fingerprintBits: 7,
  bucketSize: 8,
  reserved: 9,
  chunkCount: 10,
  maxKicks: 12,
  seed: 16,
  bucketCount: 24,
  chunkZeroBuckets: 32,
  chunkBuckets: 36,
  shard: 40,
  shards: 42,
  id: 44,
  logLength: 50,
  stashFingerprint: 52,
  stashBucket: 56,
  itemCount: 60,
  prng: 68,
} as const;

export const SHARD_MAGIC = 'CKFR';
export const ROOT_MAGIC = 'CKFN';
/** The magic of a CuckooFilter's own bytes (FORMAT.md), which a key may hold where a filter's root or shard belongs. */
export const FILTER_BYTES_MAGIC = 'CKFW';

/**
 * Hash ids 6 to 11 (FORMAT.md versions 5 to 7, `multiplyShiftHash`): 8-byte
 * items hashed by a hash of 64-bit keys. A Redis filter has none: the scripts place
 * items themselves, in Lua, and the cuckoo module as they do.
 */
export const isMultiplyShiftHashId = (hashId: number): boolean => hashId >= 6 && hashId <= 11;
/** Why: the end of every refusal of hash ids 6 to 11 (bindings/redis-module's kNoMultiplyShift says the same). */
export const MULTIPLY_SHIFT_REFUSAL =
  'Redis filters do not support multiplyShiftHash (hash ids 6 to 11, format versions 5 to 7): their scripts, and the cuckoo module, place items with XXH3 (hash ids 1 and 2) or the keyed hash (keyedHash: 4 and 5) only';

/** A filter's shape, shards and chunks, as its root records them. */
export interface FilterLayout {
  readonly name: string;
  readonly params: CuckooFilterParams;
  readonly shards: number;
  readonly chunkZeroBuckets: number;
  readonly chunkBuckets: number;
  readonly chunkCount: number;
  readonly id: number;
  /** 1, or 2 with a change log. */
  readonly version: number;
  /** Records the change log keeps at least (0 without one). */
  readonly logLength: number;
}

export function bucketBitsOf(params: Pick<CuckooFilterParams, 'bucketSize' | 'fingerprintBits' | 'semiSort'>): number {
  return params.semiSort ? 4 * params.fingerprintBits - 4 : params.bucketSize * params.fingerprintBits;
}

/** Buckets [first, first + count) of the chunk, and its length in bytes. */
export function chunkExtent(layout: FilterLayout, chunk: number): { first: number; count: number; bytes: number } {
  const bits = bucketBitsOf(layout.params);
  const m = layout.params.bucketCount;
  if (chunk === 0) {
    const count = Math.min(layout.chunkZeroBuckets, m);
    return { first: 0, count, bytes: HEADER_BYTES + Math.ceil((count * bits) / 8) };
  }
  const first = layout.chunkZeroBuckets + (chunk - 1) * layout.chunkBuckets;
  const count = Math.min(layout.chunkBuckets, m - first);
  return { first, count, bytes: Math.ceil((count * bits) / 8) };
}

/** The chunk holding a bucket. */
export function chunkOf(layout: FilterLayout, bucket: number): number {
  return bucket < layout.chunkZeroBuckets ? 0 : 1 + Math.floor((bucket - layout.chunkZeroBuckets) / layout.chunkBuckets);
}

/** A bucket's first bit in its chunk (BITFIELD offset); `chunk` is chunkOf's. */
export function bitInChunk(layout: FilterLayout, bucket: number, chunk: number, bucketBits: number): number {
  if (chunk === 0) return 8 * HEADER_BYTES + bucket * bucketBits;
  return (bucket - layout.chunkZeroBuckets - (chunk - 1) * layout.chunkBuckets) * bucketBits;
}

// ---- Chunk sizes: the plan with the least memory under Redis's allocator.

// A chunk is one Redis string, below Redis's 512 MB limit; at most this many per shard.
const MAX_CHUNK_BYTES = 2 ** 28;
const MAX_CHUNKS = 64;
// Per key: the value's object (16 bytes), its dictionary entry (24) and its name (about 32).
const KEY_BYTES = 72;

/** jemalloc's size class for `bytes`: 16-byte steps to 128, then 4 classes per doubling. */
function sizeClass(bytes: number): number {
  if (bytes <= 8) return 8;
  if (bytes <= 128) return Math.ceil(bytes / 16) * 16;
  const step = 2 ** (Math.ceil(Math.log2(bytes)) - 3);
  return Math.ceil(bytes / step) * step;
}

/** What Redis allocates for a string of `length` bytes: its sds header, the bytes and a NUL, rounded to a class. */
function stringAllocation(length: number): number {
  const header = length < 32 ? 1 : length < 256 ? 3 : length < 65536 ? 5 : 9;
  return sizeClass(length + header + 1);
}

/**
 * The chunking of one shard's table: buckets in chunk 0 and in each later
 * chunk, and how many chunks. Fewest chunks (a read of several chunks is a
 * MULTI/EXEC) among the plans within 3 % and 256 bytes of the in-process
 * table's memory; the plan with the least memory when none is.
 */
export function planChunks(params: CuckooFilterParams): { chunkZeroBuckets: number; chunkBuckets: number; chunkCount: number } {
  const bits = bucketBitsOf(params);
  const m = params.bucketCount;
  const tableBytes = Math.ceil((m * bits) / 8);
  const budget = 1.03 * (tableBytes + 7) + 256;
  const plans: { chunkZeroBuckets: number; chunkBuckets: number; chunkCount: number; cost: number }[] = [];
  if (HEADER_BYTES + tableBytes <= MAX_CHUNK_BYTES) {
    plans.push({ chunkZeroBuckets: m, chunkBuckets: 0, chunkCount: 1, cost: stringAllocation(HEADER_BYTES + tableBytes) + KEY_BYTES });
  }
  // Groups of 8 buckets end on a byte boundary, so every chunk starts on one.
  const headerBuckets = 8 * Math.ceil(HEADER_BYTES / bits);
  for (let power = 12; power <= Math.log2(MAX_CHUNK_BYTES); power++) {
    for (let quarter = 0; quarter < 4; quarter++) {
      const size = 2 ** power + quarter * 2 ** (power - 2);
      if (size > MAX_CHUNK_BYTES) continue;
      const chunkBuckets = 8 * Math.floor((size - 10) / bits);
      const chunkZeroBuckets = chunkBuckets - headerBuckets;
      if (chunkZeroBuckets < 8 || chunkZeroBuckets >= m) continue;
      const chunkCount = 1 + Math.ceil((m - chunkZeroBuckets) / chunkBuckets);
      if (chunkCount > MAX_CHUNKS) continue;
      const lastBuckets = m - chunkZeroBuckets - (chunkCount - 2) * chunkBuckets;
      const cost =
        stringAllocation(HEADER_BYTES + (chunkZeroBuckets * bits) / 8) +
        (chunkCount - 2) * stringAllocation((chunkBuckets * bits) / 8) +
        stringAllocation(Math.ceil((lastBuckets * bits) / 8)) +
        chunkCount * KEY_BYTES;
      plans.push({ chunkZeroBuckets, chunkBuckets, chunkCount, cost });
    }
  }
  const byCost = (a: { cost: number }, b: { cost: number }) => a.cost - b.cost;
  const withinBudget = plans.filter((plan) => plan.cost <= budget).sort((a, b) => a.chunkCount - b.chunkCount || byCost(a, b));
  const { chunkZeroBuckets, chunkBuckets, chunkCount } = withinBudget[0] ?? plans.sort(byCost)[0]!;
  return { chunkZeroBuckets, chunkBuckets, chunkCount };
}

// ---- Keys: hash tags spread over the cluster's 16384 slots.

const SLOTS = 16384;
const CRC16_TABLE = new Uint16Array(256).map((_, index) => {
  let crc = index << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  return crc;
});
const utf8 = new TextEncoder();

/** The slot Redis Cluster gives a key whose hash tag is `tag` (CRC16-XMODEM mod 16384). */
export function slotOf(tag: string): number {
  let crc = 0;
  for (const octet of utf8.encode(tag)) crc = ((crc << 8) & 0xffff) ^ CRC16_TABLE[((crc >> 8) ^ octet) & 0xff]!;
  return crc % SLOTS;
}

/** Shard s of S gets a tag in the s-th of S equal ranges of slots, so that a cluster of S masters holds one each. */
export function shardTag(name: string, shard: number, shards: number): string {
  const first = Math.floor((shard * SLOTS) / shards);
  const end = Math.floor(((shard + 1) * SLOTS) / shards);
  for (let salt = 0; ; salt++) {
    const tag = `${name}:${shard}:${salt}`;
    const slot = slotOf(tag);
    if (slot >= first && slot < end) return tag;
  }
}

/** The chunk keys of every shard. */
export function shardKeys(layout: Pick<FilterLayout, 'name' | 'shards' | 'chunkCount'>): string[][] {
  return Array.from({ length: layout.shards }, (_, shard) => {
    const tag = shardTag(layout.name, shard, layout.shards);
    return Array.from({ length: layout.chunkCount }, (__, chunk) => `{${tag}}:${chunk}`);
  });
}

/** The change log's keys of every shard (CHANGE-LOG.md): its Stream, and its count of records. */
export function logKeys(layout: Pick<FilterLayout, 'name' | 'shards'>): [log: string, seq: string][] {
  return Array.from({ length: layout.shards }, (_, shard) => {
    const tag = shardTag(layout.name, shard, layout.shards);
    return [`{${tag}}:log`, `{${tag}}:seq`];
  });
}
