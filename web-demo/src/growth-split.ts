// What one growth of the growable filter did to its buckets, as the core
// reports it (inspect's traceGrowingAdd): each split in the core's order
// (linear hashing: bucket b at level ℓ becomes b and 2^ℓ + b), and each entry
// with the half its lowest tail bit sent it to, that bit then dropped, or
// both halves when its tail was spent. The page draws these and derives no
// split itself; only the table just before the growth is the table after it
// with each split undone, by the entries the core reported.

import { growableFacts, type GrowthStep } from 'cuckoo-wasm/inspect';

/** The shape fields a growth changes (inspect's ScalableShape has them). */
export interface TableShape {
  readonly level: number;
  readonly splitBucket: number;
  readonly bucketCount: number;
  readonly tailBits: number;
  readonly entryCount: number;
}

/** Slots per bucket, and the load past which the table grows: the core's rules, read once it is loaded (readGrowthRules). */
export let BUCKET_SIZE = 0;
export let MAX_LOAD = 0;

export function readGrowthRules(): void {
  ({ bucketSize: BUCKET_SIZE, maxLoad: MAX_LOAD } = growableFacts());
}

/** Whether one more entry takes a table of this shape past the load at which it grows. */
export function nextEntryPassesMaxLoad(shape: Pick<TableShape, 'entryCount' | 'bucketCount'>): boolean {
  return shape.entryCount + 1 > MAX_LOAD * BUCKET_SIZE * shape.bucketCount;
}

/** A slot value, fingerprint << T | tail, taken apart for display: tail = 2^known + bits. */
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

/** Bucket `bucket` of level `level` split into itself and `sibling` = 2^level + bucket. */
export interface Split {
  readonly bucket: number;
  readonly sibling: number;
  readonly level: number;
}

export type Route = 'low' | 'high' | 'both';

/** One entry of a split bucket: its value before, its half, and its value (and slots) after. */
export interface Move {
  readonly before: number;
  readonly route: Route;
  readonly after: number;
  /** Slots it took in the low and the high half (-1: none, as for an entry that waited outside the table). */
  readonly lowSlot: number;
  readonly highSlot: number;
  /** It waited outside the table (the add's evictions ran out) and the growth carried it. */
  readonly waited: boolean;
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
  /** The table just before the growth (the shape `from`), with the add's entry in it; an entry that waited is not. */
  readonly tableBefore: Uint32Array;
  /** Entries the splits copied to both halves (spent tails). */
  readonly copies: number;
  /** True when the add's evictions ran out: the table grew early, carrying the entry that waited. */
  readonly early: boolean;
}

const ROUTES = { stays: 'low', moves: 'high', copied: 'both' } as const;

/** The growths of one add as the page tells them: one growth from the first count to the last. */
export function readGrowth(growths: readonly GrowthStep[], tableAfter: Uint32Array): GrowthReading {
  const splits: SplitRecord[] = growths.flatMap((growth) =>
    growth.splits.map((split) => {
      const low = new Uint32Array(BUCKET_SIZE);
      const high = new Uint32Array(BUCKET_SIZE);
      const before = new Uint32Array(BUCKET_SIZE);
      let filled = 0;
      const moves = split.moves.map((move): Move => {
        // The core lists the bucket's entries in slot order; a growing table keeps them packed.
        if (!move.held) before[filled++] = move.before;
        if (move.lowSlot !== null) low[move.lowSlot] = move.after;
        if (move.highSlot !== null) high[move.highSlot] = move.after;
        return { before: move.before, route: ROUTES[move.route], after: move.after, lowSlot: move.lowSlot ?? -1, highSlot: move.highSlot ?? -1, waited: move.held };
      });
      return { bucket: split.bucket, sibling: split.sibling, level: split.level, before, low, high, moves };
    }),
  );
  // Undone in reverse, each split puts its bucket back as the core reported it and drops its sibling.
  const table = Array.from(tableAfter);
  for (const split of [...splits].reverse()) {
    table.splice(split.bucket * BUCKET_SIZE, BUCKET_SIZE, ...split.before);
    table.length = split.sibling * BUCKET_SIZE;
  }
  return {
    splits,
    tableBefore: Uint32Array.from(table),
    copies: splits.reduce((sum, split) => sum + split.moves.filter((move) => move.route === 'both').length, 0),
    early: growths.some((growth) => growth.held > 0),
  };
}
