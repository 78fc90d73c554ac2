// The module and the Lua scripts, side by side on one server: the same
// operations through each leave byte-identical keys (tables, stash, item
// count, eviction PRNG), through kicks, the stash, refused and undone adds,
// deletes that re-place the stashed fingerprint, for both bucket layouts,
// plain and semi-sorted buckets, buckets of one word and of several.
import { CuckooFilter, type CuckooFilterOptions } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { collidingIntegers } from '../support/colliding-keys';
import { numbers } from '../redis/support/numbers';
import { serverForFile } from '../redis/support/servers';
import { bytesOf } from './support/commands';

const live = serverForFile();

const shapes: [string, CuckooFilterOptions][] = [
  ['hash id 1, f = 12', { bucketCount: 256, bucketSize: 4, fingerprintBits: 12 }],
  ['hash id 2, f = 13', { bucketCount: 300, bucketSize: 4, fingerprintBits: 13 }],
  ['semi-sorted, hash id 1, f = 13', { bucketCount: 128, bucketSize: 4, fingerprintBits: 13, semiSort: true }],
  ['semi-sorted, hash id 2, f = 20', { bucketCount: 150, bucketSize: 4, fingerprintBits: 20, semiSort: true }],
  ['8 slots of 9 bits', { bucketCount: 64, bucketSize: 8, fingerprintBits: 9 }],
  ['4 slots of 32 bits', { bucketCount: 100, bucketSize: 4, fingerprintBits: 32 }],
  ['1 slot of 5 bits, 1 bucket', { bucketCount: 1, bucketSize: 1, fingerprintBits: 5 }],
  ['2 slots of 7 bits, 3 buckets, 3 kicks', { bucketCount: 3, bucketSize: 2, fingerprintBits: 7, maxKicks: 3 }],
];

test.each(shapes)('module and scripts leave the same bytes: %s', async (label, shape) => {
  const { redis } = live;
  using local = new CuckooFilter({ ...shape, seed: 0xbeefn });
  const scripts = await RedisCuckooFilter.fromBytes(redis, 'lua', local.toBytes(), { engine: 'scripts' });
  const module = await RedisCuckooFilter.fromBytes(redis, 'mod', local.toBytes(), { engine: 'module' });
  const same = async (step: string): Promise<void> => {
    expect([step, await bytesOf(redis, '{mod:*')]).toEqual([step, await bytesOf(redis, '{lua:*')]);
  };
  const next = numbers(label.length * 131);
  const added: number[] = [];
  // Keys aimed at one pair of buckets: the stash fills, walks are undone, adds
  // refused. (Found by search: only where fingerprints are narrow enough.)
  const colliding = local.params.fingerprintBits <= 13 ? collidingIntegers(local.params, 11) : [];
  for (const key of colliding) {
    expect(await module.add(key)).toBe(await scripts.add(key));
  }
  await same('colliding keys');
  for (let round = 0; round < 5; round++) {
    let refusals = 0;
    for (let attempts = 0; refusals < 2 && attempts < 3000; attempts++) {
      const item = next();
      const answer = await module.add(item);
      expect([round, item, answer]).toEqual([round, item, await scripts.add(item)]);
      if (answer) added.push(item);
      else refusals++;
    }
    await same(`round ${round}: adds`);
    const doomed = added.splice(0, 1 + (next() % 9));
    expect(await module.deleteMany(doomed)).toBe(await scripts.deleteMany(doomed));
    const copy = added[next() % Math.max(1, added.length)] ?? 1;
    expect(await module.addUnique(copy)).toBe(await scripts.addUnique(copy));
    const batch = new Uint32Array(30).map(() => next());
    const count = await module.addMany(batch);
    expect(count).toBe(await scripts.addMany(batch));
    added.push(...batch.subarray(0, count));
    await same(`round ${round}: deletes and a batch`);
  }
  const probes = [...added, ...Array.from({ length: 1000 }, () => next())];
  expect(Buffer.from(await module.hasMany(probes))).toEqual(Buffer.from(await scripts.hasMany(probes)));
  await redis.flushAll();
});
