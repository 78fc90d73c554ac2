// The golden fixtures of hash ids 6 to 11 (FORMAT.md versions 5 to 7,
// multiplyShiftHash) in the wasm build: the native core wrote them
// (tests/fixtures/make_fixture.cpp, golden_recipe.hpp's kKeysAndItems), and
// WebAssembly must load them, answer their probes, false positives included,
// write them back byte for byte and rebuild them from their recipe, one item
// at a time and in batches (the kernels' typed-array path for keys). New
// filters get version 7; a version 5 or 6 filter is rebuilt from its own bytes
// cleared, which are those of the new filter of its parameters.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter, init } from 'cuckoo-wasm';

beforeAll(() => init());

interface Step {
  operation: 'insert' | 'erase';
  kind: 'key' | 'string';
  prefix?: string;
  first: number;
  last: number;
}

/** An item (its UTF-8 bytes) or a key (decimal: up to 2^64 - 1, so a string). */
interface Probe {
  item?: string;
  key?: string;
  contains: boolean;
  note: string;
}

const fixtureDir = join(__dirname, '..', 'fixtures');
const goldenFixtures = [
  'golden-f12-b4-m1024-seed42-mulshift',
  'golden-f13-b4-m1000-seed42-semisorted-mulshift',
  'golden-f12-b4-m1024-seed42-mulshift-mixed',
  'golden-f13-b4-m1000-seed42-semisorted-mulshift-mixed',
  'golden-f12-b4-m1024-seed42-mix64',
  'golden-f13-b4-m1000-seed42-semisorted-mix64',
].map((name) => {
  const description = JSON.parse(readFileSync(join(fixtureDir, `${name}.json`), 'utf8'));
  return { name, description, bytes: new Uint8Array(readFileSync(join(fixtureDir, description.file))) };
});

/** A key is the number itself (its 8 bytes little-endian), a string its UTF-8 bytes. */
const probed = (probe: Probe): string | bigint => (probe.key !== undefined ? BigInt(probe.key) : probe.item!);
const stepItems = (step: Step): (number | string)[] =>
  Array.from({ length: step.last - step.first + 1 }, (_, k) => (step.kind === 'key' ? step.first + k : `${step.prefix}${step.first + k}`));

describe.each(goldenFixtures)('the golden fixture $name written by the native core', ({ description, bytes }) => {
  const params = { semiSort: false, keyedHash: false, ...description.params, seed: BigInt(description.params.seed) };
  const current = description.formatVersion === 7;
  // An empty filter of the fixture's parameters and hash id.
  const emptyFilter = (): CuckooFilter => {
    if (current) return new CuckooFilter({ ...description.params, bucketSize: 4 });
    const filter = CuckooFilter.fromBytes(bytes);
    filter.clear();
    return filter;
  };

  test('is the file its .json describes: sha256, length, format version 5, 6 or 7 and the hash id', () => {
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(description.sha256);
    expect(bytes.length).toBe(description.byteLength);
    expect([[5, 6, 7].includes(description.formatVersion), description.params.multiplyShiftHash]).toEqual([true, true]);
    expect([bytes[4], bytes[6]]).toEqual([description.formatVersion, description.hashId]);
    // Version 5: ids 6 and 7; 6: 8 and 9; 7: 10 and 11, the first for a power of two.
    expect(description.hashId).toBe(2 * description.formatVersion - 4 + (Number.isInteger(Math.log2(description.params.bucketCount)) ? 0 : 1));
  });

  test('loads in wasm, answers every probe as recorded and writes the same bytes back', () => {
    using filter = CuckooFilter.fromBytes(bytes);
    expect(filter.params).toEqual(params);
    expect(filter.size).toBe(description.itemCount);
    const probes: Probe[] = description.probes;
    expect(probes.filter((probe) => probe.key !== undefined).length).toBeGreaterThanOrEqual(10);
    for (const probe of probes) {
      expect([probe.key ?? probe.item, filter.has(probed(probe))]).toEqual([probe.key ?? probe.item, probe.contains]);
    }
    // The key probes again as one batch of a typed array, the kernels' path for keys.
    const keyProbes = probes.filter((probe) => probe.key !== undefined);
    expect(Array.from(filter.hasMany(new BigUint64Array(keyProbes.map((probe) => BigInt(probe.key!)))))).toEqual(keyProbes.map((probe) => (probe.contains ? 1 : 0)));
    // Every member: keys 1000-2999 and item-50 ... item-99, as the recipe leaves them.
    const [insertKeys, insertStrings, eraseKeys, eraseStrings] = description.recipe as Step[];
    const keys = new Float64Array(insertKeys!.last - eraseKeys!.last).map((_, k) => eraseKeys!.last + 1 + k);
    expect(filter.hasMany(keys).every((answer) => answer === 1)).toBe(true);
    expect(filter.hasMany(stepItems({ ...insertStrings!, first: eraseStrings!.last + 1 })).every((answer) => answer === 1)).toBe(true);
    expect(filter.toBytes()).toEqual(bytes);
  });

  test('rebuilding it with the wasm core gives the same bytes, one item at a time', () => {
    using filter = emptyFilter();
    for (const step of description.recipe as Step[]) {
      for (const item of stepItems(step)) expect(step.operation === 'insert' ? filter.add(item) : filter.delete(item)).toBe(true);
    }
    expect(filter.toBytes()).toEqual(bytes);
  });

  test('rebuilding it with batches gives the same bytes: the keys as typed arrays, the strings as an array', () => {
    using filter = emptyFilter();
    for (const step of description.recipe as Step[]) {
      const items = stepItems(step);
      const batch = step.kind === 'key' ? (step.operation === 'insert' ? new Uint32Array(items as number[]) : new BigUint64Array((items as number[]).map(BigInt))) : items;
      expect(step.operation === 'insert' ? filter.addMany(batch) : filter.deleteMany(batch)).toBe(items.length);
    }
    expect(filter.toBytes()).toEqual(bytes);
  });
});
