// BloomFilter, the paper's baseline (standard and blocked): items and batches,
// probe positions, sizes and false-positive rates, argument errors and disposal.
import { init } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';
import { expectEachCallDisposed, usedThenDisposedTwice } from '../support/disposed';
import { expectForgottenObjectsFreed, wasmHeapBytes } from '../support/heap';

beforeAll(() => init());

// 2^24 bits and 16 probes make a false positive among the tens of thousands
// of items these tests add practically impossible (about (16n / 2^24)^16, below
// 1e-20 for n = 40,000), so exact answers can be asserted.
function exactFilter(blocked = false): BloomFilter {
  return new BloomFilter({ bitCount: 2 ** 24, hashCount: 16, blocked, seed: 7 });
}

const kinds = [
  ['standard', false],
  ['blocked', true],
] as const;

describe.each(kinds)('%s filter', (_name, blocked) => {
  test('add, has, and add reporting whether the item was new', () => {
    using filter = exactFilter(blocked);
    expect(filter.has('alice')).toBe(false);
    expect(filter.add('alice')).toBe(true);
    expect(filter.has('alice')).toBe(true);
    expect(filter.add('alice')).toBe(false);
    expect(filter.size).toBe(2);
    expect(filter.has('bob')).toBe(false);
  });

  test('no false negatives over 20,000 items, single and batched', () => {
    using filter = BloomFilter.create({ capacity: 20_000, fpr: 0.01, blocked, seed: 3 });
    for (let i = 0; i < 10_000; i++) filter.add(`item-${i}`);
    filter.addMany(Array.from({ length: 10_000 }, (_, i) => `item-${i + 10_000}`));
    const missing = Array.from({ length: 20_000 }, (_, i) => `item-${i}`).filter((item) => !filter.has(item));
    expect(missing).toEqual([]);
    expect(filter.hasMany(Array.from({ length: 20_000 }, (_, i) => `item-${i}`)).every((a) => a === 1)).toBe(true);
    expect(filter.size).toBe(20_000);
  });

  test('equal items hash alike: strings and their UTF-8 bytes, numbers and bigints', () => {
    using filter = exactFilter(blocked);
    const same = (a: Parameters<BloomFilter['probePositions']>[0], b: Parameters<BloomFilter['probePositions']>[0]) =>
      expect(Array.from(filter.probePositions(a))).toEqual(Array.from(filter.probePositions(b)));
    same('abc', new TextEncoder().encode('abc'));
    same('héllo ✓', new TextEncoder().encode('héllo ✓'));
    same('abc', new Uint8Array([0, 97, 98, 99, 0]).subarray(1, 4));
    same(new DataView(new Uint8Array([1, 2, 3]).buffer), new Uint8Array([1, 2, 3]));
    same(5, 5n);
    same(-1, 2n ** 64n - 1n);
    same(-(2 ** 53 - 1), -(2n ** 53n - 1n));
    expect(Array.from(filter.probePositions('5'))).not.toEqual(Array.from(filter.probePositions(5)));
    filter.add('abc');
    filter.add(5n);
    expect(filter.has(new TextEncoder().encode('abc'))).toBe(true);
    expect(filter.has(5)).toBe(true);
    expect(filter.has('5')).toBe(false);
  });

  test('typed-array batches are the same items as numbers', () => {
    using filter = exactFilter(blocked);
    expect(filter.addMany(new Uint32Array([1, 2, 4294967295]))).toBe(3);
    expect(filter.addMany(new Int32Array([-1, -2]))).toBe(2);
    expect(filter.addMany(new Float64Array([2 ** 53 - 1]))).toBe(1);
    expect(filter.addMany(new BigUint64Array([2n ** 63n]))).toBe(1);
    expect(filter.addMany(new BigInt64Array([-(2n ** 63n)]))).toBe(0); // the same 8 bytes as 2^63
    expect(filter.hasMany([1, 2, 4294967295, -1, -2, 2 ** 53 - 1, 2n ** 63n, 3])).toEqual(
      new Uint8Array([1, 1, 1, 1, 1, 1, 1, 0]),
    );
    expect(filter.has(2n ** 64n - 1n)).toBe(true); // the bytes of -1
    expect(filter.hasMany(new BigInt64Array([1n, 3n]))).toEqual(new Uint8Array([1, 0]));
  });

  test('addMany counts the items that set a new bit; hasMany answers in order across chunks', () => {
    using filter = exactFilter(blocked);
    expect(filter.addMany(['a', 'b', 'a'])).toBe(2);
    expect(filter.size).toBe(3);
    const numbers = Float64Array.from({ length: 20_000 }, (_, i) => i * 2);
    expect(filter.addMany(numbers)).toBe(20_000);
    const probes = Float64Array.from({ length: 40_000 }, (_, i) => i);
    const answers = filter.hasMany(probes);
    expect(answers).toBeInstanceOf(Uint8Array);
    expect(answers.length).toBe(40_000);
    for (let i = 0; i < 40_000; i++) if (answers[i] !== (i % 2 === 0 ? 1 : 0)) throw new Error(`answer ${i}`);
    const strings = function* () {
      for (let i = 0; i < 20_000; i++) yield `s${i}`;
    };
    expect(filter.addMany(strings())).toBe(20_000);
    expect(filter.hasMany(strings()).reduce((sum, a) => sum + a, 0)).toBe(20_000);
    expect(filter.hasMany([])).toEqual(new Uint8Array(0));
    expect(filter.addMany(new Uint32Array(0))).toBe(0);
  });

  test('an invalid item in a batch: the items before it are added, then it throws', () => {
    using filter = exactFilter(blocked);
    expect(() => filter.addMany(['x', 'y', 1.5, 'z'])).toThrow(
      new RangeError(
        'BloomFilter.addMany: items[2]: a number item must be a safe integer (from -(2^53 - 1) to 2^53 - 1), got 1.5; use a string or a bigint for other values',
      ),
    );
    expect(filter.hasMany(['x', 'y', 'z'])).toEqual(new Uint8Array([1, 1, 0]));
    expect(() => filter.addMany(new Float64Array([7, 8, 0.5, 9]))).toThrow(/BloomFilter\.addMany: items\[2\]: a Float64Array element must be a safe integer/);
    expect(filter.hasMany([7, 8, 9])).toEqual(new Uint8Array([1, 1, 0]));
    expect(() => filter.hasMany(['ok', {} as never])).toThrow(TypeError);
    expect(() => filter.hasMany('abc' as never)).toThrow(/a string is one item: wrap it in an array/);
    expect(() => filter.add(true as never)).toThrow(
      new TypeError('BloomFilter.add: item must be a string, Uint8Array, ArrayBufferView, number or bigint; got boolean true'),
    );
  });

  test('probe positions: k of them, in range, set by add, and deciding has', () => {
    using filter = new BloomFilter({ bitCount: 5000, hashCount: 5, blocked, seed: 1 });
    const set = new Set<number>();
    for (let i = 0; i < 700; i++) {
      const positions = filter.probePositions(i);
      expect(positions).toBeInstanceOf(Uint32Array);
      expect(positions.length).toBe(5);
      for (const p of positions) expect(p).toBeLessThan(filter.bitCount);
      if (blocked) expect(new Set(Array.from(positions, (p) => Math.floor(p / 512))).size).toBe(1);
      filter.add(i);
      positions.forEach((p) => set.add(p));
    }
    // About half the bits are set: absent items land on both sides.
    let positives = 0;
    const disagreements: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const item = `absent-${i}`;
      const allSet = filter.probePositions(item).every((p) => set.has(p));
      if (filter.has(item) !== allSet) disagreements.push(item);
      positives += allSet ? 1 : 0;
    }
    expect(disagreements).toEqual([]);
    expect(positives).toBeGreaterThan(0);
    expect(positives).toBeLessThan(5000);
  });

  test('the seed moves the positions', () => {
    using a = new BloomFilter({ bitCount: 1 << 20, hashCount: 4, blocked, seed: 1 });
    using b = new BloomFilter({ bitCount: 1 << 20, hashCount: 4, blocked, seed: 2n });
    expect(Array.from(a.probePositions('x'))).not.toEqual(Array.from(b.probePositions('x')));
    expect(a.seed).toBe(1n);
    expect(b.seed).toBe(2n);
    using c = new BloomFilter({ bitCount: 64, hashCount: 1, blocked, seed: 2n ** 64n - 1n });
    expect(c.seed).toBe(2n ** 64n - 1n);
  });

  test('measured false-positive rate matches expectedFpr', () => {
    using filter = BloomFilter.create({ capacity: 20_000, fpr: 0.01, blocked, seed: 9 });
    filter.addMany(Float64Array.from({ length: 20_000 }, (_, i) => i));
    const expected = filter.expectedFpr;
    // 150,000 probes at about 1 % give about 1,500 false positives (sd 39,
    // 2.6 %): a 15 % tolerance is over 5 standard deviations.
    const answers = filter.hasMany(Float64Array.from({ length: 150_000 }, (_, i) => 1e9 + i));
    const measured = answers.reduce((sum, a) => sum + a, 0) / answers.length;
    expect(Math.abs(measured - expected)).toBeLessThan(0.15 * expected);
    if (blocked) expect(expected).toBeGreaterThan(0.01);
    else expect(expected).toBeCloseTo(0.01, 3);
  });
});

