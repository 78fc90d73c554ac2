// How the module's writes leave the server: as commands every server has
// (BITFIELD SET of one or two changed buckets, an EVAL writing the byte
// ranges of more, SETRANGE of the header's state), so that a replica
// without the module, an AOF loaded by a server without it, and RDB files and
// DUMP payloads all hold the very bytes the master holds; and a filter moves
// back to a server with the module and goes on there.
import { init } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { connect, startServer, type Client, type RedisServer } from '../redis/support/servers';
import { send, snapshot } from './support/commands';

const durable = ['--appendonly', 'yes', '--appendfsync', 'always'];
const servers: RedisServer[] = [];
const clients: Client[] = [];

beforeAll(() => init());

afterAll(async () => {
  // Some of their servers were stopped under them: closed without a goodbye.
  for (const client of clients) client.destroy();
  for (const server of servers) await server.remove();
});

async function started(options: Parameters<typeof startServer>[0]): Promise<{ server: RedisServer; redis: Client }> {
  const server = await startServer(options);
  servers.push(server);
  const redis = await connect(server);
  clients.push(redis);
  return { server, redis };
}

/** Writes of every kind through the module: kicks, the stash, refusals, undone walks, deletes that re-place the stash, several chunks and shards. */
async function writeThroughTheModule(redis: Client): Promise<void> {
  expect(await send(redis, 'CUCKOO.RESERVE', 'small', '500', '0.05', 'SEED', '1')).toBe('OK');
  expect(await send(redis, 'CUCKOO.RESERVE', 'semi', '2000', '0.001', 'SEMISORT', 'SEED', '2')).toBe('OK');
  expect(await send(redis, 'CUCKOO.RESERVE', 'sharded', '30000', '0.01', 'SHARDS', '3', 'SEED', '3')).toBe('OK');
  expect(await send(redis, 'CUCKOO.RESERVE', 'big', '1000000', '0.001', 'SEED', '4')).toBe('OK');
  for (const name of ['small', 'semi']) {
    let refused = 0;
    for (let round = 0; refused < 3 && round < 50; round++) {
      const batch = Array.from({ length: 100 }, (_, k) => `${name}-${round}-${k}`);
      const added = Number(await send(redis, 'CUCKOO.MADD', name, ...batch));
      if (added < batch.length) refused++;
      expect(await send(redis, 'CUCKOO.DEL', name, ...batch.slice(0, 5))).toBe(Math.min(5, added));
    }
    expect(refused).toBeGreaterThan(0);
  }
  const filter = await RedisCuckooFilter.open(redis, 'sharded');
  expect(filter.engine).toBe('module');
  expect(await filter.addMany(Array.from({ length: 20_000 }, (_, k) => k))).toBe(20_000);
  expect(await filter.deleteMany(Array.from({ length: 500 }, (_, k) => k))).toBe(500);
  expect(await send(redis, 'CUCKOO.MADD', 'big', ...Array.from({ length: 30_000 }, (_, k) => `url-${k}`))).toBe(30_000);
  expect(await send(redis, 'CUCKOO.ADDNX', 'big', 'url-1')).toBe(0);
  // Writes of one or two buckets go as BITFIELD, larger ones as an EVAL of byte ranges: both kinds.
  expect(await send(redis, 'CUCKOO.ADD', 'big', 'one more')).toBe(1);
  expect(await send(redis, 'CUCKOO.DEL', 'big', 'url-2')).toBe(1);
  expect(await send(redis, 'CUCKOO.ADDNX', 'semi', 'one more')).toBe(1);
}

async function waitForLink(replica: Client): Promise<void> {
  for (let tries = 0; !String(await replica.sendCommand(['INFO', 'replication'])).includes('master_link_status:up'); tries++) {
    if (tries > 300) throw new Error('the replica did not connect');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a replica without the module, fed by a master with it, holds the same bytes, and the scripts read them', async () => {
  const master = await started({ module: true, args: durable });
  const replica = await started({ module: false, args: ['--replicaof', '127.0.0.1', String(master.server.port)] });
  await waitForLink(replica.redis);
  await writeThroughTheModule(master.redis);
  expect(await master.redis.sendCommand(['WAIT', '1', '10000'])).toBe(1);
  const written = await snapshot(master.redis);
  // Four roots; chunks: small 1, semi 1, sharded 3 × 1, big 2; a change log and its count per shard (6).
  expect(written.split('\n').length).toBe(4 + 1 + 1 + 3 + 2 + 2 * 6);
  expect(await snapshot(replica.redis)).toBe(written);
  const onReplica = await RedisCuckooFilter.open(replica.redis, 'sharded');
  expect(onReplica.engine).toBe('scripts');
  expect((await onReplica.hasMany(Array.from({ length: 19_500 }, (_, k) => k + 500))).every((answer) => answer === 1)).toBe(true);
  expect(await onReplica.size()).toBe(19_500);

  // The master's AOF, loaded by a server without the module: the same bytes.
  await master.server.stop();
  const restarted = await started({ module: false, dir: master.server.dir, args: durable });
  expect(await snapshot(restarted.redis)).toBe(written);
});

test('an RDB file and DUMP/RESTORE move a filter to a server without the module and back to one with it', async () => {
  const source = await started({ module: true });
  await writeThroughTheModule(source.redis);
  const written = await snapshot(source.redis);
  await source.redis.sendCommand(['SAVE']);
  await source.server.stop();
  const plain = await started({ module: false, dir: source.server.dir });
  expect(await snapshot(plain.redis)).toBe(written);
  // The scripts go on with it there; then it moves to a server with the module, which goes on too.
  const scripts = await RedisCuckooFilter.open(plain.redis, 'big');
  expect(await scripts.addMany(['after-1', 'after-2'])).toBe(2);
  const target = await started({ module: true });
  const bytes = plain.redis.withTypeMapping({ 36: Buffer });
  for (const key of await plain.redis.keys('*big*')) {
    await target.redis.sendCommand(['RESTORE', key, '0', (await bytes.sendCommand(['DUMP', key])) as Buffer]);
  }
  expect(await send(target.redis, 'CUCKOO.MEXISTS', 'big', 'url-7', 'after-2', 'never')).toEqual([1, 1, 0]);
  expect(await send(target.redis, 'CUCKOO.ADD', 'big', 'after-3')).toBe(1);
  expect(await scripts.add('after-3')).toBe(true);
  // The same add on both sides leaves the same bytes (the module and the scripts choose alike).
  const moved = async (redis: Client): Promise<string> => (await snapshot(redis)).split('\n').filter((line) => line.includes('big')).join('\n');
  expect(await moved(target.redis)).toBe(await moved(plain.redis));
});
