/**
 * cuckoo-wasm/redis: cuckoo filters kept in Redis (6.2 or newer, or Valkey),
 * shared by every process and machine that opens them, on nothing but
 * strings, BITFIELD_RO and Lua scripts. The client hashes with the wasm core
 * exactly as CuckooFilter does, so a filter's bytes move between Redis and
 * the process both ways. Works with node-redis (`redis` on npm, an optional
 * peer dependency: `createClient` and `createCluster`) or any client through
 * a {@link RedisConnection}.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { init } from 'cuckoo-wasm';
 * import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
 * await init();
 * const redis = await createClient().connect();
 * const seen = await RedisCuckooFilter.create(redis, 'seen', { capacity: 1_000_000, fpr: 0.001 });
 * await seen.add('alice');
 * await seen.has('alice'); // true, in every process
 * const replica = await RedisCuckooFilter.openReplica(redis, 'seen');
 * replica.has('alice');      // true, answered in this process
 * ```
 * @packageDocumentation
 */
// A Node entry (node-redis is a Node client): the .wasm files are read with fs.
import '../use-node.js';

export { RedisCuckooFilter } from './filter.js';
export { FilterReplica } from './replica.js';
export { type RedisCreateOptions, type RedisCuckooFilterParams, type RedisOpenOptions } from './options.js';
export { type Engine, type EngineChoice } from './module-engine.js';
export {
  nodeRedisConnection,
  type DuplicateConnection,
  type RedisArgument,
  type RedisClientLike,
  type RedisCommand,
  type RedisConnection,
  type NodeRedisClient,
  type NodeRedisCluster,
} from './connection.js';