describe('sizes and statistics', () => {
  test('create sizes by m = ceil(-n ln p / ln² 2), k = round(ln 2 · m / n)', () => {
    using standard = BloomFilter.create({ capacity: 1000, fpr: 0.01 });
    expect([standard.bitCount, standard.hashCount, standard.byteLength, standard.blocked]).toEqual([9586, 7, 1200, false]);
    using blocked = BloomFilter.create({ capacity: 1000, fpr: 0.01, blocked: true });
    // 9586 bits -> 19 blocks of 512.
    expect([blocked.bitCount, blocked.hashCount, blocked.byteLength, blocked.blocked]).toEqual([9728, 7, 1216, true]);
    using big = BloomFilter.create({ capacity: 1_000_000, fpr: 0.001 });
    expect([big.bitCount, big.hashCount]).toEqual([14_377_588, 10]);
  });

  test('exact shapes; a blocked filter rounds up to whole blocks', () => {
    using small = new BloomFilter({ bitCount: 100, hashCount: 3 });
    expect([small.bitCount, small.byteLength]).toEqual([100, 16]);
    using blocked = new BloomFilter({ bitCount: 1000, hashCount: 3, blocked: true });
    expect([blocked.bitCount, blocked.byteLength]).toEqual([1024, 128]);
    using one = new BloomFilter({ bitCount: 1, hashCount: 32 });
    expect(Array.from(one.probePositions('x'))).toEqual(new Array(32).fill(0));
  });

  test('size, bitsPerItem and expectedFpr follow the items', () => {
    using filter = new BloomFilter({ bitCount: 1000, hashCount: 7 });
    expect(filter.size).toBe(0);
    expect(filter.bitsPerItem).toBe(Infinity);
    expect(filter.expectedFpr).toBe(0);
    filter.addMany(['a', 'b']);
    expect(filter.bitsPerItem).toBe(500);
    filter.addMany(Array.from({ length: 98 }, (_, i) => i));
    expect(filter.size).toBe(100);
    expect(filter.expectedFpr).toBeCloseTo((1 - Math.exp((-7 * 100) / 1000)) ** 7, 12);
  });

  test('a blocked filter has a higher false-positive rate than a standard one of the same size', () => {
    // The paper's Table 3 setting: 13 bits per item, k = 9.
    using standard = new BloomFilter({ bitCount: 13 * 10_240, hashCount: 9 });
    using blocked = new BloomFilter({ bitCount: 13 * 10_240, hashCount: 9, blocked: true });
    expect(blocked.byteLength).toBe(standard.byteLength);
    const items = Float64Array.from({ length: 10_240 }, (_, i) => i);
    standard.addMany(items);
    blocked.addMany(items);
    expect(blocked.expectedFpr).toBeGreaterThan(1.2 * standard.expectedFpr);
    expect(blocked.expectedFpr).toBeLessThan(3 * standard.expectedFpr);
  });
});

