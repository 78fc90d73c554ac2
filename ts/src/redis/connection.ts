// What RedisCuckooFilter needs from a Redis client, and that for node-redis
// (`redis` on npm, `createClient` and `createCluster`). The package depends on
// no client: a node-redis client is recognised by its methods, and any other
// client can be used through a RedisConnection of a few lines.

import { describeValue } from '../parts.js';

/**
 * An argument of a Redis command: text, or bytes sent as they are.
 * @example
 * ```ts
 * const args: RedisArgument[] = ['seen', new Uint8Array([0x43, 0x4b])];
 * ```
 */
export type RedisArgument = string | Uint8Array;
/**
 * A Redis command: its name, then its arguments.
 * @example
 * ```ts
 * const command: RedisCommand = ['BITFIELD_RO', '{seen:0:0}:0', 'GET', 'u48', '352'];
 * ```
 */
export type RedisCommand = readonly RedisArgument[];

/**
 * A Redis client as RedisCuckooFilter uses it. Every command it sends names
 * keys of one hash slot; `key` is one of them, for a cluster client to route
 * by. Replies come back as RESP2 gives them: a bulk string as a Uint8Array
 * (a Buffer will do), an integer as a number, an array as an array, a status
 * as a string, a missing value as null; an error reply rejects the promise
 * with an Error whose message is the reply's text (`NOSCRIPT ...`).
 *
 * @example A connection of your own, here one that counts the commands it
 * passes on to a node-redis client (tests/redis/support/resp-client.ts has
 * one over a bare socket):
 * ```ts
 * import { createClient } from 'redis';
 * import { nodeRedisConnection, RedisCuckooFilter, type RedisConnection } from 'cuckoo-wasm/redis';
 * const inner = nodeRedisConnection(await createClient().connect());
 * let commands = 0;
 * const counting: RedisConnection = {
 *   call: (key, command, readOnly) => (commands++, inner.call(key, command, readOnly)),
 *   transaction: (key, list) => ((commands += list.length), inner.transaction(key, list)),
 * };
 * const seen = await RedisCuckooFilter.open(counting, 'seen');
 * ```
 */
export interface RedisConnection {
  /** Sends one command; `readOnly` commands may go to a replica if the client is set up for that. */
  call(key: string, command: RedisCommand, readOnly: boolean): Promise<unknown>;
  /**
   * Runs the commands as one MULTI/EXEC transaction on the node serving
   * `key`; resolves to their replies. (RedisCuckooFilter sends only
   * BITFIELD_RO there, whose replies are arrays of integers; FilterReplica
   * also GET of a count, whose reply may come as text or bytes.)
   */
  transaction(key: string, commands: readonly RedisCommand[]): Promise<unknown[]>;
  /**
   * Optional: a new connection of the same kind, for commands that wait (a
   * FilterReplica waits for changes there with `XREAD BLOCK`), ended by its
   * `close()`. Without it, a replica asks for changes every few milliseconds
   * on this connection instead.
   */
  duplicate?(): Promise<DuplicateConnection>;
}

/**
 * A connection of its own, from {@link RedisConnection.duplicate}.
 * @example
 * ```ts
 * const reader = await connection.duplicate!();
 * await reader.call('log', ['XREAD', 'BLOCK', '1000', 'STREAMS', 'log', '$'], true);
 * reader.close();
 * ```
 */
export interface DuplicateConnection extends RedisConnection {
  /** Ends the connection at once, failing what it was waiting for. */
  close(): void;
  /**
   * Optional: subscribes this connection, which then sends no other command,
   * to `channel` with `command` (`SSUBSCRIBE` where the server has shard
   * channels, else `SUBSCRIBE`); `listener` gets each message as bytes, and
   * keeps getting them after the connection is made again. A FilterReplica
   * given it is told of every change as it is made (CHANGE-LOG.md,
   * "Publishing a record"); without it, it asks for changes after each one.
   */
  subscribe?(channel: string, command: 'SSUBSCRIBE' | 'SUBSCRIBE', listener: (message: Uint8Array) => void): Promise<void>;
}

/**
 * The part of a node-redis client (createClient) used here.
 * @example
 * ```ts
 * const client: NodeRedisClient = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * ```
 */
