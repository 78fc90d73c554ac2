// ScalableCuckooFilter.fromBytes against hostile inputs (byte format version
// 3, FORMAT.md "Version 3: growable filters"): every single-byte corruption,
// truncations and extensions of small filters, headers declaring huge tables,
// and payloads corrupted behind a recomputed checksum, where only the content
// checks stand. Each outcome before the checksum is predicted by a reading of
// FORMAT.md's checks written here (`expectedOutcome`), so the exact error is
// asserted; the content cases each come with a control, the same edit made
// valid, that loads.
import { CuckooFilter, FormatError, init, ScalableCuckooFilter } from 'cuckoo-wasm';
import { locate } from 'cuckoo-wasm/inspect';
import { wasmHeapBytes } from '../support/heap';

// FORMAT.md's version 3 header.
const at = {
  version: 4, flags: 5, hashId: 6, fixedBits: 7, tailBits: 8, level: 9, initialLevel: 10, stashCount: 11,
  maxKicks: 12, seed: 16, prngState: 24, itemCount: 32, entryCount: 40, splitBucket: 48, initialCapacity: 56,
  fpr: 64, growth: 72, payloadLength: 80, stash: 88,
} as const;
const HEADER = 280;
const STASH_RECORD = 12;
const MAX_STASH = 16;
const MAGIC = [0x43, 0x4b, 0x46, 0x57];
/** kMaxTableBytes of a wasm32 build, and the table's padding beyond the payload. */
const MAX_TABLE_BYTES = 2 ** 31;
const TABLE_PADDING = 7;
const TOO_LARGE = 'TOO_LARGE';
const LOADS = 'LOADS';

beforeAll(() => init());

let checksumFilter: CuckooFilter;
beforeAll(() => {
  // FORMAT.md's checksum is XXH3_64bits_withSeed(bytes, 0): the item hash of
  // a seed-0 filter, which inspect's locate reports for a byte-array item
  // (FORMAT.md's hash vectors check that hash on its own).
  checksumFilter = new CuckooFilter({ bucketCount: 1, bucketSize: 1, fingerprintBits: 2, seed: 0 });
});
afterAll(() => checksumFilter.dispose());

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Writes the checksum of everything before the last 8 bytes into them. */
function reseal(bytes: Uint8Array): Uint8Array {
  view(bytes).setBigUint64(bytes.length - 8, locate(checksumFilter, bytes.subarray(0, bytes.length - 8)).hash, true);
  return bytes;
}

/** The first table and slot width create gives these parameters (scalable_filter.hpp's design comment). */
function initialShape(initialCapacity: number, fpr: number): { buckets: number; level: number; tailBits: number } {
  const buckets = Math.max(1, Math.ceil(initialCapacity / (4 * 0.9)));
  const level = Math.floor(Math.log2(buckets));
  // The narrowest W >= 16 whose bound 2b · 0.9 · 2 (rounds + 1) · 2^-W holds up to 2^30 buckets.
  let width = 16;
  while (width < 32 && 2.0 * 4 * 0.9 * 2.0 * (30 - level + 1) * 2 ** -width > fpr) width++;
  return { buckets, level, tailBits: width - 8 };
}

/** P of FORMAT.md: the payload bytes of m buckets of four W-bit slots (4 bits fewer semi-sorted). */
const payloadBytes = (buckets: number, width: number, semiSorted: boolean): number =>
  Math.ceil((buckets * (4 * width - (semiSorted ? 4 : 0))) / 8);

/**
 * What fromBytes must do with `bytes`, by FORMAT.md's checks in order up to
 * the checksum; `unmodified` says they are a filter's toBytes() output, and
 * anything else that reaches the checksum must fail it.
 */
