// cuckoo-wasm/inspect's trace of a growable filter's add (re-exported there):
// every growth it made, split by split, as the core reports it
// (GrowthObserver, bindings/inspect_scalable_bindings.cpp), so that a page
// draws the splits rather than reconstructing them from tables.

import { requireFull, type RawSplitMove } from './full-module.js';
import { scalableHandle } from './inspect-reads.js';
import type { Item } from './items.js';
import type { ScalableCuckooFilter } from './scalable.js';

/** One entry of a split bucket: its slot value before and after, and where it went. */
export interface SplitMove {
  /** The slot value before the split: fingerprint << T | tail. */
  readonly before: number;
  /** After it: the tail bit it followed is gone (a spent tail stays spent). */
  readonly after: number;
  /** Kept in the split bucket, moved to its sibling, or copied to both (its tail was spent). */
  readonly route: 'stays' | 'moves' | 'copied';
  /** Its slot in the split bucket afterwards (semi-sorted: where its value sorts to), or null. */
  readonly lowSlot: number | null;
  /** Its slot in the sibling afterwards, or null. */
  readonly highSlot: number | null;
  /** An entry waiting outside the table (the stash) that the growth carried: it has no slots. */
  readonly held: boolean;
}

/** Bucket `bucket` of level `level` split into itself and `sibling` = 2^level + bucket. */
export interface SplitStep {
  readonly bucket: number;
  readonly sibling: number;
  readonly level: number;
  /** The bucket's entries in slot order, then the held entries whose bucket it was. */
  readonly moves: readonly SplitMove[];
}

/** One growth: from one bucket count to the next, one split per new bucket. */
export interface GrowthStep {
  readonly fromBuckets: number;
  readonly toBuckets: number;
  /**
   * Entries that waited outside the table when it grew: an add whose
   * evictions ran out grows the table early, before its load passes the limit.
   */
  readonly held: number;
  /** Of them, the ones the grown table could not take back (0 unless the filter is full). */
  readonly stillHeld: number;
  readonly splits: readonly SplitStep[];
}

/** What {@link traceGrowingAdd} saw. */
export interface GrowthTrace {
  /** The filter's answer, `add(item)`. */
  readonly added: boolean;
  /** The growths the add made, in order; empty when it made none. */
  readonly growths: readonly GrowthStep[];
}

function slotOrNull(slot: number): number | null {
  return slot < 0 ? null : slot;
}

/**
 * Adds an item to a growable filter, as {@link ScalableCuckooFilter.add} does
 * (the same result and the same filter afterwards), and reports every growth
 * it made, split by split: each entry of each split bucket with the tail bit
 * that routed it.
 * @example
 * ```ts
 * using filter = ScalableCuckooFilter.create({ initialCapacity: 16, fpr: 0.01 });
 * for (let i = 0; ; i++) {
 *   const { growths } = traceGrowingAdd(filter, i);
 *   if (growths.length === 0) continue;
 *   for (const split of growths[0]!.splits) console.log(split.bucket, '->', split.sibling, split.moves.map((m) => m.route));
 *   break;
 * }
 * ```
 */
export function traceGrowingAdd(filter: ScalableCuckooFilter, item: Item): GrowthTrace {
  const handle = scalableHandle(filter, 'traceGrowingAdd');
  const { runtime, full } = requireFull('inspect.traceGrowingAdd');
  const raw = runtime.withItem(item, 'inspect.traceGrowingAdd: item', (address, length) =>
    full.inspectTraceGrowingInsert(handle, address, length),
  );
  const routeOf = (move: RawSplitMove): SplitMove['route'] =>
    move.route === full.SplitRoute.copied ? 'copied' : move.route === full.SplitRoute.moves ? 'moves' : 'stays';
  return {
    added: raw.added,
    growths: raw.growths.map((growth) => ({
      ...growth,
      splits: growth.splits.map((split) => ({
        ...split,
        moves: split.moves.map((move) => ({
          before: move.before >>> 0,
          after: move.after >>> 0,
          route: routeOf(move),
          lowSlot: slotOrNull(move.lowSlot),
          highSlot: slotOrNull(move.highSlot),
          held: move.held,
        })),
      })),
    })),
  };
}
