// CuckooFilter's operations through the package: single items, a full filter,
// batches, state, and disposal.
import { CuckooFilter, init } from 'cuckoo-wasm';
import { expectEachCallDisposed, usedThenDisposedTwice } from '../support/disposed';

beforeAll(() => init());

// 32-bit fingerprints make a false positive among a few thousand probes
// practically impossible (2b / 2^32 per probe), so exact answers can be asserted.
function exactFilter(bucketCount = 1024, bucketSize: 1 | 2 | 4 | 8 = 4): CuckooFilter {
  return new CuckooFilter({ bucketCount, bucketSize, fingerprintBits: 32, seed: 7 });
}

describe('single-item operations', () => {
  test('add, has, count, delete', () => {
    using filter = exactFilter();
    expect(filter.has('alice')).toBe(false);
    expect(filter.delete('alice')).toBe(false);
    expect(filter.add('alice')).toBe(true);
    expect(filter.has('alice')).toBe(true);
    expect(filter.count('alice')).toBe(1);
    expect(filter.add('alice')).toBe(true);
    expect(filter.count('alice')).toBe(2);
    expect(filter.size).toBe(2);
    expect(filter.delete('alice')).toBe(true);
    expect(filter.has('alice')).toBe(true);
    expect(filter.delete('alice')).toBe(true);
    expect(filter.has('alice')).toBe(false);
    expect(filter.size).toBe(0);
  });

  test('addUnique adds only absent items', () => {
    using filter = exactFilter();
    expect(filter.addUnique('x')).toBe(true);
    expect(filter.addUnique('x')).toBe(false);
    expect(filter.count('x')).toBe(1);
  });

  test('every added item is found: no false negatives over 3,000 items', () => {
    using filter = CuckooFilter.create({ capacity: 3000, fpr: 0.01, seed: 3 });
    for (let i = 0; i < 3000; i++) expect(filter.add(`item-${i}`)).toBe(true);
    for (let i = 0; i < 3000; i++) expect(filter.has(`item-${i}`)).toBe(true);
  });
});

describe('full filter', () => {
  // bucketCount 1, bucketSize 1: one slot plus the stash, so exactly two items fit.
  test('add returns false when its item cannot be placed, changes nothing, and delete makes room', () => {
    using filter = exactFilter(1, 1);
    expect(filter.add('a')).toBe(true);
    expect(filter.full).toBe(false);
    expect(filter.add('b')).toBe(true);
    expect(filter.stashed).toBe(1);
    expect(filter.full).toBe(false); // the add that filled the stash succeeded
    const before = filter.toBytes();
    expect(filter.add('c')).toBe(false);
    expect(filter.full).toBe(true);
    expect(filter.addUnique('c')).toBe(false);
    expect(filter.toBytes()).toEqual(before);
    expect(filter.has('a')).toBe(true);
    expect(filter.has('b')).toBe(true);
    expect(filter.has('c')).toBe(false);
    expect(filter.delete('a')).toBe(true);
    expect(filter.full).toBe(false);
    expect(filter.add('c')).toBe(true);
    expect(filter.has('b')).toBe(true);
    expect(filter.has('c')).toBe(true);
  });

  test("the load is the table's: the stash is counted apart, by size and stashed", () => {
    using filter = exactFilter(1, 1);
    expect(filter.add('a')).toBe(true);
    expect([filter.size, filter.stashed, filter.loadFactor]).toEqual([1, 0, 1]);
    // One slot: 'b' takes it and 'a' waits in the stash; the table is no fuller.
    expect(filter.add('b')).toBe(true);
    expect([filter.size, filter.stashed, filter.loadFactor, filter.full]).toEqual([2, 1, 1, false]);
    // A delete makes room: the stashed fingerprint goes back into the table.
    expect(filter.delete('b')).toBe(true);
    expect([filter.size, filter.stashed, filter.loadFactor, filter.full]).toEqual([1, 0, 1, false]);
    expect(filter.has('a')).toBe(true);
  });

  test('a real-size filter filled to its first refusal keeps every item', () => {
    using filter = new CuckooFilter({ bucketCount: 4096, bucketSize: 4, fingerprintBits: 12, seed: 11 });
    let stored = 0;
    let atFirstFailure = 0;
    while (filter.add(stored)) {
      stored++;
      if (atFirstFailure === 0 && filter.stashed === 1) atFirstFailure = stored;
    }
    // The paper's first failure (a walk that ran out: the stash fills), then
    // more adds that find room, until one cannot be placed.
    expect(atFirstFailure / filter.slotCount).toBeGreaterThan(0.94);
    expect(stored).toBeGreaterThanOrEqual(atFirstFailure);
    expect(filter.full).toBe(true);
    expect(filter.size).toBe(stored);
    expect(filter.stashed).toBe(1);
    expect(filter.loadFactor).toBe((stored - 1) / filter.slotCount);
    const answers = filter.hasMany(Float64Array.from({ length: stored }, (_, i) => i));
    expect(answers.every((a) => a === 1)).toBe(true);
  });
});

