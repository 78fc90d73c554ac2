// Writes the seed corpora of the fuzz targets into tests/fuzz/corpus/ from the
// built package (bytes are identical native and wasm). Run after a build:
//   node tests/fuzz/make_corpus.mjs
// Crash reproducers saved beside the seeds are left alone.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CuckooFilter, init } from '../../dist/esm/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, 'corpus');
await init();

function filled(options, count) {
  const filter = new CuckooFilter(options);
  for (let i = 0; i < count && filter.add(`seed-${i}`); i++);
  const bytes = filter.toBytes();
  filter.dispose();
  return bytes;
}

const filters = {
  'empty-f12-b4-m16': filled({ bucketCount: 16, bucketSize: 4, fingerprintBits: 12 }, 0),
  'one-item-f32-b1-m1': filled({ bucketCount: 1, bucketSize: 1, fingerprintBits: 32 }, 1),
  'full-with-stash-f9-b2-m4': filled({ bucketCount: 4, bucketSize: 2, fingerprintBits: 9, seed: 3 }, Infinity),
  'full-f2-b8-m8': filled({ bucketCount: 8, bucketSize: 8, fingerprintBits: 2 }, Infinity),
  'half-f7-b2-m64-kicks0-maxseed': filled(
    { bucketCount: 64, bucketSize: 2, fingerprintBits: 7, maxKicks: 0, seed: 2n ** 64n - 1n },
    64,
  ),
  'byte-aligned-f16-b8-m1': filled({ bucketCount: 1, bucketSize: 8, fingerprintBits: 16 }, 5),
  'f31-b4-m32': filled({ bucketCount: 32, bucketSize: 4, fingerprintBits: 31, maxKicks: 7, seed: 99 }, 100),
  'semisorted-full-f5-b4-m8': filled({ bucketCount: 8, bucketSize: 4, fingerprintBits: 5, semiSort: true }, Infinity),
  'semisorted-f13-b4-m64': filled({ bucketCount: 64, bucketSize: 4, fingerprintBits: 13, semiSort: true, seed: 4 }, 200),
  'semisorted-f32-b4-m4': filled({ bucketCount: 4, bucketSize: 4, fingerprintBits: 32, semiSort: true, maxKicks: 3 }, 10),
  // Format version 2: bucket counts that are not powers of two (hash id 2).
  'any-count-f12-b4-m12': filled({ bucketCount: 12, bucketSize: 4, fingerprintBits: 12, seed: 5 }, 30),
  'any-count-full-with-stash-f7-b2-m3': filled({ bucketCount: 3, bucketSize: 2, fingerprintBits: 7 }, Infinity),
  'any-count-semisorted-f10-b4-m7': filled({ bucketCount: 7, bucketSize: 4, fingerprintBits: 10, semiSort: true }, 20),
  'any-count-f32-b8-m33': filled({ bucketCount: 33, bucketSize: 8, fingerprintBits: 32, seed: 2n ** 64n - 1n }, 200),
};
const fixtures = [
  'golden-f12-b4-m1024-seed42.cf',
  'golden-f13-b4-m1024-seed42-semisorted.cf',
  'golden-f12-b4-m1000-seed42.cf',
  'golden-f13-b4-m1000-seed42-semisorted.cf',
];
for (const target of ['fuzz_deserialize', 'fuzz_deserialize_checksummed']) {
  const folder = join(corpus, target);
  mkdirSync(folder, { recursive: true });
  for (const [name, bytes] of Object.entries(filters)) writeFileSync(join(folder, `${name}.cf`), bytes);
  for (const fixture of fixtures) copyFileSync(join(here, '..', 'fixtures', fixture), join(folder, fixture));
}

