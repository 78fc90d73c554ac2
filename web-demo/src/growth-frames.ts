// Turns what the growable filter did into the steps the page animates: an
// add without growth is one step; a growth is the table just before it, the
// first few splits one at a time, then the rest at once, then the result.
// Every table shown is the core's, or the core's splits applied to it (growth-split.ts).

import { count, percent, rate } from './format.js';
import { BUCKET_SIZE, MAX_LOAD, nextEntryPassesMaxLoad, type GrowthReading, type SplitRecord, type TableShape } from './growth-split.js';
import { bucketBinary, type LevelShape } from './growth-notation.js';
import type { GrowthMoment } from './growth-readings.js';

export type GrowthBucketMark = 'to-split' | 'low' | 'high';
export type GrowthSlotMark = 'placed' | 'to-low' | 'to-high' | 'copied';

/** A table to draw: its slots and shape, and the buckets it will have at the end of the growth (the ones not made yet are drawn as places to come). */
export interface GrowthTable {
  slots: Uint32Array;
  shape: LevelShape;
  reserve: number;
}

export interface GrowthMarks {
  buckets: ReadonlyArray<readonly [bucket: number, mark: GrowthBucketMark]>;
  slots: ReadonlyArray<readonly [index: number, mark: GrowthSlotMark]>;
  /** The split the split list highlights, or -1. */
  split: number;
}

export interface GrowthFrame {
  caption: string;
  table: GrowthTable;
  marks: GrowthMarks;
  /** What the gauges, the log and the charts show with this frame: the same moment as its table. */
  moment: GrowthMoment;
  pace: number;
}

/** Splits animated one by one; the rest of a growth is shown at once. */
const DETAILED_SPLITS = 3;

function frame(
  caption: string, slots: Uint32Array, shape: LevelShape, moment: GrowthMoment, marks: Partial<GrowthMarks> = {}, reserve = shape.bucketCount,
): GrowthFrame {
  return { caption, table: { slots, shape, reserve }, marks: { buckets: [], slots: [], split: -1, ...marks }, moment, pace: 1 };
}

export function stateFrame(slots: Uint32Array, shape: LevelShape, caption: string, moment: GrowthMoment): GrowthFrame {
  return frame(caption, slots, shape, moment);
}

function shapeAfter(split: SplitRecord): LevelShape {
  const next = split.bucket + 1;
  return next === 2 ** split.level
    ? { level: split.level + 1, splitBucket: 0, bucketCount: 2 ** (split.level + 1) }
    : { level: split.level, splitBucket: next, bucketCount: 2 ** split.level + next };
}

/** The split pointer's move: on by one, or, at the end of a round, back to 0 a level up. */
function pointerMove(split: SplitRecord): string {
  const after = shapeAfter(split);
  return after.splitBucket === 0 ? `That ends the round: L = ${after.level}, s = 0.` : `s = ${after.splitBucket}.`;
}

function splitCaption(split: SplitRecord): string {
  const { bucket, sibling, level } = split;
  const from = level === 0 ? `bucket ${bucket}` : `bucket ${bucket} (${bucketBinary(bucket, level)})`;
  const routes = { low: 0, high: 0, both: 0 };
  for (const move of split.moves) routes[move.route]++;
  const copied = routes.both > 0 ? `, ${routes.both} copied to both (tail spent)` : '';
  const waiting = split.moves.some((move) => move.waited) ? `With the entry that waited outside the table for it, it had ${split.moves.length}: ` : '';
  return (
    `Split ${from} into ${bucket} (${bucketBinary(bucket, level + 1)}) and ${sibling} (${bucketBinary(sibling, level + 1)}): ` +
    `each entry’s last tail bit becomes the first bit of its bucket number, and leaves the tail. ` +
    `${waiting}${routes.low} stayed (bit 0), ${routes.high} moved (bit 1)${copied}. ${pointerMove(split)}`
  );
}

function splitMarks(split: SplitRecord) {
  const slotMarks: Array<readonly [number, GrowthSlotMark]> = [];
  for (const move of split.moves) {
    const mark = move.route === 'both' ? 'copied' : move.route === 'low' ? 'to-low' : 'to-high';
    if (move.lowSlot >= 0) slotMarks.push([split.bucket * BUCKET_SIZE + move.lowSlot, mark]);
    if (move.highSlot >= 0) slotMarks.push([split.sibling * BUCKET_SIZE + move.highSlot, mark]);
  }
  return { buckets: [[split.bucket, 'low'], [split.sibling, 'high']] as const, slots: slotMarks };
}

