// Every public entry point of the library against bad arguments, in one
// table: the static and instance API of CuckooFilter, ScalableCuckooFilter and
// BloomFilter, and init.
// (The command line's argument errors are in cli.test.ts.)
// A row either fails with the documented error type (and code) and a message
// naming the call and the argument, or, for extreme but valid arguments (empty
// and 50 MB items, empty batches), returns what it should.
// items.test.ts holds the common item cases; this table adds what it does not
// cover rather than repeating it.
import { CuckooFilter, CuckooFilterError, FormatError, init, isInitialized, ScalableCuckooFilter } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';

type ErrorClass = abstract new (...args: never[]) => Error;

interface Fails {
  error: ErrorClass;
  code?: string;
  message: RegExp;
}
interface Returns {
  returns: unknown;
}
type Row = [what: string, call: () => unknown, expected: Fails | Returns];

const fails = (error: ErrorClass, message: RegExp, code?: string): Fails => ({ error, message, code });
const returns = (value: unknown): Returns => ({ returns: value });

/** A value as a row's title shows it: strings quoted, bigints with their n, -0 and {} as written. */
function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'bigint') return `${value}n`;
  if (Object.is(value, -0)) return '-0';
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/**
 * One row per value of an option: the call fails with the value's error type and
 * a message matching `message`, or the value's own, more exact pattern.
 */
function optionRows(
  option: string,
  call: (value: unknown) => () => unknown,
  message: RegExp,
  values: ReadonlyArray<readonly [value: unknown, error: ErrorClass, exactMessage?: RegExp]>,
): Row[] {
  return values.map(([value, error, exactMessage]) => [`${option} ${shown(value)}`, call(value), fails(error, exactMessage ?? message)]);
}

let live: CuckooFilter;
let disposed: CuckooFilter;
let liveBloom: BloomFilter;
let disposedBloom: BloomFilter;
let liveScalable: ScalableCuckooFilter;
let disposedScalable: ScalableCuckooFilter;

beforeAll(async () => {
  await init();
  live = new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 32, seed: 3 });
  disposed = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8 });
  disposed.dispose();
  liveBloom = new BloomFilter({ bitCount: 4096, hashCount: 3 });
  disposedBloom = BloomFilter.create({ capacity: 10, fpr: 0.01, blocked: true });
  disposedBloom.dispose();
  liveScalable = ScalableCuckooFilter.create(scalableOptions);
  disposedScalable = ScalableCuckooFilter.create(scalableOptions);
  // params is kept once read: a disposed filter still refuses it.
  expect(disposedScalable.params.fpr).toBe(scalableOptions.fpr);
  disposedScalable.dispose();
});

afterAll(() => {
  live.dispose();
  liveBloom.dispose();
  liveScalable.dispose();
});

afterEach(() => {
  live.clear();
  liveScalable.clear();
});

const shape = { bucketCount: 1024, bucketSize: 4, fingerprintBits: 12 } as const;
const construct = (override: Record<string, unknown>) => () => new CuckooFilter({ ...shape, ...override } as never);
const create = (override: Record<string, unknown>) => () => CuckooFilter.create({ capacity: 100, fpr: 0.01, ...override } as never);
const fromBytes = (bytes: unknown) => () => CuckooFilter.fromBytes(bytes as never);

const scalableOptions = { initialCapacity: 100, fpr: 0.01, seed: 3 } as const;
/** A ScalableCuckooFilter as each of its two entries makes it, with options `options`. */
const scalableEntries = [
  ['new ScalableCuckooFilter', (options: unknown) => () => new ScalableCuckooFilter(options as never)],
  ['ScalableCuckooFilter.create', (options: unknown) => () => ScalableCuckooFilter.create(options as never)],
] as const;
/** A filter of scalableOptions with `override`, then `use` of it (disposed after). */
const scalableWith = (override: Record<string, unknown>, use: (filter: ScalableCuckooFilter) => unknown) => () => {
  using filter = ScalableCuckooFilter.create({ ...scalableOptions, ...override } as never);
  return use(filter);
};

const bloom = (override: Record<string, unknown>) => () => new BloomFilter({ bitCount: 1024, hashCount: 3, ...override } as never);
const createBloom = (override: Record<string, unknown>) => () => BloomFilter.create({ capacity: 100, fpr: 0.01, ...override } as never);

const singleItemMethods = ['add', 'addUnique', 'has', 'count', 'delete'] as const;
const batchMethods = ['addMany', 'hasMany', 'deleteMany'] as const;
const getters = ['size', 'slotCount', 'loadFactor', 'stashed', 'byteLength', 'bitsPerItem', 'expectedFpr', 'fprBound', 'full', 'params'] as const;
const bloomSingleItemMethods = ['add', 'has', 'probePositions'] as const;
const bloomBatchMethods = ['addMany', 'hasMany'] as const;
const bloomGetters = ['size', 'bitCount', 'hashCount', 'byteLength', 'blocked', 'seed', 'bitsPerItem', 'expectedFpr'] as const;
const scalableGetters = ['size', 'bucketCount', 'slotBits', 'loadFactor', 'stashed', 'byteLength', 'bitsPerItem', 'fprBound', 'full', 'params'] as const;
const huge = (): string => 'x'.repeat(50_000_000);
const tooLargeView = (): Uint8Array => new Uint8Array(2 ** 31 + 5); // zero pages: no real memory

