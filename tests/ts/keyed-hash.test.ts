// The keyed item hash (hash ids 4 and 5, FORMAT.md version 4) through the
// package: SipHash-1-3 keyed by the seed, the option, its bytes, its
// refusals to merge with an XXH3 filter, and the golden fixtures in wasm.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CuckooFilter, CuckooFilterError, init } from 'cuckoo-wasm';
import { locate } from 'cuckoo-wasm/inspect';

beforeAll(() => init());

const fixtures = join(resolve(__dirname, '..', '..'), 'tests', 'fixtures');

test("items are located by FORMAT.md's SipHash-1-3 vectors", () => {
  using xor = new CuckooFilter({ bucketCount: 2 ** 16, bucketSize: 4, fingerprintBits: 12, seed: 0, keyedHash: true });
  using range = new CuckooFilter({ bucketCount: 1000, bucketSize: 4, fingerprintBits: 12, seed: 0x0123456789abcdefn, keyedHash: true });
  expect(locate(xor, 'a')).toMatchObject({ hash: 0x6cd2f1583967b431n, fingerprint: 1741, i1: 46129, i2: 22584 });
  expect(locate(xor, 5)).toMatchObject({ hash: 0xda78173c0fd6a122n, fingerprint: 3495, i1: 41250, i2: 1402 });
  expect(locate(range, 'https://example.com/a/b?c=d')).toMatchObject({ hash: 0xe1418eda277ac0b6n, fingerprint: 3604, i1: 154, i2: 359 });
  expect([xor.params.keyedHash, range.params.keyedHash]).toEqual([true, true]);
});

test.each([
  ['create', () => CuckooFilter.create({ capacity: 5000, fpr: 0.01, keyedHash: true, seed: 9 })],
  ['semi-sorted, any bucket count', () => new CuckooFilter({ bucketCount: 1234, bucketSize: 4, fingerprintBits: 13, semiSort: true, keyedHash: true })],
])('a keyed filter (%s) stores, finds, deletes and travels as version 4', (_, make) => {
  using filter = make();
  const items = Array.from({ length: 4000 }, (_, i) => `user-${i}`);
  expect(filter.addMany(items)).toBe(items.length);
  expect(filter.hasMany(items).every((answer) => answer === 1)).toBe(true);
  const bytes = filter.toBytes();
  const powerOfTwo = Number.isInteger(Math.log2(filter.params.bucketCount));
  expect([bytes[4], bytes[6]]).toEqual([4, powerOfTwo ? 4 : 5]); // format version 4, hash id 4 or 5
  using copy = CuckooFilter.fromBytes(bytes);
  expect(copy.params).toEqual(filter.params);
  expect(copy.toBytes()).toEqual(bytes);
  expect(copy.deleteMany(items.slice(0, 1000))).toBe(1000);
  expect(copy.hasMany(items.slice(1000)).every((answer) => answer === 1)).toBe(true);
});

test('a keyed and an XXH3 filter of one seed place items apart and do not merge', () => {
  using keyed = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 3, keyedHash: true });
  using plain = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 3 });
  expect(locate(keyed, 'x').hash).not.toBe(locate(plain, 'x').hash);
  let caught: unknown;
  try {
    plain.merge(keyed);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CuckooFilterError);
  expect((caught as CuckooFilterError).code).toBe('INCOMPATIBLE');
  expect((caught as Error).message).toMatch(/they hash items differently \(XXH3, keyed or multiply-shift\)/);
  expect(() => CuckooFilter.create({ capacity: 10, fpr: 0.1, keyedHash: 1 as unknown as boolean })).toThrow(TypeError);
});

test.each(['golden-f12-b4-m1024-seed42-keyed', 'golden-f13-b4-m1000-seed42-semisorted-keyed'])('%s: wasm rebuilds the committed bytes and answers as described', (name) => {
  const committed = readFileSync(join(fixtures, `${name}.cf`));
  const description = JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8'));
  using rebuilt = new CuckooFilter({ ...description.params, keyedHash: true });
  for (let i = 0; i < 3000; i++) expect(rebuilt.add(`item-${i}`)).toBe(true);
  for (let i = 0; i < 1000; i++) expect(rebuilt.delete(`item-${i}`)).toBe(true);
  expect(Buffer.from(rebuilt.toBytes()).equals(committed)).toBe(true);
  using loaded = CuckooFilter.fromBytes(committed);
  for (const probe of description.probes) expect([probe.item, loaded.has(probe.item)]).toEqual([probe.item, probe.contains]);
});