/** The tables after each of the first `n` splits: the table before the growth with splits 0..k applied. */
function tablesAfterSplits(reading: GrowthReading, n: number): Uint32Array[] {
  const table = Array.from(reading.tableBefore);
  return reading.splits.slice(0, n).map((split) => {
    table.splice(split.bucket * BUCKET_SIZE, BUCKET_SIZE, ...split.low);
    table.push(...split.high);
    return Uint32Array.from(table);
  });
}

export interface GrowthStory {
  item: string;
  from: TableShape;
  to: TableShape;
  growth: number;
  reading: GrowthReading;
  /** The table before the add that grew it, when known. */
  hint: Uint32Array | undefined;
  tableAfter: Uint32Array;
  /** The moments just before the growth and just after it. */
  before: GrowthMoment;
  after: GrowthMoment;
  /** The false-positive rate measured just after the growth (as just before it), with its interval, bound and promise. */
  measured: number;
  interval: [number, number];
  probes: number;
  bound: number;
  /** The load the table grew at (the bound is for MAX_LOAD). */
  grewAt: number | undefined;
  fpr: number;
}

/**
 * The measured rate with its interval, against the bound and the promise. The
 * bound is for a table at MAX_LOAD and grows with the load; a small table
 * passes MAX_LOAD in one step (19 of 20 slots is 95 %), so the bound at the
 * load it grew at is given too, when that is higher.
 */
export function rateAgainstBound(r: { measured: number; interval: [number, number]; probes: number; bound: number; grewAt: number | undefined; fpr: number }): string {
  const [low, high] = r.interval;
  const measured = `${rate(r.measured)} of ${count(r.probes)} never-added items (95\u00a0% interval ${rate(low)}–${rate(high)})`;
  const past = r.grewAt !== undefined && r.grewAt > MAX_LOAD + 0.005;
  const scaled = r.bound * ((r.grewAt ?? MAX_LOAD) / MAX_LOAD);
  const bound = past
    ? `bound ${rate(r.bound)} for ${percent(MAX_LOAD, 0)} load, ${rate(scaled)} at the ${percent(r.grewAt!)} this table grew at`
    : `bound ${rate(r.bound)}`;
  const verdict =
    low > (past ? scaled : r.bound)
      ? ' It lies above the bound by more than its sampling error: the bound is the core’s estimate for an average table of this shape, and this one, with few entries, is one draw; all stay far below the promise.'
      : '';
  return `${measured}; ${bound}; promise ${rate(r.fpr)}.${verdict}`;
}

function range(splits: readonly SplitRecord[]): string {
  const first = splits[0]!;
  const last = splits.at(-1)!;
  if (splits.length === 1) return `bucket ${first.bucket}`;
  return first.level === last.level ? `buckets ${first.bucket}–${last.bucket}` : `buckets ${first.bucket}–${2 ** first.level - 1}, then 0–${last.bucket}`;
}

/**
 * The moment after the first `done` splits of the growth: its shape and
 * entries (copies made so far) and the table's bits per item then; the
 * rates are the growth's, as a split changes no answer.
 */
function momentAfterSplits(story: GrowthStory, done: number): GrowthMoment {
  const { gauges } = story.before;
  const splits = story.reading.splits.slice(0, done);
  const shape = shapeAfter(splits.at(-1)!);
  const copies = splits.reduce((sum, split) => sum + split.moves.filter((move) => move.route === 'both').length, 0);
  const slotBits = gauges.shape.fixedBits + gauges.shape.tailBits;
  return {
    ...story.before,
    gauges: {
      ...gauges,
      shape: { ...gauges.shape, ...shape, entryCount: gauges.shape.entryCount + copies },
      bitsPerItem: (BUCKET_SIZE * slotBits * shape.bucketCount) / gauges.items,
    },
  };
}

