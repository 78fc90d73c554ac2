// The hash of 64-bit keys of `multiplyShiftHash` (hash ids 10 and 11, FORMAT.md
// version 7, and 6 to 9 of versions 5 and 6 loaded) through the package: the option and the params that report it,
// its filters storing every kind of item, their bytes and round trip, the
// wasm kernels against the generic one, and its refusals: to merge with a
// filter of another hash, to be combined with keyedHash, a value that is not
// a boolean.
import { CuckooFilter, CuckooFilterError, init, type CuckooFilterOptions } from 'cuckoo-wasm';
import { kernelName, locate, useGenericKernel } from 'cuckoo-wasm/inspect';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

beforeAll(() => init());

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', name)));

type Item = number | bigint | string | Uint8Array;

/** Numbers, bigints, strings and byte arrays, of 8 bytes (multiply-shift) and of other lengths (XXH3). */
function mixedItems(count: number, salt: number): Item[] {
  return Array.from({ length: count }, (_, i): Item => {
    switch (i % 6) {
      case 0:
        return salt * 1_000_003 + i;
      case 1:
        return -(BigInt(salt) * 2n ** 40n + BigInt(i)); // negative: its int64 bytes
      case 2:
        return 2n ** 64n - 1n - BigInt(i * salt); // above 2^63
      case 3:
        return `u${salt}-${i}`.padEnd(8, '*').slice(0, 8); // 8 bytes of UTF-8
      case 4:
        return `user-${salt}-${i}`;
      default:
        return new Uint8Array([salt & 0xff, i & 0xff, (i >> 8) & 0xff, 1, 2, 3, 4, i % 2 === 0 ? 5 : 6].slice(0, 5 + (i % 4)));
    }
  });
}

/** The 8 little-endian bytes of an int64: the item a number or a bigint is. */
function int64Bytes(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, value, true);
  return bytes;
}

function caughtBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

test("a filter of version 5 (hash ids 6 and 7, keys not mixed) locates items by FORMAT.md's vectors (seed 42, key 42, f = 12)", () => {
  // The golden fixtures of version 5: new filters are version 7, so these are loaded.
  using xor = CuckooFilter.fromBytes(fixture('golden-f12-b4-m1024-seed42-mulshift.cf'));
  using range = CuckooFilter.fromBytes(fixture('golden-f13-b4-m1000-seed42-semisorted-mulshift.cf'));
  // The vector's hash 0xa52ee42abe11b0f9 gives fp 2643 at f = 12; its low 32 bits mod 1024 are
  // i1 = 249; g(2643) = 2643 × 0x9e3779b1 mod 2^32 = 1992121955, whose top 10 bits, 474, are the
  // XOR offset: i2 = 249 XOR 474 = 291. At 1000 buckets FORMAT.md gives i1 742, c 463, i2 721 (f = 12;
  // the semi-sorted fixture has f = 13, so only the hash is compared there).
  expect(locate(xor, 42)).toMatchObject({
    hash: 0xa52ee42abe11b0f9n, fingerprint: 2643, i1: 249, i2: 291,
    fingerprintHash: 1992121955, fingerprintHashMod: 474, hashId: 1,
  });
  expect(locate(range, 42n)).toMatchObject({ hash: 0xa52ee42abe11b0f9n, hashId: 2 });
  expect([xor.params.multiplyShiftHash, range.params.multiplyShiftHash, xor.params.keyedHash]).toEqual([true, true, false]);
  expect([xor.toBytes()[4], xor.toBytes()[6], range.toBytes()[6]]).toEqual([5, 6, 7]);
});

