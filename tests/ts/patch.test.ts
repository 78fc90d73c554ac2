// Patches through the package (cuckoo-wasm/patch): diff and applyPatch on both
// filter classes, as methods and as functions; the result byte for byte the
// newer version; WRONG_BASE and every other refusal leaving the filter as it
// was; the golden patches (tests/fixtures) applied in WebAssembly as natively.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter, CuckooFilterError, FormatError, init, ScalableCuckooFilter } from 'cuckoo-wasm';
import { applyPatch, checksumOf, describePatch, diff } from 'cuckoo-wasm/patch';
import { wasmHeapBytes } from '../support/heap';
import { thrownBy } from '../support/thrown';

beforeAll(() => init());

const numbers = (first: number, count: number): Float64Array => Float64Array.from({ length: count }, (_, i) => first + i);
const fixtures = join(__dirname, '..', 'fixtures');

/** A filter of 20,000 items, and a copy of it after `deleted` of them went and as many others came. */
function versions(deleted: number): [CuckooFilter, CuckooFilter] {
  const older = CuckooFilter.create({ capacity: 20_000, fpr: 0.001, seed: 7 });
  expect(older.addMany(numbers(0, 20_000))).toBe(20_000);
  const newer = older.clone();
  expect(newer.deleteMany(numbers(0, deleted))).toBe(deleted);
  expect(newer.addMany(numbers(1_000_000, deleted))).toBe(deleted);
  return [older, newer];
}

test('a patch turns the older version into the newer, byte for byte; it names both by their checksums', () => {
  const [older, newer] = versions(200);
  using a = older;
  using b = newer;
  const patch = b.diff(a);
  const info = describePatch(patch);
  expect(info).toEqual({
    base: checksumOf(a),
    result: checksumOf(b),
    filter: 'CuckooFilter',
    wholeTable: false,
    changedSlots: info.changedSlots,
    byteLength: patch.length,
  });
  expect(info.base).toMatch(/^[0-9a-f]{16}$/);
  expect(checksumOf(a.toBytes())).toBe(info.base);
  expect(info.changedSlots).toBeGreaterThanOrEqual(400);
  // Near the entropy of which slots changed: at most (f + log2(S / C) + 3) / 8 bytes per changed slot.
  const bound = (a.params.fingerprintBits + Math.log2(a.slotCount / info.changedSlots) + 3) / 8;
  expect(patch.length / info.changedSlots).toBeLessThanOrEqual(bound);
  a.applyPatch(patch);
  expect(a.toBytes()).toEqual(b.toBytes());
  expect(a.size).toBe(b.size);
  expect(a.hasMany(numbers(1_000_000, 200)).every((answer) => answer === 1)).toBe(true);
});

test('applied to any other version, a patch is refused with WRONG_BASE and changes nothing', () => {
  const [older, newer] = versions(100);
  using a = older;
  using b = newer;
  const patch = diff(b, a.toBytes());
  for (const other of [b, a.clone(), CuckooFilter.create({ capacity: 20_000, fpr: 0.001, seed: 8 })]) {
    if (other !== a && other !== b) other.add('changed');
    const before = other.toBytes();
    const error = thrownBy(() => other.applyPatch(patch));
    expect(error).toBeInstanceOf(FormatError);
    expect(error.code).toBe('WRONG_BASE');
    expect(error.message).toBe(
      'CuckooFilter.applyPatch: the patch does not apply to this filter: it was made from another version of it, or for another filter ' +
        `(the patch goes from version ${checksumOf(a)} of a CuckooFilter to ${checksumOf(b)}; this filter is version ${checksumOf(other)})`,
    );
    expect(other.toBytes()).toEqual(before);
    if (other !== b) other.dispose();
  }
  // Another class: a growable filter takes no CuckooFilter's patch.
  using growable = ScalableCuckooFilter.create({ initialCapacity: 100, fpr: 0.01 });
  expect(thrownBy(() => applyPatch(growable, patch)).code).toBe('WRONG_BASE');
});

test('patches compose: v1 to v2, then v2 to v3, gives v3', () => {
  using v1 = CuckooFilter.create({ capacity: 10_000, fpr: 0.01, seed: 3, semiSort: true });
  v1.addMany(numbers(0, 8000));
  using v2 = v1.clone();
  v2.deleteMany(numbers(0, 500));
  v2.addMany(['a', 'b', 'c']);
  using v3 = v2.clone();
  v3.addMany(numbers(20_000, 1000));
  const [first, second] = [v2.diff(v1), v3.diff(v2)];
  using page = v1.clone();
  expect(thrownBy(() => page.applyPatch(second)).code).toBe('WRONG_BASE');
  page.applyPatch(first);
  page.applyPatch(second);
  expect(page.toBytes()).toEqual(v3.toBytes());
});

test('a growable filter has patches while its table keeps its size, and a clear refusal once it grew', () => {
  using v1 = ScalableCuckooFilter.create({ initialCapacity: 10_000, fpr: 0.001, seed: 5 });
  v1.addMany(numbers(0, 5000));
  using v2 = v1.clone();
  v2.deleteMany(numbers(0, 100));
  v2.addMany(numbers(50_000, 300));
  expect(v2.bucketCount).toBe(v1.bucketCount);
  const patch = v2.diff(v1.toBytes());
  expect(describePatch(patch).filter).toBe('ScalableCuckooFilter');
  using page = ScalableCuckooFilter.fromBytes(v1.toBytes());
  page.applyPatch(patch);
  expect(page.toBytes()).toEqual(v2.toBytes());
  using grown = v2.clone();
  grown.addMany(numbers(100_000, 50_000));
  const refusal = thrownBy(() => grown.diff(v2));
  expect(refusal).toBeInstanceOf(CuckooFilterError);
  expect(refusal.code).toBe('INCOMPATIBLE');
  expect(refusal.message).toMatch(/^ScalableCuckooFilter\.diff: there is no patch between these versions of the growable filter: it grew in between/);
});

