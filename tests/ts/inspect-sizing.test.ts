// cuckoo-wasm/inspect's sizing without a table: what sizeFor and
// bloomSizeFor report is what CuckooFilter.create and BloomFilter.create
// make, and the rates they report are the ones those filters report once
// they hold that many items.
import { CuckooFilter, init } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';
import { bloomExpectedFpr, bloomSizeFor, cuckooRates, sizeFor, tableBits } from 'cuckoo-wasm/inspect';

beforeAll(() => init());

const cases = [
  { capacity: 1, fpr: 0.5 },
  { capacity: 1000, fpr: 0.03 },
  { capacity: 12_345, fpr: 0.001 },
  { capacity: 1_000_000, fpr: 0.0001 },
  { capacity: 1_000_000, fpr: 1e-7 },
];

describe('sizeFor', () => {
  test.each(cases)('is CuckooFilter.create’s choice for %p, plain and semi-sorted', ({ capacity, fpr }) => {
    for (const semiSort of [false, true]) {
      using filter = CuckooFilter.create({ capacity, fpr, semiSort, seed: 1 });
      const sized = sizeFor({ capacity, fpr, semiSort });
      const { bucketCount, bucketSize, fingerprintBits } = filter.params;
      expect(sized).toMatchObject({ capacity, fpr, semiSort, bucketCount, bucketSize, fingerprintBits, tableBits: tableBits(filter) });
      expect(sized.bitsPerItem).toBe(tableBits(filter) / capacity);
      expect(sized.loadFactor).toBe(capacity / filter.slotCount);
      expect(sized.fprBound).toBe(filter.fprBound);
    }
  });

  test('its rates at capacity are the filter’s once it holds that many items', () => {
    const capacity = 5000;
    using filter = CuckooFilter.create({ capacity, fpr: 0.01, seed: 3 });
    expect(filter.addMany(Float64Array.from({ length: capacity }, (_, i) => i))).toBe(capacity);
    expect(filter.stashed).toBe(0);
    const sized = sizeFor({ capacity, fpr: 0.01 });
    expect(sized.loadFactor).toBe(filter.loadFactor);
    expect(sized.expectedFpr).toBe(filter.expectedFpr);
    expect(cuckooRates(sized.bucketSize, sized.fingerprintBits, filter.loadFactor)).toEqual({ fprBound: filter.fprBound, expectedFpr: filter.expectedFpr });
  });

  test('sizes a hundred million items without making the table; refuses what create would refuse', () => {
    const sized = sizeFor({ capacity: 100_000_000, fpr: 0.001 });
    expect(sized.bucketCount * sized.bucketSize).toBeGreaterThan(100_000_000);
    expect(sized.tableBits / 8).toBeGreaterThan(150_000_000);
    expect(() => sizeFor({ capacity: 4_000_000_000, fpr: 0.001 })).toThrow(/maximum table size/);
    expect(() => CuckooFilter.create({ capacity: 4_000_000_000, fpr: 0.001 })).toThrow(/maximum table size/);
  });

  test('bad arguments', () => {
    expect(() => sizeFor({ capacity: 0, fpr: 0.1 })).toThrow(RangeError);
    expect(() => sizeFor({ capacity: 1.5, fpr: 0.1 })).toThrow(RangeError);
    expect(() => sizeFor({ capacity: 10, fpr: 1 })).toThrow(/fpr/);
    expect(() => sizeFor({ capacity: 10, fpr: '0.1' as unknown as number })).toThrow(TypeError);
    expect(() => sizeFor({ capacity: 10, fpr: 1e-12 })).toThrow(/fingerprints wider than 32 bits/);
    expect(() => sizeFor({ capacity: 10, fpr: 0.1, semiSort: 1 as unknown as boolean })).toThrow(TypeError);
    expect(() => sizeFor(null as unknown as { capacity: number; fpr: number })).toThrow(TypeError);
    expect(() => cuckooRates(3.5, 6, 0.5)).toThrow(RangeError);
    expect(() => cuckooRates(4, 6, 1.5)).toThrow(RangeError);
    expect(() => cuckooRates(4, 6, Number.NaN)).toThrow(RangeError);
  });
});

describe('bloomSizeFor', () => {
  test.each(cases.slice(1))('is BloomFilter.create’s choice for %p', ({ capacity, fpr }) => {
    using bloom = BloomFilter.create({ capacity, fpr, seed: 1 });
    const sized = bloomSizeFor({ capacity, fpr });
    expect(sized).toMatchObject({ capacity, fpr, bitCount: bloom.bitCount, hashCount: bloom.hashCount, bitsPerItem: bloom.bitCount / capacity });
    bloom.addMany(Float64Array.from({ length: capacity }, (_, i) => i));
    expect(sized.expectedFpr).toBe(bloom.expectedFpr);
    expect(bloomExpectedFpr(bloom.bitCount, bloom.hashCount, capacity)).toBe(bloom.expectedFpr);
  });

  test('bad arguments', () => {
    expect(() => bloomSizeFor({ capacity: 10_000_000_000, fpr: 0.01 })).toThrow(/2\^32 bits/);
    expect(() => bloomSizeFor({ capacity: -1, fpr: 0.01 })).toThrow(RangeError);
    expect(() => bloomExpectedFpr(0, 4, 10)).toThrow(RangeError);
    expect(() => bloomExpectedFpr(100, 33, 10)).toThrow(RangeError);
    expect(() => bloomExpectedFpr(100, 4, -1)).toThrow(RangeError);
  });
});
