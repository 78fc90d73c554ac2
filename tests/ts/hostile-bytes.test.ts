// CuckooFilter.fromBytes on 100,000 hostile inputs in the wasm build: random
// garbage, truncations, extensions, bit flips, header fields set to extreme
// values, and headers declaring tables far beyond wasm memory. Each input's
// outcome is predicted from FORMAT.md's checks (without the checksum, which
// only the core computes here: a modified input must fail it), so the test
// asserts the exact error, not just "some error". The module must stay usable
// and its memory must not grow once warmed up.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter, CuckooFilterError, FormatError, init } from 'cuckoo-wasm';
import { wasmHeapBytes } from '../support/heap';

/** kMaxTableBytes of a wasm32 build (packed_table.hpp). */
const MAX_TABLE_BYTES = 2n ** 31n;
const TABLE_PADDING = 7n;
/** Header bytes of format versions 1 (a power-of-two bucket count) and 2, 4 to 7 (m at byte 56). */
const HEADER_V1 = 56;
const HEADER_V2 = 64;
const MAGIC = [0x43, 0x4b, 0x46, 0x57];
const TOO_LARGE = 'TOO_LARGE';
const LOADS = 'LOADS';

beforeAll(() => init());

/**
 * What fromBytes must do with `bytes` by FORMAT.md's "Checks on load", steps
 * 1 to 7. `unmodified` says the bytes are exactly a filter's toBytes() output;
 * anything else that reaches the checksum must fail it.
 */
function expectedOutcome(bytes: Uint8Array, unmodified: boolean): string {
  for (let i = 0; i < Math.min(bytes.length, 4); i++) if (bytes[i] !== MAGIC[i]) return 'BAD_MAGIC';
  if (bytes.length < 5) return 'TRUNCATED';
  const version = bytes[4];
  if (version !== 1 && version !== 2 && (version === undefined || version < 4 || version > 7)) return 'UNSUPPORTED_VERSION';
  const headerBytes = version === 1 ? HEADER_V1 : HEADER_V2;
  if (bytes.length < headerBytes) return 'TRUNCATED';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [flags, hashId, f, b] = [bytes[5]!, bytes[6]!, bytes[7]!, bytes[8]!];
  const semiSorted = (flags & 1) !== 0;
  // Version 1: hash id 1 and log2(m) in byte 9; version 2: hash id 2 and m at 56, not a power of two;
  // versions 4 (keyed), 5 (multiply-shift), 6 (keys mixed first) and 7 (the seeded mix): m at 56, 1 .. 2^32, hash
  // id 4, 6, 8 or 10 for a power of two, 5, 7, 9 or 11 otherwise.
  let bucketCount: bigint;
  if (version === 1) {
    if (hashId !== 1 || bytes[9]! > 32 || view.getUint16(10, true) !== 0) return 'BAD_PARAMETERS';
    bucketCount = 1n << BigInt(bytes[9]!);
  } else {
    bucketCount = view.getBigUint64(56, true);
    const powerOfTwo = bucketCount !== 0n && (bucketCount & (bucketCount - 1n)) === 0n;
    const countAllowed = version === 2 ? bucketCount >= 3n && bucketCount < 2n ** 32n && !powerOfTwo : bucketCount >= 1n && bucketCount <= 2n ** 32n;
    const hashIdAllowed = version === 2 ? 2 : (version === 4 ? 4 : 2 * version - 4) + (powerOfTwo ? 0 : 1);
    if (hashId !== hashIdAllowed || bytes[9] !== 0 || view.getUint16(10, true) !== 0 || !countAllowed) return 'BAD_PARAMETERS';
  }
  if ((flags & ~3) !== 0) return 'BAD_PARAMETERS';
  if (f < 2 || f > 32 || ![1, 2, 4, 8].includes(b) || view.getUint32(12, true) > 1_000_000) return 'BAD_PARAMETERS';
  if (semiSorted && (b !== 4 || f < 5)) return 'BAD_PARAMETERS';
  const payload = consistentPayload(f, b, bucketCount, semiSorted);
  if (view.getBigUint64(48, true) !== payload) return 'BAD_PARAMETERS';
  if (payload + TABLE_PADDING > MAX_TABLE_BYTES) return TOO_LARGE;
  const length = BigInt(headerBytes) + payload + 8n;
  if (BigInt(bytes.length) < length) return 'TRUNCATED';
  if (BigInt(bytes.length) > length) return 'INCONSISTENT';
  return unmodified ? LOADS : 'CHECKSUM_MISMATCH';
}

