// The module in a 3-master cluster, spoken to as any cluster client does:
// a filter's shards are addressed by their keys and the filter id (one slot
// each, so the cluster routes them); its name, whose keys span slots, gives
// INFO (the root's fields and the shards' keys) and refuses the rest, as
// RESERVE does.
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { clusterForFile } from '../redis/support/servers';

const live = clusterForFile();

async function send(key: string, readOnly: boolean, ...args: string[]): Promise<unknown> {
  try {
    return await live.cluster.sendCommand(key, readOnly, args);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

test("a sharded filter in a cluster: each shard's key and the filter id reach its master; the name gives INFO only", async () => {
  const filter = await RedisCuckooFilter.create(live.cluster, 'events', { capacity: 90_000, fpr: 0.001, shards: 3 });
  expect(filter.engine).toBe('module');
  const info = (await send('events', true, 'CUCKOO.INFO', 'events')) as Record<string, unknown>;
  const keys = info['shard-keys'] as string[];
  const id = String(info.id);
  expect(keys).toHaveLength(3);
  expect(info).not.toHaveProperty('size');
  const items = Array.from({ length: 3000 }, (_, k) => `event-${k}`);
  // A client that routes items itself: each to its shard's key (here with shardOf; the module refuses another shard's items).
  const byShard: string[][] = [[], [], []];
  for (const item of items) byShard[filter.shardOf(item)]!.push(item);
  for (const [shard, list] of byShard.entries()) expect(await send(keys[shard]!, false, 'CUCKOO.MADD', keys[shard]!, id, ...list)).toBe(list.length);
  expect(await filter.size()).toBe(3000);
  expect((await filter.hasMany(items)).every((answer) => answer === 1)).toBe(true);
  const wrong = byShard[1]![0]!;
  expect(await send(keys[0]!, true, 'CUCKOO.EXISTS', keys[0]!, id, wrong)).toEqual({ error: expect.stringMatching(new RegExp(`^ERR item 1 belongs to shard 1 \\(\\${keys[1]!.slice(0, -1)}0\\), not to shard 0`)) });
  let total = 0;
  for (const key of keys) total += Number(((await send(key, true, 'CUCKOO.INFO', key, id)) as Record<string, unknown>).size);
  expect(total).toBe(3000);
  expect(await send('events', false, 'CUCKOO.ADD', 'events', 'x')).toEqual({ error: expect.stringMatching(/^ERR filter 'events' spans several hash slots: in a cluster, address a shard by its key and the filter id/) });
  expect(await send('fresh', false, 'CUCKOO.RESERVE', 'fresh', '1000', '0.01')).toEqual({ error: expect.stringMatching(/^ERR a filter's keys lie in several hash slots, so CUCKOO.RESERVE cannot make one in a cluster/) });
});
