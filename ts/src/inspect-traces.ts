// cuckoo-wasm/inspect's traces (re-exported there): where an item lives, and
// add, has and delete step by step, each doing exactly what the filter's own
// method does (bindings/inspect_bindings.cpp).

import type { Address, Handle } from './core-exports.js';
import type { CuckooFilter } from './filter.js';
import { requireFull, type FullModule, type RawLocation } from './full-module.js';
import { filterHandle } from './inspect-reads.js';
import type { DeleteTrace, InsertTrace, ItemLocation, LookupTrace, StashReplacement } from './inspect-types.js';
import type { Item } from './items.js';

/**
 * {@link InsertTrace.kicks} holds at most this many evictions; kickCount counts all.
 * @example
 * ```ts
 * const trace = traceAdd(filter, 'x');
 * const complete = trace.kicks.length === trace.kickCount; // false only beyond MAX_RECORDED_KICKS
 * ```
 */
export const MAX_RECORDED_KICKS = 65536;

/**
 * Runs one of the full module's traces on the item's bytes in wasm memory,
 * with the filter's handle and how many kicks it may record; errors name
 * inspect.<method>.
 */
function runTrace<T>(
  filter: CuckooFilter,
  item: Item,
  method: 'traceAdd' | 'traceHas' | 'traceDelete',
  call: (full: FullModule, handle: Handle, address: Address, length: number, capacity: number) => T,
): { full: FullModule; trace: T } {
  const handle = filterHandle(filter, method);
  const { runtime, full } = requireFull(`inspect.${method}`);
  const capacity = Math.min(filter.params.maxKicks, MAX_RECORDED_KICKS);
  return { full, trace: runtime.withItem(item, `inspect.${method}: item`, (address, length) => call(full, handle, address, length, capacity)) };
}

function itemLocation(raw: RawLocation): ItemLocation {
  return {
    hash: (BigInt(raw.hashHigh) << 32n) | BigInt(raw.hashLow),
    fingerprint: raw.fingerprint,
    i1: raw.i1,
    i2: raw.i2,
    fingerprintHash: raw.fingerprintHash,
    fingerprintHashMod: raw.fingerprintHashMod,
    hashId: raw.hashId as 1 | 2,
  };
}

function slotList(bits: number): number[] {
  const slots: number[] = [];
  for (let s = 0; bits >>> s !== 0; s++) if ((bits >>> s) & 1) slots.push(s);
  return slots;
}

/**
 * Where an item lives in `filter`: its hash, fingerprint, i1, hash(fingerprint)
 * and i2. Changes nothing.
 * @example
 * ```ts
 * const { fingerprint, i1, i2, fingerprintHashMod } = locate(filter, 'apple');
 * (i1 ^ fingerprintHashMod) === i2 && (i2 ^ fingerprintHashMod) === i1; // true
 * ```
 */
export function locate(filter: CuckooFilter, item: Item): ItemLocation {
  const handle = filterHandle(filter, 'locate');
  const { runtime, full } = requireFull('inspect.locate');
  return itemLocation(runtime.withItem(item, 'inspect.locate: item', (address, length) => full.inspectLocate(handle, address, length)));
}

/**
 * Adds an item, as {@link CuckooFilter.add} does (the same result and the same
 * filter afterwards), and reports every step: the item's location, each
 * eviction, and where the last homeless fingerprint went.
 * @example
 * ```ts
 * const trace = traceAdd(filter, 'apple');
 * for (const kick of trace.kicks) {
 *   console.log(`${kick.incoming} took bucket ${kick.bucket} slot ${kick.slot}; ${kick.evicted} moves to ${kick.nextBucket}`);
 * }
 * trace.placed; // { bucket, slot, fingerprint }, or null when trace.stashed
 * ```
 */
export function traceAdd(filter: CuckooFilter, item: Item): InsertTrace {
  const { full, trace } = runTrace(filter, item, 'traceAdd', (full, handle, address, length, capacity) =>
    full.inspectTraceInsert(handle, address, length, capacity),
  );
  const { walk } = trace;
  return {
    ...itemLocation(trace.location),
    added: trace.added,
    kickCount: walk.kickCount,
    kicks: walk.kicks,
    placed: walk.end === full.WalkEnd.placed ? { bucket: walk.endBucket, slot: walk.endSlot, fingerprint: walk.endFingerprint } : null,
    stashed: walk.end === full.WalkEnd.stashed ? { bucket: walk.endBucket, fingerprint: walk.endFingerprint } : null,
    undone: walk.end === full.WalkEnd.undone ? { bucket: walk.endBucket, fingerprint: walk.endFingerprint } : null,
  };
}

/**
 * Looks an item up, as {@link CuckooFilter.has} does, and reports which slots
 * of its two buckets (and whether the stash) hold its fingerprint.
 * @example
 * ```ts
 * const trace = traceHas(filter, 'apple');
 * trace.found;     // true
 * trace.slotsInI1; // e.g. [2]: slot 2 of bucket trace.i1 holds trace.fingerprint
 * ```
 */
export function traceHas(filter: CuckooFilter, item: Item): LookupTrace {
  const { trace } = runTrace(filter, item, 'traceHas', (full, handle, address, length) => full.inspectTraceLookup(handle, address, length));
  return {
    ...itemLocation(trace.location),
    found: trace.found,
    slotsInI1: slotList(trace.slotsInI1),
    slotsInI2: slotList(trace.slotsInI2),
    inStash: trace.copiesInStash > 0,
  };
}

/**
 * Deletes one copy of an item, as {@link CuckooFilter.delete} does, and
 * reports where the copy was, and, when the stash was occupied, the walk
 * that re-placed its fingerprint in the freed room.
 * @example
 * ```ts
 * const trace = traceDelete(filter, 'apple');
 * if (trace.from === 'bucket') console.log(`removed from bucket ${trace.bucket}, slot ${trace.slot}`);
 * for (const kick of trace.stashReplacement?.kicks ?? []) console.log(`${kick.incoming} -> bucket ${kick.bucket}`);
 * ```
 */
export function traceDelete(filter: CuckooFilter, item: Item): DeleteTrace {
  const { full, trace } = runTrace(filter, item, 'traceDelete', (full, handle, address, length, capacity) =>
    full.inspectTraceErase(handle, address, length, capacity),
  );
  const fromBucket = trace.from === full.DeleteSource.bucket;
  const walk = trace.stashWalk;
  const placed = walk.end === full.WalkEnd.placed;
  const stashReplacement: StashReplacement | null =
    walk.end === full.WalkEnd.none
      ? null
      : {
          kickCount: walk.kickCount,
          kicks: walk.kicks,
          end: placed ? 'placed' : 'stashed',
          bucket: walk.endBucket,
          slot: placed ? walk.endSlot : null,
          fingerprint: walk.endFingerprint,
        };
  return {
    ...itemLocation(trace.location),
    deleted: trace.deleted,
    from: fromBucket ? 'bucket' : trace.from === full.DeleteSource.stash ? 'stash' : null,
    bucket: fromBucket ? trace.bucket : null,
    slot: fromBucket && trace.slot !== full.noSlot ? trace.slot : null,
    stashReinserted: stashReplacement !== null,
    stashReplacement,
  };
}
