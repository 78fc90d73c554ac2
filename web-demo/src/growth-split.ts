// What one growth of the growable filter did to its buckets, read back from
// the table the core left. The core splits buckets in order (linear hashing):
// bucket b at level ℓ becomes b and 2^ℓ + b, each entry going to the half its
// lowest tail bit names, that bit then dropped; an entry whose tail is spent
// goes to both. A split is undone by putting each bit back, so the table
// before the growth, and every split, follow from the table after it.
//
// When an add's evictions run out, the last entry evicted waits outside the
// table and the table grows early, before its load reaches 90 %. That entry
// is split with the bucket it waits for, then put back: so the split bucket
// reads back with 5 entries, 4 in its slots and the waiting one (which of them
// waited cannot be read). Other signs that a reading is wrong are checked (a
// full-length tail in a half, a count of copies other than the core's), and
// such a growth says so rather than show splits it cannot know.

/** The shape fields a growth changes (inspect's ScalableShape has them). */
export interface TableShape {
  readonly level: number;
  readonly splitBucket: number;
  readonly bucketCount: number;
  readonly tailBits: number;
  readonly entryCount: number;
}

export const BUCKET_SIZE = 4;
/** The core grows once its entries pass this share of the slots (kMaxLoad in cpp/src/scalable_ops.hpp). */
export const MAX_LOAD = 0.9;

/** A slot value, fingerprint << T | tail, taken apart: tail = 2^known + bits. */
export interface SlotParts {
  fingerprint: number;
  /** e: the bucket-number bits the tail still holds; 0 when spent. */
  known: number;
  bits: number;
}

export function slotParts(value: number, tailBits: number): SlotParts {
  const tail = value & (2 ** tailBits - 1);
  const known = 31 - Math.clz32(tail);
  return { fingerprint: value >>> tailBits, known, bits: tail ^ (1 << known) };
}

function joinParts(fingerprint: number, known: number, bits: number, tailBits: number): number {
  return ((fingerprint << tailBits) | (1 << known) | bits) >>> 0;
}

/** Bucket `bucket` of level `level` split into itself and `sibling` = 2^level + bucket. */
export interface Split {
  readonly bucket: number;
  readonly sibling: number;
  readonly level: number;
}

/** The splits that take the table from shape `from` to shape `to`, in the core's order. */
export function splitsBetween(from: TableShape, to: TableShape): Split[] {
  const splits: Split[] = [];
  let level = from.level;
  let next = from.splitBucket;
  for (let m = from.bucketCount; m < to.bucketCount; m++) {
    splits.push({ bucket: next, sibling: 2 ** level + next, level });
    if (++next === 2 ** level) {
      level++;
      next = 0;
    }
  }
  return splits;
}

export type Route = 'low' | 'high' | 'both';

/** One entry of a split bucket: its value before, its half, and its value (and slots) after. */
export interface Move {
  readonly before: number;
  readonly route: Route;
  readonly after: number;
  /** Slots it took in the low and the high half (-1: none). */
  readonly lowSlot: number;
  readonly highSlot: number;
}

export interface SplitRecord extends Split {
  /** The bucket's 4 slots before the split, and both halves' after it. */
  readonly before: Uint32Array;
  readonly low: Uint32Array;
  readonly high: Uint32Array;
  readonly moves: readonly Move[];
}

export interface GrowthReading {
  readonly splits: readonly SplitRecord[];
  /** The table just before the growth (the shape `from`), with the insert's entry in it; a bucket's waiting entry is not. */
  readonly tableBefore: Uint32Array;
  readonly copies: number;
  /** True when the add's evictions ran out, and the table grew before its load reached 90 %. */
  readonly early: boolean;
  /** True when an entry waited outside the table during the growth: the add's evictions ran out. */
  readonly waited: boolean;
  /** False when the splits cannot be read back (see the top of this file). */
  readonly readable: boolean;
}

function bucketSlots(table: ArrayLike<number>, bucket: number): Uint32Array {
  return Uint32Array.from({ length: BUCKET_SIZE }, (_, s) => table[bucket * BUCKET_SIZE + s] ?? 0);
}

