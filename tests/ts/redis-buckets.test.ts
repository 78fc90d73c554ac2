// cuckoo-wasm/redis's table in BITFIELD order (ts/src/redis/buckets.ts),
// checked against the core without a server: each field where Redis's
// BITFIELD reads it (bit by bit here, as Redis does), the payload back
// unchanged, and a bucket's words counted as CuckooFilter.count counts.
import { CuckooFilter, init, type CuckooFilterOptions } from 'cuckoo-wasm';
import { buckets } from 'cuckoo-wasm/inspect';
import { LOCATION_WORDS, locateItems, partsOf } from '../../dist/cjs/parts';
import { bucketWords, countInBucketWords, fromBitfieldOrder, toBitfieldOrder } from '../../dist/cjs/redis/buckets';

beforeAll(() => init());

/** Redis's `BITFIELD GET u<width> <bitPos>`: bit p is bit 7 - p % 8 of byte p / 8, most significant first. */
function bitfieldGet(bytes: Uint8Array, bitPos: number, width: number): number {
  let value = 0;
  for (let t = 0; t < width; t++) {
    const p = bitPos + t;
    value = value * 2 + ((bytes[Math.floor(p / 8)]! >> (7 - (p % 8))) & 1);
  }
  return value;
}

const shapes: [string, CuckooFilterOptions][] = [
  ['plain f=13 b=4, 1000 buckets', { bucketCount: 1000, bucketSize: 4, fingerprintBits: 13 }],
  ['plain f=17 b=4 (two words per bucket)', { bucketCount: 256, bucketSize: 4, fingerprintBits: 17 }],
  ['plain f=7 b=2', { bucketCount: 97, bucketSize: 2, fingerprintBits: 7 }],
  ['plain f=32 b=8 (eight words per bucket)', { bucketCount: 16, bucketSize: 8, fingerprintBits: 32 }],
  ['semi-sorted f=13', { bucketCount: 300, bucketSize: 4, fingerprintBits: 13, semiSort: true }],
  ['semi-sorted f=20 (two words per bucket)', { bucketCount: 64, bucketSize: 4, fingerprintBits: 20, semiSort: true }],
];

test('buckets are read in words of at most 53 bits, fields grouped in order', () => {
  const widths = (words: ReturnType<typeof bucketWords>) => words.map((word) => [word.offset, word.width]);
  expect(widths(bucketWords({ bucketSize: 4, fingerprintBits: 13, semiSort: false }))).toEqual([[0, 52]]);
  expect(widths(bucketWords({ bucketSize: 4, fingerprintBits: 17, semiSort: false }))).toEqual([[0, 51], [51, 17]]);
  expect(widths(bucketWords({ bucketSize: 8, fingerprintBits: 7, semiSort: false }))).toEqual([[0, 49], [49, 7]]);
  expect(widths(bucketWords({ bucketSize: 4, fingerprintBits: 13, semiSort: true }))).toEqual([[0, 48]]);
  expect(widths(bucketWords({ bucketSize: 4, fingerprintBits: 15, semiSort: true }))).toEqual([[0, 45], [45, 11]]);
  expect(widths(bucketWords({ bucketSize: 4, fingerprintBits: 32, semiSort: true }))).toEqual([[0, 40], [40, 28], [68, 28], [96, 28]]);
});

test.each(shapes)('BITFIELD order holds each field where FORMAT.md puts it, and converts back: %s', (_, shape) => {
  using filter = new CuckooFilter({ ...shape, seed: 4 });
  let added = 0;
  while (filter.add(added)) added++;
  const params = filter.params;
  const { payload } = partsOf(filter);
  const ordered = toBitfieldOrder(params, payload);
  expect(ordered.length).toBe(payload.length);
  const slots = buckets(filter).slots;
  const f = params.fingerprintBits;
  for (let bucket = 0; bucket < params.bucketCount; bucket++) {
    if (!params.semiSort) {
      for (let s = 0; s < params.bucketSize; s++) {
        const k = bucket * params.bucketSize + s;
        if (bitfieldGet(ordered, k * f, f) !== slots[k]) throw new Error(`bucket ${bucket} slot ${s}`);
      }
      continue;
    }
    // A semi-sorted bucket: its rank, then four low parts of its sorted entries.
    const base = bucket * (4 * f - 4);
    for (let s = 0; s < 4; s++) {
      if (bitfieldGet(ordered, base + 12 + s * (f - 4), f - 4) !== slots[4 * bucket + s]! % 2 ** (f - 4)) throw new Error(`bucket ${bucket} low ${s}`);
    }
  }
  expect(Buffer.from(fromBitfieldOrder(params, ordered)).equals(Buffer.from(payload))).toBe(true);
});

test.each(shapes)("a bucket's words count copies as CuckooFilter.count: %s", (_, shape) => {
  using filter = new CuckooFilter({ ...shape, seed: 5 });
  let added = 0;
  while (filter.add(added)) added++;
  const params = filter.params;
  const { payload, stash } = partsOf(filter);
  expect(stash).not.toBeNull();
  const ordered = toBitfieldOrder(params, payload);
  const words = bucketWords(params);
  const bucketBits = params.semiSort ? 4 * params.fingerprintBits - 4 : params.bucketSize * params.fingerprintBits;
  const probes = new Float64Array(added + 3000).map((_, i) => i);
  const located = locateItems(params, probes, 'test');
  const values = new Float64Array(probes.length * 2 * words.length);
  let at = 0;
  for (let k = 0; k < probes.length; k++) {
    for (const bucket of [located[LOCATION_WORDS * k + 1]!, located[LOCATION_WORDS * k + 2]!]) {
      for (const word of words) values[at++] = bitfieldGet(ordered, bucket * bucketBits + word.offset, word.width);
    }
  }
  const counts = countInBucketWords(params, values, located, Array.from(probes, (_, k) => k), stash!, 'test');
  expect(Array.from(counts!)).toEqual(Array.from(probes, (item) => filter.count(item)));
});

test('a semi-sorted rank that names no bucket is reported, not decoded', () => {
  const layout = { bucketCount: 64, bucketSize: 4 as const, fingerprintBits: 13, semiSort: true };
  const located = new Uint32Array([5, 0, 1, 0]);
  // One 48-bit word per bucket: the rank is its top 12 bits.
  expect(countInBucketWords(layout, new Float64Array([3876 * 2 ** 36, 0]), located, [0], { fingerprint: 0, bucket: 0 }, 'test')).toBeNull();
  expect(countInBucketWords(layout, new Float64Array([3875 * 2 ** 36, 0]), located, [0], { fingerprint: 0, bucket: 0 }, 'test')).not.toBeNull();
});
