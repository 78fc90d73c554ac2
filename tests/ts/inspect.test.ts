// cuckoo-wasm/inspect: the traces report what the core did, and the table
// read afterwards agrees with them step for step.
import { CuckooFilter, CuckooFilterError, init, type CuckooFilterOptions } from 'cuckoo-wasm';
import {
  alternateBucket,
  buckets,
  fingerprintHash,
  locate,
  optimalBloomHashCount,
  practicalMaxLoad,
  stash,
  tableBits,
  traceAdd,
  traceDelete,
  traceHas,
  type InsertTrace,
} from 'cuckoo-wasm/inspect';

beforeAll(() => init());

const teaching: CuckooFilterOptions = { bucketCount: 16, bucketSize: 4, fingerprintBits: 6, seed: 1 };

// Applies a trace's kicks and placement to a copy of the table as it was
// before the insert: the result must be the table after it.
function replay(before: Uint32Array, trace: InsertTrace, bucketSize: number): Uint32Array {
  const table = before.slice();
  for (const kick of trace.kicks) {
    expect(table[kick.bucket * bucketSize + kick.slot]).toBe(kick.evicted);
    table[kick.bucket * bucketSize + kick.slot] = kick.incoming;
  }
  if (trace.placed !== null) {
    expect(table[trace.placed.bucket * bucketSize + trace.placed.slot]).toBe(0);
    table[trace.placed.bucket * bucketSize + trace.placed.slot] = trace.placed.fingerprint;
  }
  return table;
}

function expectChainConsistent(filter: CuckooFilter, trace: InsertTrace): void {
  const mask = filter.params.bucketCount - 1;
  let homeless = trace.fingerprint;
  trace.kicks.forEach((kick, k) => {
    if (k === 0) expect([trace.i1, trace.i2]).toContain(kick.bucket);
    else expect(kick.bucket).toBe(trace.kicks[k - 1]!.nextBucket);
    expect(kick.incoming).toBe(homeless);
    expect(kick.evictedHashMod).toBe(fingerprintHash(kick.evicted) & mask);
    expect(kick.nextBucket).toBe(kick.bucket ^ kick.evictedHashMod);
    expect(kick.nextBucket).toBe(alternateBucket(filter, kick.bucket, kick.evicted));
    homeless = kick.evicted;
  });
  const end = trace.placed ?? trace.stashed ?? trace.undone!;
  expect(end.fingerprint).toBe(homeless);
  if (trace.kicks.length === 0) expect([trace.i1, trace.i2]).toContain(end.bucket);
  else if (trace.placed !== null) expect(end.bucket).toBe(trace.kicks.at(-1)!.nextBucket);
  else expect(end.bucket).toBe(trace.kicks.at(-1)!.bucket ^ trace.kicks.at(-1)!.evictedHashMod);
}

describe('locate', () => {
  test('i2 = i1 XOR (hash(fingerprint) mod m), and back again', () => {
    using filter = new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 12, seed: 7 });
    for (let i = 0; i < 2000; i++) {
      const where = locate(filter, `key-${i}`);
      expect(where.fingerprint).toBeGreaterThanOrEqual(1);
      expect(where.fingerprint).toBeLessThan(2 ** 12);
      expect(where.i1).toBe(Number(where.hash & 1023n));
      expect(where.fingerprintHash).toBe(fingerprintHash(where.fingerprint));
      expect(where.fingerprintHashMod).toBe(where.fingerprintHash & 1023);
      expect(where.i2).toBe(where.i1 ^ where.fingerprintHashMod);
      expect(alternateBucket(filter, where.i2, where.fingerprint)).toBe(where.i1);
      expect(alternateBucket(filter, where.i1, where.fingerprint)).toBe(where.i2);
    }
  });

  test('depends on the seed, and an item is the same item in every encoding', () => {
    using a = new CuckooFilter({ ...teaching, seed: 1 });
    using b = new CuckooFilter({ ...teaching, seed: 2 });
    expect(locate(a, 'apple').hash).not.toBe(locate(b, 'apple').hash);
    expect(locate(a, 'apple')).toEqual(locate(a, new TextEncoder().encode('apple')));
    expect(locate(a, 5)).toEqual(locate(a, 5n));
  });
});

