// A table as Redis holds it for cuckoo-wasm/redis: BITFIELD order. Every field
// (a slot; a semi-sorted bucket's 12-bit rank and four low parts) sits at the
// bit FORMAT.md gives it, but bit p is bit 7 - p % 8 of byte p / 8 and a field
// is stored most significant bit first, as Redis's BITFIELD numbers and
// writes bits: `BITFIELD_RO key GET u<f> <p>` returns the slot at p itself.
// A bucket is read as words of at most 53 bits (exact numbers in JavaScript
// and in Redis's Lua, whose scripts group fields the same way, lua-table.ts).
// The semi-sorted rank map is the core's (semiSortedUnrankTable).

import type { CuckooFilterParams } from '../index.js';
import { LOCATION_WORDS, SEMI_SORTED_RANKS, semiSortedUnrankTable } from '../parts.js';

export type TableLayout = Pick<CuckooFilterParams, 'bucketCount' | 'bucketSize' | 'fingerprintBits' | 'semiSort'>;

/** A group of a bucket's fields: `offset` bits from the bucket's first bit, `width` bits, fields [first, last]. */
export interface BucketWord {
  readonly offset: number;
  readonly width: number;
  readonly first: number;
  readonly last: number;
}

export const WORD_BITS = 53;

/** The widths of a bucket's fields, in order. */
export function fieldWidths(layout: Omit<TableLayout, 'bucketCount'>): number[] {
  if (layout.semiSort) return [12, ...Array.from({ length: 4 }, () => layout.fingerprintBits - 4)];
  return Array.from({ length: layout.bucketSize }, () => layout.fingerprintBits);
}

/** The fields of a bucket grouped in order into words of at most 53 bits. */
export function bucketWords(layout: Omit<TableLayout, 'bucketCount'>): BucketWord[] {
  const words: { offset: number; width: number; first: number; last: number }[] = [];
  let offset = 0;
  fieldWidths(layout).forEach((width, field) => {
    const last = words[words.length - 1];
    if (last !== undefined && last.width + width <= WORD_BITS) {
      last.width += width;
      last.last = field;
    } else {
      words.push({ offset, width, first: field, last: field });
    }
    offset += width;
  });
  return words;
}

function payloadLength(layout: TableLayout): number {
  return Math.ceil((layout.bucketCount * fieldWidths(layout).reduce((sum, width) => sum + width, 0)) / 8);
}

/** Visits every field of the table: its first bit and width. */
function forEachField(layout: TableLayout, visit: (at: number, width: number) => void): void {
  const widths = fieldWidths(layout);
  const bucketBits = widths.reduce((sum, width) => sum + width, 0);
  for (let bucket = 0; bucket < layout.bucketCount; bucket++) {
    let at = bucket * bucketBits;
    for (const width of widths) {
      visit(at, width);
      at += width;
    }
  }
}

// Fields are at most 32 bits, so every value below is exact.
function readLeastFirst(bytes: Uint8Array, at: number, width: number): number {
  let value = 0;
  for (let done = 0; done < width; ) {
    const used = (at + done) % 8;
    const take = Math.min(8 - used, width - done);
    value += ((bytes[Math.floor((at + done) / 8)]! >> used) & ((1 << take) - 1)) * 2 ** done;
    done += take;
  }
  return value;
}

function readMostFirst(bytes: Uint8Array, at: number, width: number): number {
  let value = 0;
  for (let done = 0; done < width; ) {
    const used = (at + done) % 8;
    const take = Math.min(8 - used, width - done);
    value = value * 2 ** take + ((bytes[Math.floor((at + done) / 8)]! >> (8 - used - take)) & ((1 << take) - 1));
    done += take;
  }
  return value;
}

function orLeastFirst(bytes: Uint8Array, at: number, width: number, value: number): void {
  for (let done = 0; done < width; ) {
    const used = (at + done) % 8;
    const take = Math.min(8 - used, width - done);
    bytes[Math.floor((at + done) / 8)]! |= (Math.floor(value / 2 ** done) % 2 ** take) << used;
    done += take;
  }
}

function orMostFirst(bytes: Uint8Array, at: number, width: number, value: number): void {
  for (let done = 0; done < width; ) {
    const used = (at + done) % 8;
    const take = Math.min(8 - used, width - done);
    bytes[Math.floor((at + done) / 8)]! |= (Math.floor(value / 2 ** (width - done - take)) % 2 ** take) << (8 - used - take);
    done += take;
  }
}

/**
 * One bucket's fields, of widths `widths`, in BITFIELD order from byte `from`
 * of `source` written in FORMAT.md's bit order from byte `to` of `target`
 * (zeroed there): each field at the same bit, read most significant bit first.
 */
export function bucketFromBitfieldOrder(widths: readonly number[], source: Uint8Array, from: number, target: Uint8Array, to: number): void {
  let at = 0;
  for (const width of widths) {
    orLeastFirst(target, 8 * to + at, width, readMostFirst(source, 8 * from + at, width));
    at += width;
  }
}

/** A payload (FORMAT.md's bit order, as partsOf gives it) in BITFIELD order. */
export function toBitfieldOrder(layout: TableLayout, payload: Uint8Array): Uint8Array {
  const ordered = new Uint8Array(payloadLength(layout));
  forEachField(layout, (at, width) => orMostFirst(ordered, at, width, readLeastFirst(payload, at, width)));
  return ordered;
}

/** A table in BITFIELD order back in FORMAT.md's bit order: a payload for filterFromParts. */
export function fromBitfieldOrder(layout: TableLayout, ordered: Uint8Array): Uint8Array {
  const payload = new Uint8Array(payloadLength(layout));
  forEachField(layout, (at, width) => orLeastFirst(payload, at, width, readMostFirst(ordered, at, width)));
  return payload;
}

