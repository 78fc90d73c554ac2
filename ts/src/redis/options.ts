// The arguments only RedisCuckooFilter takes (a name, shards), its options
// type, and the sizing of one shard of several.

import { CuckooFilterError, FormatError, type CuckooFilterParams } from '../index.js';
import { describeValue } from '../parts.js';
import { DEFAULT_LOG_LENGTH, FILTER_BYTES_MAGIC, MAX_LOG_LENGTH, MAX_SHARDS, MULTIPLY_SHIFT_REFUSAL } from './layout.js';
import type { EngineChoice } from './module-engine.js';

/**
 * Options of `RedisCuckooFilter.create`: those of `CuckooFilter.create`, and `shards`.
 * @example
 * ```ts
 * const options: RedisCreateOptions = { capacity: 10_000_000, fpr: 0.001, shards: 3 };
 * const urls = await RedisCuckooFilter.create(cluster, 'urls', options);
 * ```
 */
export interface RedisCreateOptions {
  /** How many items the filter must hold: an integer from 1 to 2^53 - 1. */
  capacity: number;
  /** The largest false-positive rate acceptable: greater than 0 and less than 1 (default 0.001, as for CuckooFilter.create). */
  fpr?: number;
  /**
   * Evictions an insert may do: 0 to 1,000,000 (default 500). They run inside
   * one script, during which Redis serves nobody else: 500 took about 5 ms in
   * the README's measurement.
   */
  maxKicks?: number;
  /**
   * Seeds the item hash and the eviction choices: a non-negative safe integer
   * or a bigint below 2^64 (default: random; every client reads it from the
   * filter's root key).
   */
  seed?: number | bigint;
  /** Semi-sorted buckets (the paper's Section 5.2): one bit less per entry. */
  semiSort?: boolean;
  /** Items hashed with SipHash-1-3 keyed by the seed, as CuckooFilterOptions.keyedHash (default false). */
  keyedHash?: boolean;
  /**
   * Not for Redis filters: only `false`. The scripts and the cuckoo module
   * place items with XXH3 or the keyed hash, so `true` (CuckooFilter's
   * hash of 64-bit keys, hash ids 6 to 11) is refused with a
   * CuckooFilterError of code INCOMPATIBLE.
   */
  multiplyShiftHash?: false;
  /**
   * Independent sub-filters, 1 to 1024 (default 1), whose keys fall in evenly
   * spread slot ranges, so that a Redis Cluster of S masters holds one each.
   * Each is sized for capacity / S items plus six standard deviations of how
   * many land in it, plus six.
   */
  shards?: number;
  /**
   * Records each shard's change log keeps at least, 0 to 65,535 (default
   * 1,000), so that a {@link FilterReplica} that falls behind by fewer catches
   * up from the log rather than reloading the filter. 0 makes a filter
   * without a log (no replica can follow it; writes do a little less).
   */
  logLength?: number;
  /**
   * Who handles the items: the cuckoo module when the server has it
   * (`'auto'`, the default: checked once per connection), the module or an
   * error (`'module'`), or the Lua scripts (`'scripts'`). Same answers and
   * bytes either way.
   */
  engine?: EngineChoice;
}

/**
 * Options of `RedisCuckooFilter.open` and `fromBytes`.
 * @example
 * ```ts
 * const seen = await RedisCuckooFilter.open(redis, 'seen', { engine: 'scripts' });
 * ```
 */
export interface RedisOpenOptions {
  /** As {@link RedisCreateOptions.engine}. */
  engine?: EngineChoice;
}

/**
 * A Redis filter's parameters: those of every shard (as CuckooFilter.params), and the shard count.
 * @example
 * ```ts
 * const { bucketCount, fingerprintBits, shards } = (await RedisCuckooFilter.open(redis, 'seen')).params;
 * ```
 */
export interface RedisCuckooFilterParams extends CuckooFilterParams {
  readonly shards: number;
}

export const OPTIONS_SHAPE = '{ capacity, fpr?, maxKicks?, seed?, semiSort?, keyedHash?, shards?, logLength?, engine? }';

const ENGINES: readonly unknown[] = ['auto', 'module', 'scripts'];

