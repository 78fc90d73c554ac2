// The kernels in WebAssembly: every filter runs the code compiled for its
// shape, which must decide exactly as the generic kernel does. Two twins take
// the same operations, one switched to the generic kernel; every answer and
// the bytes at each step must be the same.
import { CuckooFilter, init, type CuckooFilterOptions } from 'cuckoo-wasm';
import { kernelName, useGenericKernel } from 'cuckoo-wasm/inspect';
import { expectBatchesAsSingles } from '../support/batches';

beforeAll(() => init());

// The shapes WebAssembly carries a kernel for (bindings' kernels.cpp), each
// with a power-of-two bucket count (hash id 1) and another (hash id 2).
const SPECIALISED: ReadonlyArray<[string, Omit<CuckooFilterOptions, 'bucketCount'>]> = [
  ['plain b=4 f=12', { bucketSize: 4, fingerprintBits: 12 }],
  ['plain b=4', { bucketSize: 4, fingerprintBits: 10 }],
  ['plain b=4', { bucketSize: 4, fingerprintBits: 17 }],
  ['semi-sorted f=13', { bucketSize: 4, fingerprintBits: 13, semiSort: true }],
];
const BUCKET_COUNTS = [256, 255];

/** Strings of lengths 0 to 40, numbers and bigints: every hash path of both kernels. */
function mixedItems(count: number, salt: number): Array<string | number | bigint | Uint8Array> {
  return Array.from({ length: count }, (_, i) => {
    switch (i % 4) {
      case 0:
        return `k${salt}-${i}`.padEnd(i % 41, '*');
      case 1:
        return salt * 1_000_003 + i;
      case 2:
        return BigInt(salt) * 2n ** 40n + BigInt(i);
      default:
        return new Uint8Array([salt & 0xff, i & 0xff, (i >> 8) & 0xff]);
    }
  });
}

function twins(options: CuckooFilterOptions): [CuckooFilter, CuckooFilter] {
  const own = new CuckooFilter(options);
  const generic = new CuckooFilter(options);
  useGenericKernel(generic);
  return [own, generic];
}

describe.each(SPECIALISED)('kernel %s', (name, shape) => {
  test.each(BUCKET_COUNTS)('decides as the generic kernel with %i buckets', (bucketCount) => {
    const [own, generic] = twins({ ...shape, bucketCount, seed: 11, maxKicks: 50 });
    try {
      const layout = bucketCount === 256 ? 'hash id 1' : 'hash id 2';
      expect(kernelName(own)).toBe(`${name}, ${layout}`);
      expect(kernelName(generic)).toBe('generic');
      const same = <T>(run: (filter: CuckooFilter) => T): T => {
        const expected = run(generic);
        expect(run(own)).toEqual(expected);
        expect(own.toBytes()).toEqual(generic.toBytes());
        return expected;
      };

      // Integers in batches, then mixed items one by one, until the stash fills.
      const numbers = new Float64Array(bucketCount * 2).map((_, i) => i * 7919);
      const added = same((f) => f.addMany(numbers.subarray(0, bucketCount * 3)));
      const singles = mixedItems(bucketCount * 4, 1);
      same((f) => singles.map((item) => f.add(item)));
      expect(own.full).toBe(true);
      same((f) => [f.hasMany(numbers), f.hasMany(singles), f.hasMany(mixedItems(2000, 2))]);
      same((f) => singles.slice(0, 200).map((item) => [f.has(item), f.count(item), f.addUnique(item)]));
      // Deleting while the stash is occupied walks the stashed fingerprint back in.
      same((f) => singles.slice(0, 100).map((item) => f.delete(item)));
      same((f) => f.deleteMany(numbers.subarray(0, added >> 1)));
      same((f) => f.addMany(mixedItems(bucketCount, 3)));
      same((f) => [f.deleteMany(singles), f.size]);
    } finally {
      own.dispose();
      generic.dispose();
    }
  });
});

describe.each(SPECIALISED)('WebAssembly batches of kernel %s', (_, shape) => {
  // The wasm kernels take their own batch path (8-byte items go the general
  // way, and on a table of 8 MiB or more a block's buckets are read before
  // they are probed: 2^21 buckets, with and without hash id 1): each batch
  // must leave the bytes one call per item leaves.
  test.each([...BUCKET_COUNTS, 2 ** 21, 2 ** 21 - 1])('do what one call per item does, with %i buckets', (bucketCount) => {
    using batched = new CuckooFilter({ ...shape, bucketCount, seed: 5, maxKicks: 20 });
    using single = new CuckooFilter({ ...shape, bucketCount, seed: 5, maxKicks: 20 });
    expect(kernelName(batched)).not.toBe('generic');
    const numbers = new Float64Array(Math.min(bucketCount * 5, 100_000)).map((_, i) => i * 104729);
    const mixed = mixedItems(Math.min(bucketCount * 2, 20_000), 9);
    for (const items of [numbers, mixed]) expectBatchesAsSingles(batched, single, items);
  });
});

test('other shapes are served by the generic kernel, and switching is per filter', () => {
  using wide = new CuckooFilter({ bucketCount: 64, bucketSize: 8, fingerprintBits: 12 });
  using two = new CuckooFilter({ bucketCount: 64, bucketSize: 2, fingerprintBits: 12 });
  using semi = new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 14, semiSort: true });
  for (const filter of [wide, two, semi]) expect(kernelName(filter)).toBe('generic');
  using own = new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 12 });
  using clone = own.clone();
  useGenericKernel(own);
  expect(kernelName(own)).toBe('generic');
  expect(kernelName(clone)).toBe('plain b=4 f=12, hash id 1');
  using loaded = CuckooFilter.fromBytes(own.toBytes());
  expect(kernelName(loaded)).toBe('plain b=4 f=12, hash id 1');
});
