// The scripts: named by their SHA-1 as Redis names them, loaded once, and sent
// again by the client whenever the server has lost them (SCRIPT FLUSH, a
// restart, a failover); and a client the package does not know, through a
// RedisConnection of a few lines.
import { createHash } from 'node:crypto';
import { CuckooFilter } from 'cuckoo-wasm';
import { nodeRedisConnection, RedisCuckooFilter, type RedisConnection } from 'cuckoo-wasm/redis';
import { SCRIPTS, sha1Hex } from '../../dist/cjs/redis/scripts';
import { RespClient } from './support/resp-client';
import { serverForFile } from './support/servers';

const live = serverForFile();

async function scriptCalls(): Promise<{ evalsha: number; failed: number; eval: number }> {
  const stats = String(await live.redis.sendCommand(['INFO', 'commandstats']));
  const calls = (command: string, field: string) => Number(new RegExp(`cmdstat_${command}:.*?${field}=(\\d+)`).exec(stats)?.[1] ?? 0);
  return { evalsha: calls('evalsha', 'calls'), failed: calls('evalsha', 'failed_calls'), eval: calls('eval', 'calls') };
}

test('each script is named by the SHA-1 of its source, as node:crypto and Redis compute it', async () => {
  for (const text of ['', 'abc', 'é'.repeat(1000)]) expect(sha1Hex(text)).toBe(createHash('sha1').update(text).digest('hex'));
  for (const script of Object.values(SCRIPTS)) {
    expect(script.sha).toBe(createHash('sha1').update(script.source).digest('hex'));
    expect(await live.redis.scriptLoad(script.source)).toBe(script.sha);
  }
});

test('after SCRIPT FLUSH the client sends a script again, once, and goes on by its SHA-1', async () => {
  // The scripts' own behaviour: on a server with the module too.
  const filter = await RedisCuckooFilter.create(live.redis, 'flushed', { capacity: 10_000, fpr: 0.01, engine: 'scripts' });
  expect(filter.engine).toBe('scripts');
  expect(await filter.add('before')).toBe(true);
  await live.redis.scriptFlush();
  await live.redis.sendCommand(['CONFIG', 'RESETSTAT']);
  expect(await filter.add('after')).toBe(true);
  expect(await scriptCalls()).toEqual({ evalsha: 1, failed: 1, eval: 1 });
  expect(await filter.addMany(['a', 'b'])).toBe(2);
  expect(await filter.delete('a')).toBe(true);
  expect(await scriptCalls()).toEqual({ evalsha: 3, failed: 1, eval: 1 });
  await live.redis.scriptFlush();
  expect(await filter.addUnique('before')).toBe(false);
  using copy = CuckooFilter.fromBytes(await filter.toBytes());
  expect(copy.size).toBe(3);
  await filter.drop();
  expect(await live.redis.keys('*')).toEqual([]);
});

test('a client the package does not know, through a RedisConnection', async () => {
  const own = await RespClient.connect(live.server.port);
  try {
    const connection = own.connection();
    const filter = await RedisCuckooFilter.create(connection, 'own-client', { capacity: 2_000_000, fpr: 0.001, seed: 9 });
    const items = Array.from({ length: 20_000 }, (_, i) => `k${i}`);
    expect(await filter.addMany(items)).toBe(items.length);
    // Read by node-redis, the same filter.
    const seen = await RedisCuckooFilter.open(live.redis, 'own-client');
    expect((await seen.hasMany(items)).every((answer) => answer === 1)).toBe(true);
    // Several chunks: lookups through the connection's transaction.
    expect((await filter.hasMany(items)).every((answer) => answer === 1)).toBe(true);
    expect(await filter.has('never')).toBe(false);
    await live.redis.scriptFlush();
    expect(await filter.delete('k1')).toBe(true);
    expect(await filter.size()).toBe(items.length - 1);
    using copy = CuckooFilter.fromBytes(await filter.toBytes());
    expect(copy.size).toBe(items.length - 1);
    await filter.drop();
  } finally {
    own.close();
  }
});

test('a connection of your own built on nodeRedisConnection: every command goes through it', async () => {
  const inner = nodeRedisConnection(live.redis);
  let commands = 0;
  const counting: RedisConnection = {
    call: (key, command, readOnly) => (commands++, inner.call(key, command, readOnly)),
    transaction: (key, list) => ((commands += list.length), inner.transaction(key, list)),
  };
  const filter = await RedisCuckooFilter.create(counting, 'counted', { capacity: 1000, fpr: 0.01 });
  const made = commands;
  expect(made).toBeGreaterThan(0);
  expect(await filter.add('x')).toBe(true);
  expect(await filter.has('x')).toBe(true);
  expect(commands).toBe(made + 2);
  expect(() => nodeRedisConnection(counting as never)).toThrow(/^nodeRedisConnection: redis must be a node-redis client or cluster, got an object \(Object\)$/);
  expect(() => nodeRedisConnection(42 as never)).toThrow(/^nodeRedisConnection: redis must be a node-redis client or cluster, got number 42$/);
  await filter.drop();
});
