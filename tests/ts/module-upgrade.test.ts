// A filter made through one entry works with every other: a program that
// imports cuckoo-wasm/inspect only after init() loaded the lean module gets
// the full module from its next init(), and every live filter moves into it
// with its contents. (Jest gives each test file its own module registry: here
// only the main entry is imported at first.)
import { CuckooFilter, CuckooFilterError, init, ScalableCuckooFilter } from 'cuckoo-wasm';

test('filters made in the lean module move to the full one, contents and all, when cuckoo-wasm/inspect arrives later', async () => {
  await init();
  const filter = new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 8, seed: 3 });
  let added = 0;
  while (filter.add(added)) added++; // an add refused: the stash is occupied
  const scalable = ScalableCuckooFilter.create({ initialCapacity: 10, fpr: 0.01, seed: 4 });
  scalable.addMany(['a', 'b', 'c', ...Array.from({ length: 500 }, (_, i) => `k${i}`)]);
  const disposed = CuckooFilter.create({ capacity: 10, fpr: 0.01 });
  disposed.dispose();
  const bytesBefore = [filter.toBytes(), scalable.toBytes()];

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const inspect = require('cuckoo-wasm/inspect') as typeof import('cuckoo-wasm/inspect');
  let caught: unknown;
  try {
    inspect.buckets(filter);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CuckooFilterError);
  expect((caught as CuckooFilterError).code).toBe('NOT_INITIALIZED');
  expect((caught as Error).message).toMatch(/^inspect\.buckets: this entry needs the full module.*call `await init\(\)` again/);
  // The lean module still serves everything it did.
  expect(filter.has(0)).toBe(true);

  await init();
  expect(inspect.kernelName(filter)).toMatch(/^plain b=4/);
  expect(Buffer.from(filter.toBytes())).toEqual(Buffer.from(bytesBefore[0]!));
  expect(Buffer.from(scalable.toBytes())).toEqual(Buffer.from(bytesBefore[1]!));
  expect(filter.stashed).toBe(1);
  expect(inspect.stash(filter).occupied).toBe(true);
  expect(filter.hasMany(new Uint32Array(added).map((_, i) => i)).every((answer) => answer === 1)).toBe(true);
  expect(scalable.has('b') && scalable.has('k499')).toBe(true);
  expect(inspect.scalableShape(scalable).bucketCount).toBe(scalable.bucketCount);
  // They keep working in the full module: a delete makes room, the stash moves back.
  expect(inspect.traceDelete(filter, 0).deleted).toBe(true);
  expect(filter.stashed).toBe(0);
  expect(disposed.disposed).toBe(true);
  expect(() => disposed.has('x')).toThrow(/disposed/);
  filter.dispose();
  scalable.dispose();
});