const rows: Row[] = [
  // new CuckooFilter(options)
  ...([undefined, null, 42, 'options'] as const).map((options): Row => [
    `new CuckooFilter(${shown(options)})`, () => new CuckooFilter(options as never), fails(TypeError, /^new CuckooFilter: options must be an object/),
  ]),
  ['new CuckooFilter(function)', () => new CuckooFilter((() => 1) as never), fails(TypeError, /^new CuckooFilter: options must be an object .*got function/)],
  ['new CuckooFilter(symbol)', () => new CuckooFilter(Symbol('o') as never), fails(TypeError, /^new CuckooFilter: options must be an object/)],
  ['new CuckooFilter([])', () => new CuckooFilter([] as never), fails(TypeError, /^new CuckooFilter: bucketCount must be a number .*got undefined/)],
  ...optionRows('bucketCount', (bucketCount) => construct({ bucketCount }), /^new CuckooFilter: bucketCount must be .*2\^32/, [
    ['1024', TypeError, /^new CuckooFilter: bucketCount must be a number/],
    [0, RangeError, /^new CuckooFilter: bucketCount must be an integer from 1 to 2\^32, got 0/],
    [1000.5, RangeError, /^new CuckooFilter: bucketCount .* got 1000\.5/],
    [2 ** 33, RangeError], [-4, RangeError], [NaN, RangeError], [16.5, RangeError],
    [Infinity, RangeError], [-Infinity, RangeError], [-0, RangeError], [2 ** 32 + 1, RangeError], [2 ** 53, RangeError],
    [Number.MAX_VALUE, RangeError], [1e-300, RangeError], [1024n, TypeError], [null, TypeError], [true, TypeError],
  ]),
  ...optionRows('bucketSize', (bucketSize) => construct({ bucketSize }), /^new CuckooFilter: bucketSize must be .*1, 2, 4 or 8/, [
    [3, RangeError, /^new CuckooFilter: bucketSize must be 1, 2, 4 or 8, got 3/],
    [16, RangeError, /^new CuckooFilter: bucketSize must be 1, 2, 4 or 8/],
    [undefined, TypeError, /^new CuckooFilter: bucketSize must be a number/],
    [NaN, RangeError], [Infinity, RangeError], [0, RangeError], [-1, RangeError], [2.5, RangeError], [5, RangeError], [7, RangeError],
    ['4', TypeError], [4n, TypeError], [null, TypeError],
  ]),
  ...optionRows('fingerprintBits', (fingerprintBits) => construct({ fingerprintBits }), /^new CuckooFilter: fingerprintBits must be .*from 2 to 32/, [
    [1, RangeError, /^new CuckooFilter: fingerprintBits must be an integer from 2 to 32, got 1/],
    [33, RangeError, /^new CuckooFilter: fingerprintBits .* got 33/],
    [12n, TypeError, /^new CuckooFilter: fingerprintBits must be a number/],
    [Infinity, RangeError], [NaN, RangeError], [-Infinity, RangeError], [0, RangeError], [-1, RangeError], [2.5, RangeError], [32.5, RangeError],
    ['12', TypeError], [null, TypeError], [undefined, TypeError],
  ]),
  ...optionRows('maxKicks', (maxKicks) => construct({ maxKicks }), /^new CuckooFilter: maxKicks must be .*0 to 1000000/, [
    [-1, RangeError, /^new CuckooFilter: maxKicks must be an integer from 0 to 1000000, got -1/],
    [1.5, RangeError], [2e6, RangeError],
    [NaN, RangeError], [Infinity, RangeError], [-0.5, RangeError], [1_000_001, RangeError], ['5', TypeError], [5n, TypeError], [null, TypeError],
  ]),
  ...optionRows('seed', (seed) => construct({ seed }), /^new CuckooFilter: seed must be .*(2\^64|bigint)/, [
    [-1, RangeError, /^new CuckooFilter: seed must be a non-negative safe integer/],
    [2n ** 64n, RangeError, /^new CuckooFilter: seed must be from 0 to 2\^64 - 1/],
    ['1', TypeError, /^new CuckooFilter: seed must be a number or a bigint/],
    [0.5, RangeError],
    [NaN, RangeError], [Infinity, RangeError], [-Infinity, RangeError], [2 ** 53, RangeError], [-1n, RangeError],
    [null, TypeError], [{}, TypeError], [true, TypeError],
  ]),
  ...optionRows('semiSort', (semiSort) => construct({ semiSort }), /^new CuckooFilter: semiSort must be a boolean, got /, [
    [null, TypeError], ['true', TypeError], [0, TypeError], [1n, TypeError],
  ]),
  ['semiSort with bucketSize 8', construct({ semiSort: true, bucketSize: 8 }), fails(RangeError, /^new CuckooFilter: semiSort needs bucketSize 4 and fingerprintBits from 5 to 32, got bucketSize 8/)],
  ['semiSort with fingerprintBits 2', construct({ semiSort: true, fingerprintBits: 2 }), fails(RangeError, /^new CuckooFilter: semiSort needs .*fingerprintBits 2/)],
  ['a table over the 2 GiB limit', construct({ bucketCount: 2 ** 32, bucketSize: 8, fingerprintBits: 32 }), fails(RangeError, /^new CuckooFilter: the table would exceed the maximum table size/)],

  // CuckooFilter.create(options)
  ...([undefined, null, 42, 'x', () => 1] as const).map((options): Row => [
    `CuckooFilter.create(${typeof options})`, () => CuckooFilter.create(options as never), fails(TypeError, /^CuckooFilter\.create: options must be an object/),
  ]),
  ...optionRows('capacity', (capacity) => create({ capacity }), /^CuckooFilter\.create: capacity must be .*from 1 to 2\^53 - 1/, [
    [0, RangeError, /^CuckooFilter\.create: capacity must be an integer from 1 to 2\^53 - 1, got 0/],
    ['10', TypeError, /^CuckooFilter\.create: capacity must be a number/],
    [1.5, RangeError],
    [NaN, RangeError], [Infinity, RangeError], [-Infinity, RangeError], [-1, RangeError], [2 ** 53, RangeError], [10n, TypeError], [null, TypeError], [true, TypeError],
  ]),
  ['capacity 2^40, too large for memory', create({ capacity: 2 ** 40 }), fails(RangeError, /^CuckooFilter\.create: the table would exceed the maximum table size/)],
  ...optionRows('fpr', (fpr) => create({ fpr }), /^CuckooFilter\.create: fpr must be .*greater than 0 and less than 1/, [
    [0, RangeError, /^CuckooFilter\.create: fpr must be greater than 0 and less than 1, got 0/],
    [1, RangeError, /^CuckooFilter\.create: fpr .* got 1/],
    [NaN, RangeError], [-0.1, RangeError],
    [Infinity, RangeError], [-Infinity, RangeError], [1.0000001, RangeError], [2, RangeError], ['0.01', TypeError], [1n, TypeError], [null, TypeError],
  ]),
  // Left out, fpr is 0.001: the smallest f with 2b / 2^f <= 0.001 is 13 for b = 4 (8 / 8192), whose
  // 13 / 0.95 bits per item beat b = 2's f = 12 at its lower load.
  ['create without fpr: fpr 0.001', () => {
    using filter = CuckooFilter.create({ capacity: 100 });
    return [filter.params.bucketSize, filter.params.fingerprintBits, filter.fprBound];
  }, returns([4, 13, 8 / 8192])],
  ['fpr 1e-10', create({ fpr: 1e-10 }), fails(RangeError, /^CuckooFilter\.create: the false-positive rate is too low: it would need fingerprints wider than 32 bits/)],
  ['fpr Number.MIN_VALUE', create({ fpr: Number.MIN_VALUE }), fails(RangeError, /^CuckooFilter\.create: the false-positive rate is too low: it would need fingerprints wider than 32 bits/)],
  ...optionRows('create maxKicks', (maxKicks) => create({ maxKicks }), /^CuckooFilter\.create: maxKicks must be/, [
    ['5', TypeError, /^CuckooFilter\.create: maxKicks must be a number/],
    [-1, RangeError], [NaN, RangeError], [1.5, RangeError], [1_000_001, RangeError], [5n, TypeError],
  ]),
  ...optionRows('create seed', (seed) => create({ seed }), /^CuckooFilter\.create: seed must be/, [
    [-5, RangeError],
    [NaN, RangeError], [2 ** 64, RangeError], [-1n, RangeError], [2n ** 64n, RangeError], ['x', TypeError], [null, TypeError],
  ]),
  ...optionRows('create semiSort', (semiSort) => create({ semiSort }), /^CuckooFilter\.create: semiSort must be a boolean/, [
    [null, TypeError], ['yes', TypeError], [1, TypeError],
  ]),

  // CuckooFilter.fromBytes(bytes)
  ...([
    ['undefined', undefined], ['null', null], ['a string', 'CKFW'], ['a number', 42], ['an array', [0x43, 0x4b]], ['a DataView', new DataView(new ArrayBuffer(64))],
    ['a Uint16Array', new Uint16Array(32)], ['an Int8Array', new Int8Array(64)], ['a Uint8ClampedArray', new Uint8ClampedArray(64)],
    ['an array-like', { length: 64, 0: 0x43 }],
  ] as const).map(([what, value]): Row => [`fromBytes(${what})`, fromBytes(value), fails(TypeError, /^CuckooFilter\.fromBytes: bytes must be a Uint8Array, got /)]),
  ['fromBytes(empty)', fromBytes(new Uint8Array(0)), fails(FormatError, /^CuckooFilter\.fromBytes: the data is truncated$/, 'TRUNCATED')],
  // Not a filter, whatever its size: the header says so before any copy is needed.
  ['fromBytes(2 GiB of zeros)', () => CuckooFilter.fromBytes(new Uint8Array(2 ** 31)), fails(FormatError, /^CuckooFilter\.fromBytes: not a cuckoo-wasm filter: bad magic bytes$/, 'BAD_MAGIC')],

  // Single items: add, addUnique, has, count, delete
  ...singleItemMethods.flatMap((method): Row[] => {
    const call = (item: () => unknown) => () => (live[method] as (x: unknown) => unknown)(item());
    const itemError = (error: ErrorClass, detail: RegExp) => fails(error, new RegExp(`^CuckooFilter\\.${method}: item${detail.source}`));
    return [
      [`${method}(-Infinity)`, call(() => -Infinity), itemError(RangeError, /: a number item must be a safe integer .*got -Infinity/)],
      [`${method}(-(2^53))`, call(() => -(2 ** 53)), itemError(RangeError, /: a number item must be a safe integer .*got -9007199254740992/)],
      [`${method}(Number.MIN_VALUE)`, call(() => Number.MIN_VALUE), itemError(RangeError, /: a number item must be a safe integer .*got 5e-324/)],
      [`${method}(new Date())`, call(() => new Date(0)), itemError(TypeError, / must be a string, .* got an object \(Date\)/)],
      [`${method}(new String('x'))`, call(() => new String('x')), itemError(TypeError, / must be a string, .* got an object \(String\)/)],
      [`${method}(new Number(5))`, call(() => new Number(5)), itemError(TypeError, / must be a string, .* got an object \(Number\)/)],
      [`${method}(a view over 2 GiB)`, call(tooLargeView), itemError(RangeError, / must be smaller than 2 GiB .*got 2147483653 bytes/)],
      [`${method}('') is an item`, call(() => ''), returns(method === 'count' ? 0 : method === 'add' || method === 'addUnique')],
      [`${method}(empty Uint8Array) is an item`, call(() => new Uint8Array(0)), returns(method === 'count' ? 0 : method === 'add' || method === 'addUnique')],
      [`${method}(-0) is the item 0`, call(() => -0), returns(method === 'count' ? 0 : method === 'add' || method === 'addUnique')],
    ];
  }),
  ['a 50 MB string is an item', () => [live.add(huge()), live.has(huge()), live.count(huge()), live.addUnique(huge()), live.delete(huge()), live.has(huge())], returns([true, true, 1, false, true, false])],
  ['a 50 MB string in batches', () => [live.addMany([huge(), 'small']), Array.from(live.hasMany([huge()])), live.deleteMany([huge()])], returns([2, [1], 1])],

  // Batches: addMany, hasMany, deleteMany
  ...batchMethods.flatMap((method): Row[] => {
    const call = (items: () => unknown) => () => (live[method] as (x: unknown) => unknown)(items());
    const itemsError = (error: ErrorClass, detail: RegExp) => fails(error, new RegExp(`^CuckooFilter\\.${method}: items${detail.source}`));
    function* yieldsBadThird(): Generator<unknown> {
      yield 'a';
      yield 'b';
      yield Symbol('c');
    }
    return [
      [`${method}(42)`, call(() => 42), itemsError(TypeError, / must be an iterable of items or an integer typed array, got number 42/)],
      [`${method}(null)`, call(() => null), itemsError(TypeError, / must be an iterable .*got null/)],
      [`${method}(ArrayBuffer)`, call(() => new ArrayBuffer(8)), itemsError(TypeError, / must be an iterable .*ArrayBuffer/)],
      [`${method}('abc')`, call(() => 'abc'), itemsError(TypeError, / must be an iterable .*a string is one item: wrap it in an array/)],
      [`${method}([NaN])`, call(() => [NaN]), itemsError(RangeError, /\[0\]: a number item must be a safe integer/)],
      [`${method}(['ok', Infinity])`, call(() => ['ok', Infinity]), itemsError(RangeError, /\[1\]: a number item must be a safe integer .*Infinity/)],
      [`${method}([, 1]) (a hole)`, call(() => [, 1]), itemsError(TypeError, /\[0\] must be a string, .*got undefined/)],
      [`${method}([[1]])`, call(() => [[1]]), itemsError(TypeError, /\[0\] must be a string, .*got an object \(Array\)/)],
      [`${method}(a Map)`, call(() => new Map([[1, 2]])), itemsError(TypeError, /\[0\] must be a string, .*got an object \(Array\)/)],
      [`${method}(a generator with a bad third item)`, call(yieldsBadThird), itemsError(TypeError, /\[2\] must be a string, .*got symbol/)],
      [`${method}(Float64Array [1, NaN])`, call(() => new Float64Array([1, NaN])), itemsError(RangeError, /\[1\]: a Float64Array element must be a safe integer .*got NaN/)],
      [`${method}(Float64Array [-Infinity])`, call(() => new Float64Array([-Infinity])), itemsError(RangeError, /\[0\]: a Float64Array element must be a safe integer/)],
      [`${method}(Float64Array [2^53])`, call(() => new Float64Array([2 ** 53])), itemsError(RangeError, /\[0\]: a Float64Array element .*got 9007199254740992/)],
      [`${method}(Float32Array [0.5])`, call(() => new Float32Array([0.5])), itemsError(RangeError, /\[0\]: a number item must be a safe integer .*got 0\.5/)],
      [`${method}([a view over 2 GiB])`, call(() => [tooLargeView()]), itemsError(RangeError, /\[0\] must be smaller than 2 GiB/)],
      [`${method}([]) is an empty batch`, call(() => []), returns(method === 'hasMany' ? new Uint8Array(0) : 0)],
      [`${method}(new BigInt64Array(0)) is an empty batch`, call(() => new BigInt64Array(0)), returns(method === 'hasMany' ? new Uint8Array(0) : 0)],
    ];
  }),

  // new BloomFilter(options) and BloomFilter.create(options)
  ...([undefined, 42, 'x', () => 1] as const).map((options): Row => [
    `new BloomFilter(${typeof options})`, () => new BloomFilter(options as never), fails(TypeError, /^new BloomFilter: options must be an object \{ bitCount, hashCount, blocked\?, seed\? \}/),
  ]),
  ...optionRows('bloom bitCount', (bitCount) => bloom({ bitCount }), /^new BloomFilter: bitCount must be .*from 1 to 2\^32/, [
    [NaN, RangeError], [Infinity, RangeError], [-1, RangeError], [null, TypeError], [64n, TypeError], [undefined, TypeError],
  ]),
  ...optionRows('bloom hashCount', (hashCount) => bloom({ hashCount }), /^new BloomFilter: hashCount must be .*from 1 to 32/, [
    [NaN, RangeError], [-Infinity, RangeError], [2.5, RangeError], ['3', TypeError], [null, TypeError],
  ]),
  ...optionRows('bloom blocked', (blocked) => bloom({ blocked }), /^new BloomFilter: blocked must be a boolean/, [
    [null, TypeError], ['true', TypeError], [0, TypeError],
  ]),
  ...optionRows('bloom seed', (seed) => bloom({ seed }), /^new BloomFilter: seed must be/, [
    [NaN, RangeError], [2 ** 53, RangeError], [-1n, RangeError], ['7', TypeError], [null, TypeError],
  ]),
  ...([undefined, null, 42] as const).map((options): Row => [
    `BloomFilter.create(${shown(options)})`, () => BloomFilter.create(options as never), fails(TypeError, /^BloomFilter\.create: options must be an object/),
  ]),
  ...optionRows('bloom create capacity', (capacity) => createBloom({ capacity }), /^BloomFilter\.create: capacity must be .*from 1 to 2\^53 - 1/, [
    [NaN, RangeError], [Infinity, RangeError], [-1, RangeError], [2 ** 53, RangeError], [10n, TypeError], [null, TypeError],
  ]),
  ...optionRows('bloom create fpr', (fpr) => createBloom({ fpr }), /^BloomFilter\.create: fpr must be .*greater than 0 and less than 1/, [
    [NaN, RangeError], [Infinity, RangeError], [-Infinity, RangeError], [null, TypeError],
  ]),
  // Left out, fpr is 0.001: m = ceil(1000 ln(1000) / (ln 2)^2) = 14378 bits, k = round(ln 2 * 14.378) = 10.
  ['bloom create without fpr: fpr 0.001', () => {
    using filter = BloomFilter.create({ capacity: 1000 });
    return [filter.bitCount, filter.hashCount];
  }, returns([14378, 10])],
  ['bloom create fpr Number.MIN_VALUE', createBloom({ fpr: Number.MIN_VALUE }), fails(RangeError, /^BloomFilter\.create: the false-positive rate is too low for a Bloom filter/)],
  ['bloom create blocked "no"', createBloom({ blocked: 'no' }), fails(TypeError, /^BloomFilter\.create: blocked must be a boolean/)],
  ['bloom create seed -1', createBloom({ seed: -1 }), fails(RangeError, /^BloomFilter\.create: seed must be/)],

  // BloomFilter items and batches
  ...bloomSingleItemMethods.flatMap((method): Row[] => {
    const call = (item: () => unknown) => () => (liveBloom[method] as (x: unknown) => unknown)(item());
    const itemError = (error: ErrorClass, detail: RegExp) => fails(error, new RegExp(`^BloomFilter\\.${method}: item${detail.source}`));
    return [
      [`bloom.${method}(NaN)`, call(() => NaN), itemError(RangeError, /: a number item must be a safe integer .*got NaN/)],
      [`bloom.${method}(null)`, call(() => null), itemError(TypeError, / must be a string, .*got null/)],
      [`bloom.${method}({})`, call(() => ({})), itemError(TypeError, / must be a string, .*got an object \(Object\)/)],
      [`bloom.${method}(2^64n)`, call(() => 2n ** 64n), itemError(RangeError, /: a bigint item must be from -\(2\^63\) to 2\^64 - 1/)],
      [`bloom.${method}(a view over 2 GiB)`, call(tooLargeView), itemError(RangeError, / must be smaller than 2 GiB/)],
    ];
  }),
  ['bloom: a 50 MB string and the empty string are items', () => [liveBloom.add(huge()), liveBloom.has(huge()), liveBloom.probePositions(huge()).length, liveBloom.has('')], returns([true, true, 3, false])],
  ...bloomBatchMethods.flatMap((method): Row[] => {
    const call = (items: () => unknown) => () => (liveBloom[method] as (x: unknown) => unknown)(items());
    const itemsError = (error: ErrorClass, detail: RegExp) => fails(error, new RegExp(`^BloomFilter\\.${method}: items${detail.source}`));
    return [
      [`bloom.${method}(undefined)`, call(() => undefined), itemsError(TypeError, / must be an iterable of items or an integer typed array, got undefined/)],
      [`bloom.${method}({ length: 1 })`, call(() => ({ length: 1, 0: 'a' })), itemsError(TypeError, / must be an iterable .*Object/)],
      [`bloom.${method}([Symbol()])`, call(() => [Symbol('s')]), itemsError(TypeError, /\[0\] must be a string, .*got symbol/)],
      [`bloom.${method}(Float64Array [Infinity])`, call(() => new Float64Array([Infinity])), itemsError(RangeError, /\[0\]: a Float64Array element must be a safe integer/)],
      [`bloom.${method}([])`, call(() => []), returns(method === 'hasMany' ? new Uint8Array(0) : 0)],
    ];
  }),
  ...[...bloomSingleItemMethods, ...bloomBatchMethods].map((method): Row => [
    `disposed bloom.${method}(NaN)`,
    () => (disposedBloom[method as 'add'] as (x: unknown) => unknown)(NaN),
    fails(CuckooFilterError, new RegExp(`^BloomFilter\\.${method}: this filter was disposed`), 'DISPOSED'),
  ]),
  ...bloomGetters.map((getter): Row => [`disposed bloom.${getter}`, () => disposedBloom[getter], fails(CuckooFilterError, new RegExp(`^BloomFilter\\.${getter}: this filter was disposed`), 'DISPOSED')]),
  ['disposed bloom.toJSON() and disposed bloom.toString()', () => [disposedBloom.toJSON(), disposedBloom.toString()], returns([{ disposed: true }, 'BloomFilter {"disposed":true}'])],
  ['disposed bloom.dispose() again', () => [disposedBloom.dispose(), disposedBloom[Symbol.dispose](), disposedBloom.disposed], returns([undefined, undefined, true])],

  // merge(other): a filter of the same class, parameters and seed.
  ['live.merge(undefined)', () => live.merge(undefined as never), fails(TypeError, /^CuckooFilter\.merge: other must be a CuckooFilter, got undefined/)],
  ['live.merge(bloom)', () => live.merge(liveBloom as never), fails(TypeError, /^CuckooFilter\.merge: other must be a CuckooFilter, got an object \(Object\)/)],
  ...([
    ['fingerprintBits', { fingerprintBits: 31 }], ['bucketCount', { bucketCount: 1000 }], ['bucketSize', { bucketSize: 8, fingerprintBits: 32 }],
    ['seed', { seed: 4 }], ['semi-sorted', { semiSort: true }],
  ] as const).map(([differs, override]): Row => [
    `live.merge(a filter whose ${differs} differs)`,
    () => { using other = new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 32, seed: 3, ...override }); return live.merge(other); },
    fails(CuckooFilterError, new RegExp(`^CuckooFilter\\.merge: the filters cannot be merged: .*${differs}`), 'INCOMPATIBLE'),
  ]),
  ['live.merge(disposed)', () => live.merge(disposed), fails(CuckooFilterError, /^CuckooFilter\.merge: this filter was disposed/, 'DISPOSED')],

  // A disposed filter: every method and getter, even with a bad argument.
  ...[...singleItemMethods, ...batchMethods, 'clear', 'clone', 'toBytes', 'merge'].map((method): Row => [
    `disposed.${method}(NaN)`,
    () => (disposed[method as 'add'] as (x: unknown) => unknown)(NaN),
    fails(CuckooFilterError, new RegExp(`^CuckooFilter\\.${method}: this filter was disposed`), 'DISPOSED'),
  ]),
  ...getters.map((getter): Row => [`disposed.${getter}`, () => disposed[getter], fails(CuckooFilterError, new RegExp(`^CuckooFilter\\.${getter}: this filter was disposed`), 'DISPOSED')]),
  ['disposed.disposed', () => disposed.disposed, returns(true)],
  // Describing a disposed filter says so rather than throwing.
  ['disposed.toJSON() and disposed.toString()', () => [disposed.toJSON(), disposed.toString()], returns([{ disposed: true }, 'CuckooFilter {"disposed":true}'])],
  ['disposed.dispose() again', () => disposed.dispose(), returns(undefined)],
  ['disposed[Symbol.dispose]() again', () => disposed[Symbol.dispose](), returns(undefined)],

  // init(options) once loaded: the options are still checked.
  ['isInitialized()', () => isInitialized(), returns(true)],
  ['init()', () => init(), returns(undefined)],
  ['init({})', () => init({}), returns(undefined)],
  ['init(42)', () => init(42 as never), fails(TypeError, /^init: options must be an object \{ wasmBinary\?, locateFile\? \}, got 42/)],
  ['init(null)', () => init(null as never), fails(TypeError, /^init: options must be an object .*got null/)],
  ['init({ wasmBinary: "x" })', () => init({ wasmBinary: 'x' as never }), fails(TypeError, /^init: options\.wasmBinary must be an ArrayBuffer or a Uint8Array/)],
  ['init({ wasmBinary: Uint16Array })', () => init({ wasmBinary: new Uint16Array(4) as never }), fails(TypeError, /^init: options\.wasmBinary must be/)],
  ['init({ locateFile: 1 })', () => init({ locateFile: 1 as never }), fails(TypeError, /^init: options\.locateFile must be a function/)],
];

