// Memory ownership: filters free their wasm memory on dispose(), and a filter
// too large for wasm memory fails cleanly. Reads the heap size through the
// internal loader, which is the same module instance the public API uses.
import { CuckooFilter, init } from 'cuckoo-wasm';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { requireRuntime } = require('../../dist/cjs/loader.js');

const heapBytes = (): number => requireRuntime('test').module.HEAPU8.byteLength;

beforeAll(() => init());

test('creating and disposing 10,000 filters does not grow the wasm heap', () => {
  // 64 KiB tables: a leak of them all would be 640 MiB.
  const cycle = () => {
    const filter = new CuckooFilter({ bucketCount: 4096, bucketSize: 4, fingerprintBits: 32 });
    filter.add('x');
    using copy = filter.clone();
    using restored = CuckooFilter.fromBytes(filter.toBytes());
    filter.dispose();
  };
  for (let i = 0; i < 100; i++) cycle(); // let the allocator reach its steady state
  const before = heapBytes();
  for (let i = 0; i < 10_000; i++) cycle();
  expect(heapBytes()).toBe(before);
});

test('batches of large items do not keep their scratch memory', () => {
  using filter = CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  const big = Array.from({ length: 20 }, (_, i) => `${i}`.repeat(1 << 20)); // 20 MiB+ of text
  filter.addMany(big);
  const after = heapBytes();
  for (let round = 0; round < 5; round++) {
    filter.hasMany(big);
    filter.deleteMany(big);
    filter.addMany(big);
  }
  expect(heapBytes()).toBe(after);
});

test('a filter too large for wasm memory is a RangeError and the module keeps working', () => {
  // Over the core's 2 GiB table limit: refused before allocating anything.
  expect(() => new CuckooFilter({ bucketCount: 2 ** 29, bucketSize: 8, fingerprintBits: 8 })).toThrow(
    /new CuckooFilter: the table would exceed the maximum table size/,
  );
  // Under the limit, but 1.75 GiB tables exhaust the 4 GiB address space by
  // the third: that allocation fails cleanly while the others keep working.
  const tables: CuckooFilter[] = [];
  let failure: unknown;
  try {
    for (let attempt = 0; attempt < 3 && failure === undefined; attempt++) {
      try {
        tables.push(new CuckooFilter({ bucketCount: 2 ** 27, bucketSize: 8, fingerprintBits: 14 }));
      } catch (error) {
        failure = error;
      }
    }
    expect(failure).toBeInstanceOf(RangeError);
    expect((failure as Error).message).toBe('new CuckooFilter: not enough memory for the table');
    expect(tables.length).toBeGreaterThanOrEqual(1);
    for (const table of tables) {
      expect(table.add('big')).toBe(true);
      expect(table.has('big')).toBe(true);
    }
  } finally {
    for (const table of tables) table.dispose();
  }
  // The freed memory is reusable.
  const again = new CuckooFilter({ bucketCount: 2 ** 27, bucketSize: 8, fingerprintBits: 14 });
  expect(again.add('again')).toBe(true);
  again.dispose();
  using small = CuckooFilter.create({ capacity: 100, fpr: 0.01 });
  expect(small.add('still works')).toBe(true);
  expect(small.has('still works')).toBe(true);
});