describe('traceAdd', () => {
  test('changes the filter exactly as add() does, kicks and stash included', () => {
    using plain = new CuckooFilter(teaching);
    using traced = new CuckooFilter(teaching);
    for (let i = 0; i < 80; i++) {
      const trace = traceAdd(traced, `item-${i}`);
      expect(trace.added).toBe(plain.add(`item-${i}`));
      expect(traced.toBytes()).toEqual(plain.toBytes());
    }
    expect(traced.stashed).toBe(1);
    expect(traced.full).toBe(plain.full);
  });

  test('the kicks, replayed on the table before, give the table after', () => {
    using filter = new CuckooFilter(teaching);
    let kicked = 0;
    for (let i = 0; filter.stashed === 0; i++) {
      const before = buckets(filter).slots;
      const trace = traceAdd(filter, `item-${i}`);
      expect(trace.added).toBe(true);
      expect(trace.kickCount).toBe(trace.kicks.length);
      expect(trace.placed === null).toBe(trace.stashed !== null);
      expectChainConsistent(filter, trace);
      expect(replay(before, trace, 4)).toEqual(buckets(filter).slots);
      if (trace.kickCount > 0) kicked++;
    }
    // A 16 x 4 table sees its first kicks within a few dozen items.
    expect(kicked).toBeGreaterThan(3);
  });

  test('when evictions run out the last homeless fingerprint goes to the stash; later, a walk that runs out is undone', () => {
    using filter = new CuckooFilter({ ...teaching, maxKicks: 20 });
    let trace: InsertTrace;
    let i = 0;
    do trace = traceAdd(filter, `item-${i++}`);
    while (trace.stashed === null);
    expect(trace.added).toBe(true);
    expect(trace.kickCount).toBe(20);
    expect(trace.kicks).toHaveLength(20);
    expectChainConsistent(filter, trace);
    const view = stash(filter);
    expect(view).toEqual({
      occupied: true,
      fingerprint: trace.stashed!.fingerprint,
      bucket: trace.stashed!.bucket,
      alternateBucket: alternateBucket(filter, trace.stashed!.bucket, trace.stashed!.fingerprint),
    });
    expect(buckets(filter).stash).toEqual(view);
    expect(filter.full).toBe(false);

    // Adds go on while they find room; the first whose walk runs out again is
    // refused: its kicks are reported, then undone, and nothing changed.
    let before: Uint8Array;
    let refused: InsertTrace;
    do {
      before = filter.toBytes();
      refused = traceAdd(filter, `item-${i++}`);
    } while (refused.added);
    expect(refused).toMatchObject({ added: false, kickCount: 20, placed: null, stashed: null });
    expect(refused.kicks).toHaveLength(20);
    expectChainConsistent(filter, refused);
    expect(refused.undone!.fingerprint).not.toBe(0);
    expect(filter.toBytes()).toEqual(before);
    expect(filter.full).toBe(true);
  });

  test('semi-sorted tables: the chain is consistent and the placed slot holds the fingerprint', () => {
    using filter = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8, seed: 3, semiSort: true });
    using plain = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8, seed: 3, semiSort: true });
    for (let i = 0; !filter.full; i++) {
      const trace = traceAdd(filter, i);
      plain.add(i);
      expectChainConsistent(filter, trace);
      if (trace.placed !== null) {
        expect(buckets(filter).slots[trace.placed.bucket * 4 + trace.placed.slot]).toBe(trace.placed.fingerprint);
      }
    }
    expect(filter.toBytes()).toEqual(plain.toBytes());
  });

  test('bucket size 1 and 8, and a single bucket, where i1 = i2', () => {
    for (const options of [
      { bucketCount: 64, bucketSize: 1 as const, fingerprintBits: 7 },
      { bucketCount: 8, bucketSize: 8 as const, fingerprintBits: 5 },
      { bucketCount: 1, bucketSize: 4 as const, fingerprintBits: 4 },
    ]) {
      using filter = new CuckooFilter(options);
      for (let i = 0; !filter.full; i++) {
        const before = buckets(filter).slots;
        const trace = traceAdd(filter, `k${i}`);
        expectChainConsistent(filter, trace);
        // An undone walk leaves the table as it was.
        expect(trace.undone === null ? replay(before, trace, options.bucketSize) : before).toEqual(buckets(filter).slots);
      }
    }
  });
});

