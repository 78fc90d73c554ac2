// The answers of fixtures/exercise.mjs, written down from the documents
// rather than from a run: every runtime and bundle must give exactly these.
import type { Entry } from './consumer';

// CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 5 }): b = 4 and
// f = 10 for 1 %, and 269 buckets hold 1000 items (README's sizing; the
// worked example of tests/ts/cli.test.ts). 269 is not a power of two, so the
// bytes are format version 2: a 64-byte header, ceil(269 * 4 * 10 / 8) = 1345
// bytes of table and an 8-byte checksum (FORMAT.md).
const mainAnswers = {
  params: { bucketCount: 269, bucketSize: 4, fingerprintBits: 10, maxKicks: 500, seed: '5', semiSort: false, keyedHash: false, multiplyShiftHash: false },
  // add 'a', 'b', 'c'; has 'a'; has 'zzz', never added (and no false positive
  // under this seed: the hash is the same in every runtime, so is this answer).
  singles: [true, true, true, true, false],
  batch: { added: 500, present: 500, strings: [1, 1, 1, 0] },
  size: 503,
  roundTrip: {
    byteLength: 64 + Math.ceil((269 * 4 * 10) / 8) + 8,
    copySize: 503,
    sameBytes: true,
    // 'b' and 499 were added; 500 and 'zzz' were not.
    copyAnswers: [true, true, false, false],
    deleted: [true, false, 502],
  },
  formatError: [true, true, 'BAD_MAGIC'],
  // The same create with multiplyShiftHash: format version 7, and hash id 11 for 269 buckets
  // (not a power of two); 500 is not a false positive under this seed, in any runtime.
  multiplyShift: { added: 500, hashes: [false, true], versionAndHashId: [7, 11], sameBytes: true, present: 500, singles: [true, true, false] },
  // 500 items in a growable filter that starts with room for 10.
  scalable: { added: 500, present: 500, grew: true },
  defaults: {
    // fpr 0.001: f = 13, the smallest with 8 / 2^f <= 0.001; 269 buckets of 4 hold 1000.
    create: { bucketCount: 269, bucketSize: 4, fingerprintBits: 13 },
    // 100 items at first, in ceil(100 / (4 * 0.9)) = 28 buckets; the rate 0.001, growth 1.2.
    growable: { initialCapacity: 100, fpr: 0.001, growth: 1.2, bucketCount: 28 },
  },
  // The filter of 503 items describing itself: its getters' values (the seed as a
  // string), and the copy, disposed, saying so.
  described: {
    json: {
      size: 503,
      slotCount: 269 * 4,
      loadFactor: 503 / (269 * 4),
      stashed: 0,
      // 7 zero bytes follow the table (cpp/include/cuckoo/packed_table.hpp).
      byteLength: Math.ceil((269 * 4 * 10) / 8) + 7,
      bitsPerItem: (269 * 4 * 10) / 503,
      // 1 - (1 - 2^-f)^(2b * load)
      expectedFpr: expect.closeTo(1 - (1 - 2 ** -10) ** ((8 * 503) / (269 * 4)), 15),
      fprBound: 8 / 2 ** 10,
      full: false,
      params: { bucketCount: 269, bucketSize: 4, fingerprintBits: 10, maxKicks: 500, seed: '5', semiSort: false, keyedHash: false, multiplyShiftHash: false },
    },
    text: 'CuckooFilter {"size":503,"slotCount":1076',
    disposed: 'CuckooFilter {"disposed":true}',
  },
};

const inspectAnswers = {
  added: true,
  // Bucket counts that are not powers of two use hash id 2 and the reflection i2 = (c - i1) mod m.
  hashId: 2,
  reflected: true,
  placed: true,
  nowHas: true,
  slots: 269 * 4,
};

// BloomFilter.create({ capacity: n, fpr: p }): m = ceil(-n ln p / (ln 2)^2)
// bits and k = round(ln 2 * m / n) (its documentation in ts/src/bloom.ts).
const bloomBits = Math.ceil((-1000 * Math.log(0.01)) / Math.LN2 ** 2);
const bloomAnswers = {
  bitCount: bloomBits,
  hashCount: Math.round((Math.LN2 * bloomBits) / 1000),
  // add 'x'; has 'x'; has 'never added' (not a false positive under seed 7).
  singles: [true, true, false],
  present: 500,
};

/** What exercise() returns for a program that imported `entries`. */
export function expectedAnswers(entries: readonly Entry[]): object {
  return {
    main: mainAnswers,
    ...(entries.includes('inspect') ? { inspect: inspectAnswers } : {}),
    ...(entries.includes('bloom') ? { bloom: bloomAnswers } : {}),
  };
}