export interface NodeRedisClient {
  sendCommand(args: RedisCommand, options?: object): Promise<unknown>;
  withTypeMapping(mapping: object): NodeRedisClient;
  multi(): { addCommand(args: RedisCommand): unknown; exec(): Promise<unknown[]> };
  /** For a FilterReplica's connection of its own. */
  duplicate?(): NodeRedisClient & NodeRedisDuplicate;
}

/** What a node-redis client or cluster made by `duplicate()` is used for. */
interface NodeRedisDuplicate {
  connect(): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  destroy(): void;
  /** Its SUBSCRIBE and SSUBSCRIBE, with `bufferMode` true: messages as Buffers. */
  subscribe?(channel: string, listener: (message: Uint8Array) => void, bufferMode: true): Promise<void>;
  sSubscribe?(channel: string, listener: (message: Uint8Array) => void, bufferMode: true): Promise<void>;
}

/**
 * The part of a node-redis cluster (createCluster) used here.
 * @example
 * ```ts
 * const cluster: NodeRedisCluster = await createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:7000' }] }).connect();
 * ```
 */
export interface NodeRedisCluster {
  sendCommand(firstKey: string, isReadonly: boolean, args: RedisCommand, options?: object): Promise<unknown>;
  withTypeMapping(mapping: object): NodeRedisCluster;
  multi(routing?: string): { addCommand(firstKey: string, isReadonly: boolean, args: RedisCommand): unknown; exec(): Promise<unknown[]> };
  readonly masters: readonly unknown[];
  /** For a FilterReplica's connection of its own. */
  duplicate?(): NodeRedisCluster & NodeRedisDuplicate;
}

/**
 * What RedisCuckooFilter's methods take as `redis`: a node-redis client or cluster, or a connection of your own.
 * @example
 * ```ts
 * const redis: RedisClientLike = await createClient().connect();
 * const seen = await RedisCuckooFilter.open(redis, 'seen');
 * ```
 */
export type RedisClientLike = NodeRedisClient | NodeRedisCluster | RedisConnection;

// RESP's type byte for bulk strings ('$'): node-redis maps replies by it. Bulk
// strings come back as bytes, not text: tables and headers are binary.
const BULK_STRING = 36;
const bytesReplies = (): object => ({ [BULK_STRING]: (globalThis as { Buffer?: unknown }).Buffer });

/** A MULTI/EXEC whose commands failed rejects with their first error's text, as a single command would. */
function firstCommandError(error: unknown): unknown {
  const replies = (error as { replies?: unknown[] } | null)?.replies;
  if (Array.isArray(replies)) {
    const failed = replies.find((reply) => reply instanceof Error);
    if (failed !== undefined) return failed;
  }
  return error;
}

// node-redis sends strings and Buffers; other byte arrays become Buffers over the same memory.
interface BufferClass {
  isBuffer(value: unknown): boolean;
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): Uint8Array;
}
function asNodeRedisCommand(command: RedisCommand): RedisCommand {
  const buffers = (globalThis as { Buffer?: BufferClass }).Buffer!;
  let k = 0;
  while (k < command.length && (typeof command[k] === 'string' || buffers.isBuffer(command[k]))) k++;
  if (k === command.length) return command;
  return command.map((arg) => (typeof arg === 'string' || buffers.isBuffer(arg) ? arg : buffers.from(arg.buffer, arg.byteOffset, arg.byteLength)));
}

function isFunction(value: unknown): value is (...args: never[]) => unknown {
  return typeof value === 'function';
}

/** A connected copy of a node-redis client or cluster, as a connection of its own (its errors are the commands'). */
async function duplicated<Client extends NodeRedisClient | NodeRedisCluster>(
  copy: Client & NodeRedisDuplicate,
  connectionOf: (client: Client) => RedisConnection,
): Promise<DuplicateConnection> {
  copy.on('error', () => undefined);
  await copy.connect();
  const { subscribe, sSubscribe } = copy;
  return {
    ...connectionOf(copy),
    close: () => copy.destroy(),
    ...(isFunction(subscribe) &&
      isFunction(sSubscribe) && {
        subscribe: (channel, command, listener) => (command === 'SSUBSCRIBE' ? sSubscribe : subscribe).call(copy, channel, listener, true),
      }),
  };
}

