// Keys aimed at one pair of buckets by someone who knows the seed (issue 26),
// against a filter kept in Redis: the Lua script must refuse only what it
// cannot place, undo the walk as the core does, and keep taking ordinary
// items, leaving the bytes an in-process filter of the same seed leaves.
import { CuckooFilter, type CuckooFilterOptions } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { partsOf } from '../../dist/cjs/parts';
import { collidingIntegers } from '../support/colliding-keys';
import { serverForFile } from './support/servers';

const live = serverForFile();

// The filter, CuckooFilter.create({ capacity: 10_000, fpr: 0.01 })
// with a known seed (2,646 buckets, f = 10), and for 100 keys a smaller
// fingerprint, which the search needs fewer candidates for.
test.each([
  [9, { bucketCount: 2646, bucketSize: 4, fingerprintBits: 10, seed: 0 }],
  [100, { bucketCount: 1024, bucketSize: 4, fingerprintBits: 8, seed: 0 }],
] as [number, CuckooFilterOptions][])('after %i colliding keys, 1,000 ordinary adds succeed, as in-process', async (count, shape) => {
  using local = new CuckooFilter(shape);
  const remote = await RedisCuckooFilter.fromBytes(live.redis, `attacked-${count}`, local.toBytes());
  const hostile = collidingIntegers(local.params, count);
  const stored: (number | string)[] = [];
  for (const [k, key] of hostile.entries()) {
    const before = k === 9 ? await remote.toBytes() : undefined;
    const added = await remote.add(key);
    expect([k, added]).toEqual([k, local.add(key)]);
    expect([k, added]).toEqual([k, k < 9]); // two buckets of 4 and the stash
    if (added) stored.push(key);
    if (before !== undefined) expect(Buffer.from(await remote.toBytes())).toEqual(Buffer.from(before));
  }
  const ordinary = Array.from({ length: 1000 }, (_, i) => `user-${i}`);
  let refused = 0;
  for (const item of ordinary) {
    const added = await remote.add(item);
    expect(added).toBe(local.add(item));
    if (added) stored.push(item);
    else refused++;
  }
  expect(refused).toBe(0);
  expect(await remote.size()).toBe(stored.length);
  expect(Array.from(await remote.hasMany(stored)).every((answer) => answer === 1)).toBe(true);
  // The same table, stash and count as in-process (toBytes from Redis starts the PRNG afresh).
  using exported = CuckooFilter.fromBytes(await remote.toBytes());
  const [mine, theirs] = [partsOf(exported), partsOf(local)];
  expect([mine.itemCount, mine.stash]).toEqual([theirs.itemCount, theirs.stash]);
  expect(Buffer.from(mine.payload).equals(Buffer.from(theirs.payload))).toBe(true);
  await remote.drop();
});