/**
 * What counting copies in a table of one layout needs, computed once per
 * filter: per field, the word holding it and its scale there.
 */
export interface BucketDecoder {
  readonly layout: TableLayout;
  readonly wordCount: number;
  readonly fieldCount: number;
  readonly wordOf: Int32Array;
  /** 2^(bits below the field in its word). */
  readonly below: Float64Array;
  /** 2^(the field's width). */
  readonly scale: Float64Array;
  /** A plain bucket held in one word (the default shapes): its slots by arithmetic on that number. */
  readonly plainOneWord: boolean;
}

export function bucketDecoder(layout: TableLayout): BucketDecoder {
  const words = bucketWords(layout);
  const widths = fieldWidths(layout);
  const fieldCount = widths.length;
  const wordOf = new Int32Array(fieldCount);
  const below = new Float64Array(fieldCount);
  const scale = new Float64Array(fieldCount);
  words.forEach((word, w) => {
    let shift = word.width;
    for (let field = word.first; field <= word.last; field++) {
      shift -= widths[field]!;
      wordOf[field] = w;
      below[field] = 2 ** shift;
      scale[field] = 2 ** widths[field]!;
    }
  });
  return { layout, wordCount: words.length, fieldCount, wordOf, below, scale, plainOneWord: !layout.semiSort && words.length === 1 };
}

/** Copies of `fingerprint` among the slots of a plain bucket held in one word. */
function copiesInWord(word: number, fingerprint: number, slots: number, slotScale: number): number {
  let found = 0;
  for (let s = 0; s < slots; s++) {
    const high = Math.floor(word / slotScale);
    if (word - high * slotScale === fingerprint) found++;
    word = high;
  }
  return found;
}

/**
 * For the items located at `located` (item i's words at 4i..4i+3:
 * fingerprint, first and second bucket, route), taken in the order `items`
 * lists them, the copies of each one's fingerprint CuckooFilter.count finds:
 * in its first bucket, its second when another bucket, and the stash
 * (fingerprint 0: empty). `values` holds both buckets' words, W per bucket
 * (W = bucketWords(layout).length): the k-th listed item's first bucket at
 * 2kW, its second at (2k + 1)W. The counts go to `copies[items[k]]` if
 * `copies` is given, else to a new array (position k). Null when a
 * semi-sorted rank names no bucket.
 */
export function countWith(
  decoder: BucketDecoder,
  values: Float64Array,
  located: Uint32Array,
  items: ArrayLike<number>,
  stash: { readonly fingerprint: number; readonly bucket: number },
  what: string,
  copies?: Uint32Array,
): Uint32Array | null {
  const { layout, wordCount, fieldCount, wordOf, below, scale } = decoder;
  const byItem = copies !== undefined;
  const out = copies ?? new Uint32Array(items.length);
  const stashed = stash.fingerprint;
  if (decoder.plainOneWord) {
    const slots = layout.bucketSize;
    const slotScale = 2 ** layout.fingerprintBits;
    for (let position = 0; position < items.length; position++) {
      const item = items[position]!;
      const base = LOCATION_WORDS * item;
      const fingerprint = located[base]!;
      const primary = located[base + 1]!;
      const alternate = located[base + 2]!;
      const at = 2 * position;
      let found = copiesInWord(values[at]!, fingerprint, slots, slotScale);
      if (alternate !== primary) found += copiesInWord(values[at + 1]!, fingerprint, slots, slotScale);
      if (stashed !== 0 && stashed === fingerprint && (stash.bucket === primary || stash.bucket === alternate)) found++;
      out[byItem ? item : position] = found;
    }
    return out;
  }
  const unrank = layout.semiSort ? semiSortedUnrankTable(what) : null;
  const lowScale = 2 ** (layout.fingerprintBits - 4);
  const field = (start: number, k: number): number => Math.floor(values[start + wordOf[k]!]! / below[k]!) % scale[k]!;
  for (let position = 0; position < items.length; position++) {
    const item = items[position]!;
    const base = LOCATION_WORDS * item;
    const fingerprint = located[base]!;
    const primary = located[base + 1]!;
    const alternate = located[base + 2]!;
    let found = 0;
    for (let which = 0; which < (alternate === primary ? 1 : 2); which++) {
      const start = (2 * position + which) * wordCount;
      if (unrank === null) {
        for (let k = 0; k < fieldCount; k++) if (field(start, k) === fingerprint) found++;
        continue;
      }
      const rank = field(start, 0);
      if (rank >= SEMI_SORTED_RANKS) return null;
      const nibbles = unrank[rank]!;
      for (let s = 0; s < 4; s++) if (((nibbles >> (4 * s)) & 0xf) * lowScale + field(start, 1 + s) === fingerprint) found++;
    }
    if (stashed !== 0 && stashed === fingerprint && (stash.bucket === primary || stash.bucket === alternate)) found++;
    out[byItem ? item : position] = found;
  }
  return out;
}

/**
 * For the items located at `located`, taken in the order `items` lists them,
 * the copies of each one's fingerprint CuckooFilter.count finds, from both
 * buckets' words in `values` (as countWith takes them). Null when a
 * semi-sorted rank names no bucket.
 */
export function countInBucketWords(
  layout: TableLayout,
  values: Float64Array,
  located: Uint32Array,
  items: readonly number[],
  stash: { readonly fingerprint: number; readonly bucket: number },
  what: string,
): Uint32Array | null {
  return countWith(bucketDecoder(layout), values, located, items, stash, what);
}
