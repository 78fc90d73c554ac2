// MEMORY USAGE of a filter's keys (its root and its chunks), measured on the
// server: at most 1.05 times the in-process filter's byteLength plus a few
// hundred bytes, at every size and rate tried, plain and semi-sorted. (One
// big string would not do: Redis's allocator rounds it up to its size class,
// up to 25 % more.)
import { CuckooFilter } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { serverForFile } from './support/servers';

const live = serverForFile();

const FIXED_BYTES = 512;

async function memoryOf(pattern: string[]): Promise<number> {
  let total = 0;
  for (const key of pattern) total += Number(await live.redis.memoryUsage(key));
  return total;
}

const cases = [1000, 7777, 100_000, 654_321, 1_000_000, 3_000_000].flatMap((capacity) =>
  [0.01, 0.001, 0.0001].flatMap((fpr) => [false, true].map((semiSort) => [capacity, fpr, semiSort] as const)),
);

test.each(cases)('capacity %d, fpr %d, semiSort %s', async (capacity, fpr, semiSort) => {
  const name = `m${capacity}-${fpr}-${semiSort}`;
  const filter = await RedisCuckooFilter.create(live.redis, name, { capacity, fpr, semiSort });
  using local = CuckooFilter.create({ capacity, fpr, semiSort });
  const keys = [name, ...(await live.redis.keys(`{${name}:*`))];
  const used = await memoryOf(keys);
  expect(used).toBeLessThanOrEqual(1.05 * local.byteLength + FIXED_BYTES);
  // Adding items changes no allocation: the chunks were made at their full length.
  await filter.addMany(new Float64Array(Math.min(capacity, 50_000)).map((_, i) => i));
  expect(await memoryOf(keys)).toBe(used);
  await filter.drop();
});
