// The facts the TypeScript layer reads from the core instead of restating them
// (bindings/facts_exports.cpp): every byte-format status becomes a FormatError
// with one of the codes the public type lists, every other failure a
// RangeError, and each option's rule has the shape the TypeErrors quote.
import { CuckooFilter, CuckooFilterError, FormatError, init, ScalableCuckooFilter } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';
import { errorForStatus, FORMAT_ERROR_CODES } from '../../dist/cjs/errors';
import { optionDefault, optionRule, statusErrorCode, statusFormatCode, statusText } from '../../dist/cjs/facts';
import { requireRuntime } from '../../dist/cjs/loader';

beforeAll(() => init());

const runtime = () => requireRuntime('facts.test');
// The core's facts as this test reads them.
const core = () => ({
  statusOk: runtime().statusOk,
  statusText: (status: number) => statusText(runtime(), status),
  statusFormatCode: (status: number) => statusFormatCode(runtime(), status),
  statusErrorCode: (status: number) => statusErrorCode(runtime(), status),
  optionRule: (option: string) => optionRule(runtime(), option),
  optionDefault: (option: string) => optionDefault(runtime(), option),
});

// cuckoo::Status is a uint8_t enum: these are all the values it can have.
const everyStatus = Array.from({ length: 256 }, (_, status) => status);

test('the FormatError codes of the public type are exactly those the core gives byte-format statuses', () => {
  const coreCodes = everyStatus.map((status) => core().statusFormatCode(status)).filter((code) => code !== '');
  expect(new Set(coreCodes).size).toBe(coreCodes.length);
  expect([...coreCodes].sort()).toEqual([...FORMAT_ERROR_CODES].sort());
});

test('a byte-format status becomes a FormatError with its code, a merge of differing filters a CuckooFilterError, any other failure a RangeError', () => {
  for (const status of everyStatus) {
    if (status === core().statusOk) continue;
    const error = errorForStatus(runtime(), status, 'context');
    const code = core().statusFormatCode(status);
    const errorCode = core().statusErrorCode(status);
    if (errorCode !== '') {
      expect(error).toBeInstanceOf(CuckooFilterError);
      expect((error as CuckooFilterError).code).toBe(errorCode);
    } else if (code === '') {
      expect(error).toBeInstanceOf(RangeError);
    } else {
      expect(error).toBeInstanceOf(FormatError);
      expect((error as FormatError).code).toBe(code);
    }
    expect(error.message).toBe(`context: ${core().statusText(status)}`);
  }
});

test('the core names each option first in its rule, as the TypeErrors assume', () => {
  for (const option of ['bucketCount', 'bucketSize', 'fingerprintBits', 'maxKicks', 'fpr', 'bitCount', 'hashCount', 'initialCapacity', 'growth']) {
    expect(core().optionRule(option)).toMatch(new RegExp(`^${option} must be \\S`));
  }
  expect(core().optionRule('no such option')).toBe('');
});

test('a range error quotes the core sentence and the value it got, a type error the same rule', () => {
  const rule = core().optionRule('fingerprintBits');
  expect(() => new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 40 })).toThrow(
    new RangeError(`new CuckooFilter: ${rule}, got 40`),
  );
  expect(() => new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: '12' as unknown as number })).toThrow(
    new TypeError(`new CuckooFilter: fingerprintBits must be a number (${rule.replace('fingerprintBits must be ', '')}), got "12"`),
  );
  expect(() => new BloomFilter({ bitCount: 64, hashCount: 2.5 })).toThrow(
    new RangeError(`new BloomFilter: ${core().optionRule('hashCount')}, got 2.5`),
  );
});

test('the core gives a default for the options a call may leave out, NaN for those it must give', () => {
  expect(['maxKicks', 'fpr', 'growth', 'initialCapacity'].map(core().optionDefault)).toEqual([500, 0.001, 1.2, 100]);
  for (const option of ['bucketCount', 'bucketSize', 'fingerprintBits', 'capacity', 'bitCount', 'hashCount', '', 'no such option']) {
    expect(core().optionDefault(option)).toBeNaN();
  }
});

test('a filter made without an option has the core default', () => {
  using filter = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8 });
  expect(filter.params.maxKicks).toBe(core().optionDefault('maxKicks'));
  using growable = new ScalableCuckooFilter();
  const { initialCapacity, fpr, growth, maxKicks } = growable.params;
  expect({ initialCapacity, fpr, growth, maxKicks }).toEqual({
    initialCapacity: core().optionDefault('initialCapacity'),
    fpr: core().optionDefault('fpr'),
    growth: core().optionDefault('growth'),
    maxKicks: core().optionDefault('maxKicks'),
  });
});
