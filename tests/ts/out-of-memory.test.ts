// Exhausting the 4 GiB wasm address space: in its own file (and so its own
// module instance) because it leaves a nearly 4 GiB heap behind.
import { CuckooFilter, init } from 'cuckoo-wasm';

beforeAll(() => init());

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