function expectedOutcome(bytes: Uint8Array, unmodified: boolean): string {
  for (let i = 0; i < Math.min(bytes.length, 4); i++) if (bytes[i] !== MAGIC[i]) return 'BAD_MAGIC';
  if (bytes.length < 5) return 'TRUNCATED';
  if (bytes[at.version] !== 3) return 'UNSUPPORTED_VERSION';
  if (bytes.length < HEADER) return 'TRUNCATED';
  const v = view(bytes);
  if ((bytes[at.flags]! & ~1) !== 0 || bytes[at.hashId] !== 3) return 'BAD_PARAMETERS';
  const semiSorted = (bytes[at.flags]! & 1) !== 0;
  // The parameters as create takes them; a valid first table beyond 2^30 buckets is too large.
  const initialCapacity = v.getBigUint64(at.initialCapacity, true);
  const fpr = v.getFloat64(at.fpr, true);
  const growth = v.getFloat64(at.growth, true);
  if (initialCapacity === 0n || initialCapacity > 2n ** 32n || !(fpr > 0 && fpr < 1) || fpr < 1e-7 ||
      !(growth >= 1.01 && growth <= 2) || v.getUint32(at.maxKicks, true) > 1_000_000) {
    return 'BAD_PARAMETERS';
  }
  const first = initialShape(Number(initialCapacity), fpr);
  if (first.buckets > 2 ** 30) return TOO_LARGE;
  // The shape: r, L0 and T as create gives them, L0 <= L <= 30, s < 2^L, m at least the first table's.
  const [level, tailBits] = [bytes[at.level]!, bytes[at.tailBits]!];
  const split = v.getBigUint64(at.splitBucket, true);
  const buckets = 2 ** level + Number(split);
  if (bytes[at.fixedBits] !== 8 || bytes[at.initialLevel] !== first.level || level < first.level || level > 30 ||
      split >= 2n ** BigInt(level) || (level === 30 && split !== 0n) || buckets < first.buckets ||
      tailBits !== first.tailBits || bytes[at.stashCount]! > MAX_STASH) {
    return 'BAD_PARAMETERS';
  }
  const payload = payloadBytes(buckets, 8 + tailBits, semiSorted);
  if (payload + TABLE_PADDING > MAX_TABLE_BYTES) return TOO_LARGE;
  if (v.getBigUint64(at.payloadLength, true) !== BigInt(payload)) return 'BAD_PARAMETERS';
  if (bytes.length < HEADER + payload + 8) return 'TRUNCATED';
  if (bytes.length > HEADER + payload + 8) return 'INCONSISTENT';
  return unmodified ? LOADS : 'CHECKSUM_MISMATCH';
}

/** What fromBytes did: a FormatError's code, TOO_LARGE, or LOADS after a check that toBytes() gives the input back. */
function actualOutcome(bytes: Uint8Array): string {
  let filter: ScalableCuckooFilter;
  try {
    filter = ScalableCuckooFilter.fromBytes(bytes);
  } catch (error) {
    if (error instanceof FormatError) return error.code;
    if (error instanceof RangeError && /maximum table size/.test(error.message)) return TOO_LARGE;
    throw error;
  }
  try {
    return Buffer.from(filter.toBytes()).equals(bytes) ? LOADS : 'LOADED, BUT toBytes() DIFFERS';
  } finally {
    filter.dispose();
  }
}

function filledBytes(options: Parameters<typeof ScalableCuckooFilter.create>[0], items: number): Uint8Array {
  using filter = ScalableCuckooFilter.create(options);
  for (let i = 0; i < items; i++) expect(filter.add(`hostile-${i}`)).toBe(true);
  return filter.toBytes();
}

/** Bits [first, first + count) of `bytes`, least significant first (FORMAT.md's payload order). */
function setBits(bytes: Uint8Array, first: number, count: number, value: number): void {
  for (let i = 0; i < count; i++) {
    const bit = first + i;
    bytes[bit >> 3] = (bytes[bit >> 3]! & ~(1 << (bit & 7))) | (((value >>> i) & 1) << (bit & 7));
  }
}
function getBits(bytes: Uint8Array, first: number, count: number): number {
  let value = 0;
  for (let i = 0; i < count; i++) value |= ((bytes[(first + i) >> 3]! >> ((first + i) & 7)) & 1) << i;
  return value >>> 0;
}

interface Synthetic {
  initialCapacity: number;
  fpr: number;
  growth?: number;
  semiSorted?: boolean;
  level?: number;
  split?: bigint;
  tailBits?: number;
  fixedBits?: number;
  initialLevel?: number;
  payload?: bigint;
  /** Bytes of the input; the whole file when absent. */
  length?: number;
}

