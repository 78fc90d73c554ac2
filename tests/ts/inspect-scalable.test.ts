// cuckoo-wasm/inspect on a growable filter: scalableShape and scalableBuckets
// show the core's table as hashing.hpp (hash id 3) lays it out. Each item's
// hash comes from a CuckooFilter of the same seed (the same XXH3), so the test
// knows every item's virtual bucket number and fingerprint, and finds its entry
// where the layout says it must be.
import { CuckooFilter, CuckooFilterError, ScalableCuckooFilter, init } from 'cuckoo-wasm';
import { bucketNumberBits, fingerprintHash, locate, MAX_SLOTS_PER_READ, scalableBuckets, scalableShape, type ScalableShape } from 'cuckoo-wasm/inspect';

beforeAll(() => init());

const mix32 = (value: number) => BigInt(fingerprintHash(value >>> 0));

/** An item's fingerprint and its two virtual bucket numbers (hashing.hpp, hash id 3). */
function virtualNumbers(hasher: CuckooFilter, item: string, fixedBits: number) {
  const { hash } = locate(hasher, item);
  const hi = hash >> 32n;
  const fingerprint = Number(1n + ((hi * (2n ** BigInt(fixedBits) - 1n)) >> 32n));
  const v1 = (hash & 0xffffffffn) | (mix32(Number(hi)) << 32n);
  const offset = mix32(fingerprint) | (mix32((fingerprint ^ 0x9e3779b9) >>> 0) << 32n);
  return { fingerprint, v1, v2: v1 ^ offset };
}

function bucketOf(shape: ScalableShape, v: bigint): number {
  const half = 2 ** shape.level;
  const bucket = Number(v & BigInt(2 * half - 1));
  return bucket >= half + shape.splitBucket ? bucket - half : bucket;
}

function levelOf(shape: ScalableShape, bucket: number): number {
  return bucket < shape.splitBucket || bucket >= 2 ** shape.level ? shape.level + 1 : shape.level;
}

/** Whether a slot value is the item's entry for bucket `bucket` of virtual number `v`: its fingerprint, and a tail that agrees with v. */
function holds(shape: ScalableShape, value: number, fingerprint: number, v: bigint, bucket: number): boolean {
  if (value === 0 || value >>> shape.tailBits !== fingerprint) return false;
  const tail = value & (2 ** shape.tailBits - 1);
  const known = 31 - Math.clz32(tail);
  return BigInt(tail ^ (1 << known)) === ((v >> BigInt(levelOf(shape, bucket))) & BigInt(2 ** known - 1));
}

describe('scalableShape', () => {
  test('a new filter: the first table, 2^L + s buckets, and the slot the rate asks for', () => {
    using filter = ScalableCuckooFilter.create({ initialCapacity: 16, fpr: 0.01 });
    const shape = scalableShape(filter);
    // 16 items at load 0.9 need 5 buckets of 4: 2^2 + 1.
    expect(shape).toEqual({
      level: 2,
      splitBucket: 1,
      bucketCount: 5,
      initialLevel: 2,
      fixedBits: 8,
      tailBits: 8,
      bucketSize: 4,
      entryCount: 0,
      stashCount: 0,
    });
    expect(shape.fixedBits + shape.tailBits).toBe(filter.slotBits);
  });

  test('as the filter grows: the public numbers agree, and the level only rises', () => {
    using filter = ScalableCuckooFilter.create({ initialCapacity: 16, fpr: 0.001, growth: 1.5, seed: 9 });
    let previous = scalableShape(filter);
    let growths = 0;
    for (let i = 0; i < 3000; i++) {
      filter.add(i);
      const shape = scalableShape(filter);
      expect(shape.bucketCount).toBe(filter.bucketCount);
      expect(shape.bucketCount).toBe(2 ** shape.level + shape.splitBucket);
      expect(shape.splitBucket).toBeLessThan(2 ** shape.level);
      expect(shape.entryCount / (4 * shape.bucketCount)).toBe(filter.loadFactor);
      expect(shape.entryCount).toBeGreaterThanOrEqual(filter.size);
      expect(shape.level).toBeGreaterThanOrEqual(previous.level);
      if (shape.bucketCount !== previous.bucketCount) growths++;
      previous = shape;
    }
    expect(growths).toBeGreaterThan(5);
    expect(previous.initialLevel).toBe(2);
    expect(previous.tailBits).toBe(filter.slotBits - 8);
  });
});