describe('traceHas and traceDelete', () => {
  test('lookups name the slots that hold the fingerprint', () => {
    using filter = new CuckooFilter(teaching);
    const items = Array.from({ length: 40 }, (_, i) => `item-${i}`);
    filter.addMany(items);
    const { slots } = buckets(filter);
    for (const item of [...items, 'absent-1', 'absent-2', 'absent-3']) {
      const trace = traceHas(filter, item);
      expect(trace.found).toBe(filter.has(item));
      for (const [bucket, found] of [[trace.i1, trace.slotsInI1], [trace.i2, trace.slotsInI2]] as const) {
        const expected = [0, 1, 2, 3].filter((s) => slots[bucket * 4 + s] === trace.fingerprint);
        expect(found).toEqual(expected);
      }
      expect(trace.found).toBe(trace.slotsInI1.length + trace.slotsInI2.length > 0 || trace.inStash);
    }
  });

  test('a delete names the bucket and slot it emptied', () => {
    using filter = new CuckooFilter(teaching);
    const items = Array.from({ length: 40 }, (_, i) => `item-${i}`);
    filter.addMany(items);
    for (const item of items) {
      const before = buckets(filter).slots;
      const trace = traceDelete(filter, item);
      expect(trace).toMatchObject({ deleted: true, from: 'bucket', stashReinserted: false });
      expect([trace.i1, trace.i2]).toContain(trace.bucket);
      const index = trace.bucket! * 4 + trace.slot!;
      expect(before[index]).toBe(trace.fingerprint);
      const after = buckets(filter).slots;
      expect(after[index]).toBe(0);
      after[index] = trace.fingerprint;
      expect(after).toEqual(before);
    }
    expect(filter.size).toBe(0);
    expect(traceDelete(filter, 'never added')).toMatchObject({ deleted: false, from: null, bucket: null, slot: null });
  });

  test('a full filter: the stashed item is deleted from the stash; deleting another re-places the stash', () => {
    using filter = new CuckooFilter({ ...teaching, maxKicks: 50 });
    const items: string[] = [];
    while (!filter.full) {
      items.push(`item-${items.length}`);
      filter.add(items.at(-1)!);
    }
    const homeless = items.find((item) => traceHas(filter, item).inStash)!;
    expect(homeless).toBeDefined();
    const table = buckets(filter).slots;
    expect(traceDelete(filter, homeless)).toMatchObject({ deleted: true, from: 'stash', bucket: null, slot: null });
    expect(stash(filter).occupied).toBe(false);
    expect(buckets(filter).slots).toEqual(table);

    filter.add(homeless);
    while (!filter.full) {
      items.push(`more-${items.length}`);
      filter.add(items.at(-1)!);
    }
    const other = items.find((item) => item !== homeless && !traceHas(filter, item).inStash && filter.has(item))!;
    const before = buckets(filter).slots;
    const stashed = stash(filter);
    const trace = traceDelete(filter, other);
    expect(trace).toMatchObject({ deleted: true, from: 'bucket', stashReinserted: true });
    // The stash's walk, replayed on the table less the deleted copy, gives the table after.
    const walk = trace.stashReplacement!;
    expect(walk).not.toBeNull();
    expect(walk.kicks).toHaveLength(walk.kickCount);
    const replayed = before.slice();
    expect(replayed[trace.bucket! * 4 + trace.slot!]).toBe(trace.fingerprint);
    replayed[trace.bucket! * 4 + trace.slot!] = 0;
    let homelessNow = stashed.fingerprint;
    for (const kick of walk.kicks) {
      expect(kick.incoming).toBe(homelessNow);
      expect(replayed[kick.bucket * 4 + kick.slot]).toBe(kick.evicted);
      replayed[kick.bucket * 4 + kick.slot] = kick.incoming;
      homelessNow = kick.evicted;
    }
    expect(walk.fingerprint).toBe(homelessNow);
    if (walk.end === 'placed') {
      expect(replayed[walk.bucket * 4 + walk.slot!]).toBe(0);
      replayed[walk.bucket * 4 + walk.slot!] = walk.fingerprint;
      expect(stash(filter).occupied).toBe(false);
    } else {
      expect(stash(filter)).toMatchObject({ occupied: true, fingerprint: walk.fingerprint, bucket: walk.bucket });
    }
    expect(buckets(filter).slots).toEqual(replayed);
  });

  test('a delete with nothing stashed has no stash walk', () => {
    using filter = new CuckooFilter(teaching);
    filter.add('a');
    expect(traceDelete(filter, 'a')).toMatchObject({ deleted: true, stashReinserted: false, stashReplacement: null });
  });
});

