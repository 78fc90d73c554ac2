// What an item is: a string is its UTF-8 bytes, a view the bytes it views, a
// number or bigint an 8-byte int64; and the items every method refuses.
import { CuckooFilter, init } from 'cuckoo-wasm';

beforeAll(() => init());

// With 32-bit fingerprints a false match between two distinct items has odds
// of about 2b / 2^32, so "same item" and "different item" can be asserted.
let filter: CuckooFilter;
beforeEach(() => {
  filter = new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 32, seed: 1 });
});
afterEach(() => filter.dispose());

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('one byte encoding per item', () => {
  test.each([
    ['ASCII', 'abc'],
    ['empty', ''],
    ['Latin-1', 'héllo wörld'],
    ['CJK', '布谷鸟过滤器'],
    ['emoji (surrogate pair)', 'cuckoo 🐦'],
    ['lone surrogate (encoded as U+FFFD)', 'a\uD800b'],
    ['long', 'x'.repeat(100_000) + 'é'],
  ])('a %s string is its UTF-8 bytes', (_, text) => {
    filter.add(text);
    expect(filter.has(utf8(text))).toBe(true);
    expect(filter.count(text)).toBe(1);
  });

  test('other views are their bytes', () => {
    const words = new Uint16Array([0x6261, 0x0063]); // little-endian bytes 61 62 63 00
    filter.add(words);
    expect(filter.has(new Uint8Array([0x61, 0x62, 0x63, 0x00]))).toBe(true);
    expect(filter.has(new DataView(words.buffer))).toBe(true);
    const backing = new Uint8Array([9, 1, 2, 3, 9]);
    filter.add(backing.subarray(1, 4));
    expect(filter.has(new Uint8Array([1, 2, 3]))).toBe(true);
    expect(filter.has(backing)).toBe(false);
  });

  test('a number is the 8-byte little-endian int64, equal to the same bigint', () => {
    const cases: Array<[number, bigint]> = [
      [0, 0n],
      [5, 5n],
      [-1, -1n],
      [2 ** 32, 2n ** 32n],
      [Number.MAX_SAFE_INTEGER, 2n ** 53n - 1n],
      [Number.MIN_SAFE_INTEGER, -(2n ** 53n) + 1n],
    ];
    for (const [number, big] of cases) {
      filter.add(number);
      expect(filter.has(big)).toBe(true);
      const bytes = new Uint8Array(8);
      new DataView(bytes.buffer).setBigInt64(0, big, true);
      expect(filter.has(bytes)).toBe(true);
    }
    // -1 and 2^64 - 1 have the same 8 bytes.
    expect(filter.has(2n ** 64n - 1n)).toBe(true);
  });

  test("'5' and 5 are different items", () => {
    filter.add(5);
    expect(filter.has('5')).toBe(false);
    filter.add('x');
    expect(filter.has(new Uint8Array([0x78, 0, 0, 0, 0, 0, 0, 0]))).toBe(false);
  });

  test('integer typed arrays in batches are the same items as their numbers', () => {
    expect(filter.addMany(new Uint32Array([1, 4294967295]))).toBe(2);
    expect(filter.addMany(new Int32Array([-7, 2147483647]))).toBe(2);
    expect(filter.addMany(new Float64Array([-(2 ** 40), 2 ** 53 - 1]))).toBe(2);
    expect(filter.addMany(new BigUint64Array([2n ** 63n]))).toBe(1);
    expect(filter.addMany(new BigInt64Array([-3n]))).toBe(1);
    for (const item of [1, 4294967295, -7, 2147483647, -(2 ** 40), 2 ** 53 - 1, -(2n ** 63n), -3]) {
      expect(filter.has(item)).toBe(true);
    }
    expect(Array.from(filter.hasMany([1, -7n, 2n ** 63n, 8]))).toEqual([1, 1, 1, 0]);
    // A Uint8Array batch is a batch of small numbers, not one byte string.
    expect(Array.from(filter.hasMany(new Uint8Array([1, 2])))).toEqual([1, 0]);
  });
});

describe('rejected items name the method and the rule', () => {
  test.each([
    ['1.5', 1.5, RangeError, /safe integer/],
    ['NaN', NaN, RangeError, /safe integer/],
    ['Infinity', Infinity, RangeError, /safe integer/],
    ['2^53', 2 ** 53, RangeError, /safe integer/],
    ['2^64n', 2n ** 64n, RangeError, /2\^64 - 1/],
    ['-(2^63)-1n', -(2n ** 63n) - 1n, RangeError, /-\(2\^63\)/],
    ['null', null, TypeError, /got null/],
    ['undefined', undefined, TypeError, /got undefined/],
    ['boolean', true, TypeError, /got boolean true/],
    ['object', { a: 1 }, TypeError, /got an object \(Object\)/],
    ['array', [1, 2], TypeError, /got an object \(Array\)/],
    ['ArrayBuffer', new ArrayBuffer(4), TypeError, /got an object \(ArrayBuffer\)/],
    ['symbol', Symbol('s'), TypeError, /got symbol/],
    ['function', () => 1, TypeError, /got function/],
  ])('%s', (_, item, errorType, pattern) => {
    for (const method of ['add', 'has', 'delete', 'count', 'addUnique'] as const) {
      const call = () => (filter[method] as (x: unknown) => unknown)(item);
      expect(call).toThrow(errorType);
      expect(call).toThrow(new RegExp(`CuckooFilter\\.${method}: item`));
      expect(call).toThrow(pattern);
    }
    expect(filter.size).toBe(0);
  });

  test('batch arguments that are not iterables', () => {
    for (const bad of [42, null, undefined, { length: 1 }, 'abc']) {
      expect(() => filter.addMany(bad as never)).toThrow(TypeError);
      expect(() => filter.hasMany(bad as never)).toThrow(/CuckooFilter\.hasMany: items must be an iterable/);
    }
    expect(() => filter.addMany('abc' as never)).toThrow(/a string is one item/);
  });
});
