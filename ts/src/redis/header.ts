// The header's bytes (layout.ts describes them): written when a filter is
// made, and checked, field by field, when one is opened.

import { CuckooFilterError, FormatError, type CuckooFilterParams, type FormatErrorCode } from '../index.js';
import { INITIAL_PRNG_OFFSET } from '../parts.js';
import {
  AT,
  bucketBitsOf,
  chunkExtent,
  FILTER_BYTES_MAGIC,
  FIXED_HEADER_BYTES,
  HEADER_BYTES,
  isMultiplyShiftHashId,
  LOGGED_VERSION,
  MAX_SHARDS,
  MULTIPLY_SHIFT_REFUSAL,
  ROOT_BEING_CREATED,
  ROOT_MAGIC,
  SHARD_MAGIC,
  UNLOGGED_VERSION,
  type FilterLayout,
} from './layout.js';

const ascii = (text: string): number[] => Array.from(text, (character) => character.charCodeAt(0));
const isPowerOfTwo = (m: number): boolean => m > 0 && 2 ** Math.round(Math.log2(m)) === m;
/** hashing.hpp's plainHashId: 1 or 2 by the bucket count, 4 or 5 with the keyed hash. */
const hashIdOf = (bucketCount: number, keyedHash: boolean): number => (keyedHash ? 3 : 0) + (isPowerOfTwo(bucketCount) ? 1 : 2);

/** SplitMix64's first state for a seed (prng.hpp), as CuckooFilter starts it. */
export function initialPrngState(seed: bigint): bigint {
  return seed ^ INITIAL_PRNG_OFFSET;
}

function putBigEndian(bytes: Uint8Array, at: number, count: number, value: number | bigint): void {
  let rest = BigInt(value);
  for (let k = count - 1; k >= 0; k--) {
    bytes[at + k] = Number(rest & 0xffn);
    rest >>= 8n;
  }
}

export function getBigEndian(bytes: Uint8Array, at: number, count: number): number {
  let value = 0;
  for (let k = 0; k < count; k++) value = value * 256 + bytes[at + k]!;
  return value;
}

export function getBigEndianBig(bytes: Uint8Array, at: number, count: number): bigint {
  let value = 0n;
  for (let k = 0; k < count; k++) value = (value << 8n) | BigInt(bytes[at + k]!);
  return value;
}

/** Bytes [0, 52) of shard `shard`'s header, or of the root (`shard` then holds the root's state). */
export function fixedHeader(layout: FilterLayout, magic: string, shard: number): Uint8Array {
  const bytes = new Uint8Array(FIXED_HEADER_BYTES);
  const { params } = layout;
  bytes.set(ascii(magic), AT.magic);
  bytes[AT.version] = layout.version;
  bytes[AT.flags] = params.semiSort ? 1 : 0;
  bytes[AT.hashId] = hashIdOf(params.bucketCount, params.keyedHash);
  bytes[AT.fingerprintBits] = params.fingerprintBits;
  bytes[AT.bucketSize] = params.bucketSize;
  putBigEndian(bytes, AT.chunkCount, 2, layout.chunkCount);
  putBigEndian(bytes, AT.maxKicks, 4, params.maxKicks);
  putBigEndian(bytes, AT.seed, 8, params.seed);
  putBigEndian(bytes, AT.bucketCount, 8, params.bucketCount);
  putBigEndian(bytes, AT.chunkZeroBuckets, 4, layout.chunkZeroBuckets);
  putBigEndian(bytes, AT.chunkBuckets, 4, layout.chunkBuckets);
  putBigEndian(bytes, AT.shard, 2, shard);
  putBigEndian(bytes, AT.shards, 2, layout.shards);
  putBigEndian(bytes, AT.id, 6, layout.id);
  putBigEndian(bytes, AT.logLength, 2, layout.logLength);
  return bytes;
}

/** A shard's whole header as made: empty stash, no items, the PRNG at its first state. */
export function initialHeader(layout: FilterLayout, shard: number, stash?: { fingerprint: number; bucket: number } | null, itemCount = 0): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES);
  bytes.set(fixedHeader(layout, SHARD_MAGIC, shard));
  putBigEndian(bytes, AT.stashFingerprint, 4, stash?.fingerprint ?? 0);
  putBigEndian(bytes, AT.stashBucket, 4, stash?.bucket ?? 0);
  putBigEndian(bytes, AT.itemCount, 8, itemCount);
  putBigEndian(bytes, AT.prng, 8, initialPrngState(layout.params.seed));
  return bytes;
}