/** A version 3 file of an empty filter of any shape, with a valid checksum, written from FORMAT.md alone. */
function synthetic(fields: Synthetic): Uint8Array {
  const first = initialShape(fields.initialCapacity, fields.fpr);
  const level = fields.level ?? first.level;
  const split = fields.split ?? BigInt(first.buckets - 2 ** first.level);
  const tailBits = fields.tailBits ?? first.tailBits;
  const semiSorted = fields.semiSorted ?? false;
  const payload = fields.payload ?? BigInt(payloadBytes(2 ** level + Number(split), 8 + tailBits, semiSorted));
  const total = HEADER + Number(payload > 2n ** 24n ? 0n : payload) + 8;
  const bytes = new Uint8Array(total);
  const v = view(bytes);
  bytes.set(MAGIC);
  bytes[at.version] = 3;
  bytes[at.flags] = semiSorted ? 1 : 0;
  bytes[at.hashId] = 3;
  bytes[at.fixedBits] = fields.fixedBits ?? 8;
  bytes[at.tailBits] = tailBits;
  bytes[at.level] = level;
  bytes[at.initialLevel] = fields.initialLevel ?? first.level;
  v.setUint32(at.maxKicks, 500, true);
  v.setBigUint64(at.prngState, 0x6a09e667f3bcc909n, true); // seed 0, as FORMAT.md's PRNG starts
  v.setBigUint64(at.splitBucket, split, true);
  v.setBigUint64(at.initialCapacity, BigInt(fields.initialCapacity), true);
  v.setFloat64(at.fpr, fields.fpr, true);
  v.setFloat64(at.growth, fields.growth ?? 1.2, true);
  v.setBigUint64(at.payloadLength, payload, true);
  reseal(bytes);
  return fields.length === undefined ? bytes : bytes.slice(0, fields.length);
}

describe('the reading of FORMAT.md here', () => {
  test('the checksum recomputed here is the one toBytes writes', () => {
    const bytes = filledBytes({ initialCapacity: 3, fpr: 0.001, seed: 1 }, 30);
    expect(Buffer.from(reseal(bytes.slice()))).toEqual(Buffer.from(bytes));
    const other = bytes.slice();
    other[at.seed] ^= 1;
    expect(Buffer.from(reseal(other).subarray(-8))).not.toEqual(Buffer.from(bytes.subarray(-8)));
  });

  test("the first table and slot width computed here are create's, and an empty synthetic file is a new filter's bytes", () => {
    for (const initialCapacity of [1, 3, 4, 7, 8, 100, 1000, 65_536, 1_000_000]) {
      for (const fpr of [0.9, 0.01, 1e-3, 1.234e-4, 1e-5, 1e-6, 1e-7]) {
        for (const semiSort of [false, true]) {
          using filter = ScalableCuckooFilter.create({ initialCapacity, fpr, semiSort, seed: 0 });
          const bytes = filter.toBytes();
          const shape = initialShape(initialCapacity, fpr);
          expect([initialCapacity, fpr, filter.bucketCount, bytes[at.initialLevel], bytes[at.tailBits]]).toEqual([
            initialCapacity, fpr, shape.buckets, shape.level, shape.tailBits]);
          // Buffer.equals: jest's toEqual walks megabytes element by element.
          const written = Buffer.from(synthetic({ initialCapacity, fpr, semiSorted: semiSort }));
          expect([initialCapacity, fpr, semiSort, written.length, written.equals(bytes)]).toEqual([
            initialCapacity, fpr, semiSort, bytes.length, true]);
        }
      }
    }
  });
});

