// Feeding batches of items to the core: written into wasm memory a chunk at a
// time, so each chunk crosses the boundary in one call.
//
// A chunk of strings (the common batch) is concatenated and encoded by one
// TextEncoder.encodeInto call: when that writes one byte per UTF-16 unit, the
// chunk was ASCII and every item's offset is the sum of the lengths before
// it, so no string is read unit by unit in JavaScript. Any other chunk is
// written item by item.

import {
  describeValue,
  isNumericItemArray,
  itemAsBytes,
  itemBytesBound,
  NUMERIC_ITEM_BYTES,
  writeCheckedItem,
  writeNumericRun,
  type Item,
  type NumericItemArray,
} from './items.js';
import type { Address } from './core-exports.js';
import type { Runtime } from './runtime.js';

// Small enough that a chunk's text and bytes stay in cache and its joined
// string is an ordinary young object: hasMany(string[]) of 20-character keys
// measured 1.4x slower with chunks of 8,192 than with 512 to 2,048.
const CHUNK_ITEMS = 1024;
/** A chunk ends once its items reach this many bytes (or UTF-16 units, for a joined chunk). */
const CHUNK_BYTES = 1 << 20;

const utf8 = new TextEncoder();
/** The offsets of one packed chunk, assembled here and copied into wasm memory once. */
const chunkOffsets = new Uint32Array(CHUNK_ITEMS + 1);

/**
 * What {@link forEachChunk} hands to `visit`: `count` items at
 * `runtime.batchData.address`, packed back to back with their offsets at
 * `runtime.batchOffsets.address` (packed), or 8 bytes each (not packed).
 * `visit` returns false to stop early.
 */
type Visit = (count: number, packed: boolean) => boolean | void;

/**
 * Feeds `items` to `visit` in chunks already written to wasm memory. When an
 * item is invalid, the chunk's items before it are visited first if
 * `visitBeforeError`, so that exactly the items before the bad one are processed.
 */
export function forEachChunk(runtime: Runtime, items: unknown, what: string, visitBeforeError: boolean, visit: Visit): void {
  try {
    if (isNumericItemArray(items)) {
      feedNumbers(runtime, items, what, visitBeforeError, visit);
    } else if (Array.isArray(items)) {
      for (let start = 0; start < items.length; start += CHUNK_ITEMS) {
        if (!feedChunk(runtime, items, start, Math.min(start + CHUNK_ITEMS, items.length), what, visitBeforeError, visit)) return;
      }
    } else if (typeof items !== 'string' && typeof (items as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] === 'function') {
      let chunk: unknown[] = [];
      let start = 0;
      for (const item of items as Iterable<unknown>) {
        chunk.push(item);
        if (chunk.length === CHUNK_ITEMS) {
          if (!feedChunk(runtime, chunk, 0, chunk.length, what, visitBeforeError, visit, start)) return;
          start += chunk.length;
          chunk = [];
        }
      }
      if (chunk.length > 0) feedChunk(runtime, chunk, 0, chunk.length, what, visitBeforeError, visit, start);
    } else {
      throw notABatch(items, what);
    }
  } finally {
    runtime.trimBatchBuffers();
  }
}

function feedNumbers(runtime: Runtime, items: NumericItemArray, what: string, visitBeforeError: boolean, visit: Visit): void {
  for (let start = 0; start < items.length; start += CHUNK_ITEMS) {
    let count = Math.min(CHUNK_ITEMS, items.length - start);
    const invalid = items instanceof Float64Array ? firstUnsafeInteger(items, start, count) : -1;
    if (invalid >= 0) count = invalid - start;
    const at = runtime.batchData.reserve(count * NUMERIC_ITEM_BYTES);
    writeNumericRun(items, start, count, runtime.u8, at);
    if (invalid >= 0) {
      if (visitBeforeError && count > 0) visit(count, false);
      throw unsafeElement(items as Float64Array, invalid, what);
    }
    if (visit(count, false) === false) return;
  }
}

function notABatch(items: unknown, what: string): TypeError {
  return new TypeError(
    `${what} must be an iterable of items or an integer typed array${typeof items === 'string' ? ' (a string is one item: wrap it in an array)' : ''}, got ${describeValue(items)}`,
  );
}

function unsafeElement(items: Float64Array, index: number, what: string): RangeError {
  return new RangeError(`${what}[${index}]: a Float64Array element must be a safe integer (from -(2^53 - 1) to 2^53 - 1), got ${items[index]}`);
}

/**
 * Each item of a batch as its own bytes, for a server that hashes the items
 * itself (the Redis module): a string stays a string (its UTF-8 bytes are
 * the item), anything else becomes the bytes the core would hash (a
 * numeric array's in one block from `allocate`, which must start its
 * ArrayBuffer). The checks and errors are
 * forEachChunk's, all made before anything is returned.
 */
