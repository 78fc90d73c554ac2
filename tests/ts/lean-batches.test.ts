// The main entry's lean module serves every filter with the generic kernel
// (bindings/CMakeLists.txt). Its batches read a block's buckets ahead on a
// table of 8 MiB or more (cpp/src/batch_memory.hpp); below that they do not.
// Either way a batch must leave the bytes and give the answers of one call
// per item. This file imports the main entry alone, so the lean module is
// the one loaded.
import { CuckooFilter, init, type CuckooFilterOptions } from 'cuckoo-wasm';
import { expectBatchesAsSingles } from '../support/batches';

beforeAll(() => init());

const SHAPES: ReadonlyArray<[string, CuckooFilterOptions]> = [
  ['plain f=12, 2^21 buckets (12 MiB)', { bucketCount: 2 ** 21, bucketSize: 4, fingerprintBits: 12 }],
  ['plain f=12, 2^21 - 1 buckets', { bucketCount: 2 ** 21 - 1, bucketSize: 4, fingerprintBits: 12 }],
  ['semi-sorted f=13, 2^21 buckets', { bucketCount: 2 ** 21, bucketSize: 4, fingerprintBits: 13, semiSort: true }],
  ['plain b=2 f=16, 2^21 buckets', { bucketCount: 2 ** 21, bucketSize: 2, fingerprintBits: 16 }],
  ['plain f=12, 1024 buckets (6 KiB)', { bucketCount: 1024, bucketSize: 4, fingerprintBits: 12 }],
];

test.each(SHAPES)('batches do what one call per item does: %s', (_, shape) => {
  using batched = new CuckooFilter({ ...shape, seed: 3, maxKicks: 30 });
  using single = new CuckooFilter({ ...shape, seed: 3, maxKicks: 30 });
  const count = Math.min(shape.bucketCount * 5, 100_000);
  const numbers = new Float64Array(count).map((_, i) => i * 2654435761);
  const words = Array.from({ length: Math.min(count, 20_000) }, (_, i) => `lean-${i}`);
  for (const items of [numbers, words]) expectBatchesAsSingles(batched, single, items);
});
