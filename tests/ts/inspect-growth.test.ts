// cuckoo-wasm/inspect's traceGrowingAdd: an add traced split by split does
// what add does, and each entry's route and new value follow from its slot
// value by the layout of FORMAT.md (hash id 3), decoded here by hand: the
// tail is 2^e + x, the split follows x's lowest bit and drops it, and a spent
// tail (e = 0) is copied to both halves.
import { ScalableCuckooFilter, init } from 'cuckoo-wasm';
import { scalableBuckets, scalableShape, traceGrowingAdd, type GrowthTrace } from 'cuckoo-wasm/inspect';

beforeAll(() => init());

function expectedSplit(value: number, tailBits: number): { route: string; after: number } {
  const tail = value & (2 ** tailBits - 1);
  const known = 31 - Math.clz32(tail);
  if (known === 0) return { route: 'copied', after: value };
  const bits = tail ^ (1 << known);
  const fingerprint = Math.floor(value / 2 ** tailBits);
  return { route: bits & 1 ? 'moves' : 'stays', after: fingerprint * 2 ** tailBits + (2 ** (known - 1) + (bits >>> 1)) };
}

describe('traceGrowingAdd', () => {
  test.each([false, true])('semiSort %s: the same filter as add, every split as the layout says', (semiSort) => {
    const options = { initialCapacity: 16, fpr: 0.01, seed: 9, semiSort, maxKicks: 8 };
    using traced = ScalableCuckooFilter.create(options);
    using twin = ScalableCuckooFilter.create(options);
    const { tailBits } = scalableShape(traced);
    let growths = 0;
    let copies = 0;
    let held = 0;
    for (let i = 0; i < 4000; i++) {
      const bucketsBefore = traced.bucketCount;
      const trace: GrowthTrace = traceGrowingAdd(traced, `item-${i}`);
      expect(trace.added).toBe(twin.add(`item-${i}`));
      if (trace.growths.length > 0 || i % 100 === 0) expect(traced.toBytes()).toEqual(twin.toBytes());
      let buckets = bucketsBefore;
      for (const growth of trace.growths) {
        growths++;
        held += growth.held;
        expect(growth.fromBuckets).toBe(buckets);
        expect(growth.splits).toHaveLength(growth.toBuckets - growth.fromBuckets);
        for (const split of growth.splits) {
          expect(split.sibling).toBe(2 ** split.level + split.bucket);
          for (const move of split.moves) {
            expect({ route: move.route, after: move.after }).toEqual(expectedSplit(move.before, tailBits));
            expect(move.lowSlot === null).toBe(move.held || move.route === 'moves');
            expect(move.highSlot === null).toBe(move.held || move.route === 'stays');
            if (move.route === 'copied') copies++;
          }
        }
        buckets = growth.toBuckets;
      }
      expect(traced.bucketCount).toBe(buckets);
      // One growth with nothing held: every entry is still where its split put it.
      if (trace.growths.length === 1 && trace.growths[0]!.held === 0) {
        const { slots } = scalableBuckets(traced);
        for (const split of trace.growths[0]!.splits) {
          for (const move of split.moves) {
            if (move.lowSlot !== null) expect(slots[split.bucket * 4 + move.lowSlot]).toBe(move.after);
            if (move.highSlot !== null) expect(slots[split.sibling * 4 + move.highSlot]).toBe(move.after);
          }
        }
      }
    }
    expect(growths).toBeGreaterThanOrEqual(5);
    expect(copies).toBeGreaterThan(0);
    expect(held).toBeGreaterThan(0);
  });

  test('an add that does not grow reports no growth; bad arguments throw', () => {
    using filter = ScalableCuckooFilter.create({ initialCapacity: 1000, fpr: 0.01 });
    expect(traceGrowingAdd(filter, 'a')).toEqual({ added: true, growths: [] });
    expect(filter.has('a')).toBe(true);
    expect(() => traceGrowingAdd({} as ScalableCuckooFilter, 'a')).toThrow(/must be a ScalableCuckooFilter/);
    expect(() => traceGrowingAdd(filter, {} as string)).toThrow(TypeError);
  });
});