// ScalableCuckooFilter: its own rows, so that the coverage test below finds
// each of its names here and not in CuckooFilter's rows.
const scalableRows: Row[] = [
  // new ScalableCuckooFilter(options) and ScalableCuckooFilter.create(options): the same checks, each naming its entry.
  ...scalableEntries.flatMap(([entry, make]): Row[] => {
    const call = (override: Record<string, unknown>) => make({ ...scalableOptions, ...override });
    const named = (detail: RegExp) => new RegExp(`^${entry.replace('.', '\\.')}: ${detail.source}`);
    const rangeOf = (option: string, rule: string) => (value: unknown): readonly [unknown, ErrorClass, RegExp] =>
      [value, RangeError, named(new RegExp(`${option} must be ${rule}, got ${Number.isNaN(value) ? 'NaN' : String(value).replace('.', '\\.')}$`))];
    const typeOf = (option: string) => (value: unknown): readonly [unknown, ErrorClass, RegExp] =>
      [value, TypeError, named(new RegExp(`${option} must be a number .*got `))];
    return [
      ...([null, 42, 'options'] as const).map((options): Row => [
        `${entry}(${shown(options)})`, make(options), fails(TypeError, named(/options must be an object \{ initialCapacity\?, fpr\?, growth\?, maxKicks\?, seed\?, semiSort\? \}/)),
      ]),
      // Every option has a default: 100 items at first, fpr 0.001, growth 1.2, 500 kicks.
      ...([undefined, {}] as const).map((options): Row => [`${entry}(${shown(options)}): the defaults`, () => {
        using filter = make(options)();
        const { initialCapacity, fpr, growth, maxKicks, semiSort } = filter.params;
        return { initialCapacity, fpr, growth, maxKicks, semiSort };
      }, returns({ initialCapacity: 100, fpr: 0.001, growth: 1.2, maxKicks: 500, semiSort: false })]),
      ...optionRows(`${entry} initialCapacity`, (initialCapacity) => call({ initialCapacity }), named(/initialCapacity must be/), [
        ...[0, 2 ** 32 + 1, 1.5, NaN, -1, Infinity].map(rangeOf('initialCapacity', 'an integer from 1 to 2\\^32')),
        ...['10', null, 10n].map(typeOf('initialCapacity')),
      ]),
      [`${entry} initialCapacity 2^32, too large for memory`, call({ initialCapacity: 2 ** 32 }), fails(RangeError, named(/the table would exceed the maximum table size/))],
      [`${entry} initialCapacity missing: 100`, () => {
        using filter = make({ fpr: 0.01 })();
        return [filter.params.initialCapacity, filter.params.fpr];
      }, returns([100, 0.01])],
      ...optionRows(`${entry} fpr`, (fpr) => call({ fpr }), named(/fpr must be/), [
        ...[0, 1, NaN, -0.5, 1.5, Infinity].map(rangeOf('fpr', 'greater than 0 and less than 1')),
        ...['0.01', null].map(typeOf('fpr')),
      ]),
      [`${entry} fpr missing: 0.001`, () => {
        using filter = make({ initialCapacity: 50 })();
        return [filter.params.initialCapacity, filter.params.fpr, filter.fprBound <= 0.001];
      }, returns([50, 0.001, true])],
      ...[1e-9, 9.9e-8, Number.MIN_VALUE].map((fpr): Row => [
        `${entry} fpr ${fpr}, too low`, call({ fpr }), fails(RangeError, named(/the false-positive rate is too low/)),
      ]),
      ...optionRows(`${entry} growth`, (growth) => call({ growth }), named(/growth must be/), [
        ...[1, 1.001, 2.01, 0, -1.2, NaN, Infinity].map(rangeOf('growth', 'a number from 1\\.01 to 2')),
        ...['1.2', null, 2n].map(typeOf('growth')),
      ]),
      ...optionRows(`${entry} maxKicks`, (maxKicks) => call({ maxKicks }), named(/maxKicks must be/), [
        ...[-1, 1.5, 1_000_001, NaN].map(rangeOf('maxKicks', 'an integer from 0 to 1000000')),
        ...['5', null, 5n].map(typeOf('maxKicks')),
      ]),
      ...optionRows(`${entry} seed`, (seed) => call({ seed }), named(/seed must be/), [
        [-1, RangeError, named(/seed must be a non-negative safe integer/)],
        [2n ** 64n, RangeError, named(/seed must be from 0 to 2\^64 - 1, got 18446744073709551616n/)],
        [0.5, RangeError], [NaN, RangeError], [2 ** 53, RangeError], [-1n, RangeError],
        ['1', TypeError, named(/seed must be a number or a bigint/)], [null, TypeError], [{}, TypeError],
      ]),
      ...optionRows(`${entry} semiSort`, (semiSort) => call({ semiSort }), named(/semiSort must be a boolean, got /), [
        [null, TypeError], ['true', TypeError], [0, TypeError], [1n, TypeError],
      ]),
    ];
  }),
  // The edges of each range are accepted, as given.
  ['scalable growth 1.01 and 2, maxKicks 0 and 1000000, initialCapacity 1, fpr 1e-7: accepted', () => [
    scalableWith({ growth: 1.01, maxKicks: 0, initialCapacity: 1, fpr: 1e-7 }, (f) => [f.params.growth, f.params.maxKicks, f.params.initialCapacity, f.params.fpr])(),
    scalableWith({ growth: 2, maxKicks: 1_000_000, seed: 2n ** 64n - 1n, semiSort: true }, (f) => [f.params.growth, f.params.maxKicks, f.params.seed, f.params.semiSort])(),
  ], returns([[1.01, 0, 1, 1e-7], [2, 1_000_000, 2n ** 64n - 1n, true]])],

  // ScalableCuckooFilter.fromBytes(bytes)
  ...([
    ['undefined', undefined], ['a string', 'CKFW'], ['an array', [0x43, 0x4b, 0x46, 0x57, 3]], ['a DataView', new DataView(new ArrayBuffer(300))],
    ['a Uint16Array', new Uint16Array(150)], ['an ArrayBuffer', new ArrayBuffer(300)],
  ] as const).map(([what, value]): Row => [
    `ScalableCuckooFilter.fromBytes(${what})`, () => ScalableCuckooFilter.fromBytes(value as never), fails(TypeError, /^ScalableCuckooFilter\.fromBytes: bytes must be a Uint8Array, got /),
  ]),
  ['ScalableCuckooFilter.fromBytes(empty)', () => ScalableCuckooFilter.fromBytes(new Uint8Array(0)), fails(FormatError, /^ScalableCuckooFilter\.fromBytes: the data is truncated$/, 'TRUNCATED')],
  ["ScalableCuckooFilter.fromBytes(a CuckooFilter's bytes)", () => ScalableCuckooFilter.fromBytes(live.toBytes()),
    fails(FormatError, /^ScalableCuckooFilter\.fromBytes: unsupported format version$/, 'UNSUPPORTED_VERSION')],
  ["CuckooFilter.fromBytes(a ScalableCuckooFilter's bytes)", () => CuckooFilter.fromBytes(liveScalable.toBytes()),
    fails(FormatError, /^CuckooFilter\.fromBytes: unsupported format version$/, 'UNSUPPORTED_VERSION')],

  // Items and batches name the class.
  ...singleItemMethods.map((method): Row => [
    `scalable.${method}(NaN)`, () => (liveScalable[method] as (x: unknown) => unknown)(NaN),
    fails(RangeError, new RegExp(`^ScalableCuckooFilter\\.${method}: item: a number item must be a safe integer .*got NaN`)),
  ]),
  ...batchMethods.map((method): Row => [
    `scalable.${method}(['ok', {}])`, () => (liveScalable[method] as (x: unknown) => unknown)(['ok', {}]),
    fails(TypeError, new RegExp(`^ScalableCuckooFilter\\.${method}: items\\[1\\] must be a string, .*got an object \\(Object\\)`)),
  ]),

  // merge(other): a ScalableCuckooFilter of the same fpr, initial table, seed, semiSort and current size.
  ['scalable.merge(undefined)', () => liveScalable.merge(undefined as never), fails(TypeError, /^ScalableCuckooFilter\.merge: other must be a ScalableCuckooFilter, got undefined/)],
  ['scalable.merge(a CuckooFilter)', () => liveScalable.merge(live as never), fails(TypeError, /^ScalableCuckooFilter\.merge: other must be a ScalableCuckooFilter, got an object/)],
  ['scalable.merge(disposed)', () => liveScalable.merge(disposedScalable), fails(CuckooFilterError, /^ScalableCuckooFilter\.merge: this filter was disposed/, 'DISPOSED')],
  ...([
    ['seed', { seed: 4 }, /their seed differs/],
    ['fpr', { fpr: 0.001 }, /their fpr, initialCapacity or current table size differ/],
    ['semiSort', { semiSort: true }, /one is semi-sorted and the other is not/],
    ['initialCapacity (another first table)', { initialCapacity: 1000 }, /their fpr, initialCapacity or current table size differ/],
    ['size (grown)', { grown: true }, /their fpr, initialCapacity or current table size differ/],
  ] as const).map(([differs, override, message]): Row => [
    `scalable.merge(a filter whose ${differs} differs)`,
    () => {
      const { grown, ...options } = { grown: false, ...override };
      using other = ScalableCuckooFilter.create({ ...scalableOptions, ...options });
      if (grown) other.addMany(new Uint32Array(1000).map((_, i) => i));
      return liveScalable.merge(other);
    },
    fails(CuckooFilterError, new RegExp(`^ScalableCuckooFilter\\.merge: the filters cannot be merged: ${message.source}`), 'INCOMPATIBLE'),
  ]),
  ['scalable.merge(a twin of other growth and maxKicks) is allowed', scalableWith({ growth: 2, maxKicks: 7 }, (other) => {
    other.add('twin');
    liveScalable.merge(other);
    return [liveScalable.has('twin'), liveScalable.size];
  }), returns([true, 1])],

  // A disposed ScalableCuckooFilter: every method and getter, even with a bad argument.
  ...[...singleItemMethods, ...batchMethods, 'clear', 'clone', 'toBytes', 'merge'].map((method): Row => [
    `disposed scalable.${method}(NaN)`,
    () => (disposedScalable[method as 'add'] as (x: unknown) => unknown)(NaN),
    fails(CuckooFilterError, new RegExp(`^ScalableCuckooFilter\\.${method}: this filter was disposed`), 'DISPOSED'),
  ]),
  ...scalableGetters.map((getter): Row => [
    `disposed scalable.${getter}`, () => disposedScalable[getter], fails(CuckooFilterError, new RegExp(`^ScalableCuckooFilter\\.${getter}: this filter was disposed`), 'DISPOSED'),
  ]),
  ['disposed scalable.disposed', () => disposedScalable.disposed, returns(true)],
  ['disposed scalable.toJSON() and disposed scalable.toString()', () => [disposedScalable.toJSON(), disposedScalable.toString()],
    returns([{ disposed: true }, 'ScalableCuckooFilter {"disposed":true}'])],
  ['disposed scalable.dispose() and [Symbol.dispose]() again', () => [disposedScalable.dispose(), disposedScalable[Symbol.dispose]()], returns([undefined, undefined])],
];

