// The server killed (SIGKILL) in the middle of a run of adds, and restarted on
// its files with appendonly yes and appendfsync always: every add the client
// saw acknowledged before the kill is found after it, and the same filter
// handle goes on working (node-redis reconnects; the scripts, gone with the
// old process, are sent again after NOSCRIPT) without the caller re-creating
// anything.
import { init } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { addThroughAKill } from './support/kill-run';
import { connect, startServer, type RedisServer } from './support/servers';

const durable = ['--appendonly', 'yes', '--appendfsync', 'always'];

beforeAll(() => init());

test('every acknowledged add survives a SIGKILL and a restart', async () => {
  let server: RedisServer = await startServer({ args: durable });
  const redis = await connect(server);
  try {
    const filter = await RedisCuckooFilter.create(redis, 'durable', { capacity: 200_000, fpr: 0.001 });
    // Adds of batches of 100 keep going, three at a time, while the server is killed under them.
    const run = await addThroughAKill(filter, server, durable);
    server = run.server;
    const { acknowledged, acknowledgedBeforeTheKill } = run;
    // The kill interrupted some adds (they failed); the others, before and after it, were acknowledged.
    expect(run.failed).toBeGreaterThan(0);
    expect(acknowledgedBeforeTheKill).toBeGreaterThanOrEqual(10_000);
    expect(acknowledged.length).toBeGreaterThan(acknowledgedBeforeTheKill);
    const answers = await filter.hasMany(new Float64Array(acknowledged));
    expect(answers.every((answer) => answer === 1)).toBe(true);
    // Items of failed batches may have been applied before the kill: the count lies between.
    const size = await filter.size();
    expect(size).toBeGreaterThanOrEqual(acknowledged.length);
    expect(size).toBeLessThanOrEqual(run.attempted);
    const reopened = await RedisCuckooFilter.open(redis, 'durable');
    expect(await reopened.size()).toBe(size);
  } finally {
    await redis.quit().catch(() => undefined);
    await server.remove();
  }
});