function refused(code: FormatErrorCode, what: string, key: string, problem: string): FormatError {
  return new FormatError(code, `${what}: key '${key}' ${problem}`);
}

/** Magic, version and length, in that order (FORMAT.md's order of checks). */
function checkPreamble(bytes: Uint8Array, magic: string, length: number, what: string, key: string): void {
  const expected = ascii(magic);
  for (let k = 0; k < Math.min(4, bytes.length); k++) {
    if (bytes[k] === expected[k]) continue;
    if (bytes.length > AT.version && ascii(FILTER_BYTES_MAGIC).every((octet, at) => bytes[at] === octet)) {
      const version = bytes[AT.version]!;
      const why = version >= 5 && version <= 7 ? MULTIPLY_SHIFT_REFUSAL : 'RedisCuckooFilter.fromBytes makes a Redis filter of them';
      throw refused('BAD_MAGIC', what, key, `holds a CuckooFilter's bytes (format version ${version}), not a Redis filter: ${why}`);
    }
    throw refused('BAD_MAGIC', what, key, 'does not hold a cuckoo-wasm filter (bad magic bytes)');
  }
  if (bytes.length <= AT.version) throw refused('TRUNCATED', what, key, 'is truncated');
  if (bytes[AT.version] !== UNLOGGED_VERSION && bytes[AT.version] !== LOGGED_VERSION) {
    throw refused('UNSUPPORTED_VERSION', what, key, `holds format version ${bytes[AT.version]}, this library reads ${UNLOGGED_VERSION} and ${LOGGED_VERSION}`);
  }
  if (bytes.length < length) throw refused('TRUNCATED', what, key, `is truncated: ${bytes.length} bytes of ${length}`);
  if (bytes.length > length) throw refused('INCONSISTENT', what, key, `holds ${bytes.length} bytes, ${length} expected`);
}

/** Hash ids 6 to 11 are refused as what they are, not as a hash id that disagrees with the bucket count. */
function checkNotMultiplyShift(bytes: Uint8Array, what: string, key: string): void {
  const hashId = bytes[AT.hashId]!;
  if (isMultiplyShiftHashId(hashId)) throw refused('UNSUPPORTED_VERSION', what, key, `has hash id ${hashId}: ${MULTIPLY_SHIFT_REFUSAL}`);
}

/** The layout a root key records, every field checked; `state` says whether its creation finished. */
export function decodeRoot(bytes: Uint8Array, name: string, what: string): { layout: FilterLayout; state: number } {
  checkPreamble(bytes, ROOT_MAGIC, FIXED_HEADER_BYTES, what, name);
  const bad = (field: string): FormatError => refused('BAD_PARAMETERS', what, name, `has a bad ${field}`);
  const flags = bytes[AT.flags]!;
  const fingerprintBits = bytes[AT.fingerprintBits]!;
  const bucketSize = bytes[AT.bucketSize]!;
  const semiSort = (flags & 1) === 1;
  const bucketCount = getBigEndian(bytes, AT.bucketCount, 8);
  const version = bytes[AT.version]!;
  const logLength = getBigEndian(bytes, AT.logLength, 2);
  if ((flags & ~1) !== 0 || bytes[AT.reserved] !== 0) throw bad('flag or reserved byte');
  // Version 1 has no log (its bytes 50-51 are reserved), version 2 one of at least a record.
  if ((version === UNLOGGED_VERSION) !== (logLength === 0)) throw bad('change log length');
  if (fingerprintBits < 2 || fingerprintBits > 32) throw bad('fingerprint width');
  if (![1, 2, 4, 8].includes(bucketSize) || (semiSort && (bucketSize !== 4 || fingerprintBits < 5))) throw bad('bucket size');
  if (bucketCount < 1 || bucketCount > 2 ** 32) throw bad('bucket count');
  checkNotMultiplyShift(bytes, what, name);
  const keyedHash = bytes[AT.hashId] === 4 || bytes[AT.hashId] === 5;
  if (bytes[AT.hashId] !== hashIdOf(bucketCount, keyedHash)) throw bad('hash id for its bucket count');
  const params: CuckooFilterParams = Object.freeze({
    bucketCount,
    bucketSize: bucketSize as 1 | 2 | 4 | 8,
    fingerprintBits,
    maxKicks: getBigEndian(bytes, AT.maxKicks, 4),
    seed: getBigEndianBig(bytes, AT.seed, 8),
    semiSort,
    keyedHash,
    multiplyShiftHash: false,
  });
  if (params.maxKicks > 1_000_000) throw bad('maxKicks');
  if (Math.ceil((bucketCount * bucketBitsOf(params)) / 8) + 7 > 2 ** 31) throw bad('table size (over 2 GiB)');
  const layout: FilterLayout = Object.freeze({
    name,
    params,
    shards: getBigEndian(bytes, AT.shards, 2),
    chunkZeroBuckets: getBigEndian(bytes, AT.chunkZeroBuckets, 4),
    chunkBuckets: getBigEndian(bytes, AT.chunkBuckets, 4),
    chunkCount: getBigEndian(bytes, AT.chunkCount, 2),
    id: getBigEndian(bytes, AT.id, 6),
    version,
    logLength,
  });
  if (layout.shards < 1 || layout.shards > MAX_SHARDS) throw bad('shard count');
  if (layout.id === 0) throw bad('filter id');
  const state = getBigEndian(bytes, AT.shard, 2);
  if (state > ROOT_BEING_CREATED) throw bad('state');
  checkChunking(layout, bad);
  return { layout, state };
}

