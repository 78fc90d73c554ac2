// Memory ownership: filters free their wasm memory on dispose(), and a filter
// too large for wasm memory fails cleanly (heap sizes via tests/support/heap).
import { CuckooFilter, init } from 'cuckoo-wasm';
import { expectForgottenObjectsFreed, wasmHeapBytes } from '../support/heap';

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
  const before = wasmHeapBytes();
  for (let i = 0; i < 10_000; i++) cycle();
  expect(wasmHeapBytes()).toBe(before);
});

test('batches of large items do not keep their scratch memory', () => {
  using filter = CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  const big = Array.from({ length: 20 }, (_, i) => `${i}`.repeat(1 << 20)); // 20 MiB+ of text
  filter.addMany(big);
  const after = wasmHeapBytes();
  for (let round = 0; round < 5; round++) {
    filter.hasMany(big);
    filter.deleteMany(big);
    filter.addMany(big);
  }
  expect(wasmHeapBytes()).toBe(after);
});

test('filters that are never disposed are freed after garbage collection (the safety net)', async () => {
  await expectForgottenObjectsFreed(() => {
    new CuckooFilter({ bucketCount: 2 ** 21, bucketSize: 4, fingerprintBits: 32 }).add('forgotten');
  });
});
