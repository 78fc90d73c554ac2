// Semi-sorted filters (semiSort: true) through the package: the contract of
// plain filters, the space and rate they save, and their options.
import { CuckooFilter, init } from 'cuckoo-wasm';

beforeAll(() => init());

describe('semi-sorted filters (semiSort: true)', () => {
  test('behave like plain filters: add, has, count, delete, clone, bytes', () => {
    using filter = new CuckooFilter({ bucketCount: 256, bucketSize: 4, fingerprintBits: 13, seed: 3, semiSort: true });
    expect(filter.params.semiSort).toBe(true);
    const stored: number[] = [];
    for (let i = 0; filter.add(i); i++) stored.push(i);
    expect(filter.full).toBe(true);
    expect(filter.loadFactor).toBeGreaterThan(0.9);
    expect(filter.hasMany(stored).every((a) => a === 1)).toBe(true);
    expect(filter.count(stored[0]!)).toBeGreaterThanOrEqual(1);
    using copy = CuckooFilter.fromBytes(filter.toBytes());
    expect(copy.params.semiSort).toBe(true);
    expect(copy.toBytes()).toEqual(filter.toBytes());
    expect(filter.deleteMany(stored)).toBe(stored.length);
    expect(filter.size).toBe(0);
    // 256 buckets of 4 * 13 - 4 = 48 bits, plus 7 bytes of padding.
    expect(filter.byteLength).toBe((256 * 48) / 8 + 7);
  });

  test('f = 13 semi-sorted takes the space of plain f = 12 and about half its false-positive rate', () => {
    using plain = new CuckooFilter({ bucketCount: 4096, bucketSize: 4, fingerprintBits: 12, seed: 8 });
    using semi = new CuckooFilter({ bucketCount: 4096, bucketSize: 4, fingerprintBits: 13, seed: 8, semiSort: true });
    for (const filter of [plain, semi]) for (let i = 0; filter.add(i); i++);
    expect(semi.bitsPerItem / plain.bitsPerItem).toBeCloseTo(1, 1);
    // 1M negatives: ~1,850 and ~930 expected false positives, so the ratio is
    // known to about +-0.02; [0.40, 0.60] is 5 standard deviations wide.
    const negatives = new Float64Array(1_000_000).map((_, i) => 2 ** 40 + i);
    const count = (answers: Uint8Array) => answers.reduce((sum, a) => sum + a, 0);
    const ratio = count(semi.hasMany(negatives)) / count(plain.hasMany(negatives));
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(0.6);
  });

  test("create picks b = 4 and the rate's f at any rate, and sizes exactly", () => {
    // 1e6 / (4 * 0.945) = 264550.3: 264,551 buckets, as for the plain filter (sizing.hpp).
    using filter = CuckooFilter.create({ capacity: 1_000_000, fpr: 0.001, semiSort: true });
    expect(filter.params).toMatchObject({ bucketCount: 264551, bucketSize: 4, fingerprintBits: 13, semiSort: true });
    // 13 bits stored as 12: 12 / 0.945 = 12.70 bits per item at capacity.
    expect((filter.byteLength * 8) / 1_000_000).toBeCloseTo(12.7, 1);
    // f = the smallest with 8 / 2^f <= fpr (at least 5).
    for (const [fpr, bits] of [[0.01, 10], [0.000001, 23], [0.5, 5]] as const) {
      using sized = CuckooFilter.create({ capacity: 1000, fpr, semiSort: true });
      expect(sized.params).toMatchObject({ bucketSize: 4, fingerprintBits: bits, semiSort: true });
    }
  });

  test.each([
    [{ bucketSize: 2 }, RangeError, /semiSort needs bucketSize 4 and fingerprintBits from 5 to 32, got bucketSize 2/],
    [{ fingerprintBits: 4 }, RangeError, /semiSort needs bucketSize 4 and fingerprintBits from 5 to 32/],
    [{ semiSort: 'yes' }, TypeError, /new CuckooFilter: semiSort must be a boolean, got "yes"/],
    [{ semiSort: 1 }, TypeError, /semiSort must be a boolean/],
  ])('bad options %p', (override, errorType, pattern) => {
    const options = { bucketCount: 64, bucketSize: 4, fingerprintBits: 12, semiSort: true, ...override };
    expect(() => new CuckooFilter(options as never)).toThrow(errorType);
    expect(() => new CuckooFilter(options as never)).toThrow(pattern);
  });
});
