// The arguments only RedisCuckooFilter takes (a name, shards), its options
// type, and the sizing of one shard of several.

import { FormatError, type CuckooFilterParams } from '../index.js';
import { describeValue } from '../parts.js';
import { MAX_SHARDS } from './layout.js';

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
   * Independent sub-filters, 1 to 1024 (default 1), whose keys fall in evenly
   * spread slot ranges, so that a Redis Cluster of S masters holds one each.
   * Each is sized for capacity / S items plus six standard deviations of how
   * many land in it, plus six.
   */
  shards?: number;
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

export const OPTIONS_SHAPE = '{ capacity, fpr?, maxKicks?, seed?, semiSort?, keyedHash?, shards? }';

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

