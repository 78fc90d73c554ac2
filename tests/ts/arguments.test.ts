import { CuckooFilter, init } from 'cuckoo-wasm';

beforeAll(() => init());

type Options = Record<string, unknown>;
const valid: Options = { bucketCount: 1024, bucketSize: 4, fingerprintBits: 12 };

// Each row: a bad option value, the error type, and what the message must say.
const constructorCases: Array<[string, Options, ErrorConstructor, RegExp]> = [
  ['bucketCount string', { bucketCount: '1024' }, TypeError, /bucketCount must be a number/],
  ['bucketCount 0', { bucketCount: 0 }, RangeError, /bucketCount must be a power of two from 1 to 2\^32, got 0/],
  ['bucketCount 1000', { bucketCount: 1000 }, RangeError, /bucketCount .* got 1000/],
  ['bucketCount 2^33', { bucketCount: 2 ** 33 }, RangeError, /bucketCount/],
  ['bucketCount -4', { bucketCount: -4 }, RangeError, /bucketCount/],
  ['bucketCount NaN', { bucketCount: NaN }, RangeError, /bucketCount/],
  ['bucketCount 16.5', { bucketCount: 16.5 }, RangeError, /bucketCount/],
  ['bucketSize 3', { bucketSize: 3 }, RangeError, /bucketSize must be 1, 2, 4 or 8, got 3/],
  ['bucketSize 16', { bucketSize: 16 }, RangeError, /bucketSize must be 1, 2, 4 or 8/],
  ['bucketSize missing', { bucketSize: undefined }, TypeError, /bucketSize must be a number/],
  ['fingerprintBits 1', { fingerprintBits: 1 }, RangeError, /fingerprintBits must be an integer from 2 to 32, got 1/],
  ['fingerprintBits 33', { fingerprintBits: 33 }, RangeError, /fingerprintBits .* got 33/],
  ['fingerprintBits Infinity', { fingerprintBits: Infinity }, RangeError, /fingerprintBits/],
  ['fingerprintBits bigint', { fingerprintBits: 12n }, TypeError, /fingerprintBits must be a number/],
  ['maxKicks -1', { maxKicks: -1 }, RangeError, /maxKicks must be an integer from 0 to 1000000, got -1/],
  ['maxKicks 1.5', { maxKicks: 1.5 }, RangeError, /maxKicks/],
  ['maxKicks 2e6', { maxKicks: 2e6 }, RangeError, /maxKicks/],
  ['seed -1', { seed: -1 }, RangeError, /seed must be a non-negative safe integer/],
  ['seed 0.5', { seed: 0.5 }, RangeError, /seed/],
  ['seed 2^64n', { seed: 2n ** 64n }, RangeError, /seed must be from 0 to 2\^64 - 1/],
  ['seed string', { seed: '1' }, TypeError, /seed must be a number or a bigint/],
  ['table over the 2 GiB limit', { bucketCount: 2 ** 32, bucketSize: 8, fingerprintBits: 32 }, RangeError, /maximum table size/],
];

test.each(constructorCases)('new CuckooFilter: %s', (_, override, errorType, pattern) => {
  const call = () => new CuckooFilter({ ...valid, ...override } as never);
  expect(call).toThrow(errorType);
  expect(call).toThrow(/^new CuckooFilter: /);
  expect(call).toThrow(pattern);
});

test.each([undefined, null, 42, 'options'])('new CuckooFilter(%p) is a TypeError', (options) => {
  expect(() => new CuckooFilter(options as never)).toThrow(/new CuckooFilter: options must be an object/);
});

const createCases: Array<[string, Options, ErrorConstructor, RegExp]> = [
  ['capacity 0', { capacity: 0, fpr: 0.01 }, RangeError, /capacity must be an integer from 1 to 2\^53 - 1, got 0/],
  ['capacity 1.5', { capacity: 1.5, fpr: 0.01 }, RangeError, /capacity/],
  ['capacity string', { capacity: '10', fpr: 0.01 }, TypeError, /capacity must be a number/],
  ['capacity too large for memory', { capacity: 2 ** 40, fpr: 0.01 }, RangeError, /maximum table size/],
  ['fpr 0', { capacity: 10, fpr: 0 }, RangeError, /fpr must be greater than 0 and less than 1, got 0/],
  ['fpr 1', { capacity: 10, fpr: 1 }, RangeError, /fpr .* got 1/],
  ['fpr NaN', { capacity: 10, fpr: NaN }, RangeError, /fpr/],
  ['fpr -0.1', { capacity: 10, fpr: -0.1 }, RangeError, /fpr/],
  ['fpr missing', { capacity: 10 }, TypeError, /fpr must be a number/],
  ['fpr below 32-bit fingerprints', { capacity: 10, fpr: 1e-10 }, RangeError, /wider than 32 bits/],
  ['seed -5', { capacity: 10, fpr: 0.01, seed: -5 }, RangeError, /seed/],
  ['maxKicks string', { capacity: 10, fpr: 0.01, maxKicks: '5' }, TypeError, /maxKicks must be a number/],
];

test.each(createCases)('CuckooFilter.create: %s', (_, options, errorType, pattern) => {
  const call = () => CuckooFilter.create(options as never);
  expect(call).toThrow(errorType);
  expect(call).toThrow(/^CuckooFilter.create: /);
  expect(call).toThrow(pattern);
});

test('a failed construction leaves the module usable', () => {
  expect(() => new CuckooFilter({ bucketCount: 2 ** 32, bucketSize: 8, fingerprintBits: 32 })).toThrow(RangeError);
  using filter = new CuckooFilter(valid as never);
  expect(filter.add('still works')).toBe(true);
});
