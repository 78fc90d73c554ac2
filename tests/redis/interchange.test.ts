// Bytes move both ways without the items: a Redis filter's toBytes() loaded
// with CuckooFilter.fromBytes answers 10^6 lookups exactly as the Redis filter
// does, and an in-process filter's bytes loaded into Redis answer as it does;
// a sharded filter goes out shard by shard and comes back whole.
import { CuckooFilter, CuckooFilterError, FormatError } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { serverForFile } from './support/servers';

const live = serverForFile();

const LOOKUPS = 1_000_000;
const ADDED = 150_000;

/** Items 0 .. ADDED - 1 were added; the lookups are those and others never added. */
function lookups(): Float64Array {
  return new Float64Array(LOOKUPS).map((_, i) => (i < ADDED ? i : 2 ** 40 + i));
}

test('toBytes() of a Redis filter answers 10^6 lookups as the Redis filter does', async () => {
  const remote = await RedisCuckooFilter.create(live.redis, 'out', { capacity: 200_000, fpr: 0.001, seed: 11 });
  expect(await remote.addMany(new Float64Array(ADDED).map((_, i) => i))).toBe(ADDED);
  using local = CuckooFilter.fromBytes(await remote.toBytes());
  expect(local.size).toBe(ADDED);
  const { shards: _shards, ...shape } = remote.params;
  expect(local.params).toEqual(shape);
  const probes = lookups();
  const answers = await remote.hasMany(probes);
  expect(Buffer.from(local.hasMany(probes)).equals(Buffer.from(answers))).toBe(true);
  expect(answers.subarray(0, ADDED).every((answer) => answer === 1)).toBe(true);
  await remote.drop();
});

test("an in-process filter's bytes loaded into Redis answer 10^6 lookups as it does", async () => {
  using local = CuckooFilter.create({ capacity: 200_000, fpr: 0.001, seed: 12, semiSort: true });
  expect(local.addMany(new Float64Array(ADDED).map((_, i) => i))).toBe(ADDED);
  const remote = await RedisCuckooFilter.fromBytes(live.redis, 'in', local.toBytes());
  expect(remote.params).toEqual({ ...local.params, shards: 1 });
  expect(await remote.size()).toBe(ADDED);
  const probes = lookups();
  expect(Buffer.from(await remote.hasMany(probes)).equals(Buffer.from(local.hasMany(probes)))).toBe(true);
  // It goes on as a filter holding those items: 40,000 more, and every one is found.
  const more = new Float64Array(40_000).map((_, i) => 5e9 + i);
  expect(await remote.addMany(more)).toBe(more.length);
  expect((await remote.hasMany(new Float64Array([...probes.subarray(0, ADDED), ...more]))).every((answer) => answer === 1)).toBe(true);
  await remote.drop();
});

test('a full filter with its stash travels both ways', async () => {
  using local = new CuckooFilter({ bucketCount: 500, bucketSize: 4, fingerprintBits: 12, seed: 13 });
  let item = 0;
  while (local.add(item)) item++;
  expect(local.full).toBe(true);
  const remote = await RedisCuckooFilter.fromBytes(live.redis, 'stashed', local.toBytes());
  expect(await remote.add(item + 1)).toBe(false);
  expect(await remote.size()).toBe(local.size);
  using back = CuckooFilter.fromBytes(await remote.toBytes());
  expect(back.stashed).toBe(1);
  const probes = new Float64Array(item + 5000).map((_, i) => i);
  expect(Buffer.from(back.hasMany(probes)).equals(Buffer.from(local.hasMany(probes)))).toBe(true);
  await remote.drop();
});

test('a sharded filter goes out shard by shard and comes back as the same filter', async () => {
  const remote = await RedisCuckooFilter.create(live.redis, 'spread', { capacity: 100_000, fpr: 0.001, shards: 3 });
  const items = new Float64Array(60_000).map((_, i) => i * 3);
  expect(await remote.addMany(items)).toBe(items.length);
  const parts = [await remote.toBytes(0), await remote.toBytes(1), await remote.toBytes(2)];
  const copy = await RedisCuckooFilter.fromBytes(live.redis, 'spread-copy', parts);
  expect(copy.params).toEqual(remote.params);
  expect(await copy.size()).toBe(items.length);
  const probes = new Float64Array(200_000).map((_, i) => i);
  expect(Buffer.from(await copy.hasMany(probes)).equals(Buffer.from(await remote.hasMany(probes)))).toBe(true);
  // In-process, shard s's filter answers for the items shardOf puts in s.
  const shardFilters = parts.map((bytes) => CuckooFilter.fromBytes(bytes));
  const answers = await remote.hasMany(probes);
  probes.forEach((probe, k) => {
    if (shardFilters[remote.shardOf(probe)]!.has(probe) !== (answers[k] === 1)) throw new Error(`probe ${probe} differs`);
  });
  for (const filter of shardFilters) filter.dispose();
  await remote.drop();
  await copy.drop();
});

test('bad bytes are refused as CuckooFilter.fromBytes refuses them, naming this class; nothing is written', async () => {
  using local = CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  const bytes = local.toBytes();
  const damaged = bytes.slice();
  damaged[100] = damaged[100]! ^ 1;
  const refusal = async (input: Uint8Array | Uint8Array[]) => RedisCuckooFilter.fromBytes(live.redis, 'bad', input).catch((error: Error) => error);
  const checksum = (await refusal(damaged)) as FormatError;
  expect(checksum).toBeInstanceOf(FormatError);
  expect(checksum.code).toBe('CHECKSUM_MISMATCH');
  expect(checksum.message).toMatch(/^RedisCuckooFilter\.fromBytes: /);
  const truncated = (await refusal([bytes, bytes.subarray(0, 10)])) as FormatError;
  expect([truncated.code, truncated.message]).toEqual(['TRUNCATED', 'RedisCuckooFilter.fromBytes: bytes[1]: the data is truncated']);
  using other = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 1 });
  const mixed = (await refusal([bytes, other.toBytes()])) as CuckooFilterError;
  expect([mixed.code, mixed.message]).toEqual(['INCOMPATIBLE', 'RedisCuckooFilter.fromBytes: bytes[1] has other parameters than bytes[0]: not shards of one filter']);
  expect(await live.redis.keys('*')).toEqual([]);
});