// fuzz_operations reads 13 parameter bytes, then (operation, key) pairs; see fuzz_operations.cpp.
const Operation = { insert: 0, insertAgain: 1, erasePresent: 2, eraseAbsent: 3, contains: 4, count: 5, insertUnique: 6, clear: 7, roundTrip: 8, clone: 9 };
const SEMI_SORTED = 0xc0; // in the bucket-size byte: semi-sorted, b = 4
function program(f, log2b, log2m, kicks, seed, universe, steps) {
  const seedBytes = Array.from({ length: 8 }, (_, i) => Number((BigInt(seed) >> BigInt(8 * i)) & 0xffn));
  return new Uint8Array([f - 2, log2b, log2m, kicks, ...seedBytes, universe - 1, ...steps.flat()]);
}
const range = (n, step) => Array.from({ length: n }, (_, i) => step(i));
const programs = {
  'inserts-then-erases-f12-b4-m16': program(12, 2, 4, 255, 42, 64, [
    ...range(40, (i) => [Operation.insert, i]),
    ...range(40, (i) => [Operation.erasePresent, i]),
  ]),
  'fill-to-stash-f8-b1-m1-kicks0': program(8, 0, 0, 0, 1, 8, [
    ...range(4, (i) => [Operation.insert, i]),
    [Operation.insertUnique, 5],
    [Operation.erasePresent, 0],
    [Operation.insert, 6],
  ]),
  'duplicates-f4-b2-m4': program(4, 1, 2, 3, 7, 4, [
    ...range(12, () => [Operation.insertAgain, 1]),
    [Operation.count, 1],
    [Operation.roundTrip, 0],
    ...range(6, () => [Operation.erasePresent, 1]),
  ]),
  'every-operation-f32-b8-m64': program(32, 3, 6, 10, 2n ** 63n, 64, [
    ...range(10, (op) => [op, op * 3]),
    ...range(10, (op) => [op, op * 5 + 1]),
  ]),
  'semisorted-f9-b4-m8': program(9, SEMI_SORTED, 3, 255, 11, 48, [
    ...range(40, (i) => [Operation.insert, i]),
    [Operation.roundTrip, 0],
    ...range(10, (i) => [Operation.insertAgain, i]),
    ...range(30, (i) => [Operation.erasePresent, i]),
  ]),
  // A count byte of 128 or more is m = 1 + (x - 128) % 96: here 12 and 5 buckets (hash id 2).
  'any-count-f10-b4-m12': program(10, 2, 128 + 11, 255, 5, 60, [
    ...range(48, (i) => [Operation.insert, i]),
    [Operation.roundTrip, 0],
    ...range(20, (i) => [Operation.erasePresent, i]),
    [Operation.clone, 0],
  ]),
  'any-count-semisorted-f6-b4-m5': program(6, SEMI_SORTED, 128 + 4, 20, 9, 30, [
    ...range(25, (i) => [Operation.insert, i]),
    ...range(25, (i) => [Operation.contains, i]),
    [Operation.roundTrip, 0],
    ...range(25, (i) => [Operation.erasePresent, i]),
  ]),
  'clear-and-clone-f2-b4-m2': program(2, 2, 1, 17, 3, 16, [
    ...range(9, (i) => [Operation.insert, i]),
    [Operation.clone, 0],
    [Operation.eraseAbsent, 12],
    [Operation.clear, 0],
    [Operation.insert, 1],
  ]),
};
mkdirSync(join(corpus, 'fuzz_operations'), { recursive: true });
for (const [name, bytes] of Object.entries(programs)) writeFileSync(join(corpus, 'fuzz_operations', name), bytes);

