// The size limits of the wasm build (README, "Limits"): a table may take up to
// 2 GiB, and every table, temporary copy and the glue share 4 GiB of memory.
// Builds a 1 GiB filter and the largest table the limit allows, and checks the
// boundary is refused before anything is allocated. In its own file, and so
// its own module instance, because it leaves a multi-GiB heap behind.
import { totalmem } from 'node:os';
import { CuckooFilter, init } from 'cuckoo-wasm';
import { wasmHeapBytes } from '../support/heap';

const GiB = 2 ** 30;
const enoughMemory = totalmem() >= 8 * GiB;
const whenEnoughMemory = enoughMemory ? test : test.skip;
const skipNote = enoughMemory ? '' : ` (SKIPPED: this machine has ${(totalmem() / GiB).toFixed(1)} GiB of RAM, the test needs 8 GiB)`;

beforeAll(() => init());

whenEnoughMemory(`a 1 GiB filter holds and finds a million items spread over the whole table${skipNote}`, () => {
  // 2^27 buckets of 8 slots of 8 bits: one bucket is one 64-bit word.
  const filter = new CuckooFilter({ bucketCount: 2 ** 27, bucketSize: 8, fingerprintBits: 8, seed: 11 });
  try {
    expect(filter.byteLength).toBe(GiB + 7);
    const count = 1_000_000;
    const members = Float64Array.from({ length: count }, (_, i) => i * 2654435761);
    const strangers = Float64Array.from({ length: count }, (_, i) => -1 - i * 2654435761);
    expect(filter.addMany(members)).toBe(count);
    const words = Array.from({ length: 100_000 }, (_, i) => `large-${i}`);
    expect(filter.addMany(words)).toBe(words.length);
    expect(filter.size).toBe(count + words.length);
    expect(filter.hasMany(members).every((answer) => answer === 1)).toBe(true);
    expect(filter.hasMany(words).every((answer) => answer === 1)).toBe(true);
    // The expected false-positive rate at this load is about 6e-5: ~60 of a million.
    const falsePositives = filter.hasMany(strangers).reduce((sum, answer) => sum + answer, 0);
    expect(falsePositives).toBeLessThan(3 * filter.expectedFpr * count + 20);

    // Items land all over the table: every 1/64 of it holds close to 1/64 of them.
    const bytes = filter.toBytes();
    expect(bytes.length).toBe(GiB + 64);
    const buckets = new BigUint64Array(bytes.buffer, bytes.byteOffset + 56, 2 ** 27);
    const regions = 64;
    const perRegion = buckets.length / regions;
    const expectedPerRegion = (count + words.length) / regions;
    for (let region = 0; region < regions; region++) {
      let usedBuckets = 0;
      for (let i = region * perRegion; i < (region + 1) * perRegion; i++) if (buckets[i] !== 0n) usedBuckets++;
      expect([region, Math.abs(usedBuckets - expectedPerRegion) < 0.1 * expectedPerRegion]).toEqual([region, true]);
    }

    expect(filter.deleteMany(members.subarray(0, count / 2))).toBe(count / 2);
    expect(filter.hasMany(members.subarray(count / 2)).every((answer) => answer === 1)).toBe(true);
    filter.dispose();

    // The 1 GiB file loads back: the input copy and the new table fit beside each other.
    using copy = CuckooFilter.fromBytes(bytes);
    expect(copy.size).toBe(count + words.length);
    expect(copy.hasMany(members.subarray(0, 1000)).every((answer) => answer === 1)).toBe(true);
  } finally {
    filter.dispose();
  }
});

whenEnoughMemory(`the limit is exact: the largest table (1.94 GiB) is built, one bit per slot more is refused unallocated${skipNote}`, () => {
  // 2^26 * 8 slots * 31 bits = 2^31 - 2^26 bytes; with 32 bits the table would
  // be 2^31 bytes plus its 7 bytes of padding, just over the 2 GiB limit.
  const before = wasmHeapBytes();
  expect(() => new CuckooFilter({ bucketCount: 2 ** 26, bucketSize: 8, fingerprintBits: 32 })).toThrow(
    new RangeError('new CuckooFilter: the table would exceed the maximum table size (2 GiB for a cuckoo filter in WebAssembly, 1 TiB natively; 2^32 bits for a Bloom filter): ask for a smaller capacity or shape'),
  );
  expect(() => new CuckooFilter({ bucketCount: 2 ** 28, bucketSize: 2, fingerprintBits: 32 })).toThrow(RangeError);
  expect(wasmHeapBytes()).toBe(before);

  using largest = new CuckooFilter({ bucketCount: 2 ** 26, bucketSize: 8, fingerprintBits: 31 });
  expect(largest.byteLength).toBe(2 ** 31 - 2 ** 26 + 7);
  const items = Float64Array.from({ length: 100_000 }, (_, i) => i * 7919);
  expect(largest.addMany(items)).toBe(items.length);
  expect(largest.hasMany(items).every((answer) => answer === 1)).toBe(true);
});

whenEnoughMemory(`create() sizes up to the limit and refuses one item more before allocating${skipNote}`, () => {
  // fpr 0.001: b = 4, f = 13. The largest table within 2 GiB has
  // m = floor((2^31 - 7) * 8 / 52) = 330,382,098 buckets (2^31 - 4 bytes with
  // padding). Its 1,321,528,392 slots lie between the sizing knots 2^30 (load
  // 0.935) and 2^32 (0.93) of sizing.cpp: 0.9325 at 2^31, so 0.935 - 0.0025 *
  // (1321528392 - 2^30) / 2^30 = 0.934423 and floor(slots * load) = 1,234,866,626.
  const before = wasmHeapBytes();
  expect(() => CuckooFilter.create({ capacity: 1_234_866_627, fpr: 0.001 })).toThrow(
    new RangeError('CuckooFilter.create: the table would exceed the maximum table size (2 GiB for a cuckoo filter in WebAssembly, 1 TiB natively; 2^32 bits for a Bloom filter): ask for a smaller capacity or shape'),
  );
  expect(wasmHeapBytes()).toBe(before);
  using largest = CuckooFilter.create({ capacity: 1_234_866_626, fpr: 0.001 });
  expect(largest.params).toMatchObject({ bucketCount: 330_382_098, bucketSize: 4, fingerprintBits: 13 });
  expect(largest.byteLength).toBe(2 ** 31 - 4);
  expect(largest.add('fits')).toBe(true);
  expect(largest.has('fits')).toBe(true);
});
