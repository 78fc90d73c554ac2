// cuckoo-wasm/inspect's reads of the stored table and of the core's rules:
// a semi-sorted bucket's stored fields against the paper's encoding, worked
// out here by hand from the fingerprints the table holds, and the facts
// against what the filters do.
import { CuckooFilter, ScalableCuckooFilter, init } from 'cuckoo-wasm';
import { buckets, growableFacts, hashIdFor, locate, semiSortAllowed, semiSortedBucket } from 'cuckoo-wasm/inspect';

beforeAll(() => init());

// The rank of a sorted multiset a <= b <= c <= d of nibbles, as the paper's
// Section 5.2 describes it: its place among all such multisets, counted in
// the order of (d, c, b, a). Counted by brute force here, not by formula.
function rankByCounting(nibbles: number[]): number {
  const key = (n: number[]) => ((n[3]! * 16 + n[2]!) * 16 + n[1]!) * 16 + n[0]!;
  let rank = 0;
  for (let d = 0; d < 16; d++)
    for (let c = 0; c <= d; c++)
      for (let b = 0; b <= c; b++)
        for (let a = 0; a <= b; a++) if (key([a, b, c, d]) < key(nibbles)) rank++;
  return rank;
}

describe('semiSortedBucket', () => {
  test('each bucket: the sorted fingerprints the table holds, their nibbles ranked among 3,876, the low bits as they are', () => {
    using filter = new CuckooFilter({ bucketCount: 32, bucketSize: 4, fingerprintBits: 9, semiSort: true, seed: 3 });
    filter.addMany(Array.from({ length: 100 }, (_, i) => `k${i}`));
    const { slots } = buckets(filter);
    for (let bucket = 0; bucket < 32; bucket++) {
      const view = semiSortedBucket(filter, bucket);
      const held = [...slots.subarray(bucket * 4, bucket * 4 + 4)].sort((x, y) => x - y);
      expect(view.fingerprints).toEqual(held);
      expect(view.highNibbles).toEqual(held.map((fp) => fp >> 5));
      expect(view.lowBits).toEqual(held.map((fp) => fp & 31));
      expect(view.rank).toBe(rankByCounting(view.highNibbles as number[]));
      expect(view).toMatchObject({ bucket, rankCount: 3876, lowBitsPerSlot: 5, storedBits: 32, plainBits: 36 });
    }
  });

  test('an empty bucket is rank 0; the bucket of an added item holds its fingerprint', () => {
    using filter = new CuckooFilter({ bucketCount: 8, bucketSize: 4, fingerprintBits: 8, semiSort: true });
    expect(semiSortedBucket(filter, 0)).toMatchObject({ rank: 0, fingerprints: [0, 0, 0, 0] });
    filter.add('apple');
    const { fingerprint, i1, i2 } = locate(filter, 'apple');
    const holders = [i1, i2].filter((b) => semiSortedBucket(filter, b).fingerprints.includes(fingerprint));
    expect(holders.length).toBeGreaterThan(0);
  });

  test('bad arguments', () => {
    using plain = new CuckooFilter({ bucketCount: 8, bucketSize: 4, fingerprintBits: 8 });
    expect(() => semiSortedBucket(plain, 0)).toThrow(/must be semi-sorted/);
    using semi = new CuckooFilter({ bucketCount: 8, bucketSize: 4, fingerprintBits: 8, semiSort: true });
    expect(() => semiSortedBucket(semi, 8)).toThrow(RangeError);
    expect(() => semiSortedBucket(semi, 1.5)).toThrow(TypeError);
    expect(() => semiSortedBucket({} as CuckooFilter, 0)).toThrow(/must be a CuckooFilter/);
  });
});

describe('the core’s rules', () => {
  test('hashIdFor is the layout a filter of that many buckets gets', () => {
    for (const bucketCount of [1, 2, 10, 16, 100, 1024, 1000]) {
      using filter = new CuckooFilter({ bucketCount, bucketSize: 4, fingerprintBits: 8 });
      expect(hashIdFor(bucketCount)).toBe(locate(filter, 'x').hashId);
    }
    expect(() => hashIdFor(0)).toThrow(RangeError);
  });

  test('semiSortAllowed says exactly when the constructor accepts semiSort', () => {
    for (const bucketSize of [1, 2, 4, 8] as const) {
      for (let fingerprintBits = 2; fingerprintBits <= 16; fingerprintBits++) {
        let made = true;
        try {
          new CuckooFilter({ bucketCount: 4, bucketSize, fingerprintBits, semiSort: true }).dispose();
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError); // a parameter the core refuses
          made = false;
        }
        expect(semiSortAllowed(bucketSize, fingerprintBits)).toBe(made);
      }
    }
  });

  test('growableFacts: buckets of 4, and the table grows past 90 % of its slots', () => {
    const { bucketSize, maxLoad } = growableFacts();
    expect(bucketSize).toBe(4);
    using filter = ScalableCuckooFilter.create({ initialCapacity: 16, fpr: 0.01, seed: 2 });
    let highest = 0;
    for (let i = 0; i < 2000; i++) {
      filter.add(i);
      highest = Math.max(highest, filter.loadFactor);
    }
    expect(highest).toBeLessThanOrEqual(maxLoad);
    expect(highest).toBeGreaterThan(maxLoad - 0.05);
  });
});
