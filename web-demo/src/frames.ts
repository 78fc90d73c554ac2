// Turns a core trace into the steps the page animates. Each step is a table
// to draw, what to highlight and a caption. Intermediate tables are the
// table before the operation with the trace's kicks applied in order; the
// last step always shows the table as the core has it afterwards.

import type { InsertTrace, ItemLocation, Kick, LookupTrace, StashView } from 'cuckoo-wasm/inspect';
import { binary, bucketBits, fingerprintText } from './format.js';
import type { DemoParams } from './params.js';

export type SlotMark = 'chosen' | 'placed' | 'match' | 'removed';
export type BucketMark = 'i1' | 'i2' | 'current' | 'next';

export interface Frame {
  caption: string;
  slots: Uint32Array;
  stash: StashView;
  slotMarks: ReadonlyArray<readonly [index: number, mark: SlotMark]>;
  bucketMarks: ReadonlyArray<readonly [bucket: number, mark: BucketMark]>;
  stashMarked: boolean;
  /** Kicks listed in the chain so far, and the one being shown (or -1). */
  kicksShown: number;
  currentKick: number;
  /** Whether the chain's last line (placed or stashed) is shown. */
  endShown: boolean;
  /** How long the step stays, relative to a normal step: long chains speed up after a few kicks. */
  pace: number;
}

export interface TableState {
  slots: Uint32Array;
  stash: StashView;
}

/**
 * A walk of evictions as the core reports it: an insert's (an InsertTrace is
 * one), or the stashed fingerprint's once a delete freed a slot.
 */
export interface KickWalk {
  readonly hashId: 1 | 2;
  readonly kicks: readonly Kick[];
  readonly kickCount: number;
  readonly placed: { readonly bucket: number; readonly slot: number; readonly fingerprint: number } | null;
  readonly stashed: { readonly bucket: number; readonly fingerprint: number } | null;
  /** An insert's walk that ran out with the stash taken, and was undone (issue 26): the fingerprint left homeless. */
  readonly undone?: { readonly bucket: number; readonly fingerprint: number } | null;
}

/** Writes a kick into `slots`: `incoming` replaces the evicted fingerprint. */
export function applyKick(slots: Uint32Array, params: DemoParams, bucket: number, slot: number, value: number): void {
  const start = bucket * params.bucketSize;
  slots[start + slot] = value;
  // FORMAT.md: a semi-sorted bucket keeps its entries in ascending order, and
  // slot numbers are positions in that order, so a write re-sorts the bucket.
  if (params.semiSort) slots.subarray(start, start + params.bucketSize).sort();
}

/** Words for numbers, in the page's notation. */
export class Notation {
  constructor(private readonly params: DemoParams) {}

  fp(value: number): string {
    return fingerprintText(value, this.params.fingerprintBits, this.params.format);
  }

  bucket(value: number): string {
    return `${value}`;
  }

  bucketBinary(value: number): string {
    return binary(value, bucketBits(this.params.bucketCount));
  }

  /** "1001 XOR 0101 = 1100", the relation between two buckets with hash id 1. */
  xor(bucket: number, hashMod: number, result: number): string {
    return `${this.bucketBinary(bucket)} XOR ${this.bucketBinary(hashMod)} = ${this.bucketBinary(result)}`;
  }

  /** "(7 − 9) mod 12", the relation between two buckets with hash id 2: the reflection about c. */
  reflection(bucket: number, c: number): string {
    return `(${c} − ${bucket}) mod ${this.params.bucketCount}`;
  }

  /** A bucket's other bucket, worked out as the layout in use does it: "1001 XOR 0101 = 1100 = 12" or "(7 − 9) mod 12 = 10". */
  step(hashId: 1 | 2, bucket: number, hashMod: number, result: number): string {
    return `${hashId === 1 ? this.xor(bucket, hashMod, result) : this.reflection(bucket, hashMod)} = ${result}`;
  }
}

export function quoted(item: string): string {
  return item.length > 24 ? `“${item.slice(0, 23)}…”` : `“${item}”`;
}

export function candidateMarks(where: ItemLocation): Array<readonly [number, BucketMark]> {
  return where.i1 === where.i2 ? [[where.i1, 'i1']] : [[where.i1, 'i1'], [where.i2, 'i2']];
}

