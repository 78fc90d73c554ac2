// The Lua script makes CuckooFilter's choices: the same operations on a Redis
// filter and on an in-process filter of the same shape and seed leave the
// same table, stash, item count and eviction PRNG state, through kicks, the
// stash, deletes that re-place the stashed fingerprint and refused adds, for
// both bucket layouts (hash ids 1 and 2, and keyed, 4 and 5), plain and
// semi-sorted buckets, and buckets read in one word or several.
import { CuckooFilter, type CuckooFilterOptions } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { partsOf } from '../../dist/cjs/parts';
import { serverForFile } from './support/servers';

const live = serverForFile();

/** A deterministic stream of numbers (xorshift32), so that every run does the same operations. */
function numbers(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
}

/** The eviction PRNG state: bytes 68..75 of the Redis header (big-endian), bytes 24..31 of FORMAT.md (little-endian). */
async function prngStates(name: string, local: CuckooFilter): Promise<[string, string]> {
  const header = (await live.redis.withTypeMapping({ 36: Buffer }).getRange(`{${name}:0:0}:0`, 68, 75)) as unknown as Buffer;
  const bytes = local.toBytes();
  return [Buffer.from(header).toString('hex'), Buffer.from(bytes.subarray(24, 32)).reverse().toString('hex')];
}

async function expectSameFilter(name: string, remote: RedisCuckooFilter, local: CuckooFilter, step: string): Promise<void> {
  using exported = CuckooFilter.fromBytes(await remote.toBytes());
  const [mine, theirs] = [partsOf(exported), partsOf(local)];
  expect([step, mine.itemCount, mine.stash]).toEqual([step, theirs.itemCount, theirs.stash]);
  expect([step, Buffer.from(mine.payload).equals(Buffer.from(theirs.payload))]).toEqual([step, true]);
  const [redisState, localState] = await prngStates(name, local);
  expect([step, redisState]).toEqual([step, localState]);
  expect(await remote.size()).toBe(local.size);
}

const shapes: [string, CuckooFilterOptions][] = [
  ['hash id 1: 256 buckets of 4, f = 12', { bucketCount: 256, bucketSize: 4, fingerprintBits: 12 }],
  ['hash id 2: 300 buckets of 4, f = 13', { bucketCount: 300, bucketSize: 4, fingerprintBits: 13 }],
  ['semi-sorted, hash id 1, f = 13', { bucketCount: 128, bucketSize: 4, fingerprintBits: 13, semiSort: true }],
  ['semi-sorted, hash id 2, f = 20 (two words per bucket)', { bucketCount: 150, bucketSize: 4, fingerprintBits: 20, semiSort: true }],
  ['2 slots of 7 bits, 3 buckets (hash id 2, the smallest)', { bucketCount: 3, bucketSize: 2, fingerprintBits: 7 }],
  ['8 slots of 9 bits (two words per bucket)', { bucketCount: 64, bucketSize: 8, fingerprintBits: 9 }],
  ['4 slots of 32 bits (four words per bucket)', { bucketCount: 100, bucketSize: 4, fingerprintBits: 32 }],
  ['1 slot of 5 bits, 1 bucket', { bucketCount: 1, bucketSize: 1, fingerprintBits: 5 }],
  ['3 kicks at most: the stash fills early', { bucketCount: 64, bucketSize: 4, fingerprintBits: 10, maxKicks: 3 }],
  ['no kicks at all', { bucketCount: 97, bucketSize: 2, fingerprintBits: 8, maxKicks: 0 }],
  ['keyed hash, hash id 4: 256 buckets of 4, f = 12', { bucketCount: 256, bucketSize: 4, fingerprintBits: 12, keyedHash: true }],
  ['keyed hash, hash id 5, semi-sorted: 300 buckets, f = 13', { bucketCount: 300, bucketSize: 4, fingerprintBits: 13, semiSort: true, keyedHash: true }],
];

test.each(shapes)('the same operations leave the same filter: %s', async (label, shape) => {
  const name = `diff-${shapes.findIndex(([other]) => other === label)}`;
  using local = new CuckooFilter({ ...shape, seed: 0xfeedn });
  const remote = await RedisCuckooFilter.fromBytes(live.redis, name, local.toBytes());
  const next = numbers(label.length * 7919);
  const added: number[] = [];
  let refusals = 0;
  for (let round = 0; round < 6; round++) {
    // Adds one by one until a few are refused (the filter full, the stash occupied).
    for (let attempts = 0; refusals < 3 * (round + 1) && attempts < 4000; attempts++) {
      const item = next();
      const [mine, theirs] = [await remote.add(item), local.add(item)];
      expect([round, item, mine]).toEqual([round, item, theirs]);
      if (mine) added.push(item);
      else refusals++;
    }
    await expectSameFilter(name, remote, local, `round ${round} after adds`);
    // Deletes of stored items (each may re-place the stashed fingerprint) and of
    // absent ones (only true negatives: deleting a false positive would take
    // another item's copy), and a second copy of a stored item.
    const doomed = added.splice(0, 1 + (next() % 7));
    const absent = [next(), next()].filter((item) => !local.has(item));
    expect(await remote.deleteMany([...doomed, ...absent])).toBe(local.deleteMany([...doomed, ...absent]));
    const copy = added[next() % Math.max(1, added.length)] ?? 1;
    const again = await remote.add(copy);
    expect(again).toBe(local.add(copy));
    expect(await remote.addUnique(copy)).toBe(local.addUnique(copy));
    expect(await remote.count(copy)).toBe(local.count(copy));
    if (again) expect(await remote.delete(copy)).toBe(local.delete(copy));
    // A batch, which stops at the first refusal as CuckooFilter.addMany does.
    const batch = new Uint32Array(40).map(() => next());
    const count = await remote.addMany(batch);
    expect(count).toBe(local.addMany(batch));
    added.push(...batch.subarray(0, count));
    await expectSameFilter(name, remote, local, `round ${round} after deletes and a batch`);
  }
  expect(refusals).toBeGreaterThan(0);
  // Every item still stored is found, in both; lookups agree on strangers too.
  const probes = new Float64Array([...added, ...Array.from({ length: 2000 }, () => next())]);
  const answers = await remote.hasMany(probes);
  expect(Buffer.from(answers).equals(Buffer.from(local.hasMany(probes)))).toBe(true);
  expect(Array.from(answers.subarray(0, added.length)).every((answer) => answer === 1)).toBe(true);
  await remote.drop();
});