test('diff refuses what is not a version of the same filter, and bad arguments', () => {
  using a = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 1 });
  using b = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 2 });
  using growable = ScalableCuckooFilter.create({ initialCapacity: 100, fpr: 0.01 });
  const differ = thrownBy(() => a.diff(b));
  expect([differ.constructor, differ.code]).toEqual([CuckooFilterError, 'INCOMPATIBLE']);
  expect(differ.message).toMatch(/^CuckooFilter\.diff: there is no patch between these filters: their parameters or seed differ/);
  expect(thrownBy(() => a.diff(growable as unknown as CuckooFilter))).toBeInstanceOf(TypeError);
  expect(thrownBy(() => diff({} as CuckooFilter, a))).toBeInstanceOf(TypeError);
  expect(thrownBy(() => a.diff(new Uint8Array([1, 2, 3]))).code).toBe('BAD_MAGIC');
  expect(thrownBy(() => a.diff(growable.toBytes())).code).toBe('UNSUPPORTED_VERSION');
  expect(thrownBy(() => a.applyPatch('patch' as unknown as Uint8Array))).toBeInstanceOf(TypeError);
  expect(thrownBy(() => describePatch([1, 2] as unknown as Uint8Array))).toBeInstanceOf(TypeError);
  expect(thrownBy(() => checksumOf(new Uint8Array(3)))).toBeInstanceOf(RangeError);
  const disposed = CuckooFilter.create({ capacity: 10, fpr: 0.1 });
  disposed.dispose();
  expect(thrownBy(() => disposed.applyPatch(new Uint8Array(10))).code).toBe('DISPOSED');
  expect(thrownBy(() => a.diff(disposed)).code).toBe('DISPOSED');
});

test('a damaged patch is refused with the FormatError code of what is wrong, and changes nothing', () => {
  const [older, newer] = versions(50);
  using a = older;
  using b = newer;
  const patch = b.diff(a);
  const before = a.toBytes();
  const codeOf = (bytes: Uint8Array): string | undefined => thrownBy(() => a.applyPatch(bytes)).code;
  expect(codeOf(patch.subarray(0, 3))).toBe('TRUNCATED');
  expect(codeOf(patch.subarray(0, patch.length - 1))).toBe('CHECKSUM_MISMATCH');
  expect(codeOf(new Uint8Array([0x43, 0x4b, 0x46, 0x57, 1]))).toBe('BAD_MAGIC'); // a filter's bytes, not a patch
  const flipped = patch.slice();
  flipped[patch.length - 20]! ^= 1;
  expect(codeOf(flipped)).toBe('CHECKSUM_MISMATCH');
  const newerVersion = patch.slice();
  newerVersion[4] = 2;
  expect(codeOf(newerVersion)).toBe('UNSUPPORTED_VERSION');
  expect(thrownBy(() => describePatch(flipped)).code).toBe('CHECKSUM_MISMATCH');
  expect(a.toBytes()).toEqual(before);
});

test('the golden patches apply in WebAssembly exactly as the C++ core wrote them', () => {
  // Their recipes (tests/fixtures/golden_recipe.hpp and the .json beside each): from a golden filter, erase then insert item-N.
  const item = (index: number): string => `item-${index}`;
  for (const name of ['golden-patch-f12-b4-m1000-seed42', 'golden-patch-f13-b4-m1024-seed42-semisorted', 'golden-patch-whole-f12-b4-m1024-seed42', 'golden-patch-scalable-cap100-fpr0.01-seed42']) {
    const description = JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8'));
    const patch = readFileSync(join(fixtures, `${name}.cfp`));
    const base = readFileSync(join(fixtures, description.base));
    const Class = name.includes('scalable') ? ScalableCuckooFilter : CuckooFilter;
    using filter = Class.fromBytes(base);
    using expected = Class.fromBytes(base);
    for (const step of description.step) {
      for (let i = step.first; i <= step.last; i++) expect(step.operation === 'erase' ? expected.delete(item(i)) : expected.add(item(i))).toBe(true);
    }
    expect(describePatch(patch)).toMatchObject({ base: checksumOf(base), result: checksumOf(expected), changedSlots: description.changedSlots });
    expect(diff(expected, filter)).toEqual(new Uint8Array(patch));
    filter.applyPatch(patch);
    expect(filter.toBytes()).toEqual(expected.toBytes());
  }
});

test('diff and applyPatch leave no memory behind', () => {
  const [older, newer] = versions(500);
  using a = older;
  using b = newer;
  const patch = b.diff(a);
  for (let round = 0; round < 20; round++) {
    b.diff(a);
    using copy = a.clone();
    copy.applyPatch(patch);
  }
  const heap = wasmHeapBytes();
  for (let round = 0; round < 200; round++) {
    b.diff(a);
    using copy = a.clone();
    copy.applyPatch(patch);
    expect(() => copy.applyPatch(patch)).toThrow(FormatError);
  }
  expect(wasmHeapBytes()).toBe(heap);
});