export function hashCaption(verb: string, item: string, where: ItemLocation, n: Notation): string {
  const step = n.step(where.hashId, where.i1, where.fingerprintHashMod, where.i2);
  const i2 =
    where.hashId === 1 ? `i2 = i1 XOR hash(f) = ${step}` : `i2 = (c − i1) mod m = ${step}, c being hash(f) scaled to the m buckets`;
  const why = where.hashId === 1 ? 'hash(f) mod m is 0' : '2 × i1 = c (mod m)';
  const same = where.i1 === where.i2 ? ` Here ${why}, so both candidates are the same bucket.` : '';
  return `${verb} ${quoted(item)}: its fingerprint is ${n.fp(where.fingerprint)}, i1 = ${where.i1}, ${i2}.${same}`;
}

/** Where a kick sends the evicted fingerprint, worked out in words. */
function otherBucket(hashId: 1 | 2, kick: Kick, n: Notation): string {
  const step = n.step(hashId, kick.bucket, kick.evictedHashMod, kick.nextBucket);
  const f = n.fp(kick.evicted);
  return hashId === 1 ? `${kick.bucket} XOR hash(${f}) = ${step}` : `(c − ${kick.bucket}) mod m with c from hash(${f}): ${step}`;
}

export function frame(table: TableState, caption: string, parts: Partial<Frame> = {}): Frame {
  return {
    caption,
    slots: table.slots,
    stash: table.stash,
    slotMarks: [],
    bucketMarks: [],
    stashMarked: false,
    kicksShown: 0,
    currentKick: -1,
    endShown: false,
    pace: 1,
    ...parts,
  };
}

/** One frame per kick of `walk`, each applied to the table `start` in turn. */
export function kickFrames(walk: KickWalk, start: TableState, params: DemoParams): Frame[] {
  const n = new Notation(params);
  const b = params.bucketSize;
  const kicks = walk.kicks;
  let slots = start.slots;
  return kicks.map((kick, k) => {
    slots = slots.slice();
    applyKick(slots, params, kick.bucket, kick.slot, kick.incoming);
    const next = kicks[k + 1];
    const then =
      next !== undefined
        ? `Bucket ${kick.nextBucket} is full too, so ${n.fp(kick.evicted)} kicks again, at slot ${next.slot}.`
        : walk.placed !== null
          ? `Bucket ${kick.nextBucket} has a free slot.`
          : `That was the last of the ${params.maxKicks} kicks allowed.`;
    return frame({ slots, stash: start.stash }, `Kick ${k + 1}: ${n.fp(kick.incoming)} takes slot ${kick.slot} of bucket ${kick.bucket}, evicting ${n.fp(kick.evicted)}. Its other bucket is ${otherBucket(walk.hashId, kick, n)}. ${then}`, {
      bucketMarks: [[kick.bucket, 'current'], [kick.nextBucket, 'next']],
      slotMarks: [[kick.bucket * b + kick.slot, 'chosen']],
      kicksShown: k + 1,
      currentKick: k,
      pace: k < 6 ? 1 : k < 30 ? 0.35 : 0.1,
    });
  });
}

