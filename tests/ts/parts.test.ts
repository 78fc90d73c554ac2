// The core's way for a filter kept outside the process (cuckoo-wasm/redis):
// items located as a CuckooFilter of the same shape locates them, and a
// filter's table, stash and count moved out and back in without the items.
import { CuckooFilter, FormatError, init } from 'cuckoo-wasm';
import { locate } from 'cuckoo-wasm/inspect';
import {
  filterFromParts,
  LOCATION_WORDS,
  locateItem,
  locateItems,
  paramsForCapacity,
  partsOf,
  SEMI_SORTED_RANKS,
  semiSortedUnrankTable,
} from '../../dist/cjs/parts';

beforeAll(() => init());

const items = ['alice', 'bob', new Uint8Array([1, 2, 3]), 5, 5n, -7, 'é'];

test.each([
  ['power of two (hash id 1)', { bucketCount: 1024, bucketSize: 4, fingerprintBits: 12, seed: 7 }],
  ['any count (hash id 2)', { bucketCount: 1000, bucketSize: 4, fingerprintBits: 13, seed: 2n ** 63n + 5n }],
  ['multiplyShiftHash, power of two (hash id 10)', { bucketCount: 1024, bucketSize: 4, fingerprintBits: 12, seed: 7, multiplyShiftHash: true }],
  ['multiplyShiftHash, any count (hash id 11)', { bucketCount: 1000, bucketSize: 4, fingerprintBits: 13, seed: 7, multiplyShiftHash: true }],
] as const)('locateItems agrees with the filter itself: %s', (_, shape) => {
  using filter = new CuckooFilter(shape);
  const located = locateItems(filter.params, items, 'test');
  expect(located.length).toBe(items.length * LOCATION_WORDS);
  items.forEach((item, k) => {
    const where = locate(filter, item);
    expect([located[4 * k], located[4 * k + 1], located[4 * k + 2]]).toEqual([where.fingerprint, where.i1, where.i2]);
  });
  // The same items as a typed array take the fixed-width path and agree with numbers.
  const numeric = locateItems(filter.params, new Uint32Array([5, 6]), 'test');
  expect(Array.from(numeric.subarray(0, 4))).toEqual(Array.from(locateItems(filter.params, [5], 'test')));
});

test('locateItems covers batches larger than one chunk, in order', () => {
  const shape = { bucketCount: 4096, fingerprintBits: 16, seed: 1n };
  const many = Array.from({ length: 20000 }, (_, i) => `key-${i}`);
  const located = locateItems(shape, many, 'test');
  expect(located.length).toBe(many.length * LOCATION_WORDS);
  const last = locateItems(shape, [many[many.length - 1]!], 'test');
  expect(Array.from(located.subarray(located.length - 4))).toEqual(Array.from(last));
});

test('the route word splits items evenly between two shards (binomial, 5 sigma)', () => {
  const shape = { bucketCount: 1024, fingerprintBits: 12, seed: 0n };
  const n = 20000;
  const located = locateItems(shape, new Uint32Array(n).map((_, i) => i), 'test');
  let shardZero = 0;
  for (let k = 0; k < n; k++) if (located[4 * k + 3]! < 2 ** 31) shardZero++;
  expect(Math.abs(shardZero - n / 2)).toBeLessThan(5 * Math.sqrt(n / 4));
});

