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

test('filters that are never disposed are freed after garbage collection (the safety net)', async () => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run Jest with node --expose-gc (npm test does)');
  // Finalizers run in a task after the collection that found the object.
  const settle = async () => {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 10));
  };
  await settle();
  const before = heapBytes();
  // 12 forgotten 32 MiB tables would grow the heap by 384 MiB if never freed;
  // freed ones let the allocator reuse the same memory.
  const forget = () => {
    const filter = new CuckooFilter({ bucketCount: 2 ** 21, bucketSize: 4, fingerprintBits: 32 });
    filter.add('forgotten');
  };
  for (let i = 0; i < 12; i++) {
    forget();
    await settle();
  }
  expect(heapBytes() - before).toBeLessThan(160 * 2 ** 20);
});