test('the table has rows for every public method and getter', () => {
  const covered = rows.map(([what]) => what).join('\n');
  const publicNames = (type: object): string[] => {
    const names: string[] = [];
    for (let proto = type; proto !== Object.prototype && proto !== Function.prototype; proto = Object.getPrototypeOf(proto)) {
      // `runtime`, `live`, `withItem` and `mergeStatus` are protected members of the shared base classes.
      const notPublic = ['constructor', 'prototype', 'length', 'name', 'runtime', 'live', 'withItem', 'mergeStatus'];
      names.push(...Object.getOwnPropertyNames(proto).filter((name) => !notPublic.includes(name)));
    }
    return names;
  };
  const scalableCovered = scalableRows.map(([what]) => what).join('\n');
  const classes = [['CuckooFilter', CuckooFilter, covered], ['BloomFilter', BloomFilter, covered], ['ScalableCuckooFilter', ScalableCuckooFilter, scalableCovered]] as const;
  for (const [className, type, rowTitles] of classes) {
    for (const name of [...publicNames(type.prototype), ...publicNames(type)]) {
      expect([className, name, rowTitles.includes(name)]).toEqual([className, name, true]);
    }
  }
  // The constructor, which publicNames leaves out.
  expect(scalableCovered).toMatch(/^new ScalableCuckooFilter\(/m);
});

test.each([...rows, ...scalableRows])('%s', async (_, call, expected) => {
  let outcome: unknown;
  let caught: unknown;
  try {
    outcome = await call();
  } catch (error) {
    caught = error;
  }
  if ('returns' in expected) {
    if (caught !== undefined) throw caught;
    if (outcome instanceof CuckooFilter || outcome instanceof ScalableCuckooFilter) outcome.dispose();
    expect(outcome).toEqual(expected.returns);
    return;
  }
  if (outcome instanceof CuckooFilter || outcome instanceof ScalableCuckooFilter) outcome.dispose();
  expect(caught).toBeInstanceOf(expected.error);
  expect((caught as Error).message).toMatch(expected.message);
  if (expected.code !== undefined) expect((caught as CuckooFilterError).code).toBe(expected.code);
  // The module is still usable, for the filters it holds and for new ones.
  expect(live.add('still works')).toBe(true);
  expect(live.has('still works')).toBe(true);
  using fresh = new CuckooFilter(shape);
  expect(fresh.add('still works')).toBe(true);
  expect(liveScalable.add('still works')).toBe(true);
  expect(liveScalable.has('still works')).toBe(true);
});