/** Puts the halves of one split back together; `pairsApart` spent values found in both halves count as two entries, not one copy. */
function unsplit(split: Split, low: Uint32Array, high: Uint32Array, tailBits: number, hint: Uint32Array | undefined, pairsApart: { left: number }) {
  const moves: Move[] = [];
  let sane = true;
  const highTaken = new Set<number>();
  const back = (after: number, bit: number) => {
    const { fingerprint, known, bits } = slotParts(after, tailBits);
    if (known >= tailBits - 1) sane = false;
    return joinParts(fingerprint, known + 1, (bits << 1) | bit, tailBits);
  };
  // A spent value in both halves is one entry copied, unless the bucket held it as two before.
  const twoEntries = (after: number) => {
    if (hint?.includes(after)) return false;
    if (hint?.includes(back(after, 0))) return true;
    if (pairsApart.left === 0) return false;
    pairsApart.left--;
    return true;
  };
  low.forEach((after, lowSlot) => {
    if (after === 0) return;
    if (slotParts(after, tailBits).known === 0) {
      const highSlot = [...high.keys()].find((s) => high[s] === after && !highTaken.has(s));
      if (highSlot !== undefined && !twoEntries(after)) {
        highTaken.add(highSlot);
        moves.push({ before: after, route: 'both', after, lowSlot, highSlot });
        return;
      }
    }
    moves.push({ before: back(after, 0), route: 'low', after, lowSlot, highSlot: -1 });
  });
  high.forEach((after, highSlot) => {
    if (after === 0 || highTaken.has(highSlot)) return;
    moves.push({ before: back(after, 1), route: 'high', after, lowSlot: -1, highSlot });
  });
  if (moves.length > BUCKET_SIZE + 1) sane = false;
  const before = new Uint32Array(BUCKET_SIZE);
  const values = moves.map((move) => move.before);
  // Where the table before the insert agrees, its slot order; the rest fill free slots in order.
  if (hint !== undefined) {
    hint.forEach((value, slot) => {
      const k = values.indexOf(value);
      if (value !== 0 && k >= 0) {
        before[slot] = value;
        values.splice(k, 1);
      }
    });
  }
  for (const value of values) {
    const free = before.indexOf(0);
    if (free >= 0) before[free] = value;
  }
  return { record: { ...split, before, low, high, moves } as SplitRecord, sane };
}

/**
 * Reads a growth back from the table after it. `hint` is the table before
 * the insert that grew it (undefined when unknown): it settles which slot
 * each entry had, and whether a spent value in both halves was one entry or two.
 */
export function readGrowth(from: TableShape, to: TableShape, tableAfter: Uint32Array, hint?: Uint32Array): GrowthReading {
  const splits = splitsBetween(from, to);
  const early = from.entryCount + 1 <= MAX_LOAD * BUCKET_SIZE * from.bucketCount;
  // Entries the growth added: each copy is one (the insert's own entry is the other).
  const copiesByCore = to.entryCount - from.entryCount - 1;
  const splitsOf = new Map<number, number>();
  for (const split of splits) splitsOf.set(split.bucket, (splitsOf.get(split.bucket) ?? 0) + 1);
  let reading: GrowthReading | undefined;
  // Undecided pairs count as copies first; if that is more copies than the core made, the first few are two entries.
  for (let apart = 0, tries = 0; tries < 3; tries++) {
    const table = Array.from(tableAfter);
    const records: SplitRecord[] = [];
    const pairsApart = { left: apart };
    let sane = true;
    let overfull = 0;
    for (const split of [...splits].reverse()) {
      // The table before the insert knows a bucket only if this growth split it once, and it is not a new one.
      const hint1 = hint !== undefined && split.bucket < from.bucketCount && splitsOf.get(split.bucket) === 1 ? bucketSlots(hint, split.bucket) : undefined;
      const { record, sane: ok } = unsplit(split, bucketSlots(table, split.bucket), bucketSlots(table, split.sibling), to.tailBits, hint1, pairsApart);
      sane &&= ok;
      // A bucket split twice would lose its waiting entry between the two readings.
      if (record.moves.length > BUCKET_SIZE) overfull += splitsOf.get(split.bucket) === 1 ? 1 : 2;
      records.unshift(record);
      table.splice(split.bucket * BUCKET_SIZE, BUCKET_SIZE, ...record.before);
      table.length = split.sibling * BUCKET_SIZE;
    }
    const copies = records.reduce((sum, r) => sum + r.moves.filter((move) => move.route === 'both').length, 0);
    const readable = sane && copies === copiesByCore && overfull <= 1;
    reading = { splits: records, tableBefore: Uint32Array.from(table), copies, early, waited: early || overfull > 0, readable };
    if (copies <= copiesByCore) break;
    apart += copies - copiesByCore;
  }
  return reading!;
}