describe('tables, sizes and errors', () => {
  test('buckets reads the whole table or a range', () => {
    using filter = new CuckooFilter({ bucketCount: 256, bucketSize: 2, fingerprintBits: 9, seed: 4 });
    filter.addMany(Array.from({ length: 300 }, (_, i) => i));
    const all = buckets(filter);
    expect(all).toMatchObject({ firstBucket: 0, bucketCount: 256, bucketSize: 2 });
    expect(all.slots).toHaveLength(512);
    expect(all.slots.filter((v) => v !== 0)).toHaveLength(filter.size);
    expect(buckets(filter, 100, 10).slots).toEqual(all.slots.subarray(200, 220));
    expect(buckets(filter, 250).slots).toEqual(all.slots.subarray(500));
    expect(buckets(filter, 3, 0).slots).toHaveLength(0);
    expect(() => buckets(filter, 256)).toThrow(RangeError);
    expect(() => buckets(filter, 10, 247)).toThrow(RangeError);
    expect(() => buckets(filter, 1.5)).toThrow(TypeError);
  });

  test('table bits, practical loads and the Bloom k of the same memory', () => {
    using plain = new CuckooFilter(teaching);
    using semi = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 9, semiSort: true });
    expect(tableBits(plain)).toBe(16 * 4 * 6);
    expect(tableBits(semi)).toBe(16 * (4 * 9 - 4));
    expect([1, 2, 4, 8].map((b) => practicalMaxLoad(b as 1 | 2 | 4 | 8))).toEqual([0.43, 0.84, 0.945, 0.975]);
    expect(optimalBloomHashCount(384 / 61)).toBe(4);
    expect(optimalBloomHashCount(100)).toBe(32);
    expect(() => practicalMaxLoad(3 as 4)).toThrow(RangeError);
    expect(() => optimalBloomHashCount(0)).toThrow(RangeError);
  });

  test('arguments are checked, and a disposed filter is refused', () => {
    const filter = new CuckooFilter(teaching);
    expect(() => traceAdd({} as CuckooFilter, 'x')).toThrow(TypeError);
    expect(() => traceAdd(filter, true as unknown as string)).toThrow(TypeError);
    expect(() => alternateBucket(filter, 16, 3)).toThrow(RangeError);
    expect(() => alternateBucket(filter, 3, 64)).toThrow(RangeError);
    expect(() => alternateBucket(filter, 3, 0)).toThrow(RangeError);
    filter.dispose();
    for (const use of [() => traceAdd(filter, 'x'), () => locate(filter, 'x'), () => buckets(filter), () => stash(filter)]) {
      expect(use).toThrow(CuckooFilterError);
    }
  });
});