describe('argument errors name the argument and the allowed range', () => {
  test('new BloomFilter', () => {
    expect(() => new BloomFilter(null as never)).toThrow(
      new TypeError('new BloomFilter: options must be an object { bitCount, hashCount, blocked?, seed? }, got null'),
    );
    expect(() => new BloomFilter({ bitCount: 0, hashCount: 3 })).toThrow(
      new RangeError('new BloomFilter: bitCount must be an integer from 1 to 2^32, got 0'),
    );
    expect(() => new BloomFilter({ bitCount: 2 ** 32 + 1, hashCount: 3 })).toThrow(RangeError);
    expect(() => new BloomFilter({ bitCount: 10.5, hashCount: 3 })).toThrow(RangeError);
    expect(() => new BloomFilter({ bitCount: '64' as never, hashCount: 3 })).toThrow(
      new TypeError('new BloomFilter: bitCount must be a number (an integer from 1 to 2^32), got "64"'),
    );
    expect(() => new BloomFilter({ bitCount: 64, hashCount: 0 })).toThrow(
      new RangeError('new BloomFilter: hashCount must be an integer from 1 to 32, got 0'),
    );
    expect(() => new BloomFilter({ bitCount: 64, hashCount: 33 })).toThrow(/hashCount must be an integer from 1 to 32, got 33/);
    expect(() => new BloomFilter({ bitCount: 64, hashCount: 3, blocked: 1 as never })).toThrow(
      new TypeError('new BloomFilter: blocked must be a boolean, got number 1'),
    );
    expect(() => new BloomFilter({ bitCount: 64, hashCount: 3, seed: -1 })).toThrow(/new BloomFilter: seed must be a non-negative safe integer/);
    expect(() => new BloomFilter({ bitCount: 64, hashCount: 3, seed: 2n ** 64n })).toThrow(RangeError);
  });

  test('BloomFilter.create', () => {
    expect(() => BloomFilter.create({ capacity: 0, fpr: 0.01 })).toThrow(
      new RangeError('BloomFilter.create: capacity must be an integer from 1 to 2^53 - 1, got 0'),
    );
    for (const fpr of [0, 1, -0.5, NaN, Infinity]) {
      expect(() => BloomFilter.create({ capacity: 10, fpr })).toThrow(
        new RangeError(`BloomFilter.create: fpr must be greater than 0 and less than 1, got ${fpr}`),
      );
    }
    expect(() => BloomFilter.create({ capacity: 10, fpr: '1%' as never })).toThrow(TypeError);
    expect(() => BloomFilter.create({ capacity: 10, fpr: 1e-12 })).toThrow(
      new RangeError(
        'BloomFilter.create: the false-positive rate is too low for a Bloom filter: it would need more than 32 hash functions',
      ),
    );
    expect(() => BloomFilter.create({ capacity: 1e12, fpr: 0.001 })).toThrow(
      new RangeError('BloomFilter.create: the table would exceed the maximum table size (2 GiB for a cuckoo filter in WebAssembly, 1 TiB natively; 2^32 bits for a Bloom filter): ask for a smaller capacity or shape'),
    );
  });
});