/** What fromBytes did; anything but a load, a FormatError or the too-large RangeError is a failure. */
function actualOutcome(bytes: Uint8Array): string {
  let filter: CuckooFilter | undefined;
  try {
    filter = CuckooFilter.fromBytes(bytes);
  } catch (error) {
    if (error instanceof FormatError) return error.code;
    if (error instanceof RangeError && /maximum table size/.test(error.message)) return TOO_LARGE;
    throw error;
  }
  try {
    const written = filter.toBytes();
    // Buffer.equals: Jest's toEqual walks typed arrays element by element, far too slowly here.
    if (!Buffer.from(written.buffer, written.byteOffset, written.length).equals(bytes)) return 'LOADED, BUT toBytes() DIFFERS';
    return LOADS;
  } finally {
    filter.dispose();
  }
}

/** xorshift32: a fixed sequence, so a failure names an input that can be rebuilt. */
function randomSource(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}

function filledFilterBytes(options: ConstructorParameters<typeof CuckooFilter>[0], items: number): Uint8Array {
  using filter = new CuckooFilter(options);
  for (let i = 0; i < items && filter.add(`hostile-${i}`); i++);
  return filter.toBytes();
}

/** A header alone: version 1 with log2(m) = log2m, or version 2 with m = bucketCount. */
function header(fields: {
  f: number;
  b: number;
  log2m?: number;
  bucketCount?: bigint;
  payload: bigint;
  length?: number;
  semiSorted?: boolean;
}): Uint8Array {
  const version2 = fields.bucketCount !== undefined;
  // Written whole, then cut to `length` (a shorter input is a truncated header).
  const bytes = new Uint8Array(Math.max(fields.length ?? 64, 64));
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC);
  bytes[4] = version2 ? 2 : 1;
  bytes[5] = fields.semiSorted ? 1 : 0;
  bytes[6] = version2 ? 2 : 1;
  bytes[7] = fields.f;
  bytes[8] = fields.b;
  if (version2) view.setBigUint64(56, fields.bucketCount!, true);
  else bytes[9] = fields.log2m!;
  view.setUint32(12, 500, true);
  view.setBigUint64(48, BigInt.asUintN(64, fields.payload), true);
  return bytes.subarray(0, fields.length ?? 64);
}

/** L of FORMAT.md: ceil(m·b·f / 8), or ceil(m·(4f − 4) / 8) semi-sorted. */
function consistentPayload(f: number, b: number, bucketCount: bigint, semiSorted = false): bigint {
  return (bucketCount * BigInt(semiSorted ? 4 * f - 4 : b * f) + 7n) / 8n;
}

let validInputs: Uint8Array[];
let witness: CuckooFilter;
const witnessItems = Array.from({ length: 500 }, (_, i) => `witness-${i}`);