describe('corruptions before the checksum, each predicted exactly', () => {
  let sources: Array<[name: string, bytes: Uint8Array]>;
  beforeAll(() => {
    sources = [
      // W = 19, so the payload's last byte has unused bits; grown from one bucket.
      ['plain, W 19, grown', filledBytes({ initialCapacity: 3, fpr: 0.001, seed: 1 }, 30)],
      ['semi-sorted, W 16, grown', filledBytes({ initialCapacity: 1, fpr: 0.01, seed: 2, semiSort: true, growth: 2 }, 12)],
    ];
  });

  test('every value of every byte: a FormatError (or the too-large RangeError) as predicted, never a load', () => {
    const outcomes = new Map<string, number>();
    let heapAfterWarmUp = 0;
    for (const [name, source] of sources) {
      expect(actualOutcome(source)).toBe(LOADS);
      for (let offset = 0; offset < source.length; offset++) {
        if (offset === 1) heapAfterWarmUp ||= wasmHeapBytes();
        const bytes = source.slice();
        for (let value = 0; value < 256; value++) {
          if (value === source[offset]) continue;
          bytes[offset] = value;
          const [expected, actual] = [expectedOutcome(bytes, false), actualOutcome(bytes)];
          if (actual !== expected) throw new Error(`${name}: byte ${offset} set to ${value}: fromBytes gave ${actual}, FORMAT.md says ${expected}`);
          outcomes.set(actual, (outcomes.get(actual) ?? 0) + 1);
        }
      }
    }
    expect(outcomes.has(LOADS)).toBe(false);
    for (const outcome of ['BAD_MAGIC', 'UNSUPPORTED_VERSION', 'BAD_PARAMETERS', 'CHECKSUM_MISMATCH', TOO_LARGE]) {
      expect([outcome, (outcomes.get(outcome) ?? 0) > 20]).toEqual([outcome, true]);
    }
    expect(wasmHeapBytes()).toBe(heapAfterWarmUp);
  });

  test('every truncation is TRUNCATED, every extension INCONSISTENT', () => {
    for (const [name, source] of sources) {
      for (let length = 0; length < source.length; length++) {
        expect([name, length, actualOutcome(source.subarray(0, length))]).toEqual([name, length, 'TRUNCATED']);
      }
      for (let extra = 1; extra <= 64; extra++) {
        const bytes = new Uint8Array(source.length + extra);
        bytes.set(source);
        reseal(bytes);
        expect([name, extra, actualOutcome(bytes)]).toEqual([name, extra, 'INCONSISTENT']);
      }
    }
  });
});