test.each([
  ['power of two, new CuckooFilter', () => new CuckooFilter({ bucketCount: 2 ** 12, bucketSize: 4, fingerprintBits: 12, seed: 1, multiplyShiftHash: true }), 10],
  ['any count, create', () => CuckooFilter.create({ capacity: 5000, fpr: 0.01, seed: 9, multiplyShiftHash: true }), 11],
  ['semi-sorted, power of two', () => new CuckooFilter({ bucketCount: 2 ** 11, bucketSize: 4, fingerprintBits: 13, semiSort: true, multiplyShiftHash: true }), 10],
  ['semi-sorted, any count, create', () => CuckooFilter.create({ capacity: 5000, semiSort: true, multiplyShiftHash: true }), 11],
] as const)('a multiply-shift filter (%s) stores every kind of item and travels as version 7', (_, make, hashId) => {
  using filter = make();
  expect(filter.params).toMatchObject({ keyedHash: false, multiplyShiftHash: true });
  expect(Number.isInteger(Math.log2(filter.params.bucketCount))).toBe(hashId === 10);
  const items = mixedItems(3000, 7);
  const keys = new BigUint64Array(500).map((_, i) => BigInt(i) * 0x9e3779b97f4a7c15n);
  const numbers = new Float64Array(500).map((_, i) => i * 104729);
  expect(filter.addMany(items)).toBe(items.length);
  expect(filter.addMany(keys)).toBe(keys.length);
  expect(filter.addMany(numbers)).toBe(numbers.length);
  // No false negatives, one item at a time and in batches.
  expect(filter.hasMany(items).every((answer) => answer === 1)).toBe(true);
  expect(filter.hasMany(keys).every((answer) => answer === 1)).toBe(true);
  expect(filter.hasMany(numbers).every((answer) => answer === 1)).toBe(true);
  expect(items.every((item) => filter.has(item))).toBe(true);
  // A number, its bigint and its 8 bytes are one item.
  expect([filter.has(BigInt(numbers[3]!)), filter.has(int64Bytes(BigInt(numbers[3]!))), filter.has(int64Bytes(BigInt.asIntN(64, keys[1]!)))]).toEqual([true, true, true]);

  const bytes = filter.toBytes();
  expect([bytes[4], bytes[6]]).toEqual([7, hashId]); // format version 7, hash id 10 or 11
  using copy = CuckooFilter.fromBytes(bytes);
  expect(copy.params).toEqual(filter.params);
  expect(copy.toBytes()).toEqual(bytes);
  const probes = new Float64Array(20000).map((_, i) => 1e12 + i);
  expect(copy.hasMany(probes)).toEqual(filter.hasMany(probes));
  expect(copy.hasMany(items)).toEqual(filter.hasMany(items));
  using clone = copy.clone();
  expect(clone.params.multiplyShiftHash).toBe(true);
  expect(copy.deleteMany(items.slice(0, 1000))).toBe(1000);
  expect(copy.hasMany(items.slice(1000)).every((answer) => answer === 1)).toBe(true);
  expect(copy.deleteMany(keys)).toBe(keys.length);
  expect(copy.size).toBe(filter.size - 1000 - keys.length);
  expect(clone.toBytes()).toEqual(bytes);
});

describe.each([
  ['plain b=4 f=12', { bucketSize: 4, fingerprintBits: 12 }],
  ['semi-sorted f=13', { bucketSize: 4, fingerprintBits: 13, semiSort: true }],
] as const)('the wasm kernel %s with multiplyShiftHash', (name, shape) => {
  test.each([256, 255])('decides as the generic kernel with %i buckets', (bucketCount) => {
    const options: CuckooFilterOptions = { ...shape, bucketCount, seed: 11, maxKicks: 50, multiplyShiftHash: true };
    using own = new CuckooFilter(options);
    using generic = new CuckooFilter(options);
    useGenericKernel(generic);
    expect(kernelName(own)).toBe(`${name}, hash ids ${bucketCount === 256 ? '6, 8 and 10' : '7, 9 and 11'}`);
    const same = <T>(run: (filter: CuckooFilter) => T): void => {
      expect(run(own)).toEqual(run(generic));
      expect(own.toBytes()).toEqual(generic.toBytes());
    };
    const numbers = new Float64Array(bucketCount * 2).map((_, i) => i * 7919);
    const singles = mixedItems(bucketCount * 4, 1);
    same((f) => f.addMany(numbers.subarray(0, bucketCount * 3)));
    same((f) => singles.map((item) => f.add(item)));
    expect(own.full).toBe(true);
    same((f) => [f.hasMany(numbers), f.hasMany(singles), f.hasMany(mixedItems(2000, 2))]);
    same((f) => singles.slice(0, 200).map((item) => [f.has(item), f.count(item)]));
    same((f) => singles.slice(0, 100).map((item) => f.delete(item)));
    same((f) => [f.deleteMany(numbers), f.deleteMany(singles), f.size]);
  });
});