describe('scalableBuckets', () => {
  test('every item’s entry is in one of its two buckets, its tail the next bits of its bucket number', () => {
    const seed = 4;
    using filter = ScalableCuckooFilter.create({ initialCapacity: 8, fpr: 0.01, seed });
    using hasher = new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 8, seed });
    const items = Array.from({ length: 2000 }, (_, i) => `item-${i}`);
    for (const item of items) filter.add(item);
    const { slots, shape, firstBucket, bucketCount, bucketSize } = scalableBuckets(filter);
    expect([firstBucket, bucketCount, bucketSize]).toEqual([0, filter.bucketCount, 4]);
    expect(slots).toHaveLength(4 * filter.bucketCount);
    expect(slots.filter((value) => value !== 0)).toHaveLength(shape.entryCount - shape.stashCount);
    for (const value of slots) {
      if (value === 0) continue;
      expect(value >>> shape.tailBits).toBeGreaterThanOrEqual(1);
      expect(value & (2 ** shape.tailBits - 1)).toBeGreaterThanOrEqual(1); // unary-terminated: never 0
    }
    let spent = 0;
    for (const item of items) {
      const { fingerprint, v1, v2 } = virtualNumbers(hasher, item, shape.fixedBits);
      const found = [v1, v2].some((v) => {
        const bucket = bucketOf(shape, v);
        return [0, 1, 2, 3].some((s) => holds(shape, slots[bucket * 4 + s]!, fingerprint, v, bucket));
      });
      expect(found).toBe(true);
    }
    // From 3 buckets to ~700, the first entries lost 7 tail bits: some are spent and were copied.
    for (const value of slots) if (value !== 0 && (value & (2 ** shape.tailBits - 1)) === 1) spent++;
    expect(spent).toBeGreaterThan(0);
    expect(shape.entryCount).toBeGreaterThan(filter.size);
  });

  test('a range of buckets is the same slice of the whole table', () => {
    using filter = ScalableCuckooFilter.create({ initialCapacity: 100, fpr: 0.01, seed: 2 });
    for (let i = 0; i < 500; i++) filter.add(i);
    const whole = scalableBuckets(filter).slots;
    const part = scalableBuckets(filter, 10, 7);
    expect(part.firstBucket).toBe(10);
    expect(part.bucketCount).toBe(7);
    expect(part.slots).toEqual(whole.slice(40, 68));
    expect(scalableBuckets(filter, 10).slots).toEqual(whole.slice(40));
    expect(scalableBuckets(filter, filter.bucketCount - 1, 1).slots).toHaveLength(4);
  });

  test('bad arguments and disposed filters throw, naming the function', () => {
    const filter = ScalableCuckooFilter.create({ initialCapacity: 100, fpr: 0.01 });
    const m = filter.bucketCount;
    expect(() => scalableBuckets(filter, m)).toThrow(RangeError);
    expect(() => scalableBuckets(filter, 1, m)).toThrow(RangeError);
    expect(() => scalableBuckets(filter, 0.5)).toThrow(TypeError);
    expect(MAX_SLOTS_PER_READ).toBe(2 ** 24);
    using fixed = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8 });
    expect(() => scalableShape(fixed as unknown as ScalableCuckooFilter)).toThrow(
      'inspect.scalableShape: filter must be a ScalableCuckooFilter',
    );
    filter.dispose();
    expect(() => scalableBuckets(filter)).toThrow(CuckooFilterError);
    expect(() => scalableShape(filter)).toThrow(/scalableShape: this filter was disposed/);
  });
});

test('bucketNumberBits: L + 1 bits for the buckets split in this round, L for the rest, at every shape a filter passes through', () => {
  using filter = ScalableCuckooFilter.create({ initialCapacity: 16, fpr: 0.01, seed: 6 });
  const shapes = new Set<string>();
  for (let i = 0; i < 3000; i++) {
    filter.add(`grow-${i}`);
    const shape = scalableShape(filter);
    if (shapes.has(`${shape.level},${shape.splitBucket}`)) continue;
    shapes.add(`${shape.level},${shape.splitBucket}`);
    for (let bucket = 0; bucket < shape.bucketCount; bucket++) expect(bucketNumberBits(shape, bucket)).toBe(levelOf(shape, bucket));
  }
  expect(shapes.size).toBeGreaterThan(20);
});
