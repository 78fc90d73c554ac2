// Replicas of a 3-shard filter on a Redis Cluster of three masters (one shard
// on each): two writers add while two replicas follow; every acknowledged add
// is in both replicas after sync(), checked while the writers write, and once
// they stop, every shard's bytes in each replica equal the cluster's.
import { init } from 'cuckoo-wasm';
import { RedisCuckooFilter, type FilterReplica } from 'cuckoo-wasm/redis';
import { connectCluster, startCluster, type Cluster, type RedisClusterServers } from './support/servers';

let servers: RedisClusterServers;
const clients: Cluster[] = [];

beforeAll(async () => {
  await init();
  servers = await startCluster();
  for (let k = 0; k < 3; k++) clients.push(await connectCluster(servers));
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await servers?.remove();
});

test('two writers, two replicas, three masters: no acknowledged add missed, and the same bytes at the end', async () => {
  const [admin, first, second] = clients as [Cluster, Cluster, Cluster];
  const filter = await RedisCuckooFilter.create(admin, 'followed', { capacity: 200_000, fpr: 0.001, shards: 3 });
  const replicas: FilterReplica[] = [await RedisCuckooFilter.openReplica(admin, 'followed'), await RedisCuckooFilter.openReplica(first, 'followed')];
  try {
    const acknowledged: string[] = [];
    let missed = 0;
    let checks = 0;
    const writer = async (client: Cluster, prefix: string): Promise<void> => {
      const handle = await RedisCuckooFilter.open(client, 'followed');
      for (let batch = 0; batch < 40; batch++) {
        // 1,000 items kept, and 10 more deleted again (which no check counts on).
        const items = Array.from({ length: 1010 }, (_, i) => `${prefix}-${batch}-${i}`);
        expect(await handle.addMany(items)).toBe(1010);
        acknowledged.push(...items.slice(0, 1000));
        expect(await handle.deleteMany(items.slice(1000))).toBe(10);
      }
    };
    const checker = async (done: () => boolean): Promise<void> => {
      while (!done()) {
        const seen = acknowledged.slice();
        for (const replica of replicas) {
          await replica.sync();
          missed += Array.from(replica.hasMany(seen)).filter((answer) => answer === 0).length;
        }
        checks++;
      }
    };
    let finished = false;
    const checking = checker(() => finished);
    await Promise.all([writer(first, 'a'), writer(second, 'b')]);
    finished = true;
    await checking;
    expect(checks).toBeGreaterThan(1);
    expect(missed).toBe(0);
    for (const replica of replicas) {
      await replica.sync();
      expect(replica.hasMany(acknowledged).every((answer) => answer === 1)).toBe(true);
      expect(replica.size).toBe(await filter.size());
      for (let shard = 0; shard < 3; shard++) expect(Buffer.from(replica.toBytes(shard)).equals(Buffer.from(await filter.toBytes(shard)))).toBe(true);
    }
  } finally {
    for (const replica of replicas) await replica.close();
    await filter.drop();
  }
});