test('an XXH3 and a multiply-shift filter of one seed place the same keys apart (strings of other lengths hash alike)', () => {
  const shape = { bucketCount: 1000, bucketSize: 4, fingerprintBits: 12, seed: 3 } as const;
  using plain = new CuckooFilter(shape);
  using shifted = new CuckooFilter({ ...shape, multiplyShiftHash: true });
  const keys = Array.from({ length: 1000 }, (_, i) => i * 31);
  const placed = (filter: CuckooFilter, item: Item): string => {
    const where = locate(filter, item);
    return `${where.fingerprint}/${where.i1}/${where.i2}`;
  };
  expect(keys.filter((key) => placed(plain, key) === placed(shifted, key)).length).toBeLessThan(3);
  // An item of another length than 8 has XXH3's hash, fingerprint and first bucket; its second
  // bucket comes from the fingerprint's multiplicative offset.
  for (const item of ['alice', 'https://example.com/a/b?c=d', new Uint8Array(3)]) {
    const [a, b] = [locate(plain, item), locate(shifted, item)];
    expect([b.hash, b.fingerprint, b.i1]).toEqual([a.hash, a.fingerprint, a.i1]);
  }
  expect(plain.addMany(keys)).toBe(keys.length);
  expect(shifted.addMany(keys)).toBe(keys.length);
  expect(Buffer.from(plain.toBytes().subarray(64, -8)).equals(Buffer.from(shifted.toBytes().subarray(64, -8)))).toBe(false);
});

test('filters of other hashes do not merge with a multiply-shift filter; two of one seed do', () => {
  using shifted = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 3, multiplyShiftHash: true });
  using plain = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 3 });
  using keyed = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 3, keyedHash: true });
  for (const [into, from] of [[plain, shifted], [shifted, plain], [shifted, keyed], [keyed, shifted]] as const) {
    const caught = caughtBy(() => into.merge(from));
    expect(caught).toBeInstanceOf(CuckooFilterError);
    expect((caught as CuckooFilterError).code).toBe('INCOMPATIBLE');
    expect((caught as Error).message).toMatch(/^CuckooFilter\.merge: the filters cannot be merged: they hash items differently/);
  }
  expect(shifted.size).toBe(0);
  using other = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 3, multiplyShiftHash: true });
  shifted.add(1);
  other.add(2n);
  expect(shifted.merge(other)).toBe(true);
  expect([shifted.has(1), shifted.has(2), shifted.size]).toEqual([true, true, 2]);
});

test('keyedHash and multiplyShiftHash together are refused with a RangeError naming both', () => {
  const message = 'keyedHash and multiplyShiftHash cannot both be true: a filter hashes its items one way, got keyedHash true and multiplyShiftHash true';
  expect(() => CuckooFilter.create({ capacity: 100, keyedHash: true, multiplyShiftHash: true })).toThrow(new RangeError(`CuckooFilter.create: ${message}`));
  expect(() => new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 12, keyedHash: true, multiplyShiftHash: true })).toThrow(
    new RangeError(`new CuckooFilter: ${message}`),
  );
  // Either alone, or one of them false, is a filter of that hash.
  using keyed = CuckooFilter.create({ capacity: 100, keyedHash: true, multiplyShiftHash: false });
  using shifted = CuckooFilter.create({ capacity: 100, keyedHash: false, multiplyShiftHash: true });
  using neither = CuckooFilter.create({ capacity: 100, multiplyShiftHash: undefined });
  expect([keyed.params, shifted.params, neither.params].map((p) => [p.keyedHash, p.multiplyShiftHash])).toEqual([
    [true, false],
    [false, true],
    [false, false],
  ]);
  expect([keyed.toBytes()[4], shifted.toBytes()[4], neither.toBytes()[6]]).toEqual([4, 7, 2]);
});

test.each([['yes'], [1], [null], [0], [{}]])('multiplyShiftHash: %p is a TypeError, as keyedHash is', (value) => {
  for (const make of [
    (options: object) => CuckooFilter.create({ capacity: 10, ...options }),
    (options: object) => new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 12, ...options }),
  ]) {
    const keyed = caughtBy(() => make({ keyedHash: value }));
    const shifted = caughtBy(() => make({ multiplyShiftHash: value }));
    expect(shifted).toBeInstanceOf(TypeError);
    expect((shifted as Error).message).toMatch(/^(CuckooFilter\.create|new CuckooFilter): multiplyShiftHash must be a boolean, got /);
    expect((shifted as Error).message).toBe((keyed as Error).message.replace('keyedHash', 'multiplyShiftHash'));
  }
});