beforeAll(() => {
  validInputs = [
    new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', 'golden-f12-b4-m1024-seed42.cf'))),
    new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', 'golden-f13-b4-m1024-seed42-semisorted.cf'))),
    filledFilterBytes({ bucketCount: 8, bucketSize: 4, fingerprintBits: 5, semiSort: true }, Infinity),
    filledFilterBytes({ bucketCount: 512, bucketSize: 4, fingerprintBits: 32, semiSort: true, seed: 8 }, 1500),
    filledFilterBytes({ bucketCount: 1, bucketSize: 1, fingerprintBits: 2 }, 0),
    filledFilterBytes({ bucketCount: 4, bucketSize: 2, fingerprintBits: 9, seed: 3 }, Infinity),
    filledFilterBytes({ bucketCount: 64, bucketSize: 4, fingerprintBits: 12, maxKicks: 0 }, 130),
    filledFilterBytes({ bucketCount: 256, bucketSize: 8, fingerprintBits: 32, seed: 2n ** 64n - 1n }, 900),
    filledFilterBytes({ bucketCount: 1024, bucketSize: 2, fingerprintBits: 7 }, Infinity),
    filledFilterBytes({ bucketCount: 4096, bucketSize: 4, fingerprintBits: 13, seed: 77 }, 10_000),
    // Format version 2: bucket counts that are not powers of two.
    new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', 'golden-f12-b4-m1000-seed42.cf'))),
    new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', 'golden-f13-b4-m1000-seed42-semisorted.cf'))),
    filledFilterBytes({ bucketCount: 3, bucketSize: 2, fingerprintBits: 7 }, Infinity),
    filledFilterBytes({ bucketCount: 777, bucketSize: 8, fingerprintBits: 31, seed: 9 }, 5000),
    // Format versions 4 (keyedHash: hash ids 4 and 5), 7 (multiplyShiftHash: 10 and 11), and 5 and 6
    // (the golden fixtures of ids 6 to 9, which new filters no longer get), any count.
    filledFilterBytes({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 12, seed: 4, keyedHash: true }, 3000),
    filledFilterBytes({ bucketCount: 1, bucketSize: 2, fingerprintBits: 9, keyedHash: true }, Infinity),
    filledFilterBytes({ bucketCount: 512, bucketSize: 4, fingerprintBits: 13, seed: 6, multiplyShiftHash: true }, 1500),
    filledFilterBytes({ bucketCount: 1000, bucketSize: 4, fingerprintBits: 13, semiSort: true, multiplyShiftHash: true }, 3000),
    filledFilterBytes({ bucketCount: 2, bucketSize: 1, fingerprintBits: 4, multiplyShiftHash: true }, Infinity),
    new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', 'golden-f12-b4-m1024-seed42-mulshift.cf'))),
    new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', 'golden-f13-b4-m1000-seed42-semisorted-mulshift.cf'))),
    new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', 'golden-f12-b4-m1024-seed42-mulshift-mixed.cf'))),
    new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', 'golden-f13-b4-m1000-seed42-semisorted-mulshift-mixed.cf'))),
  ];
  // A filter that lives through the whole test: its contents must survive every bad input.
  witness = new CuckooFilter({ bucketCount: 256, bucketSize: 4, fingerprintBits: 16, seed: 5 });
  expect(witness.addMany(witnessItems)).toBe(witnessItems.length);
});

afterAll(() => witness.dispose());

describe('headers declaring huge tables are refused before anything is allocated', () => {
  test('log2 m = 32, f = 32, b = 8 (a 128 GiB table) is a RangeError, not an allocation', () => {
    const before = wasmHeapBytes();
    const bytes = header({ f: 32, b: 8, log2m: 32, payload: consistentPayload(32, 8, 2n ** 32n) });
    expect(() => CuckooFilter.fromBytes(bytes)).toThrow(RangeError);
    expect(() => CuckooFilter.fromBytes(bytes)).toThrow(
      'CuckooFilter.fromBytes: the table would exceed the maximum table size (2 GiB for a cuckoo filter in WebAssembly, 1 TiB natively; 2^32 bits for a Bloom filter): ask for a smaller capacity or shape',
    );
    expect(wasmHeapBytes()).toBe(before);
  });

  test('every shape, declared consistently in a 64-byte input: too large above 2 GiB, truncated below', () => {
    const before = wasmHeapBytes();
    let tooLarge = 0;
    const shapes: Array<[f: number, b: number, semiSorted: boolean]> = [];
    for (let f = 2; f <= 32; f++) for (const b of [1, 2, 4, 8]) shapes.push([f, b, false]);
    for (let f = 5; f <= 32; f++) shapes.push([f, 4, true]);
    for (const [f, b, semiSorted] of shapes) {
      for (let log2m = 0; log2m <= 32; log2m++) {
        const payload = consistentPayload(f, b, 1n << BigInt(log2m), semiSorted);
        const bytes = header({ f, b, log2m, payload, semiSorted });
        const expected = payload + TABLE_PADDING > MAX_TABLE_BYTES ? TOO_LARGE : 'TRUNCATED';
        expect([f, b, log2m, semiSorted, actualOutcome(bytes)]).toEqual([f, b, log2m, semiSorted, expected]);
        if (expected === TOO_LARGE) tooLarge++;
      }
    }
    expect(tooLarge).toBeGreaterThan(500);
    expect(wasmHeapBytes()).toBe(before);
  });

  test('version 2 headers of the largest counts, 2^32 - 1 buckets, are judged alike', () => {
    const before = wasmHeapBytes();
    for (const [f, b, semiSorted] of [[32, 8, false], [2, 1, false], [5, 4, true], [13, 4, false]] as const) {
      for (const bucketCount of [2n ** 32n - 1n, 2n ** 31n + 1n, 3n * 2n ** 26n, 1000n]) {
        const payload = consistentPayload(f, b, bucketCount, semiSorted);
        const bytes = header({ f, b, bucketCount, payload, semiSorted });
        const expected = payload + TABLE_PADDING > MAX_TABLE_BYTES ? TOO_LARGE : 'TRUNCATED';
        expect([f, b, bucketCount, actualOutcome(bytes)]).toEqual([f, b, bucketCount, expected]);
      }
    }
    expect(wasmHeapBytes()).toBe(before);
  });

  test('payload lengths whose sums would wrap around 2^64 or 2^32 are bad parameters', () => {
    const wrapping = [2n ** 64n - 1n, 2n ** 64n - 64n, 2n ** 64n - 64n + 100n, 2n ** 63n, 2n ** 32n - 1n, 2n ** 32n - 64n + 100n, 2n ** 31n];
    for (const payload of wrapping) {
      for (const [f, b, log2m] of [[12, 4, 10], [32, 8, 32], [2, 1, 0]] as const) {
        for (const length of [64, 100, 200]) {
          const bytes = header({ f, b, log2m, payload, length });
          expect([payload, f, b, log2m, length, actualOutcome(bytes)]).toEqual([payload, f, b, log2m, length, 'BAD_PARAMETERS']);
        }
      }
    }
  });
});