function clusterConnection(cluster: NodeRedisCluster): RedisConnection {
  const mapped = cluster.withTypeMapping(bytesReplies());
  return {
    ...(isFunction(cluster.duplicate) && { duplicate: () => duplicated(cluster.duplicate!(), clusterConnection) }),
    call: (key, command, readOnly) => mapped.sendCommand(key, readOnly, asNodeRedisCommand(command)),
    transaction: async (key, commands) => {
      const multi = mapped.multi(key);
      for (const command of commands) multi.addCommand(key, false, asNodeRedisCommand(command));
      try {
        return await multi.exec();
      } catch (error) {
        throw firstCommandError(error);
      }
    },
  };
}

function clientConnection(client: NodeRedisClient): RedisConnection {
  const mapped = client.withTypeMapping(bytesReplies());
  return {
    ...(isFunction(client.duplicate) && { duplicate: () => duplicated(client.duplicate!(), clientConnection) }),
    call: (_key, command) => mapped.sendCommand(asNodeRedisCommand(command)),
    transaction: async (_key, commands) => {
      const multi = mapped.multi();
      for (const command of commands) multi.addCommand(asNodeRedisCommand(command));
      try {
        return await multi.exec();
      } catch (error) {
        throw firstCommandError(error);
      }
    },
  };
}

/**
 * A RedisConnection over a node-redis client (`createClient`) or cluster
 * (`createCluster`): what RedisCuckooFilter makes of one by itself, for a
 * connection of your own to build on.
 * @example
 * ```ts
 * const connection = nodeRedisConnection(await createCluster({ rootNodes }).connect());
 * await connection.call('seen', ['GET', 'seen'], true); // the filter's root, as bytes
 * ```
 */
export function nodeRedisConnection(redis: NodeRedisClient | NodeRedisCluster): RedisConnection {
  const candidate = redis as Partial<NodeRedisClient & NodeRedisCluster & RedisConnection> | null;
  const isNodeRedis = isFunction(candidate?.sendCommand) && isFunction(candidate?.withTypeMapping) && isFunction(candidate?.multi);
  if (typeof redis !== 'object' || redis === null || !isNodeRedis || isFunction(candidate?.transaction)) {
    throw new TypeError(`nodeRedisConnection: redis must be a node-redis client or cluster, got ${describeValue(redis)}`);
  }
  return connectionOf(redis, 'nodeRedisConnection');
}

const connections = new WeakMap<object, RedisConnection>();

/**
 * The connection for `redis`: itself when it is a RedisConnection, else one
 * over a node-redis client or cluster (made once per client). A TypeError
 * naming `what` for anything else.
 */
export function connectionOf(redis: unknown, what: string): RedisConnection {
  if (typeof redis !== 'object' || redis === null) {
    throw new TypeError(`${what}: redis must be a node-redis client or cluster, or a RedisConnection, got ${describeValue(redis)}`);
  }
  const known = connections.get(redis);
  if (known !== undefined) return known;
  const candidate = redis as Partial<RedisConnection & NodeRedisClient & NodeRedisCluster>;
  let connection: RedisConnection;
  if (isFunction(candidate.call) && isFunction(candidate.transaction)) {
    connection = redis as RedisConnection;
  } else if (isFunction(candidate.sendCommand) && isFunction(candidate.withTypeMapping) && isFunction(candidate.multi)) {
    connection = 'masters' in candidate ? clusterConnection(redis as NodeRedisCluster) : clientConnection(redis as NodeRedisClient);
  } else {
    throw new TypeError(
      `${what}: redis must be a node-redis client or cluster, or a RedisConnection ({ call, transaction }), got ${describeValue(redis)}`,
    );
  }
  connections.set(redis, connection);
  return connection;
}

/** The text of a reply that may be bytes. */
export function replyText(reply: unknown): string {
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply);
  return String(reply);
}

/** The text of an error reply (`NOSCRIPT ...`, `WRONGTYPE ...`), or '' for other failures. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : '';
}
