// How the growth mode writes slots and buckets: a slot as its fingerprint in
// hex and the bucket-number bits its tail still holds, in binary (the rightmost
// is the one the next split reads); a bucket number in binary at the width of
// its level, so a split visibly adds one bit in front.

import { binary } from './format.js';
import { slotParts } from './growth-split.js';

/** Tail bits shown at most; longer tails show their last ones after an ellipsis. */
const SHOWN_TAIL_BITS = 8;

export const SPENT = '∅';

export interface SlotText {
  fingerprint: string;
  tail: string;
}

export function slotText(value: number, tailBits: number): SlotText {
  const { fingerprint, known, bits } = slotParts(value, tailBits);
  const fp = fingerprint.toString(16).padStart(2, '0');
  if (known === 0) return { fingerprint: fp, tail: SPENT };
  const tail = binary(bits, known);
  return { fingerprint: fp, tail: tail.length > SHOWN_TAIL_BITS ? `…${tail.slice(-SHOWN_TAIL_BITS + 1)}` : tail };
}

/** "a3·0101", or "a3·∅" when the tail is spent. */
export function slotWord(value: number, tailBits: number): string {
  const { fingerprint, tail } = slotText(value, tailBits);
  return `${fingerprint}·${tail}`;
}

/** Characters a slot takes on the page, so that cells have one width: "a3·" and the tail. */
export function slotChars(tailBits: number): number {
  return 3 + Math.min(tailBits - 1, SHOWN_TAIL_BITS);
}

export interface LevelShape {
  readonly level: number;
  readonly splitBucket: number;
  readonly bucketCount: number;
}

/** A bucket number in binary at its level's width ("" at level 0: the one bucket of a table of 1). */
export function bucketBinary(bucket: number, level: number): string {
  return level === 0 ? '' : binary(bucket, level);
}