test('a filter rebuilt from its parts answers as the original and keeps working', () => {
  using original = new CuckooFilter({ bucketCount: 300, bucketSize: 4, fingerprintBits: 12, seed: 3 });
  let added = 0;
  while (original.add(added)) added++;
  const parts = partsOf(original);
  expect(parts.stash).not.toBeNull();
  expect(parts.itemCount).toBe(original.size);
  expect(parts.payload.length).toBe(Math.ceil((300 * 4 * 12) / 8));
  using rebuilt = filterFromParts(original.params, parts, 'test');
  expect(rebuilt.size).toBe(original.size);
  expect(rebuilt.stashed).toBe(1);
  const probes = new Uint32Array(added + 5000).map((_, i) => i);
  expect(rebuilt.hasMany(probes)).toEqual(original.hasMany(probes));
  // The parts carry the eviction PRNG's state too: the rebuilt filter is the original, byte for byte,
  // and makes the same choices (here the walk that re-places the stashed fingerprint after a delete).
  const before = original.toBytes();
  expect(Buffer.from(rebuilt.toBytes())).toEqual(Buffer.from(before));
  expect(rebuilt.delete(0)).toBe(true);
  expect(original.delete(0)).toBe(true);
  expect(rebuilt.stashed).toBe(original.stashed);
  expect(Buffer.from(rebuilt.toBytes())).toEqual(Buffer.from(original.toBytes()));
  // Without it, the PRNG starts from the seed as in a new filter (FORMAT.md: seed XOR 0x6a09e667f3bcc909).
  using fresh = filterFromParts(original.params, { ...parts, prngState: undefined }, 'test');
  const bytes = fresh.toBytes();
  expect(Buffer.from(bytes.subarray(24, 32)).readBigUInt64LE()).toBe(3n ^ 0x6a09e667f3bcc909n);
  expect(Buffer.from(bytes.subarray(32, -8))).toEqual(Buffer.from(before.subarray(32, -8)));
});

test('parts that do not fit the parameters are refused with a FormatError code', () => {
  using original = new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 13, semiSort: true });
  original.addMany(['a', 'b', 'c']);
  const parts = partsOf(original);
  const codeOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error instanceof FormatError ? error.code : String(error);
    }
    return 'no error';
  };
  expect(codeOf(() => filterFromParts(original.params, { ...parts, payload: parts.payload.subarray(1) }, 'test'))).toBe('TRUNCATED');
  expect(codeOf(() => filterFromParts(original.params, { ...parts, itemCount: 4 }, 'test'))).toBe('INCONSISTENT');
  expect(codeOf(() => filterFromParts(original.params, { ...parts, stash: { fingerprint: 0, bucket: 1 }, itemCount: 4 }, 'test'))).toBe(
    'INCONSISTENT',
  );
  const badRank = parts.payload.slice();
  badRank[0] = 0xff;
  badRank[1]! |= 0x0f;
  expect(codeOf(() => filterFromParts(original.params, { ...parts, payload: badRank }, 'test'))).toBe('INCONSISTENT');
  expect(() => filterFromParts({ ...original.params, bucketSize: 3 as 4 }, parts, 'test')).toThrow(RangeError);
});

// For cuckoo-wasm/redis: sizing without a table, one item located, and the
// semi-sorted rank map.

