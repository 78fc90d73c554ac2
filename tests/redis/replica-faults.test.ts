// Replicas through a crash: the server killed (SIGKILL) while three writers
// add, restarted on its files (appendonly yes, appendfsync always). The
// replicas notice by themselves (their waits fail), answer from their copy
// meanwhile while their lag grows, reload once the server is back, and end
// with every acknowledged add and the server's bytes; nobody reopens them.
import { init } from 'cuckoo-wasm';
import { RedisCuckooFilter, type FilterReplica } from 'cuckoo-wasm/redis';
import { addThroughAKill } from './support/kill-run';
import { connect, startServer, type RedisServer } from './support/servers';

const durable = ['--appendonly', 'yes', '--appendfsync', 'always'];

beforeAll(() => init());

test('every replica recovers by itself from a SIGKILL and a restart, and holds every acknowledged add', async () => {
  let server: RedisServer = await startServer({ args: durable });
  const redis = await connect(server);
  const replicas: FilterReplica[] = [];
  try {
    const filter = await RedisCuckooFilter.create(redis, 'survivor', { capacity: 200_000, fpr: 0.001 });
    for (let k = 0; k < 2; k++) replicas.push(await RedisCuckooFilter.openReplica(redis, 'survivor'));
    let heldBeforeTheKill: readonly number[] = [];
    const run = await addThroughAKill(filter, server, durable, async (acknowledged) => {
      // The server is down: the replicas still answer, from what they hold, and say they may be stale.
      heldBeforeTheKill = acknowledged;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(replicas.every((replica) => replica.lag >= 250)).toBe(true);
      expect(replicas.every((replica) => replica.hasMany(new Float64Array(acknowledged.slice(0, 1000))).every((answer) => answer === 1))).toBe(true);
    });
    server = run.server;
    const { acknowledged } = run;
    for (const replica of replicas) {
      await replica.sync();
      expect(replica.reloads).toBeGreaterThanOrEqual(1);
      expect(replica.hasMany(new Float64Array(heldBeforeTheKill)).every((answer) => answer === 1)).toBe(true);
      expect(replica.hasMany(new Float64Array(acknowledged)).every((answer) => answer === 1)).toBe(true);
      expect(Buffer.from(replica.toBytes()).equals(Buffer.from(await filter.toBytes()))).toBe(true);
      expect(replica.lag).toBe(0);
    }
  } finally {
    for (const replica of replicas) await replica.close();
    await redis.quit().catch(() => undefined);
    await server.remove();
  }
});
