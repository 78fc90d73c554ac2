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
console.log(`wrote ${Object.keys(filters).length + fixtures.length} filters and ${Object.keys(programs).length} programs into ${corpus}`);