test('paramsForCapacity chooses what CuckooFilter.create makes, and checks options as it does', () => {
  for (const options of [
    { capacity: 1_000_000, fpr: 0.001, seed: 0 },
    { capacity: 1000, fpr: 0.02, seed: 5n, maxKicks: 20 },
    { capacity: 77_777, fpr: 0.0001, semiSort: true, seed: 9 },
    { capacity: 5000, fpr: 0.01, seed: 4, keyedHash: true },
    { capacity: 5000, fpr: 0.01, seed: 4, multiplyShiftHash: true },
  ]) {
    using made = CuckooFilter.create(options);
    expect(paramsForCapacity(options, 'test', '{ capacity, fpr }', (capacity) => capacity)).toEqual(made.params);
  }
  // Without a seed, each draws its own.
  const unseeded = { capacity: 1000, fpr: 0.01 };
  expect(paramsForCapacity(unseeded, 'test', '{}', (c) => c).seed).not.toBe(paramsForCapacity(unseeded, 'test', '{}', (c) => c).seed);
  // The capacity the sizing is given is sizedCapacity's.
  using larger = CuckooFilter.create({ capacity: 2000, fpr: 0.01, seed: 3 });
  expect(paramsForCapacity({ capacity: 1000, fpr: 0.01, seed: 3 }, 'test', '{}', (c) => 2 * c)).toEqual(larger.params);
  expect(() => paramsForCapacity({ capacity: 0, fpr: 0.01 }, 'Here.create', '{ capacity, fpr }', (c) => c)).toThrow(
    /^Here\.create: capacity must be an integer from 1 to 2\^53 - 1, got 0$/,
  );
  expect(() => paramsForCapacity({ capacity: 10, fpr: 2 }, 'Here.create', '{}', (c) => c)).toThrow(
    /^Here\.create: fpr must be greater than 0 and less than 1, got 2$/,
  );
  expect(() => paramsForCapacity(null, 'Here.create', '{ capacity, fpr }', (c) => c)).toThrow(
    /^Here\.create: options must be an object \{ capacity, fpr \}, got null$/,
  );
  expect(() => paramsForCapacity({ capacity: 10, multiplyShiftHash: 'yes' }, 'Here.create', '{}', (c) => c)).toThrow(
    new TypeError('Here.create: multiplyShiftHash must be a boolean, got "yes"'),
  );
  expect(() => paramsForCapacity({ capacity: 10, keyedHash: true, multiplyShiftHash: true }, 'Here.create', '{}', (c) => c)).toThrow(
    /^Here\.create: keyedHash and multiplyShiftHash cannot both be true: .*, got keyedHash true and multiplyShiftHash true$/,
  );
});

test('a multiply-shift filter rebuilt from its parts keeps its hash and answers as the original', () => {
  using original = new CuckooFilter({ bucketCount: 1000, bucketSize: 4, fingerprintBits: 12, seed: 3, multiplyShiftHash: true });
  const keys = new Float64Array(3000).map((_, i) => i * 7919);
  expect(original.addMany(keys)).toBe(keys.length);
  using rebuilt = filterFromParts(original.params, partsOf(original), 'test');
  expect(rebuilt.params).toEqual(original.params);
  expect(rebuilt.params.multiplyShiftHash).toBe(true);
  expect(Buffer.from(rebuilt.toBytes())).toEqual(Buffer.from(original.toBytes()));
  const probes = new Float64Array(20000).map((_, i) => i * 7);
  expect(rebuilt.hasMany(probes)).toEqual(original.hasMany(probes));
});

test('locateItem locates one item as locateItems does, and names it in errors', () => {
  const shape = { bucketCount: 1000, fingerprintBits: 13, seed: 9n };
  for (const item of items) expect(Array.from(locateItem(shape, item, 'test'))).toEqual(Array.from(locateItems(shape, [item], 'test')));
  expect(() => locateItem(shape, NaN, 'Here.add: item')).toThrow(/^Here\.add: item: a number item must be a safe integer/);
  expect(() => locateItem(shape, {}, 'Here.add: item')).toThrow(/^Here\.add: item must be a string/);
});

test("semiSortedUnrankTable maps each rank to its nibbles, as FORMAT.md ranks them", () => {
  const table = semiSortedUnrankTable('test');
  expect(table.length).toBe(SEMI_SORTED_RANKS);
  // FORMAT.md: C(n0, 1) + C(n1 + 1, 2) + C(n2 + 2, 3) + C(n3 + 3, 4) for n0 <= n1 <= n2 <= n3.
  const binomial = (n: number, k: number): number => {
    let result = 1;
    for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
    return k > n ? 0 : result;
  };
  let multisets = 0;
  for (let a = 0; a < 16; a++) {
    for (let b = a; b < 16; b++) {
      for (let c = b; c < 16; c++) {
        for (let d = c; d < 16; d++) {
          const rank = binomial(a, 1) + binomial(b + 1, 2) + binomial(c + 2, 3) + binomial(d + 3, 4);
          expect(table[rank]).toBe(a | (b << 4) | (c << 8) | (d << 12));
          multisets++;
        }
      }
    }
  }
  expect(multisets).toBe(SEMI_SORTED_RANKS);
});
