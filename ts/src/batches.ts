// Feeding batches of items to the core: written into wasm memory a chunk at a
// time, so each chunk crosses the boundary in one call.

import { describeValue, isNumericItemArray, NUMERIC_ITEM_BYTES, type ItemWriter } from './items.js';
import type { Address } from './raw.js';

const CHUNK_ITEMS = 8192;
const CHUNK_BYTES = 1 << 20;

/**
 * Feeds `items` to `visit` in chunks already written to wasm memory: integer
 * typed arrays as 8-byte items in `writer.data` (packed = false), anything
 * else packed back to back in `writer.data` with offsets in `writer.aux`
 * (packed = true). `visit` returns false to stop early. When an item is
 * invalid, the chunk's items before it are visited first if
 * `visitBeforeError`, so that exactly the items before the bad one are processed.
 */
export function forEachChunk(
  writer: ItemWriter,
  items: unknown,
  what: string,
  visitBeforeError: boolean,
  visit: (count: number, packed: boolean) => boolean | void,
): void {
  try {
    feedChunks(writer, items, what, visitBeforeError, visit);
  } finally {
    writer.trim();
  }
}

function feedChunks(
  writer: ItemWriter,
  items: unknown,
  what: string,
  visitBeforeError: boolean,
  visit: (count: number, packed: boolean) => boolean | void,
): void {
  if (isNumericItemArray(items)) {
    for (let start = 0; start < items.length; start += CHUNK_ITEMS) {
      let count = Math.min(CHUNK_ITEMS, items.length - start);
      const invalid = items instanceof Float64Array ? firstUnsafeInteger(items, start, count) : -1;
      if (invalid >= 0) count = invalid - start;
      writer.writeNumericRun(items, start, count);
      if (invalid >= 0) {
        if (visitBeforeError && count > 0) visit(count, false);
        throw new RangeError(
          `${what}[${invalid}]: a Float64Array element must be a safe integer (from -(2^53 - 1) to 2^53 - 1), got ${items[invalid]}`,
        );
      }
      if (visit(count, false) === false) return;
    }
    return;
  }
  if (typeof items === 'string' || typeof (items as { [Symbol.iterator]?: unknown })?.[Symbol.iterator] !== 'function') {
    throw new TypeError(
      `${what} must be an iterable of items or an integer typed array${typeof items === 'string' ? ' (a string is one item: wrap it in an array)' : ''}, got ${describeValue(items)}`,
    );
  }
  const offsets = new Uint32Array(CHUNK_ITEMS + 1);
  let count = 0;
  let bytes = 0;
  let index = 0;
  const flush = (): boolean => {
    offsets[count] = bytes;
    const address = writer.aux.reserve((count + 1) * 4);
    writer.heapU32().set(offsets.subarray(0, count + 1), address >>> 2);
    const more = visit(count, true) !== false;
    count = 0;
    bytes = 0;
    return more;
  };
  for (const item of items as Iterable<unknown>) {
    let length: number;
    try {
      length = writer.writeAt(item, bytes, what, index);
    } catch (error) {
      if (visitBeforeError && count > 0) flush();
      throw error;
    }
    offsets[count++] = bytes;
    bytes += length;
    index++;
    if ((count === CHUNK_ITEMS || bytes >= CHUNK_BYTES) && !flush()) return;
  }
  if (count > 0) flush();
}

function firstUnsafeInteger(items: Float64Array, start: number, count: number): number {
  for (let i = start; i < start + count; i++) if (!Number.isSafeInteger(items[i])) return i;
  return -1;
}

/** A core call on one chunk of a batch, in each of the two layouts of {@link forEachChunk}. */
export interface ChunkCall<T> {
  packed(data: Address, offsets: Address, count: number): T;
  fixed(data: Address, width: number, count: number): T;
}

/** A core lookup on one chunk, writing one answer byte per item to `out`. */
export interface AnswerCall {
  packed(data: Address, offsets: Address, count: number, out: Address): void;
  fixed(data: Address, width: number, count: number, out: Address): void;
}

/**
 * Sums what `call` counts over the chunks of `items` (items added, deleted,
 * ...). With `stopWhenShort`, stops after the first chunk in which it counts
 * fewer than the chunk's items (an add refused). The items before an
 * invalid one are processed before its error is thrown.
 */
export function countOverChunks(
  writer: ItemWriter,
  items: unknown,
  what: string,
  call: ChunkCall<number>,
  stopWhenShort: boolean,
): number {
  let total = 0;
  forEachChunk(writer, items, what, true, (count, packed) => {
    const counted = packed
      ? call.packed(writer.data.address, writer.aux.address, count)
      : call.fixed(writer.data.address, NUMERIC_ITEM_BYTES, count);
    total += counted;
    return !stopWhenShort || counted === count;
  });
  return total;
}

/** The answers of `call` for every item of `items`, 1 or 0 each, in order. */
export function answersOverChunks(writer: ItemWriter, items: unknown, what: string, call: AnswerCall): Uint8Array {
  // One result, each chunk's answers set straight into it: no slice per
  // chunk and no join at the end. Sized up front when the count is known;
  // an iterable of unknown length doubles it as needed.
  let answers = new Uint8Array(isNumericItemArray(items) || Array.isArray(items) ? items.length : CHUNK_ITEMS);
  let done = 0;
  forEachChunk(writer, items, what, false, (count, packed) => {
    const out = writer.answers.reserve(count);
    if (packed) call.packed(writer.data.address, writer.aux.address, count, out);
    else call.fixed(writer.data.address, NUMERIC_ITEM_BYTES, count, out);
    if (done + count > answers.length) {
      const grown = new Uint8Array(2 * (done + count));
      grown.set(answers);
      answers = grown;
    }
    answers.set(writer.heapU8().subarray(out, out + count), done);
    done += count;
  });
  return done === answers.length ? answers : answers.slice(0, done);
}