describe('headers declaring huge tables are refused before anything is allocated', () => {
  test('2^30 buckets (the largest level) is a RangeError; 2^27 buckets of 16-bit slots (1 GiB) is a truncated input', () => {
    const before = wasmHeapBytes();
    const largest = synthetic({ initialCapacity: 1, fpr: 0.01, level: 30, split: 0n });
    expect(() => ScalableCuckooFilter.fromBytes(largest)).toThrow(
      /^ScalableCuckooFilter\.fromBytes: the table would exceed the maximum table size \(2 GiB for a cuckoo filter in WebAssembly/,
    );
    for (const semiSorted of [false, true]) {
      for (const [level, fpr] of [[30, 0.01], [29, 1e-7], [28, 0.001], [27, 1e-7]] as const) {
        const bytes = synthetic({ initialCapacity: 1, fpr, level, split: 0n, semiSorted });
        const payload = payloadBytes(2 ** level, 8 + initialShape(1, fpr).tailBits, semiSorted);
        const expected = payload + TABLE_PADDING > MAX_TABLE_BYTES ? TOO_LARGE : 'TRUNCATED';
        expect([level, fpr, semiSorted, expectedOutcome(bytes, false), actualOutcome(bytes)]).toEqual([level, fpr, semiSorted, expected, expected]);
      }
    }
    expect(actualOutcome(synthetic({ initialCapacity: 1, fpr: 0.01, level: 27, split: 0n }))).toBe('TRUNCATED');
    // A first table beyond 2^30 buckets (4 * 0.9 * 2^30 items): too large before any shape is read.
    for (const initialCapacity of [2 ** 32, 3_865_470_567]) {
      const bytes = synthetic({ initialCapacity: 1, fpr: 0.01 });
      view(bytes).setBigUint64(at.initialCapacity, BigInt(initialCapacity), true);
      expect([initialCapacity, actualOutcome(bytes)]).toEqual([initialCapacity, TOO_LARGE]);
    }
    expect(wasmHeapBytes()).toBe(before);
  });

  test('payload lengths that wrap or disagree with the shape are bad parameters', () => {
    for (const payload of [0n, 1n, 2n ** 64n - 1n, 2n ** 64n - 280n, 2n ** 63n, 2n ** 32n - 1n, 2n ** 31n]) {
      for (const level of [0, 10, 26]) {
        const bytes = synthetic({ initialCapacity: 1, fpr: 0.01, level, split: 0n, payload, length: 300 });
        expect([payload, level, actualOutcome(bytes)]).toEqual([payload, level, 'BAD_PARAMETERS']);
      }
    }
  });
});

describe('a shape create or growth never makes is bad parameters, even with a valid checksum', () => {
  // initialCapacity 100: 28 buckets, so L0 = 4 and s0 = 12; fpr 0.001: W = 19.
  const base = { initialCapacity: 100, fpr: 0.001 } as const;
  const first = initialShape(base.initialCapacity, base.fpr);

  test.each<[string, Partial<Synthetic>, string]>([
    ['the shape of a new filter (control)', {}, LOADS],
    ['a grown shape: L0 + 3, s = 5 (control)', { level: first.level + 3, split: 5n }, LOADS],
    ['the last split of a round: s = 2^L - 1 (control)', { level: 6, split: 63n }, LOADS],
    ['fixed bits 7', { fixedBits: 7 }, 'BAD_PARAMETERS'],
    ['fixed bits 9', { fixedBits: 9 }, 'BAD_PARAMETERS'],
    ['fixed bits 0', { fixedBits: 0 }, 'BAD_PARAMETERS'],
    ['T one more than create gives (payload to match)', { tailBits: first.tailBits + 1 }, 'BAD_PARAMETERS'],
    ['T one less than create gives (payload to match)', { tailBits: first.tailBits - 1 }, 'BAD_PARAMETERS'],
    ['T making W 33', { tailBits: 25 }, 'BAD_PARAMETERS'],
    ['level below the initial level', { level: first.level - 1, split: 0n }, 'BAD_PARAMETERS'],
    ['initial level other than create gives', { initialLevel: first.level + 1, level: first.level + 1, split: 0n }, 'BAD_PARAMETERS'],
    ['fewer buckets than the first table: L = L0, s = s0 - 1', { split: BigInt(first.buckets - 2 ** first.level - 1) }, 'BAD_PARAMETERS'],
    ['split pointer = 2^L', { level: 6, split: 64n }, 'BAD_PARAMETERS'],
    ['split pointer = 2^64 - 1', { level: 6, split: 2n ** 64n - 1n }, 'BAD_PARAMETERS'],
    ['level 31', { level: 31, split: 0n }, 'BAD_PARAMETERS'],
    ['level 255', { level: 255, split: 0n }, 'BAD_PARAMETERS'],
    ['level 30 with a split bucket', { level: 30, split: 1n }, 'BAD_PARAMETERS'],
    ['growth 1', { growth: 1 }, 'BAD_PARAMETERS'],
    ['growth NaN', { growth: NaN }, 'BAD_PARAMETERS'],
    ['fpr 1e-8', { fpr: 1e-8 }, 'BAD_PARAMETERS'],
  ])('%s', (_, fields, expected) => {
    const bytes = synthetic({ ...base, ...fields });
    expect(expectedOutcome(bytes, true)).toBe(expected);
    expect(actualOutcome(bytes)).toBe(expected);
    if (expected === LOADS) {
      // A synthetic empty filter of that shape works as any other.
      using filter = ScalableCuckooFilter.fromBytes(bytes);
      expect(filter.addMany(new Uint32Array(5000).map((_, i) => i))).toBe(5000);
      expect(filter.hasMany(new Uint32Array(5000).map((_, i) => i)).every((a) => a === 1)).toBe(true);
    }
  });

  test('header flags, hash id, stash count and maxKicks out of range', () => {
    const cases: Array<[string, (bytes: Uint8Array) => void]> = [
      ['flag bit 1', (b) => (b[at.flags] = 2)],
      ['flag bit 7', (b) => (b[at.flags] = 0x80)],
      ['hash id 2', (b) => (b[at.hashId] = 2)],
      ['hash id 1', (b) => (b[at.hashId] = 1)],
      ['stash count 17', (b) => (b[at.stashCount] = 17)],
      ['stash count 255', (b) => (b[at.stashCount] = 255)],
      ['maxKicks 1000001', (b) => view(b).setUint32(at.maxKicks, 1_000_001, true)],
      ['initial capacity 0', (b) => view(b).setBigUint64(at.initialCapacity, 0n, true)],
      ['initial capacity 2^32 + 1', (b) => view(b).setBigUint64(at.initialCapacity, 2n ** 32n + 1n, true)],
    ];
    for (const [name, edit] of cases) {
      const bytes = synthetic(base);
      edit(bytes);
      reseal(bytes);
      expect([name, actualOutcome(bytes)]).toEqual([name, 'BAD_PARAMETERS']);
    }
  });
});

describe('payloads behind a recomputed checksum: the content checks', () => {
  // One bucket (initialCapacity 1) of four 16-bit slots: fingerprint 8 bits, tail 8 bits.
  const options = { initialCapacity: 1, fpr: 0.01, seed: 5 } as const;
  const W = 16;
  const T = 8;
  const slotAt = (slot: number) => HEADER * 8 + slot * W;
  const setCounts = (bytes: Uint8Array, items: number, entries: number) => {
    view(bytes).setBigUint64(at.itemCount, BigInt(items), true);
    view(bytes).setBigUint64(at.entryCount, BigInt(entries), true);
  };
  /** An empty filter's bytes with `edit` applied, resealed. */
  const edited = (edit: (bytes: Uint8Array) => void, semiSort = false): Uint8Array => {
    const bytes = filledBytes({ ...options, semiSort }, 0);
    edit(bytes);
    return reseal(bytes);
  };
  const outcomeOf = (edit: (bytes: Uint8Array) => void, semiSort = false) => actualOutcome(edited(edit, semiSort));

  test('slots: a zero fingerprint or a zero tail is inconsistent; a non-zero one of each loads', () => {
    const withSlot = (value: number) => (b: Uint8Array) => {
      setBits(b, slotAt(0), W, value);
      setCounts(b, 1, 1);
    };
    expect(outcomeOf(withSlot((1 << T) | 1))).toBe(LOADS);
    expect(outcomeOf(withSlot(0xffff))).toBe(LOADS);
    expect(outcomeOf(withSlot(0x00ff))).toBe('INCONSISTENT'); // fingerprint 0
    expect(outcomeOf(withSlot(0x0100))).toBe('INCONSISTENT'); // tail 0
    expect(outcomeOf(withSlot(0x0001))).toBe('INCONSISTENT');
  });

  test('counts: entries must be the non-zero slots plus the stash, items at most the entries', () => {
    const withOne = (items: number, entries: number) => (b: Uint8Array) => {
      setBits(b, slotAt(2), W, 0x4242);
      setCounts(b, items, entries);
    };
    expect(outcomeOf(withOne(1, 1))).toBe(LOADS);
    // Fewer items than entries is what splits' copies make: it loads, and size says so.
    expect(outcomeOf(withOne(0, 1))).toBe(LOADS);
    expect(outcomeOf(withOne(2, 1))).toBe('INCONSISTENT');
    expect(outcomeOf(withOne(1, 2))).toBe('INCONSISTENT');
    expect(outcomeOf(withOne(0, 0))).toBe('INCONSISTENT');
    expect(outcomeOf(withOne(2 ** 40, 2 ** 40))).toBe('INCONSISTENT');
  });

  test("the unused high bits of the payload's last byte must be zero", () => {
    // W = 19: one bucket is 76 bits, so the last of its 10 bytes has 4 unused bits.
    const bytes = filledBytes({ initialCapacity: 1, fpr: 0.001 }, 0);
    expect(bytes.length).toBe(HEADER + 10 + 8);
    for (let bit = 4; bit < 8; bit++) {
      const edit = bytes.slice();
      edit[HEADER + 9] = 1 << bit;
      expect([bit, actualOutcome(reseal(edit))]).toEqual([bit, 'INCONSISTENT']);
    }
    const used = bytes.slice();
    setBits(used, HEADER * 8 + 3 * 19, 19, (1 << 11) | 3); // slot 3 ends on bit 75
    setCounts(used, 1, 1);
    expect(actualOutcome(reseal(used))).toBe(LOADS);
  });

  test('semi-sorted buckets: ranks below 3876 and ascending entries', () => {
    // A semi-sorted bucket of W = 16: the rank of its sorted top nibbles in
    // bits [0, 12), then the low 12 bits of each sorted entry.
    const bucket = (rank: number, lows: number[], entries: number) => (b: Uint8Array) => {
      setBits(b, HEADER * 8, 12, rank);
      lows.forEach((low, s) => setBits(b, HEADER * 8 + 12 + s * 12, 12, low));
      setCounts(b, entries, entries);
    };
    // Nibbles (0, 0, 1, 1): rank C(0,1) + C(1,2) + C(3,3) + C(4,4) = 2; entries 0, 0, 0x1005, 0x1007.
    expect(outcomeOf(bucket(2, [0, 0, 5, 7], 2), true)).toBe(LOADS);
    expect(outcomeOf(bucket(2, [0, 0, 7, 5], 2), true)).toBe('INCONSISTENT'); // 0x1007 before 0x1005
    expect(outcomeOf(bucket(2, [0, 0, 0, 5], 2), true)).toBe('INCONSISTENT'); // 0x1000: tail 0
    // Nibbles (15, 15, 15, 15): the largest rank, 15 + 120 + 680 + 3060 = 3875.
    expect(outcomeOf(bucket(3875, [1, 2, 3, 4], 4), true)).toBe(LOADS);
    for (const rank of [3876, 4000, 4095]) expect([rank, outcomeOf(bucket(rank, [1, 2, 3, 4], 4), true)]).toEqual([rank, 'INCONSISTENT']);
  });

  test('stash records: in range they load and answer; out of range, stray or malformed they are inconsistent', () => {
    // The one item of a one-bucket filter, moved from its slot to stash record 0.
    const source = filledBytes(options, 0);
    using probe = ScalableCuckooFilter.fromBytes(source);
    probe.add('a');
    const withA = probe.toBytes();
    let slot = 0;
    while (getBits(withA, slotAt(slot), W) === 0) slot++;
    const value = getBits(withA, slotAt(slot), W);
    const stashed = (record: { value: number; bucket: bigint; index?: number }, count: number, entries = 1) => {
      const bytes = withA.slice();
      setBits(bytes, slotAt(slot), W, 0);
      const offset = at.stash + (record.index ?? 0) * STASH_RECORD;
      view(bytes).setUint32(offset, record.value, true);
      view(bytes).setBigUint64(offset + 4, record.bucket, true);
      bytes[at.stashCount] = count;
      setCounts(bytes, 1, entries);
      return reseal(bytes);
    };
    const loadable = stashed({ value, bucket: 0n }, 1);
    expect(actualOutcome(loadable)).toBe(LOADS);
    using loaded = ScalableCuckooFilter.fromBytes(loadable);
    expect([loaded.has('a'), loaded.count('a'), loaded.stashed, loaded.size]).toEqual([true, 1, 1, 1]);
    // The next add grows the table and puts the stashed entry back in it.
    expect(loaded.add('b')).toBe(true);
    expect([loaded.has('a'), loaded.has('b'), loaded.stashed, loaded.size]).toEqual([true, true, 0, 2]);
    expect(loaded.bucketCount).toBeGreaterThan(1);

    expect(actualOutcome(stashed({ value, bucket: 1n }, 1))).toBe('INCONSISTENT'); // bucket = m
    expect(actualOutcome(stashed({ value, bucket: 2n ** 64n - 1n }, 1))).toBe('INCONSISTENT');
    expect(actualOutcome(stashed({ value: value & ~0xff, bucket: 0n }, 1))).toBe('INCONSISTENT'); // tail 0
    expect(actualOutcome(stashed({ value: value & 0xff, bucket: 0n }, 1))).toBe('INCONSISTENT'); // fingerprint 0
    expect(actualOutcome(stashed({ value: value | 0x10000, bucket: 0n }, 1))).toBe('INCONSISTENT'); // wider than W
    expect(actualOutcome(stashed({ value, bucket: 0n }, 0))).toBe('INCONSISTENT'); // a record beyond the count
    expect(actualOutcome(stashed({ value, bucket: 0n, index: 15 }, 1))).toBe('INCONSISTENT');
    expect(actualOutcome(stashed({ value, bucket: 0n, index: 1 }, 2, 2))).toBe('INCONSISTENT'); // record 0 empty but counted
    expect(actualOutcome(stashed({ value, bucket: 0n }, 1, 2))).toBe('INCONSISTENT'); // entry count off
  });
});
