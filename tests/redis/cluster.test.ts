// A Redis Cluster of three masters (redis-cli --cluster create on loopback
// ports): a 3-shard filter puts one shard on each master, every shard's chunks
// in one slot; the filter works through createCluster as through createClient.
import { CuckooFilter } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { slotOf } from '../../dist/cjs/redis/layout';
import { clusterForFile, connect } from './support/servers';

const live = clusterForFile();

/** The port of the master serving `key`, and the key's slot, as the cluster itself says. */
async function whereIs(key: string): Promise<{ slot: number; port: number }> {
  const node = await connect(live.servers.servers[0]!);
  try {
    const slot = Number(await node.sendCommand(['CLUSTER', 'KEYSLOT', key]));
    const ranges = (await node.sendCommand(['CLUSTER', 'SLOTS'])) as [number, number, [string, number]][];
    const range = ranges.find(([first, last]) => slot >= first && slot <= last)!;
    return { slot, port: Number(range[2][1]) };
  } finally {
    await node.quit();
  }
}

test("the slots of hash tags are the cluster's own (CRC16 mod 16384)", async () => {
  for (const tag of ['seen:0:0', 'a', 'user:1000', 'é', '{}x', '123456789']) {
    expect(slotOf(tag)).toBe((await whereIs(tag)).slot);
  }
});

test('a 3-shard filter: one shard per master, each in one slot; items found across processes', async () => {
  const filter = await RedisCuckooFilter.create(live.cluster, 'urls', { capacity: 200_000, fpr: 0.001, shards: 3 });
  const keysByShard: string[][] = [];
  for (const server of live.servers.servers) {
    const node = await connect(server);
    for (const key of await node.keys('{urls:*')) {
      const shard = Number(key.slice(6).split(':')[0]);
      (keysByShard[shard] ??= []).push(key);
    }
    await node.quit();
  }
  expect(keysByShard.map((keys) => keys.length > 0)).toEqual([true, true, true]);
  const masters = new Set<number>();
  for (const keys of keysByShard) {
    const places = await Promise.all(keys.map(whereIs));
    expect(new Set(places.map((place) => place.slot)).size).toBe(1);
    masters.add(places[0]!.port);
  }
  expect(masters.size).toBe(3);
  const items = Array.from({ length: 60_000 }, (_, i) => `https://example.com/${i}`);
  expect(await filter.addMany(items)).toBe(items.length);
  const same = await RedisCuckooFilter.open(live.another, 'urls');
  expect(await same.size()).toBe(items.length);
  expect((await same.hasMany(items)).every((answer) => answer === 1)).toBe(true);
  expect(await same.has(items[123]!)).toBe(true);
  expect(await same.delete(items[123]!)).toBe(true);
  expect(await filter.count(items[124]!)).toBe(1);
  let exported = 0;
  for (let shard = 0; shard < 3; shard++) {
    using part = CuckooFilter.fromBytes(await filter.toBytes(shard));
    exported += part.size;
  }
  expect(exported).toBe(items.length - 1);
  await filter.drop();
  for (const server of live.servers.servers) {
    const node = await connect(server);
    expect(await node.keys('*urls*')).toEqual([]);
    await node.quit();
  }
});

test('a one-shard filter of several chunks (read in MULTI/EXEC on its slot), and bytes loaded into the cluster', async () => {
  const big = await RedisCuckooFilter.create(live.cluster, 'big', { capacity: 2_000_000, fpr: 0.001 });
  let chunks = 0;
  for (const server of live.servers.servers) {
    const node = await connect(server);
    chunks += (await node.keys('{big:*')).length;
    await node.quit();
  }
  expect(chunks).toBeGreaterThan(1);
  const items = new Float64Array(20_000).map((_, i) => i * 7);
  expect(await big.addMany(items)).toBe(items.length);
  expect((await big.hasMany(items)).every((answer) => answer === 1)).toBe(true);
  using local = CuckooFilter.create({ capacity: 50_000, fpr: 0.001 });
  local.addMany(items);
  const loaded = await RedisCuckooFilter.fromBytes(live.another, 'loaded', local.toBytes());
  const probes = new Float64Array(100_000).map((_, i) => i);
  expect(Buffer.from(await loaded.hasMany(probes)).equals(Buffer.from(local.hasMany(probes)))).toBe(true);
  await big.drop();
  await loaded.drop();
});