export function insertFrames(
  item: string,
  trace: InsertTrace,
  before: TableState,
  after: TableState,
  params: DemoParams,
): Frame[] {
  const n = new Notation(params);
  const b = params.bucketSize;
  const candidates = candidateMarks(trace);
  if (!trace.added && trace.kicks.length === 0) {
    return [
      frame(after, `${hashCaption('Insert', item, trace, n)} Both buckets are full, no kick is allowed (max kicks 0) and the stash is taken: the insert is refused, and nothing changes.`, {
        bucketMarks: candidates,
        stashMarked: true,
      }),
    ];
  }
  const frames = [frame(before, `${hashCaption('Insert', item, trace, n)}`, { bucketMarks: candidates })];
  const kicks = trace.kicks;
  if (kicks.length === 0 && trace.placed !== null) {
    const { bucket, slot } = trace.placed;
    const which =
      bucket === trace.i1 ? `Bucket i1 (${bucket}) has a free slot` : `Bucket i1 (${trace.i1}) is full, but bucket i2 (${bucket}) has a free slot`;
    frames.push(
      frame(after, `${which}: ${n.fp(trace.fingerprint)} goes into slot ${slot}. No kicks needed.`, {
        bucketMarks: candidates,
        slotMarks: [[bucket * b + slot, 'placed']],
        endShown: true,
      }),
    );
    return frames;
  }

  const first = kicks[0]!;
  frames.push(
    frame(before, `Both buckets are full. The filter picks one of them at random, bucket ${first.bucket}, and a random slot in it, slot ${first.slot}.`, {
      bucketMarks: [...candidates, [first.bucket, 'current']],
      slotMarks: [[first.bucket * b + first.slot, 'chosen']],
    }),
  );
  frames.push(...kickFrames(trace, before, params));
  const kickWord = trace.kickCount === 1 ? 'kick' : 'kicks';
  if (trace.placed !== null) {
    const { bucket, slot, fingerprint } = trace.placed;
    frames.push(
      frame(after, `${n.fp(fingerprint)} lands in slot ${slot} of bucket ${bucket}. Done after ${trace.kickCount} ${kickWord}; every fingerprint is still in one of its two buckets.`, {
        bucketMarks: [[bucket, 'next']],
        slotMarks: [[bucket * b + slot, 'placed']],
        kicksShown: kicks.length,
        endShown: true,
      }),
    );
  } else if (trace.stashed !== null) {
    frames.push(
      frame(after, `After ${trace.kickCount} ${kickWord}, ${n.fp(trace.stashed.fingerprint)} is still homeless, so it goes to the stash, and the insert succeeds: the filter still holds every item, and lookups check the stash too. The stash holds one: while it is taken, an insert whose kicks run out is refused.`, {
        bucketMarks: [[trace.stashed.bucket, 'current']],
        stashMarked: true,
        kicksShown: kicks.length,
        endShown: true,
      }),
    );
  } else if (trace.undone !== null) {
    frames.push(
      frame(after, `After ${trace.kickCount} ${kickWord}, ${n.fp(trace.undone.fingerprint)} is still homeless, and the stash already holds ${n.fp(after.stash.fingerprint)}: there is nowhere to put it. Every kick is undone, last first, and ${quoted(item)} is refused: the table is exactly as before. Other items still go in where they find room.`, {
        bucketMarks: candidates,
        stashMarked: true,
        kicksShown: kicks.length,
        endShown: true,
      }),
    );
  }
  return frames;
}

export function lookupFrames(item: string, trace: LookupTrace, table: TableState, params: DemoParams, bloomSays: boolean): Frame[] {
  const n = new Notation(params);
  const b = params.bucketSize;
  const candidates = candidateMarks(trace);
  const matches: Array<readonly [number, SlotMark]> = [
    ...trace.slotsInI1.map((s) => [trace.i1 * b + s, 'match'] as const),
    ...(trace.i2 !== trace.i1 ? trace.slotsInI2.map((s) => [trace.i2 * b + s, 'match'] as const) : []),
  ];
  const where: string[] = [];
  if (trace.slotsInI1.length > 0) where.push(`bucket ${trace.i1}`);
  if (trace.slotsInI2.length > 0 && trace.i2 !== trace.i1) where.push(`bucket ${trace.i2}`);
  if (trace.inStash) where.push('the stash');
  const bloom = bloomSays ? 'The Bloom filter says “maybe” too.' : 'The Bloom filter says no too.';
  const answer = trace.found
    ? `${n.fp(trace.fingerprint)} is in ${where.join(' and ')}: ${quoted(item)} is probably in the set (or it is a false positive: another item with the same fingerprint and bucket). ${bloom}`
    : `Neither bucket holds ${n.fp(trace.fingerprint)}${trace.inStash ? '' : ', nor the stash'}: ${quoted(item)} is certainly not in the set. ${bloom}`;
  return [
    frame(table, `${hashCaption('Look up', item, trace, n)} Only these two buckets can hold it.`, { bucketMarks: candidates }),
    frame(table, answer, { bucketMarks: candidates, slotMarks: matches, stashMarked: trace.inStash }),
  ];
}

/** An item's two buckets marked on the table as it is, for an item not (yet) acted on. */
export function previewFrame(item: string, where: ItemLocation, table: TableState, params: DemoParams): Frame {
  const n = new Notation(params);
  return frame(table, `${hashCaption('Typed', item, where, n)} Not inserted: Enter inserts it.`, {
    bucketMarks: candidateMarks(where),
  });
}

export function stateFrame(table: TableState, caption: string): Frame {
  return frame(table, caption);
}