// fuzz_batches reads 7 parameter bytes, then 5-byte batch operations; see fuzz_batches.cpp.
const Shape = { b4f8: 0, b4f12: 1, b4f16: 2, b4: 3, b2: 4, semiSorted13: 5, semiSorted16: 6, b1: 7, b8: 8, semiSorted: 9 };
const Kind = { insertMany: 0, containsMany: 1, eraseMany: 2 };
const Layout = { eightBytes: 0, otherWidth: 1, packed: 2 };
const GENERIC_BATCHES = 1; // in the kernels byte
const GENERIC_SINGLE = 2;
// `fByte` is f - 2 for a plain shape whose width is free, f - 5 for a semi-sorted one.
function batches(shape, fByte, countByte, kicks, seed, kernels, universe, operations) {
  const encoded = operations.map(([kind, layout, n, first, step, width = 0]) => [kind + 3 * layout, n, first, step, width]);
  return new Uint8Array([shape, fByte, countByte, kicks, seed, kernels, universe - 1, ...encoded.flat()]);
}
// Batches of sizes on both sides of the 16-item block, to a refusal and back.
const acrossBlocks = (layout, width) => [
  [Kind.insertMany, layout, 100, 0, 1, width],
  [Kind.containsMany, layout, 17, 0, 1, width],
  [Kind.insertMany, layout, 255, 100, 1, width],
  [Kind.containsMany, layout, 255, 0, 1, width],
  [Kind.eraseMany, layout, 16, 0, 2, width],
  [Kind.eraseMany, layout, 15, 1, 2, width],
  [Kind.insertMany, layout, 33, 7, 5, width],
  [Kind.insertMany, layout, 1, 3, 0, width],
  [Kind.insertMany, layout, 0, 0, 0, width],
  [Kind.eraseMany, layout, 200, 0, 1, width],
];
const batchPrograms = {
  'plain-b4-f12-m16-packed': batches(Shape.b4f12, 0, 4, 255, 1, 0, 256, acrossBlocks(Layout.packed)),
  'plain-b4-f8-m64-every-length': batches(Shape.b4f8, 0, 6, 255, 2, 0, 16, [
    [Kind.insertMany, Layout.packed, 16, 0, 1],
    [Kind.containsMany, Layout.packed, 32, 0, 1],
    [Kind.eraseMany, Layout.packed, 16, 0, 3],
  ]),
  'plain-b4-f16-m32-eight-bytes': batches(Shape.b4f16, 0, 5, 255, 3, GENERIC_SINGLE, 256, acrossBlocks(Layout.eightBytes)),
  // A count byte of 128 or more is m = 1 + (x - 128) % 96: here 12, 3, 20, 5 buckets (hash id 2).
  'plain-b4-f10-m12-width12': batches(Shape.b4, 8, 128 + 11, 255, 4, 0, 200, acrossBlocks(Layout.otherWidth, 12)),
  'plain-b2-f7-m3-generic-batches': batches(Shape.b2, 5, 128 + 2, 20, 5, GENERIC_BATCHES, 64, acrossBlocks(Layout.packed)),
  'semisorted-f13-m20': batches(Shape.semiSorted13, 0, 128 + 19, 255, 6, 0, 256, acrossBlocks(Layout.eightBytes)),
  'semisorted-f16-m8-width3': batches(Shape.semiSorted16, 0, 3, 30, 7, GENERIC_SINGLE, 128, acrossBlocks(Layout.otherWidth, 3)),
  'generic-b8-f5-m5': batches(Shape.b8, 3, 128 + 4, 255, 8, 0, 256, acrossBlocks(Layout.packed)),
  'generic-b1-f16-m1-kicks0': batches(Shape.b1, 14, 0, 0, 9, GENERIC_BATCHES | GENERIC_SINGLE, 8, [
    [Kind.insertMany, Layout.eightBytes, 3, 0, 1],
    [Kind.eraseMany, Layout.eightBytes, 1, 0, 1],
    [Kind.containsMany, Layout.eightBytes, 8, 0, 1],
  ]),
  'generic-semisorted-f9-m16-width0': batches(Shape.semiSorted, 4, 4, 255, 10, 0, 100, acrossBlocks(Layout.otherWidth, 0)),
};
mkdirSync(join(corpus, 'fuzz_batches'), { recursive: true });
for (const [name, bytes] of Object.entries(batchPrograms)) writeFileSync(join(corpus, 'fuzz_batches', name), bytes);
const programCount = Object.keys(programs).length + Object.keys(batchPrograms).length;
console.log(`wrote ${Object.keys(filters).length + fixtures.length} filters and ${programCount} programs into ${corpus}`);
