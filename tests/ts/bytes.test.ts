// toBytes and CuckooFilter.fromBytes in the wasm build: the golden fixtures the
// native core wrote, round trips, and invalid bytes as FormatErrors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter, CuckooFilterError, FormatError, init } from 'cuckoo-wasm';

beforeAll(() => init());

const fixtureDir = join(__dirname, '..', 'fixtures');
// The plain table and its semi-sorted twin, with a power-of-two bucket count
// (format version 1) and with 1,000 buckets (version 2), all written by the native core.
const goldenFixtures = [
  'golden-f12-b4-m1024-seed42',
  'golden-f13-b4-m1024-seed42-semisorted',
  'golden-f12-b4-m1000-seed42',
  'golden-f13-b4-m1000-seed42-semisorted',
].map((name) => {
  const description = JSON.parse(readFileSync(join(fixtureDir, `${name}.json`), 'utf8'));
  return { name, description, bytes: new Uint8Array(readFileSync(join(fixtureDir, description.file))) };
});

function smallFilter(): CuckooFilter {
  const filter = new CuckooFilter({ bucketCount: 8, bucketSize: 2, fingerprintBits: 9, seed: 3 });
  for (let i = 0; filter.add(i); i++);
  return filter;
}

function formatErrorOf(bytes: Uint8Array): FormatError | undefined {
  try {
    CuckooFilter.fromBytes(bytes).dispose();
    return undefined;
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
}

describe.each(goldenFixtures)('the golden fixture $name written by the native core', ({ description, bytes }) => {
  const params = { semiSort: false, keyedHash: false, multiplyShiftHash: false, ...description.params, seed: BigInt(description.params.seed) };

  test('loads in wasm and answers every probe as recorded', () => {
    using filter = CuckooFilter.fromBytes(bytes);
    expect(filter.params).toEqual(params);
    expect(filter.size).toBe(description.itemCount);
    for (const probe of description.probes) {
      expect([probe.item, filter.has(probe.item)]).toEqual([probe.item, probe.contains]);
    }
    expect(filter.toBytes()).toEqual(bytes);
  });

  test('rebuilding it with the wasm core gives the same bytes', () => {
    using filter = new CuckooFilter({ ...description.params, bucketSize: 4 });
    for (const step of description.recipe) {
      for (let i = step.first; i <= step.last; i++) {
        const item = `${step.prefix}${i}`;
        expect(step.operation === 'insert' ? filter.add(item) : filter.delete(item)).toBe(true);
      }
    }
    expect(filter.toBytes()).toEqual(bytes);
  });
});

describe('round trips', () => {
  test.each([
    [1, 2, 2],
    [16, 1, 7],
    [64, 2, 13],
    [256, 4, 12],
    [128, 8, 32],
  ] as const)('m=%i b=%i f=%i, filled to its first failure', (bucketCount, bucketSize, fingerprintBits) => {
    using filter = new CuckooFilter({ bucketCount, bucketSize, fingerprintBits, seed: 99 });
    const stored: number[] = [];
    for (let i = 0; filter.add(i); i++) stored.push(i);
    expect(filter.full).toBe(true);
    const bytes = filter.toBytes();
    using copy = CuckooFilter.fromBytes(bytes);
    expect(copy.toBytes()).toEqual(bytes);
    expect(copy.size).toBe(filter.size);
    expect(copy.stashed).toBe(1);
    expect(copy.full).toBe(false); // `full` says what the last add did, and no add was made on the copy
    expect(copy.hasMany(stored).every((a) => a === 1)).toBe(true);
    // The eviction generator's state travels too: the same next steps give the same bytes.
    for (const f of [filter, copy]) {
      f.delete(stored[0]!);
      f.add(-1);
      f.add(-2);
    }
    expect(copy.toBytes()).toEqual(filter.toBytes());
  });

  test('an empty filter', () => {
    using filter = CuckooFilter.create({ capacity: 10, fpr: 0.1 });
    using copy = CuckooFilter.fromBytes(filter.toBytes());
    expect(copy.size).toBe(0);
    expect(copy.params).toEqual(filter.params);
  });
});

describe('invalid bytes are FormatErrors with the failed check as code', () => {
  test('bad magic, version, parameters, checksum, trailing bytes', () => {
    using filter = smallFilter();
    const bytes = filter.toBytes();
    const corrupt = (offset: number, value: number) => {
      const copy = bytes.slice();
      copy[offset] = value;
      return copy;
    };
    expect(formatErrorOf(corrupt(0, 0x41))?.code).toBe('BAD_MAGIC');
    expect(formatErrorOf(new TextEncoder().encode('{"not":"a filter"}'))?.code).toBe('BAD_MAGIC');
    expect(formatErrorOf(corrupt(4, 3))?.code).toBe('UNSUPPORTED_VERSION');
    // A version 1 header read as version 2: its hash id (1) disagrees with the version.
    expect(formatErrorOf(corrupt(4, 2))?.code).toBe('BAD_PARAMETERS');
    expect(formatErrorOf(corrupt(7, 40))?.code).toBe('BAD_PARAMETERS'); // 40 fingerprint bits
    expect(formatErrorOf(corrupt(8, 3))?.code).toBe('BAD_PARAMETERS'); // bucket size 3
    expect(formatErrorOf(corrupt(60, bytes[60]! ^ 1))?.code).toBe('CHECKSUM_MISMATCH');
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    expect(formatErrorOf(longer)?.code).toBe('INCONSISTENT');
  });

  test('every truncation, down to zero bytes, is TRUNCATED', () => {
    using filter = smallFilter();
    const bytes = filter.toBytes();
    for (let length = 0; length < bytes.length; length++) {
      const error = formatErrorOf(bytes.subarray(0, length));
      expect([length, error?.code]).toEqual([length, 'TRUNCATED']);
    }
  });

  test('FormatError is a CuckooFilterError and names fromBytes', () => {
    const error = formatErrorOf(new Uint8Array([1, 2, 3, 4, 5]));
    expect(error).toBeInstanceOf(CuckooFilterError);
    expect(error?.name).toBe('FormatError');
    expect(error?.message).toMatch(/^CuckooFilter\.fromBytes: /);
  });

  test('1,000 random inputs load or throw FormatError, and the module keeps working', () => {
    using filter = smallFilter();
    const valid = filter.toBytes();
    let state = 12345;
    const random = () => {
      state = (state * 1103515245 + 12345) >>> 0;
      return state >>> 8;
    };
    for (let i = 0; i < 1000; i++) {
      const input = i % 2 === 0 ? new Uint8Array(random() % 200) : valid.slice();
      if (i % 2 === 0) for (let k = 0; k < input.length; k++) input[k] = random() & 0xff;
      else for (let flips = 1 + (random() % 4); flips > 0; flips--) input[random() % input.length]! ^= 1 << (random() % 8);
      formatErrorOf(input); // throws if anything but a FormatError escapes
    }
    expect(filter.has(0)).toBe(true);
  });

  test('a non-Uint8Array argument is a TypeError', () => {
    expect(() => CuckooFilter.fromBytes([1, 2, 3] as never)).toThrow(TypeError);
    expect(() => CuckooFilter.fromBytes(new ArrayBuffer(8) as never)).toThrow(/fromBytes: bytes must be a Uint8Array/);
  });
});