export function itemsAsBytes(
  items: unknown,
  what: string,
  allocate: (length: number) => Uint8Array = (length) => new Uint8Array(length),
): (string | Uint8Array)[] {
  if (isNumericItemArray(items)) {
    if (items instanceof Float64Array) {
      const invalid = firstUnsafeInteger(items, 0, items.length);
      if (invalid >= 0) throw unsafeElement(items, invalid, what);
    }
    const bytes = allocate(items.length * NUMERIC_ITEM_BYTES);
    writeNumericRun(items, 0, items.length, bytes, 0);
    return Array.from({ length: items.length }, (_, k) => bytes.subarray(k * NUMERIC_ITEM_BYTES, (k + 1) * NUMERIC_ITEM_BYTES));
  }
  if (typeof items === 'string' || typeof (items as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== 'function') {
    throw notABatch(items, what);
  }
  // An array of strings (the common batch) is its own bytes: returned as it is.
  if (Array.isArray(items) && items.every((item) => typeof item === 'string')) return items as string[];
  const out: (string | Uint8Array)[] = [];
  for (const item of items as Iterable<unknown>) out.push(itemAsBytes(item, what, out.length));
  return out;
}

function firstUnsafeInteger(items: Float64Array, start: number, count: number): number {
  for (let i = start; i < start + count; i++) if (!Number.isSafeInteger(items[i])) return i;
  return -1;
}

/**
 * Feeds items `begin` to `end` of `items` as one chunk; item k of `items` is
 * item `k + indexBase` of the batch (an iterable's chunk starts at 0 in its
 * own array). False when `visit` stopped.
 */
function feedChunk(
  runtime: Runtime,
  items: unknown[],
  begin: number,
  end: number,
  what: string,
  visitBeforeError: boolean,
  visit: Visit,
  indexBase = 0,
): boolean {
  // One pass: the type test, the offsets (in UTF-16 units, which are the
  // bytes if the chunk turns out to be ASCII) and the joined text, built by
  // concatenation, which V8 flattens once inside encodeInto.
  let joined = '';
  let units = 0;
  let k = begin;
  for (; k < end; k++) {
    const item = items[k];
    if (typeof item !== 'string') break;
    chunkOffsets[k - begin] = units;
    units += item.length;
    joined += item;
  }
  if (k === end && units <= CHUNK_BYTES) {
    chunkOffsets[end - begin] = units;
    const at = runtime.batchData.reserve(Math.max(units, 1));
    const { read, written } = utf8.encodeInto(joined, runtime.u8.subarray(at, at + units));
    if (read === units && written === units) {
      copyOffsets(runtime, end - begin);
      return visit(end - begin, true) !== false;
    }
  }
  return feedItems(runtime, items, begin, end, indexBase, what, visitBeforeError, visit);
}

function copyOffsets(runtime: Runtime, count: number): void {
  const at = runtime.batchOffsets.reserve((count + 1) * 4);
  runtime.u32.set(chunkOffsets.subarray(0, count + 1), at >>> 2);
}

/** Writes and visits a chunk item by item, in as many packed runs as its bytes need. */
function feedItems(
  runtime: Runtime,
  items: unknown[],
  begin: number,
  end: number,
  indexBase: number,
  what: string,
  visitBeforeError: boolean,
  visit: Visit,
): boolean {
  let count = 0;
  let bytes = 0;
  const flush = (): boolean => {
    chunkOffsets[count] = bytes;
    copyOffsets(runtime, count);
    const more = visit(count, true) !== false;
    count = 0;
    bytes = 0;
    return more;
  };
  for (let k = begin; k < end; k++) {
    const item = items[k];
    let bound: number;
    try {
      bound = itemBytesBound(item, what, indexBase + k);
    } catch (error) {
      if (visitBeforeError && count > 0) flush();
      throw error;
    }
    const at = runtime.batchData.reserve(bytes + bound, bytes);
    chunkOffsets[count++] = bytes;
    bytes += writeCheckedItem(item as Item, runtime.u8, at + bytes);
    if (bytes >= CHUNK_BYTES && !flush()) return false;
  }
  return count === 0 || flush();
}

/** A core call on one chunk, in each of the two layouts of {@link forEachChunk}. */
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
export function countOverChunks(runtime: Runtime, items: unknown, what: string, call: ChunkCall<number>, stopWhenShort: boolean): number {
  let total = 0;
  forEachChunk(runtime, items, what, true, (count, packed) => {
    const data = runtime.batchData.address;
    const counted = packed ? call.packed(data, runtime.batchOffsets.address, count) : call.fixed(data, NUMERIC_ITEM_BYTES, count);
    total += counted;
    return !stopWhenShort || counted === count;
  });
  return total;
}

/** The answers of `call` for every item of `items`, 1 or 0 each, in order. */
export function answersOverChunks(runtime: Runtime, items: unknown, what: string, call: AnswerCall): Uint8Array {
  // One result, each chunk's answers set straight into it: no slice per
  // chunk and no join at the end. Sized up front when the count is known;
  // an iterable of unknown length doubles it as needed.
  let answers = new Uint8Array(isNumericItemArray(items) || Array.isArray(items) ? items.length : CHUNK_ITEMS);
  let done = 0;
  forEachChunk(runtime, items, what, false, (count, packed) => {
    const data = runtime.batchData.address;
    const offsets = runtime.batchOffsets.address;
    const out = runtime.batchAnswers.reserve(count);
    if (packed) call.packed(data, offsets, count, out);
    else call.fixed(data, NUMERIC_ITEM_BYTES, count, out);
    if (done + count > answers.length) {
      const grown = new Uint8Array(2 * (done + count));
      grown.set(answers);
      answers = grown;
    }
    answers.set(runtime.u8.subarray(out, out + count), done);
    done += count;
  });
  return done === answers.length ? answers : answers.slice(0, done);
}