/** What the scripts rely on: chunks of whole bytes that cover the table exactly, none over 512 MB. */
function checkChunking(layout: FilterLayout, bad: (field: string) => FormatError): void {
  const m = layout.params.bucketCount;
  const { chunkZeroBuckets: zero, chunkBuckets: later, chunkCount: count } = layout;
  const oneChunk = count === 1 && zero === m && later === 0;
  const several = count > 1 && zero >= 8 && zero % 8 === 0 && zero < m && later >= 8 && later % 8 === 0 && count === 1 + Math.ceil((m - zero) / later);
  if (!oneChunk && !several) throw bad('chunking');
  for (const chunk of [0, 1]) {
    if (chunk < count && chunkExtent(layout, chunk).bytes > 2 ** 29) throw bad('chunking (a chunk over 512 MB)');
  }
}

/**
 * Checks the header of `shard` (chunk 0's first 76 bytes) against the root's
 * layout: a FormatError naming what differs, or a CuckooFilterError for a
 * shard that is missing.
 */
export function checkShardHeader(bytes: Uint8Array, layout: FilterLayout, shard: number, key: string, what: string): void {
  if (bytes.length === 0) throw new CuckooFilterError('INCONSISTENT', `${what}: shard ${shard} of filter '${layout.name}' is missing (key '${key}')`);
  checkPreamble(bytes, SHARD_MAGIC, HEADER_BYTES, what, key);
  checkNotMultiplyShift(bytes, what, key);
  // While a filter gains its change log, its shards are upgraded before its root (CHANGE-LOG.md).
  const upgraded = bytes[AT.version] === LOGGED_VERSION && layout.version === UNLOGGED_VERSION;
  const expected = fixedHeader(upgraded ? { ...layout, version: LOGGED_VERSION, logLength: getBigEndian(bytes, AT.logLength, 2) } : layout, SHARD_MAGIC, shard);
  for (let k = 0; k < FIXED_HEADER_BYTES; k++) {
    if (bytes[k] !== expected[k]) {
      throw refused('INCONSISTENT', what, key, `disagrees with the root '${layout.name}' at header byte ${k}: not shard ${shard} of this filter`);
    }
  }
  const { fingerprintBits, bucketCount, bucketSize } = layout.params;
  const stashFingerprint = getBigEndian(bytes, AT.stashFingerprint, 4);
  const stashBucket = getBigEndian(bytes, AT.stashBucket, 4);
  const itemCount = getBigEndian(bytes, AT.itemCount, 8);
  const stashBad = stashFingerprint === 0 ? stashBucket !== 0 : stashFingerprint >= 2 ** fingerprintBits || stashBucket >= bucketCount;
  if (stashBad) throw refused('INCONSISTENT', what, key, 'has a damaged stash');
  if (itemCount > bucketCount * (layout.params.semiSort ? 4 : bucketSize) + 1) throw refused('INCONSISTENT', what, key, 'has a damaged item count');
}