describe('batches', () => {
  test('addMany stops at the first failure and reports how many were added', () => {
    using filter = exactFilter(1, 1);
    expect(filter.addMany(['a', 'b', 'c', 'd'])).toBe(2);
    expect(Array.from(filter.hasMany(['a', 'b', 'c', 'd']))).toEqual([1, 1, 0, 0]);
  });

  test('hasMany and deleteMany over arrays, generators and sets', () => {
    using filter = exactFilter();
    function* words(): Generator<string> {
      for (const w of ['red', 'green', 'blue']) yield w;
    }
    expect(filter.addMany(words())).toBe(3);
    expect(Array.from(filter.hasMany(new Set(['red', 'pink', 'blue'])))).toEqual([1, 0, 1]);
    expect(filter.deleteMany(['red', 'pink'])).toBe(1);
    expect(Array.from(filter.hasMany(['red', 'green']))).toEqual([0, 1]);
    expect(filter.hasMany([])).toEqual(new Uint8Array(0));
  });

  test('batches larger than one chunk keep their order', () => {
    using filter = CuckooFilter.create({ capacity: 50_000, fpr: 0.0001, seed: 5 });
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}`);
    expect(filter.addMany(keys)).toBe(20_000);
    const probe = [...keys.slice(0, 10_000).map((k) => `${k}-absent`), ...keys];
    const answers = filter.hasMany(probe);
    expect(answers.length).toBe(30_000);
    expect(answers.subarray(10_000).every((a) => a === 1)).toBe(true);
    // 10,000 negatives at a bound of 8/2^17: about 0.6 expected false positives.
    expect(answers.subarray(0, 10_000).reduce((sum, a) => sum + a, 0)).toBeLessThan(10);
    expect(filter.deleteMany(keys)).toBe(20_000);
    expect(filter.size).toBe(0);
  });

  test('mixed chunks (ASCII, other text, numbers, bytes) answer as the single calls do, in order', () => {
    using filter = CuckooFilter.create({ capacity: 20_000, fpr: 0.0001, seed: 9 });
    // Every few items breaks the all-ASCII run in a different way, so chunks
    // of every kind (joined, item by item) follow one another.
    const items = Array.from({ length: 6_000 }, (_, i): string | number | Uint8Array =>
      i % 1500 === 7 ? i : i % 2100 === 3 ? new TextEncoder().encode(`b${i}`) : i % 1700 === 11 ? `é${i}` : `k${i}`,
    );
    expect(filter.addMany(items.filter((_, i) => i % 2 === 0))).toBe(3_000);
    expect(Array.from(filter.hasMany(items))).toEqual(items.map((item) => (filter.has(item) ? 1 : 0)));
    expect(Array.from(filter.hasMany(items)).filter((_, i) => i % 2 === 0).every((a) => a === 1)).toBe(true);
  });

  test('an invalid item in a later chunk of an iterable is named by its index in the batch', () => {
    using filter = CuckooFilter.create({ capacity: 10_000, fpr: 0.001 });
    function* items(): Generator<unknown> {
      for (let i = 0; i < 5_000; i++) yield i === 4_321 ? null : `k${i}`;
    }
    expect(() => filter.addMany(items() as Iterable<string>)).toThrow(/addMany: items\[4321\]/);
    expect(filter.size).toBe(4_321);
    expect(filter.has('k4320')).toBe(true);
  });

  test('an invalid item stops the batch after the items before it', () => {
    using filter = exactFilter();
    expect(() => filter.addMany(['a', 'b', {} as unknown as string, 'c'])).toThrow(/addMany: items\[2\]/);
    expect(Array.from(filter.hasMany(['a', 'b', 'c']))).toEqual([1, 1, 0]);
    expect(() => filter.addMany(new Float64Array([10, 11, 0.5, 12]))).toThrow(/items\[2\].*safe integer/);
    expect(Array.from(filter.hasMany([10, 11, 12]))).toEqual([1, 1, 0]);
    expect(() => filter.deleteMany(['a', 1.5])).toThrow(RangeError);
    expect(filter.has('a')).toBe(false);
    expect(() => filter.hasMany([1, Symbol('x') as unknown as number])).toThrow(TypeError);
  });
});

describe('state', () => {
  test('properties follow the formulas', () => {
    using filter = new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 12, maxKicks: 100, seed: 42n });
    expect(filter.params).toEqual({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 12, maxKicks: 100, seed: 42n, semiSort: false, keyedHash: false, multiplyShiftHash: false });
    expect(filter.slotCount).toBe(4096);
    expect(filter.byteLength).toBe((1024 * 4 * 12) / 8 + 7);
    expect(filter.bitsPerItem).toBe(Infinity);
    expect(filter.fprBound).toBeCloseTo(8 / 4096, 15);
    expect(filter.addMany(new Uint32Array(Array.from({ length: 2048 }, (_, i) => i)))).toBe(2048);
    expect(filter.size).toBe(2048);
    expect(filter.loadFactor).toBe(0.5);
    expect(filter.bitsPerItem).toBe(24);
    expect(filter.expectedFpr).toBeCloseTo(1 - (1 - 1 / 4096) ** (8 * 0.5), 12);
  });

  test('CuckooFilter.create picks the paper\'s shape and the smallest bucket count', () => {
    // fpr 0.001 -> b = 4, f = 13 (8 / 2^13 <= 0.001); 1e6 / (4 * 0.945) = 264550.3 -> m = 264,551 (sizing.hpp).
    using filter = CuckooFilter.create({ capacity: 1_000_000, fpr: 0.001, seed: 42 });
    expect(filter.params).toEqual({ bucketCount: 264551, bucketSize: 4, fingerprintBits: 13, maxKicks: 500, seed: 42n, semiSort: false, keyedHash: false, multiplyShiftHash: false });
    expect(filter.byteLength).toBe(Math.ceil((264551 * 4 * 13) / 8) + 7);
  });

  test('any bucket count works: every add succeeds, nothing is lost, bytes round-trip', () => {
    for (const bucketCount of [3, 5, 1000, 65535, 100_003]) {
      using filter = new CuckooFilter({ bucketCount, bucketSize: 4, fingerprintBits: 12, seed: bucketCount });
      const items = Float64Array.from({ length: Math.floor(bucketCount * 4 * 0.9) }, (_, i) => i * 31 + 7);
      expect(filter.addMany(items)).toBe(items.length);
      expect(filter.hasMany(items).every((answer) => answer === 1)).toBe(true);
      using copy = CuckooFilter.fromBytes(filter.toBytes());
      expect(copy.params.bucketCount).toBe(bucketCount);
      expect(copy.toBytes()).toEqual(filter.toBytes());
      // Deleting every item empties it: each fingerprint was where its two buckets say.
      expect(copy.deleteMany(items)).toBe(items.length);
      expect(copy.size).toBe(0);
    }
  });

  test('a seed above 2^53 round-trips as a bigint', () => {
    using filter = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8, seed: 2n ** 64n - 1n });
    expect(filter.params.seed).toBe(2n ** 64n - 1n);
  });

  test('clear makes the filter identical to a new one', () => {
    using fresh = new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 12, seed: 9 });
    using used = new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 12, seed: 9 });
    used.addMany(Array.from({ length: 300 }, (_, i) => i));
    used.clear();
    expect(used.size).toBe(0);
    expect(used.toBytes()).toEqual(fresh.toBytes());
  });

  test('clone is independent', () => {
    using filter = exactFilter();
    filter.add('kept');
    using copy = filter.clone();
    filter.delete('kept');
    filter.add('new');
    expect(copy.has('kept')).toBe(true);
    expect(copy.has('new')).toBe(false);
    expect(copy.size).toBe(1);
  });

  test('the same seed and operations give the same bytes; another seed does not', () => {
    const build = (seed: number) => {
      using filter = new CuckooFilter({ bucketCount: 256, bucketSize: 4, fingerprintBits: 10, seed });
      for (let i = 0; filter.add(`w${i}`); i++);
      return filter.toBytes();
    };
    expect(build(1)).toEqual(build(1));
    expect(build(1)).not.toEqual(build(2));
  });
});

describe('disposal', () => {
  test('dispose is idempotent and later calls throw DISPOSED naming the method', () => {
    const filter = usedThenDisposedTwice(exactFilter());
    const calls: Array<[string, () => unknown]> = [
      ['add', () => filter.add('x')],
      ['has', () => filter.has('x')],
      ['delete', () => filter.delete('x')],
      ['count', () => filter.count('x')],
      ['addUnique', () => filter.addUnique('x')],
      ['addMany', () => filter.addMany(['x'])],
      ['hasMany', () => filter.hasMany(['x'])],
      ['deleteMany', () => filter.deleteMany(['x'])],
      ['clear', () => filter.clear()],
      ['clone', () => filter.clone()],
      ['toBytes', () => filter.toBytes()],
      ['size', () => filter.size],
      ['loadFactor', () => filter.loadFactor],
      ['params', () => filter.params],
    ];
    expectEachCallDisposed('CuckooFilter', calls);
  });

  test('Symbol.dispose disposes', () => {
    const filter = exactFilter();
    filter[Symbol.dispose]();
    expect(filter.disposed).toBe(true);
  });
});