export function growthFrames(story: GrowthStory): GrowthFrame[] {
  const { item, from, to, reading, tableAfter } = story;
  const splits = reading.splits;
  const reserve = to.bucketCount;
  const slots = BUCKET_SIZE * from.bucketCount;
  const load = percent((from.entryCount + 1) / slots);
  const waits = 'the last entry evicted waits outside the table';
  const past = nextEntryPassesMaxLoad(from);
  const why = !past
    ? `“${item}” found no room: its evictions ran out at load ${load}, so ${waits}, and the table grows early`
    : `“${item}” took the load to ${load} (${count(from.entryCount + 1)} entries in ${count(slots)} slots), past ${percent(MAX_LOAD, 0)}` +
      (reading.early ? `; its evictions ran out too, so ${waits}` : '');
  const green = story.hint !== undefined ? ' Green: the slots the add changed.' : '';
  const frames = [
    frame(
      `${why}: the table grows by ${story.growth}, from ${count(from.bucketCount)} to ${count(to.bucketCount)} buckets, ` +
        `splitting ${range(splits)} in order. New buckets go at the end, so no other bucket moves.${green}`,
      reading.tableBefore,
      from,
      story.before,
      { buckets: splits.filter((s) => s.bucket < from.bucketCount).map((s) => [s.bucket, 'to-split'] as const), slots: changedSlots(story.hint, reading.tableBefore) },
      reserve,
    ),
  ];
  const tables = tablesAfterSplits(reading, DETAILED_SPLITS);
  splits.slice(0, DETAILED_SPLITS).forEach((split, k) => {
    frames.push(frame(splitCaption(split), tables[k]!, shapeAfter(split), momentAfterSplits(story, k + 1), { split: k, ...splitMarks(split) }, reserve));
  });
  const moves = splits.flatMap((split) => split.moves);
  const low = moves.filter((m) => m.route === 'low').length;
  const high = moves.filter((m) => m.route === 'high').length;
  const rest = splits.length > DETAILED_SPLITS ? `The other ${count(splits.length - DETAILED_SPLITS)} splits went the same way. ` : '';
  const putBack = reading.early ? 'The entry that waited was then put back into the grown table. ' : '';
  const outcome =
    `${count(low)} entries stayed in the low half, ${count(high)} went to the high one` +
    `${reading.copies > 0 ? `, ${count(reading.copies)} with spent tails were copied to both` : ''}. ${putBack}`;
  const same = !reading.early;
  frames.push(
    frame(
      `${rest}${outcome}Now m = 2^${to.level} + ${to.splitBucket} = ${count(to.bucketCount)}, load ${percent(to.entryCount / (BUCKET_SIZE * to.bucketCount))}. ` +
        `${same ? 'The splits changed no answer, so false positives are as just before' : 'False positives'}: ${rateAgainstBound(story)}`,
      tableAfter,
      to,
      story.after,
      { buckets: splits.flatMap((s) => [[s.bucket, 'low'], [s.sibling, 'high']] as const), split: splits.length - 1 },
    ),
  );
  return frames;
}

/** The slots an add changed: its entry, and any its evictions moved. */
function changedSlots(before: Uint32Array | undefined, after: Uint32Array): Array<readonly [number, GrowthSlotMark]> {
  const changed: Array<readonly [number, GrowthSlotMark]> = [];
  if (before === undefined) return changed;
  after.forEach((value, index) => {
    if (value !== before[index] && value !== 0) changed.push([index, 'placed']);
  });
  return changed;
}

/** One add that did not grow the table, the slots it changed marked. */
export function addFrame(item: string, before: Uint32Array, after: Uint32Array, shape: TableShape & LevelShape, moment: GrowthMoment): GrowthFrame {
  const changed = changedSlots(before, after);
  const slots = BUCKET_SIZE * shape.bucketCount;
  const load = shape.entryCount / slots;
  const buckets = new Set(changed.map(([index]) => Math.floor(index / BUCKET_SIZE)));
  const where =
    buckets.size <= 1
      ? `its entry went into bucket ${[...buckets][0] ?? '—'}`
      : `its entry found room only after evictions, which changed ${buckets.size} buckets`;
  const next = Math.floor(MAX_LOAD * slots) + 1 - shape.entryCount;
  return frame(
    `Added “${item}”: ${where}. Load ${percent(load)} (${count(shape.entryCount)} of ${count(slots)} slots); ` +
      `the table grows when it passes ${percent(MAX_LOAD, 0)}, in ${count(next)} more ${next === 1 ? 'entry' : 'entries'}.`,
    after,
    shape,
    moment,
    { slots: changed },
  );
}
