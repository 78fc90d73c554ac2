// Keys aimed at one pair of buckets by someone who knows the seed (issue
// 26), in WebAssembly through the package: found as an attacker finds them,
// by hashing candidates until enough share one fingerprint and one pair of
// buckets. They must cost the filter only themselves.
import { CuckooFilter, init, ScalableCuckooFilter } from 'cuckoo-wasm';
import { scalableShape } from 'cuckoo-wasm/inspect';
import { locateItems } from '../../dist/cjs/parts';
import { aimedIntegers, collidingIntegers } from '../support/colliding-keys';

beforeAll(() => init());

describe('CuckooFilter', () => {
  // The filter, CuckooFilter.create({ capacity: 10_000, fpr: 0.01 })
  // with a known seed (2,646 buckets, f = 10), and for 100 keys a smaller
  // fingerprint, which the search needs fewer candidates for.
  test.each([
    [9, () => CuckooFilter.create({ capacity: 10_000, fpr: 0.01, seed: 0 })],
    [100, () => new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 8, seed: 0 })],
  ])('after %i colliding keys, ordinary adds up to a load of 0.9 succeed and everything added is found', (count, make) => {
    using filter = make();
    const hostile = collidingIntegers(filter.params, count);
    const stored: (number | string)[] = [];
    hostile.forEach((key, k) => {
      const before = filter.toBytes();
      const added = filter.add(key);
      // Two buckets of 4 slots and the stash hold nine.
      expect(added).toBe(k < 9);
      if (added) stored.push(key);
      else expect(filter.toBytes()).toEqual(before);
    });
    expect(filter.stashed).toBe(1);

    let tried = 0;
    let refused = 0;
    while (filter.loadFactor < 0.9) {
      const item = `user-${tried++}`;
      if (filter.add(item)) stored.push(item);
      else refused++;
    }
    expect(tried).toBeGreaterThan(1000);
    expect(refused).toBeLessThanOrEqual(tried / 100); // at least 99 % succeed
    expect(filter.size).toBe(stored.length);
    expect(filter.hasMany(stored).every((answer) => answer === 1)).toBe(true);
    using copy = CuckooFilter.fromBytes(filter.toBytes());
    expect(copy.hasMany(stored).every((answer) => answer === 1)).toBe(true);
  });
});

describe('ScalableCuckooFilter', () => {
  test('after 9 keys aimed three levels deep, it refuses no ordinary add and grows within its limit', () => {
    using filter = ScalableCuckooFilter.create({ initialCapacity: 1000, fpr: 0.01, seed: 0 });
    const { level, fixedBits } = scalableShape(filter);
    // The growable filter's fingerprint and the low bits of its virtual bucket
    // number are a plain table's fingerprint and first bucket at 2^bits buckets.
    const deep = { bucketCount: 2 ** (level + 3), fingerprintBits: fixedBits, seed: 0n };
    const first = locateItems(deep, new Float64Array([0]), 'test');
    const hostile = [0, ...aimedIntegers(deep, first[0]!, [first[1]!], 8)];

    const stored: (number | string)[] = [];
    for (const key of hostile) {
      const before = filter.toBytes();
      if (filter.add(key)) stored.push(key);
      else expect(filter.toBytes()).toEqual(before);
    }
    expect(stored.length).toBeGreaterThanOrEqual(8);
    for (let i = 0; i < 1000; i++) {
      expect(filter.add(`user-${i}`)).toBe(true);
      stored.push(`user-${i}`);
    }
    expect(filter.size).toBe(stored.length);
    expect(filter.hasMany(stored).every((answer) => answer === 1)).toBe(true);
    // It grows for an entry in the stash only while the items fill at least
    // 1/16 of its slots (README, Limits): at most 4 buckets per item, and one growth.
    expect(filter.bucketCount).toBeLessThanOrEqual(4 * 1.2 * filter.size);
  });
});
