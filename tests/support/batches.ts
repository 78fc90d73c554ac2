// Batches against one call per item: two filters made alike, one taking the
// items as batches and the other one at a time, must answer alike and hold
// the same bytes after the adds and after the deletes.
import type { CuckooFilter, Item } from 'cuckoo-wasm';

// Tables of many MiB: Jest's toEqual walks a typed array element by element.
function expectSameBytes(a: CuckooFilter, b: CuckooFilter): void {
  const [left, right] = [a.toBytes(), b.toBytes()];
  expect(left.length).toBe(right.length);
  expect(Buffer.compare(left, right)).toBe(0);
}

export function expectBatchesAsSingles(batched: CuckooFilter, single: CuckooFilter, items: Float64Array | Item[]): void {
  const added = batched.addMany(items);
  let singles = 0;
  for (const item of items) {
    if (!single.add(item)) break;
    singles++;
  }
  expect(added).toBe(singles);
  expectSameBytes(batched, single);
  expect(Array.from(batched.hasMany(items))).toEqual(Array.from(items as ArrayLike<Item>, (item) => (single.has(item) ? 1 : 0)));
  const erased = batched.deleteMany(items);
  let singleErased = 0;
  for (const item of items) singleErased += single.delete(item) ? 1 : 0;
  expect(erased).toBe(singleErased);
  expectSameBytes(batched, single);
}
