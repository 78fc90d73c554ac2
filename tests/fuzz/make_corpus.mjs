// Writes the seed corpora of the fuzz targets into tests/fuzz/corpus/ from the
// built package (bytes are identical native and wasm). Run after a build:
//   node tests/fuzz/make_corpus.mjs
// Crash reproducers saved beside the seeds are left alone.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CuckooFilter, ScalableCuckooFilter, init } from '../../dist/esm/index.node.mjs';
import { locate, scalableBuckets } from '../../dist/esm/inspect.node.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, 'corpus');
await init();

// (A seed unless one is given: without one a filter's seed is random, and
// the corpus must be the same on every run.)
function filled(options, count) {
  const filter = new CuckooFilter({ seed: 0, ...options });
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
  // Format version 4: keyed filters (hash id 4 for a power of two, 5 for any other count, down to one bucket).
  'keyed-f12-b4-m16': filled({ bucketCount: 16, bucketSize: 4, fingerprintBits: 12, keyedHash: true, seed: 6 }, 40),
  'keyed-full-with-stash-f6-b2-m1': filled({ bucketCount: 1, bucketSize: 2, fingerprintBits: 6, keyedHash: true }, Infinity),
  'keyed-semisorted-f9-b4-m5': filled(
    { bucketCount: 5, bucketSize: 4, fingerprintBits: 9, semiSort: true, keyedHash: true, seed: 7 },
    15,
  ),
};
const fixtures = [
  'golden-f12-b4-m1024-seed42.cf',
  'golden-f13-b4-m1024-seed42-semisorted.cf',
  'golden-f12-b4-m1000-seed42.cf',
  'golden-f13-b4-m1000-seed42-semisorted.cf',
  'golden-f12-b4-m1024-seed42-keyed.cf',
  'golden-f13-b4-m1000-seed42-semisorted-keyed.cf',
  'golden-f12-b4-m1024-seed42-mulshift.cf',
  'golden-f13-b4-m1000-seed42-semisorted-mulshift.cf',
  'golden-f12-b4-m1024-seed42-mulshift-mixed.cf',
  'golden-f13-b4-m1000-seed42-semisorted-mulshift-mixed.cf',
  'golden-f12-b4-m1024-seed42-mix64.cf',
  'golden-f13-b4-m1000-seed42-semisorted-mix64.cf',
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

// Growable filters (format version 3) for fuzz_scalable_deserialize.
function grown(options, count, item = (i) => `seed-${i}`) {
  const filter = ScalableCuckooFilter.create({ seed: 0, ...options });
  for (let i = 0; i < count; i++) if (!filter.add(item(i))) throw new Error(`add ${i} refused`);
  return filter;
}
function bytesOf(filter) {
  const bytes = filter.toBytes();
  filter.dispose();
  return bytes;
}
// XXH3-64 with seed 0, as the format's checksum: the item hash of a filter
// seeded 0 (inspect's locate reports it).
const hasher = new CuckooFilter({ bucketCount: 1, bucketSize: 1, fingerprintBits: 8, seed: 0 });
function resealed(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setBigUint64(bytes.length - 8, locate(hasher, bytes.subarray(0, bytes.length - 8)).hash, true);
  return bytes;
}
// Stash records (FORMAT.md: 16 of 12 bytes from offset 88, the count at 11)
// are written only while a table cannot grow, which no seed reaches: here
// copies of entries in the table, counted as items and entries, as a
// filter that added them again would hold them.
function withStash(options, count, item, records) {
  const filter = grown(options, count, item);
  const { slots } = scalableBuckets(filter);
  const bytes = filter.toBytes();
  filter.dispose();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let written = 0;
  for (let slot = 0; slot < slots.length && written < records; slot++) {
    if (slots[slot] === 0) continue;
    view.setUint32(88 + 12 * written, slots[slot], true);
    view.setBigUint64(92 + 12 * written, BigInt(Math.floor(slot / 4)), true);
    written++;
  }
  bytes[11] = written;
  view.setBigUint64(32, view.getBigUint64(32, true) + BigInt(written), true);
  view.setBigUint64(40, view.getBigUint64(40, true) + BigInt(written), true);
  return resealed(bytes);
}
const scalableFilters = {
  'scalable-empty-cap1-fpr0.5': bytesOf(grown({ initialCapacity: 1, fpr: 0.5 }, 0)),
  'scalable-grown-cap10-fpr0.01': bytesOf(grown({ initialCapacity: 10, fpr: 0.01, seed: 3 }, 200)),
  'scalable-semisorted-grown-cap5-fpr0.001': bytesOf(
    grown({ initialCapacity: 5, fpr: 0.001, semiSort: true, seed: 7 }, 150),
  ),
  'scalable-w32-doubling-cap20-fpr1e-7': bytesOf(grown({ initialCapacity: 20, fpr: 1e-7, growth: 2 }, 60)),
  'scalable-growth1.01-kicks3-cap64-maxseed': bytesOf(
    grown({ initialCapacity: 64, fpr: 0.1, growth: 1.01, maxKicks: 3, seed: 2n ** 64n - 1n }, 300),
  ),
  'scalable-eight-copies-cap20': bytesOf(grown({ initialCapacity: 20, fpr: 0.01 }, 8, () => 'x')),
  'scalable-stash-two-records-cap10': withStash({ initialCapacity: 10, fpr: 0.01, seed: 3 }, 100, undefined, 2),
  'scalable-stash-semisorted-cap5': withStash({ initialCapacity: 5, fpr: 0.001, semiSort: true }, 40, undefined, 3),
  // A ninth copy of 'x' in the stash: it never fits, so adds are refused.
  'scalable-stash-ninth-copy-cap20': withStash({ initialCapacity: 20, fpr: 0.01 }, 8, () => 'x', 1),
};
const scalableFixtures = ['golden-scalable-cap100-fpr0.01-seed42.cf'];
for (const target of ['fuzz_scalable_deserialize', 'fuzz_scalable_deserialize_checksummed']) {
  const folder = join(corpus, target);
  mkdirSync(folder, { recursive: true });
  for (const [name, bytes] of Object.entries(scalableFilters)) writeFileSync(join(folder, `${name}.cf`), bytes);
  for (const fixture of scalableFixtures) copyFileSync(join(here, '..', 'fixtures', fixture), join(folder, fixture));
}
hasher.dispose();

// fuzz_scalable_operations reads 14 parameter bytes, then (operation, key)
// pairs, the operation byte carrying a size for batches and merges; see
// fuzz_scalable_operations.cpp.
const ScalableOperation = {
  insert: 0, insertAgain: 1, erasePresent: 2, eraseAbsent: 3, contains: 4, count: 5, insertUnique: 6,
  insertMany: 7, containsMany: 8, eraseMany: 9, clear: 10, roundTrip: 11, clone: 12, merge: 13,
};
const SCALABLE_OPERATIONS = 14;
const RATES = [0.5, 0.1, 0.01, 1e-3, 1e-5, 1e-7];
const GROWTH_2 = 255; // growth byte x: 1.01 + 0.99 * x / 256, and 255 is exactly 2
const DEFAULT_KICKS = 255;
function scalableProgram({ capacity, fpr, growthByte, semiSort = false, kicks = DEFAULT_KICKS, seed = 0, universe }, steps) {
  const seedBytes = Array.from({ length: 8 }, (_, i) => Number((BigInt(seed) >> BigInt(8 * i)) & 0xffn));
  const encoded = steps.map(([operation, key, size = 0]) => [operation + SCALABLE_OPERATIONS * size, key]);
  return new Uint8Array([capacity - 1, RATES.indexOf(fpr), growthByte, semiSort ? 1 : 0, kicks, ...seedBytes,
    universe - 1, ...encoded.flat()]);
}
const scalablePrograms = {
  'grow-from-one-then-erase': scalableProgram({ capacity: 1, fpr: 0.01, growthByte: 48, universe: 200 }, [
    ...range(150, (i) => [ScalableOperation.insert, i]),
    [ScalableOperation.roundTrip, 0],
    ...range(150, (i) => [ScalableOperation.erasePresent, i]),
  ]),
  // Copies stop at 3 (see fuzz_scalable_operations.cpp).
  'copies-cap1': scalableProgram({ capacity: 1, fpr: 0.5, growthByte: 0, universe: 2, seed: 1 }, [
    ...range(10, () => [ScalableOperation.insertAgain, 0]),
    [ScalableOperation.count, 0],
    [ScalableOperation.roundTrip, 0],
    ...range(3, () => [ScalableOperation.erasePresent, 0]),
    ...range(4, () => [ScalableOperation.insertAgain, 0]),
    [ScalableOperation.insertUnique, 1],
  ]),
  'batches-semisorted-cap8-fpr1e-5': scalableProgram(
    { capacity: 8, fpr: 1e-5, growthByte: 100, semiSort: true, seed: 9, universe: 256 },
    [
      ...range(5, (i) => [ScalableOperation.insertMany, i * 37, 18]),
      [ScalableOperation.containsMany, 0, 18],
      [ScalableOperation.eraseMany, 20, 18],
      [ScalableOperation.containsMany, 10, 7],
      [ScalableOperation.roundTrip, 0],
      [ScalableOperation.insertMany, 250, 8],
      [ScalableOperation.eraseMany, 0, 18],
    ],
  ),
  'merge-grown-cap20-fpr0.1': scalableProgram({ capacity: 20, fpr: 0.1, growthByte: 60, seed: 4, universe: 100 }, [
    ...range(60, (i) => [ScalableOperation.insert, i]),
    [ScalableOperation.merge, 50, 10],
    ...range(10, (i) => [ScalableOperation.contains, 50 + i]),
    [ScalableOperation.merge, 0, 2],
    [ScalableOperation.erasePresent, 0],
    [ScalableOperation.clone, 0],
  ]),
  'merge-copies-one-key': scalableProgram({ capacity: 30, fpr: 0.01, growthByte: 128, universe: 1 }, [
    ...range(6, () => [ScalableOperation.insertAgain, 0]),
    [ScalableOperation.merge, 0, 1],
    [ScalableOperation.merge, 0, 1],
    [ScalableOperation.count, 0],
  ]),
  'every-operation-w32-doubling-kicks0': scalableProgram(
    { capacity: 2, fpr: 1e-7, growthByte: GROWTH_2, kicks: 0, seed: 2n ** 63n, universe: 64 },
    [...range(14, (op) => [op, op * 3, 2]), ...range(14, (op) => [op, op * 5 + 1, 1]), ...range(14, (op) => [op, op])],
  ),
  'small-growth-kicks1-clear-clone': scalableProgram(
    { capacity: 64, fpr: 1e-3, growthByte: 0, kicks: 1, seed: 77, universe: 256 },
    [
      ...range(120, (i) => [ScalableOperation.insert, i * 2]),
      [ScalableOperation.clone, 0],
      ...range(20, (i) => [ScalableOperation.eraseAbsent, i * 2 + 1]),
      [ScalableOperation.clear, 0],
      ...range(10, (i) => [ScalableOperation.insertUnique, i]),
    ],
  ),
};
mkdirSync(join(corpus, 'fuzz_scalable_operations'), { recursive: true });
for (const [name, bytes] of Object.entries(scalablePrograms)) {
  writeFileSync(join(corpus, 'fuzz_scalable_operations', name), bytes);
}

// fuzz_hostile reads 4 parameter bytes (f, shape, seed, hostile keys), then
// (operation, key) pairs; the first `hostile` keys of 48 share one pair of
// buckets. See fuzz_hostile.cpp.
const HostileOperation = { insert: 0, insertUnique: 1, erase: 2, contains: 3, count: 4, roundTrip: 5 };
const SEMI_SORTED_SHAPE = 8; // in the shape byte: semi-sorted (x / 8 odd)
function hostileProgram(fByte, shape, seed, hostile, steps) {
  return Uint8Array.from([fByte, shape, seed, hostile, ...steps.flat()]);
}
// Every hostile key, then ordinary ones, then lookups, counts, erases and a round trip.
const attackThenUse = (hostile) => [
  ...range(hostile, (k) => [HostileOperation.insert, k]),
  ...range(36, (k) => [HostileOperation.insert, 12 + k]),
  ...range(48, (k) => [HostileOperation.contains, k]),
  ...range(48, (k) => [HostileOperation.count, k]),
  [HostileOperation.roundTrip, 0],
  ...range(24, (k) => [HostileOperation.erase, 2 * k]),
  ...range(48, (k) => [HostileOperation.insertUnique, k]),
];
const hostilePrograms = {
  'nine-f4-m16': hostileProgram(0, 0, 0, 9, attackThenUse(9)),
  'twelve-f8-m24-range': hostileProgram(4, 1, 1, 12, attackThenUse(12)),
  'ten-semisorted-f6-m64': hostileProgram(2, 2 + SEMI_SORTED_SHAPE, 2, 10, attackThenUse(10)),
  'none-f7-m100': hostileProgram(3, 3, 3, 0, attackThenUse(0)),
  'twelve-semisorted-f5-m24': hostileProgram(1, 1 + SEMI_SORTED_SHAPE, 0, 12, attackThenUse(12)),
};
mkdirSync(join(corpus, 'fuzz_hostile'), { recursive: true });
for (const [name, bytes] of Object.entries(hostilePrograms)) writeFileSync(join(corpus, 'fuzz_hostile', name), bytes);

// fuzz_patch reads a byte choosing the base (golden_recipe.hpp's kGoldenPatches, in order), then
// the patch: each golden patch on its own base, and on the next one (a wrong base).
const goldenPatches = [
  'golden-patch-f12-b4-m1000-seed42',
  'golden-patch-f13-b4-m1024-seed42-semisorted',
  'golden-patch-scalable-cap100-fpr0.01-seed42',
  'golden-patch-whole-f12-b4-m1024-seed42',
];
for (const target of ['fuzz_patch', 'fuzz_patch_checksummed']) {
  const folder = join(corpus, target);
  mkdirSync(folder, { recursive: true });
  goldenPatches.forEach((name, base) => {
    const patch = readFileSync(join(here, '..', 'fixtures', `${name}.cfp`));
    writeFileSync(join(folder, `${name}.cfp`), Buffer.concat([Buffer.from([base]), patch]));
    writeFileSync(join(folder, `${name}-on-another-base.cfp`), Buffer.concat([Buffer.from([(base + 1) % goldenPatches.length]), patch]));
  });
}

const filterCount = Object.keys(filters).length + fixtures.length + Object.keys(scalableFilters).length + scalableFixtures.length;
const programCount =
  Object.keys(programs).length + Object.keys(batchPrograms).length + Object.keys(scalablePrograms).length +
  Object.keys(hostilePrograms).length;
console.log(`wrote ${filterCount} filters, ${programCount} programs and ${2 * goldenPatches.length} patches into ${corpus}`);