/** The `engine` option of `options` (an object or undefined): 'auto' when absent. */
export function checkEngine(options: unknown, what: string): EngineChoice {
  if (options === undefined) return 'auto';
  if (typeof options !== 'object' || options === null) throw new TypeError(`${what}: options must be an object { engine? }, got ${describeValue(options)}`);
  const value = (options as { engine?: unknown }).engine;
  if (value === undefined) return 'auto';
  if (!ENGINES.includes(value)) throw new TypeError(`${what}: engine must be 'auto', 'module' or 'scripts', got ${describeValue(value)}`);
  return value as EngineChoice;
}

export function checkName(name: unknown, what: string): string {
  if (typeof name !== 'string') throw new TypeError(`${what}: name must be a string, got ${describeValue(name)}`);
  if (name.length === 0) throw new RangeError(`${what}: name must not be empty`);
  if (/[{}]/.test(name)) {
    throw new RangeError(`${what}: name must not contain '{' or '}' (the filter's keys carry hash tags of their own), got ${describeValue(name)}`);
  }
  return name;
}

export function checkShards(value: unknown, what: string): number {
  if (value === undefined) return 1;
  if (typeof value !== 'number') throw new TypeError(`${what}: shards must be a number (an integer from 1 to ${MAX_SHARDS}), got ${describeValue(value)}`);
  if (!Number.isInteger(value) || value < 1 || value > MAX_SHARDS) throw new RangeError(`${what}: shards must be an integer from 1 to ${MAX_SHARDS}, got ${value}`);
  return value;
}

export function checkLogLength(value: unknown, what: string): number {
  if (value === undefined) return DEFAULT_LOG_LENGTH;
  if (typeof value !== 'number') throw new TypeError(`${what}: logLength must be a number (an integer from 0 to ${MAX_LOG_LENGTH}), got ${describeValue(value)}`);
  if (!Number.isInteger(value) || value < 0 || value > MAX_LOG_LENGTH) throw new RangeError(`${what}: logLength must be an integer from 0 to ${MAX_LOG_LENGTH}, got ${value}`);
  return value;
}

/** Refuses `multiplyShiftHash: true` (a CuckooFilterError, INCOMPATIBLE): hash ids 6 to 11 have no Redis filters. */
export function checkNoMultiplyShift(options: unknown, what: string): void {
  if (typeof options === 'object' && options !== null && (options as { multiplyShiftHash?: unknown }).multiplyShiftHash === true) {
    throw new CuckooFilterError('INCOMPATIBLE', `${what}: multiplyShiftHash must be false or absent: ${MULTIPLY_SHIFT_REFUSAL}`);
  }
}

/**
 * Refuses the bytes of a CuckooFilter of format versions 5 to 7 (multiplyShiftHash:
 * hash ids 6 to 11), once CuckooFilter.fromBytes has found them valid: a
 * CuckooFilterError, INCOMPATIBLE.
 */
export function checkFilterBytesForRedis(bytes: Uint8Array, what: string): void {
  const magic = Array.from(FILTER_BYTES_MAGIC, (character) => character.charCodeAt(0));
  if (bytes.length > 6 && magic.every((octet, at) => bytes[at] === octet) && bytes[4]! >= 5 && bytes[4]! <= 7) {
    throw new CuckooFilterError('INCOMPATIBLE', `${what}: the bytes are a CuckooFilter of format version ${bytes[4]} (hash id ${bytes[6]}): ${MULTIPLY_SHIFT_REFUSAL}`);
  }
}

/** The items one of S shards is sized for: its binomial share of `capacity`, with room for the spread. */
export function shardCapacity(capacity: number, shards: number): number {
  if (shards === 1) return capacity;
  const mean = capacity / shards;
  return Math.min(capacity, Math.ceil(mean + 6 * Math.sqrt(mean * (1 - 1 / shards)) + 6));
}

/** The bytes CuckooFilter.fromBytes refused, as this class's error. */
export function asOwnError(error: unknown, what: string): unknown {
  if (!(error instanceof Error)) return error;
  const message = error.message.replace(/^CuckooFilter\.fromBytes/, what);
  if (error instanceof FormatError) return new FormatError(error.code, message);
  if (error instanceof RangeError) return new RangeError(message);
  return error;
}