test('100,000 random and mutated inputs each load or fail exactly as FORMAT.md says; memory stays flat', () => {
  const random = randomSource(20240611);
  const randomBytes = (length: number): Uint8Array => {
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) bytes[i] = random(256);
    return bytes;
  };
  const pick = <T>(values: readonly T[]): T => values[random(values.length)]!;
  const extremeU64 = [0n, 1n, 7n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 37n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n - 56n];
  const fieldValues: Array<[offset: number, width: 1 | 2 | 4 | 8, values: readonly bigint[]]> = [
    [4, 1, [0n, 1n, 2n, 3n, 4n, 5n, 6n, 255n]],
    [5, 1, [0n, 1n, 2n, 3n, 4n, 128n]],
    [6, 1, [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 255n]],
    [7, 1, [0n, 1n, 2n, 31n, 32n, 33n, 255n]],
    [8, 1, [0n, 1n, 2n, 3n, 4n, 8n, 16n, 255n]],
    [9, 1, [0n, 1n, 30n, 31n, 32n, 33n, 64n, 255n]],
    [10, 2, [1n, 256n, 65535n]],
    [12, 4, [0n, 1_000_000n, 1_000_001n, 2n ** 32n - 1n]],
    [32, 8, extremeU64],
    [40, 4, [0n, 1n, 2n ** 32n - 1n]],
    [44, 4, [0n, 1n, 2n ** 32n - 1n]],
    [48, 8, extremeU64],
    [56, 8, [0n, 1n, 2n, 3n, 12n, 1000n, 1024n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 1n, 2n ** 64n - 1n]],
  ];
  const setField = (bytes: Uint8Array, offset: number, width: number, value: bigint): void => {
    for (let i = 0; i < width && offset + i < bytes.length; i++) bytes[offset + i] = Number((value >> BigInt(8 * i)) & 0xffn);
  };

  // Each maker returns an input and whether it is still exactly the valid filter it came from.
  const makers: Array<[name: string, weight: number, make: () => [Uint8Array, Uint8Array | undefined]]> = [
    ['random garbage', 10, () => [randomBytes(random(300)), undefined]],
    ['garbage behind magic and version', 10, () => {
      const bytes = randomBytes(5 + random(200));
      bytes.set([...MAGIC, 1 + random(2)]);
      return [bytes, undefined];
    }],
    ['truncated', 12, () => {
      const source = pick(validInputs);
      return [source.slice(0, random(source.length)), undefined];
    }],
    ['extended', 6, () => {
      const source = pick(validInputs);
      const bytes = new Uint8Array(source.length + 1 + random(100));
      bytes.set(source);
      bytes.set(randomBytes(bytes.length - source.length), source.length);
      return [bytes, undefined];
    }],
    ['bit flips', 22, () => {
      const source = pick(validInputs);
      const bytes = source.slice();
      for (let flips = 1 + random(8); flips > 0; flips--) bytes[random(bytes.length)]! ^= 1 << random(8);
      return [bytes, source];
    }],
    ['a header byte replaced', 15, () => {
      const source = pick(validInputs);
      const bytes = source.slice();
      bytes[random(64)] = random(256);
      return [bytes, source];
    }],
    ['a header field set to an extreme', 15, () => {
      const source = pick(validInputs);
      const bytes = source.slice();
      for (let fields = 1 + random(3); fields > 0; fields--) {
        const [offset, width, values] = pick(fieldValues);
        setField(bytes, offset, width, pick(values));
      }
      return [bytes, source];
    }],
    ['a huge consistent header', 5, () => {
      const semiSorted = random(4) === 0;
      const [f, b, log2m] = semiSorted ? [5 + random(28), 4, 20 + random(13)] : [2 + random(31), pick([1, 2, 4, 8]), 20 + random(13)];
      // Version 1 with m = 2^log2m, or version 2 with m just below it (odd, so not a power of two).
      const bucketCount = random(2) === 0 ? undefined : (1n << BigInt(log2m)) - 1n - 2n * BigInt(random(1000));
      const payload = consistentPayload(f, b, bucketCount ?? 1n << BigInt(log2m), semiSorted);
      return [header({ f, b, log2m, bucketCount, payload, semiSorted, length: 56 + random(100) }), undefined];
    }],
    ['a valid filter', 5, () => {
      const source = pick(validInputs);
      return [source.slice(), source];
    }],
  ];
  const totalWeight = makers.reduce((sum, [, weight]) => sum + weight, 0);
  const makeInput = (): [string, Uint8Array, boolean] => {
    let ticket = random(totalWeight);
    for (const [name, weight, make] of makers) {
      if (ticket < weight) {
        const [bytes, source] = make();
        const unmodified = source !== undefined && bytes.length === source.length && bytes.every((x, i) => x === source[i]);
        // Some inputs are views into a larger buffer, or Node Buffers: only the viewed bytes count.
        const form = random(4);
        if (form === 0) {
          const backing = randomBytes(bytes.length + 32);
          backing.set(bytes, 16);
          return [name, backing.subarray(16, 16 + bytes.length), unmodified];
        }
        return [name, form === 1 ? Buffer.from(bytes) : bytes, unmodified];
      }
      ticket -= weight;
    }
    throw new Error('unreachable');
  };

  const outcomes = new Map<string, number>();
  const total = 100_000;
  const warmUp = 2_000;
  // The largest inputs first, so that warm-up sees the largest temporary buffers.
  for (const source of validInputs) expect(actualOutcome(source)).toBe(LOADS);
  let heapAfterWarmUp = 0;
  for (let i = 0; i < total; i++) {
    if (i === warmUp) heapAfterWarmUp = wasmHeapBytes();
    const [name, bytes, unmodified] = makeInput();
    const expected = expectedOutcome(bytes, unmodified);
    const actual = actualOutcome(bytes);
    if (actual !== expected) {
      throw new Error(`input ${i} (${name}, ${bytes.length} bytes, head ${Buffer.from(bytes.subarray(0, 64)).toString('hex')}): ` +
        `fromBytes gave ${actual}, FORMAT.md says ${expected}`);
    }
    outcomes.set(actual, (outcomes.get(actual) ?? 0) + 1);
  }
  expect(wasmHeapBytes()).toBe(heapAfterWarmUp);
  // Every kind of outcome was reached many times.
  for (const outcome of ['BAD_MAGIC', 'UNSUPPORTED_VERSION', 'TRUNCATED', 'BAD_PARAMETERS', TOO_LARGE, 'INCONSISTENT', 'CHECKSUM_MISMATCH', LOADS]) {
    expect([outcome, outcomes.get(outcome) ?? 0]).toEqual([outcome, expect.any(Number)]);
    expect(outcomes.get(outcome)).toBeGreaterThan(100);
  }

  // The module is still usable, and the filter that lived through it all is intact.
  expect(witness.hasMany(witnessItems).every((answer) => answer === 1)).toBe(true);
  expect(witness.size).toBe(witnessItems.length);
  using fresh = CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  expect(fresh.add('after')).toBe(true);
  expect(fresh.has('after')).toBe(true);
  using copy = CuckooFilter.fromBytes(fresh.toBytes());
  expect(copy.has('after')).toBe(true);
});

test('a FormatError from fromBytes is a CuckooFilterError naming the call', () => {
  const error = (() => {
    try {
      CuckooFilter.fromBytes(header({ f: 40, b: 4, log2m: 10, payload: 0n }));
    } catch (caught) {
      return caught;
    }
    return undefined;
  })();
  expect(error).toBeInstanceOf(CuckooFilterError);
  expect(error).toMatchObject({ name: 'FormatError', code: 'BAD_PARAMETERS' });
  expect((error as Error).message).toBe('CuckooFilter.fromBytes: the stored parameters are invalid');
});
