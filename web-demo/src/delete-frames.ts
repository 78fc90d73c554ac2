// A delete's steps: the copy found and removed, and, when the stash held a
// fingerprint, its walk into the room the delete made, replayed kick by kick
// as an insert's chain is (the core's traceDelete reports the walk).

import type { DeleteTrace, StashReplacement } from 'cuckoo-wasm/inspect';
import { applyKick, candidateMarks, frame, hashCaption, kickFrames, Notation, type Frame, type KickWalk, type TableState } from './frames.js';
import type { DemoParams } from './params.js';

/** The stash's walk after a delete, in the shape the chain view and kickFrames take; null when the stash was empty. */
export function stashWalk(trace: DeleteTrace): KickWalk | null {
  const walk: StashReplacement | null = trace.stashReplacement;
  if (walk === null) return null;
  return {
    hashId: trace.hashId,
    kicks: walk.kicks,
    kickCount: walk.kickCount,
    placed: walk.end === 'placed' ? { bucket: walk.bucket, slot: walk.slot!, fingerprint: walk.fingerprint } : null,
    stashed: walk.end === 'stashed' ? { bucket: walk.bucket, fingerprint: walk.fingerprint } : null,
  };
}

/** The stashed fingerprint walks from `freed`, the table with the deleted copy gone, to `after`. */
function walkFrames(walk: KickWalk, freed: TableState, after: TableState, params: DemoParams): Frame[] {
  const n = new Notation(params);
  const b = params.bucketSize;
  const { fingerprint, bucket, alternateBucket } = freed.stash;
  const frames = [
    frame(freed, `The slot is free, and the stash holds ${n.fp(fingerprint)}, homeless since its kicks ran out: it tries its two buckets again, ${bucket} and ${alternateBucket}.`, {
      bucketMarks: [[bucket, 'current'], [alternateBucket, 'next']],
      stashMarked: true,
    }),
    ...kickFrames(walk, freed, params),
  ];
  const kicks = walk.kickCount === 1 ? '1 kick' : `${walk.kickCount} kicks`;
  if (walk.placed !== null) {
    const { bucket: to, slot, fingerprint: last } = walk.placed;
    frames.push(
      frame(after, `${n.fp(last)} lands in slot ${slot} of bucket ${to}${walk.kickCount > 0 ? ` after ${kicks}` : ''}. The stash is empty: the next insert whose kicks run out can wait there.`, {
        bucketMarks: [[to, 'next']],
        slotMarks: [[to * b + slot, 'placed']],
        kicksShown: walk.kicks.length,
        endShown: true,
      }),
    );
  } else if (walk.stashed !== null) {
    frames.push(
      frame(after, `After ${kicks}, ${n.fp(walk.stashed.fingerprint)} is homeless again and goes back to the stash: the freed slot was too far for this walk.`, {
        bucketMarks: [[walk.stashed.bucket, 'current']],
        stashMarked: true,
        kicksShown: walk.kicks.length,
        endShown: true,
      }),
    );
  }
  return frames;
}

export function deleteFrames(item: string, trace: DeleteTrace, before: TableState, after: TableState, params: DemoParams): Frame[] {
  const n = new Notation(params);
  const b = params.bucketSize;
  const candidates = candidateMarks(trace);
  const frames = [frame(before, `${hashCaption('Delete', item, trace, n)}`, { bucketMarks: candidates })];
  if (!trace.deleted) {
    frames.push(
      frame(after, `Neither bucket nor the stash holds ${n.fp(trace.fingerprint)}: nothing to delete. (Deleting only works for items that were added.)`, {
        bucketMarks: candidates,
      }),
    );
  } else if (trace.from === 'stash') {
    frames.push(
      frame(before, `The stash holds ${n.fp(trace.fingerprint)} for one of these buckets: it is removed from the stash.`, {
        bucketMarks: candidates,
        stashMarked: true,
      }),
      frame(after, 'The stash is empty again: the next insert whose kicks run out can wait there.', { bucketMarks: candidates }),
    );
  } else {
    const index = trace.bucket! * b + trace.slot!;
    frames.push(
      frame(before, `Slot ${trace.slot} of bucket ${trace.bucket} holds ${n.fp(trace.fingerprint)}: one copy is removed. The item owns this copy, so no other item is affected.`, {
        bucketMarks: candidates,
        slotMarks: [[index, 'removed']],
      }),
    );
    const walk = stashWalk(trace);
    if (walk === null) {
      frames.push(frame(after, 'Deleted: the slot is free again.', { bucketMarks: candidates, slotMarks: [[index, 'removed']] }));
    } else {
      const slots = before.slots.slice();
      applyKick(slots, params, trace.bucket!, trace.slot!, 0);
      frames.push(...walkFrames(walk, { slots, stash: before.stash }, after, params));
    }
  }
  return frames;
}