describe('disposal and memory', () => {
  test('dispose is idempotent and later calls throw DISPOSED', () => {
    const filter = usedThenDisposedTwice(exactFilter());
    const calls: Array<[string, () => unknown]> = [
      ['add', () => filter.add('x')],
      ['has', () => filter.has('x')],
      ['addMany', () => filter.addMany(['x'])],
      ['hasMany', () => filter.hasMany(['x'])],
      ['probePositions', () => filter.probePositions('x')],
      ['size', () => filter.size],
      ['bitCount', () => filter.bitCount],
      ['expectedFpr', () => filter.expectedFpr],
    ];
    expectEachCallDisposed('BloomFilter', calls);
  });

  test('using disposes at the end of the scope', () => {
    let escaped: BloomFilter;
    {
      using filter = exactFilter(true);
      escaped = filter;
      expect(filter.disposed).toBe(false);
    }
    expect(escaped.disposed).toBe(true);
  });

  test('creating and disposing 5,000 filters does not grow the wasm heap', () => {
    const cycle = () => {
      using standard = new BloomFilter({ bitCount: 1 << 19, hashCount: 7 }); // 64 KiB
      using blocked = BloomFilter.create({ capacity: 30_000, fpr: 0.01, blocked: true });
      standard.add('x');
      blocked.probePositions('x');
    };
    for (let i = 0; i < 50; i++) cycle();
    const before = wasmHeapBytes();
    for (let i = 0; i < 5000; i++) cycle();
    expect(wasmHeapBytes()).toBe(before);
  });

  test('filters that are never disposed are freed after garbage collection (the safety net)', async () => {
    await expectForgottenObjectsFreed(() => {
      new BloomFilter({ bitCount: 2 ** 28, hashCount: 3 }).add('forgotten');
    });
  });
});
