// Feeding batches of items to the core: written into wasm memory a chunk at a
// time, so each chunk crosses the boundary in one call.

import { describeValue, isNumericItemArray, type ItemWriter } from './items.js';

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
