// The growable filter's golden fixture in the wasm build: the native core
// wrote it; wasm loads it, answers every recorded probe, and rebuilds the
// same bytes from the recipe (FORMAT.md, version 3).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, ScalableCuckooFilter } from 'cuckoo-wasm';

beforeAll(() => init());

const fixtureDir = join(__dirname, '..', 'fixtures');
const description = JSON.parse(readFileSync(join(fixtureDir, 'golden-scalable-cap100-fpr0.01-seed42.json'), 'utf8'));
const bytes = new Uint8Array(readFileSync(join(fixtureDir, description.file)));

test('loads in wasm with its parameters and shape, and answers every probe as recorded', () => {
  using filter = ScalableCuckooFilter.fromBytes(bytes);
  const { seed, ...params } = description.params;
  expect(filter.params).toEqual({ ...params, seed: BigInt(seed) });
  expect([filter.size, filter.bucketCount, filter.slotBits]).toEqual([description.itemCount, description.shape.bucketCount, description.shape.slotBits]);
  for (const probe of description.probes) expect([probe.item, filter.has(probe.item)]).toEqual([probe.item, probe.contains]);
  expect(filter.toBytes()).toEqual(bytes);
});

test('rebuilding it with the wasm core gives the same bytes', () => {
  const { fpr, initialCapacity, growth, maxKicks, seed } = description.params;
  using filter = ScalableCuckooFilter.create({ fpr, initialCapacity, growth, maxKicks, seed });
  for (const step of description.recipe) {
    for (let i = step.first; i <= step.last; i++) {
      const item = `${step.prefix}${i}`;
      expect(step.operation === 'insert' ? filter.add(item) : filter.delete(item)).toBe(true);
    }
  }
  expect(filter.toBytes()).toEqual(bytes);
});
