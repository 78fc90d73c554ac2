// Filters that describe themselves: toJSON() gives each getter's value (not the
// contents), String() the class and those facts on one line, and Node's
// util.inspect (console.log) the class and the facts as it shows any object.
// A disposed filter says so instead of throwing. The expected values come from
// the sizing worked out in cli.test.ts and bloom.ts's formulas, not from a run.
// (RedisCuckooFilter's are in tests/redis/standalone.test.ts; the packed
// package in Node, Bun, Deno and a browser console in tests/runtimes/newcomer.test.ts.)
import { inspect } from 'node:util';
import { CuckooFilter, init, ScalableCuckooFilter } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';

beforeAll(() => init());

// capacity 1000, fpr 0.01: b = 4, f = 10, 269 buckets (1076 slots); three items in.
const sized = { capacity: 1000, fpr: 0.01, seed: 5 } as const;
const threeItems = (): CuckooFilter => {
  const filter = CuckooFilter.create(sized);
  filter.addMany(['a', 'b', 'c']);
  return filter;
};
const expectedParams = { bucketCount: 269, bucketSize: 4, fingerprintBits: 10, maxKicks: 500, seed: '5', semiSort: false, keyedHash: false, multiplyShiftHash: false };

describe('CuckooFilter', () => {
  test('toJSON(): every getter, in the order the class declares them, the seed as a decimal string', () => {
    using filter = threeItems();
    const facts = filter.toJSON();
    expect(Object.keys(facts)).toEqual(['size', 'slotCount', 'loadFactor', 'stashed', 'byteLength', 'bitsPerItem', 'expectedFpr', 'fprBound', 'full', 'params']);
    expect(facts).toEqual({
      size: 3,
      slotCount: 1076,
      loadFactor: 3 / 1076,
      stashed: 0,
      byteLength: filter.byteLength,
      bitsPerItem: 10760 / 3,
      // 1 - (1 - 2^-f)^(2b * load)
      expectedFpr: expect.closeTo(1 - (1 - 2 ** -10) ** ((8 * 3) / 1076), 15),
      fprBound: 8 / 1024,
      full: false,
      params: expectedParams,
    });
    // The facts are read when asked: they follow the filter.
    filter.add('d');
    expect(filter.toJSON()).toMatchObject({ size: 4, loadFactor: 4 / 1076 });
  });

  test('JSON.stringify gives the facts, not the bytes; an empty filter has null bits per item (JSON has no Infinity)', () => {
    using filter = threeItems();
    expect(JSON.parse(JSON.stringify(filter))).toEqual({ ...filter.toJSON(), expectedFpr: filter.expectedFpr });
    expect(JSON.stringify({ filters: [filter] })).toContain('"params":{"bucketCount":269,');
    using empty = CuckooFilter.create(sized);
    expect(empty.bitsPerItem).toBe(Infinity);
    expect(JSON.parse(JSON.stringify(empty))).toMatchObject({ size: 0, bitsPerItem: null, loadFactor: 0 });
  });

  test('String(filter) and a template string: the class and the facts as JSON, on one line', () => {
    using filter = threeItems();
    const text = String(filter);
    expect(text).toBe(`${filter}`);
    expect(text).toMatch(/^CuckooFilter \{"size":3,"slotCount":1076,"loadFactor":[\d.e-]+,"stashed":0,/);
    expect(text).toContain('"fprBound":0.0078125,"full":false,"params":{"bucketCount":269,"bucketSize":4,"fingerprintBits":10,"maxKicks":500,"seed":"5","semiSort":false,"keyedHash":false,"multiplyShiftHash":false}}');
    expect(text).not.toContain('\n');
  });

  test('util.inspect (console.log): the class, then the facts as Node shows an object, in its colours when asked', () => {
    using filter = threeItems();
    const shown = inspect(filter);
    expect(shown).toMatch(/^CuckooFilter \{\n {2}size: 3,\n {2}slotCount: 1076,\n/);
    expect(shown).toContain('  fprBound: 0.0078125,\n  full: false,\n  params: {\n    bucketCount: 269,');
    expect(shown).toContain("seed: '5'");
    // Inside other values too, indented with them.
    expect(inspect({ filters: [filter] })).toMatch(/^\{\n {2}filters: \[\n {4}CuckooFilter \{\n {6}size: 3,/);
    // Node's options reach the facts: colours, and a single line when it is wide enough.
    expect(inspect(filter, { colors: true })).toContain('size: \x1b[33m3\x1b[39m');
    expect(inspect(filter, { breakLength: Infinity })).toMatch(/^CuckooFilter \{ size: 3, slotCount: 1076, .* params: \{ bucketCount: 269, .* \} \}$/);
  });

  test('where the inspecting runtime passes no inspect function, the one-line form', () => {
    using filter = threeItems();
    const custom = (filter as unknown as Record<symbol, () => string>)[Symbol.for('nodejs.util.inspect.custom')]!;
    expect(custom.call(filter)).toBe(String(filter));
  });

  test('a disposed filter says so, and none of it throws', () => {
    const filter = threeItems();
    filter.dispose();
    expect(filter.toJSON()).toEqual({ disposed: true });
    expect(JSON.stringify(filter)).toBe('{"disposed":true}');
    expect(String(filter)).toBe('CuckooFilter {"disposed":true}');
    expect(inspect(filter)).toBe('CuckooFilter { disposed: true }');
  });

  test('CuckooFilter.create({ capacity: 1000 }) describes the default rate: f = 13 for 0.001, the bound 8 / 2^13', () => {
    using filter = CuckooFilter.create({ capacity: 1000 });
    expect(filter.toJSON()).toMatchObject({ fprBound: 8 / 8192, params: { bucketSize: 4, fingerprintBits: 13 } });
    expect(inspect(filter)).toContain('fprBound: 0.0009765625');
  });
});

describe('ScalableCuckooFilter', () => {
  test('new ScalableCuckooFilter() describes its first table and the options it took', () => {
    using filter = new ScalableCuckooFilter({ seed: 9 });
    const facts = filter.toJSON();
    expect(Object.keys(facts)).toEqual(['size', 'bucketCount', 'slotBits', 'loadFactor', 'stashed', 'byteLength', 'bitsPerItem', 'fprBound', 'full', 'params']);
    expect(facts).toMatchObject({
      size: 0,
      bucketCount: 28,
      loadFactor: 0,
      stashed: 0,
      bitsPerItem: Infinity,
      full: false,
      params: { initialCapacity: 100, fpr: 0.001, growth: 1.2, maxKicks: 500, seed: '9', semiSort: false },
    });
    expect(inspect(filter)).toMatch(/^ScalableCuckooFilter \{\n {2}size: 0,\n {2}bucketCount: 28,/);
    expect(String(filter)).toMatch(/^ScalableCuckooFilter \{"size":0,"bucketCount":28,.*"bitsPerItem":null,/);
    filter.dispose();
    expect(inspect(filter)).toBe('ScalableCuckooFilter { disposed: true }');
  });

  test('the facts follow growth', () => {
    using filter = new ScalableCuckooFilter();
    filter.addMany(new Uint32Array(1000).map((_, i) => i));
    const facts = filter.toJSON() as { size: number; bucketCount: number; fprBound: number };
    expect(facts.size).toBe(1000);
    expect(facts.bucketCount).toBeGreaterThan(1000 / 4);
    expect(facts.fprBound).toBeLessThanOrEqual(0.001);
  });
});

describe('BloomFilter', () => {
  test('the bit array and its rate: m = ceil(-n ln p / (ln 2)^2) = 9586 bits and k = 7 for 1,000 items at 1 %', () => {
    using filter = BloomFilter.create({ capacity: 1000, fpr: 0.01, seed: 7 });
    filter.add('x');
    expect(filter.toJSON()).toEqual({
      size: 1,
      bitCount: 9586,
      hashCount: 7,
      // 9586 bits in whole 8-byte words: 150 words.
      byteLength: 1200,
      blocked: false,
      seed: '7',
      bitsPerItem: 9586,
      // (1 - e^(-kn/m))^k
      expectedFpr: expect.closeTo((1 - Math.exp(-7 / 9586)) ** 7, 25),
    });
    expect(inspect(filter)).toMatch(/^BloomFilter \{\n {2}size: 1,\n {2}bitCount: 9586,\n {2}hashCount: 7,/);
    filter.dispose();
    expect(String(filter)).toBe('BloomFilter {"disposed":true}');
  });
});
