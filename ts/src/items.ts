// Turning JavaScript items into bytes in wasm memory (or on their own, for a
// server that hashes them: itemAsBytes).
//
// An item is hashed as bytes, so every accepted type has one byte encoding:
// - string: its UTF-8 bytes ('abc' and new TextEncoder().encode('abc') are the same item);
// - Uint8Array or any other ArrayBufferView: the bytes it views;
// - number (a safe integer) or bigint (-2^63 .. 2^64-1): 8 bytes, little-endian
//   two's complement int64, so 5 and 5n are the same item, and '5' is another.
// A number crosses into the core as itself (the core writes its 8 bytes);
// everything else is written into wasm memory here, so that a call into the
// core passes only (address, length).

/** Anything that can be added to or looked up in a filter. See the module comment of items.ts for the encoding. */
export type Item = string | Uint8Array | ArrayBufferView | number | bigint;

/** Typed arrays whose elements are integer items: the fast path of the batch methods. */
export type NumericItemArray = Uint32Array | Int32Array | Float64Array | BigUint64Array | BigInt64Array;

/** Bytes of a number or bigint item, and of each item of a numeric batch. */
export const NUMERIC_ITEM_BYTES = 8;

const TWO_POW_32 = 4294967296;
const INT64_MIN = -(2n ** 63n);
const UINT64_LIMIT = 2n ** 64n;
/** An item is copied into one block of wasm memory, which malloc cannot make this large. */
export const MAX_ITEM_BYTES = 2 ** 31;

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.length > 40 ? `a string of length ${value.length}` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  if (typeof value === 'object') return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  return typeof value;
}

/** `what`, or `what[index]` for an item of a batch. */
export function itemLabel(what: string, index: number): string {
  return index < 0 ? what : `${what}[${index}]`;
}

/**
 * Writes `text` as UTF-8 at `at` in `heap`, which has room for 3 bytes per
 * UTF-16 unit; returns the byte length. ASCII is copied one unit per byte
 * (short keys are mostly ASCII); the first other unit hands over to
 * {@link writeUtf8From}, which encodes exactly as TextEncoder does.
 */
export function writeUtf8(text: string, heap: Uint8Array, at: number): number {
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) return writeUtf8From(text, i, heap, at + i) - at;
    heap[at + i] = unit;
  }
  return length;
}

/** Encodes `text` from unit `start` on at `at`; returns the end address. Lone surrogates become U+FFFD, as TextEncoder's. */
function writeUtf8From(text: string, start: number, heap: Uint8Array, at: number): number {
  let p = at;
  const length = text.length;
  for (let i = start; i < length; i++) {
    let unit = text.charCodeAt(i);
    if (unit < 0x80) {
      heap[p++] = unit;
    } else if (unit < 0x800) {
      heap[p++] = 0xc0 | (unit >> 6);
      heap[p++] = 0x80 | (unit & 0x3f);
    } else if (unit < 0xd800 || unit > 0xdfff) {
      heap[p++] = 0xe0 | (unit >> 12);
      heap[p++] = 0x80 | ((unit >> 6) & 0x3f);
      heap[p++] = 0x80 | (unit & 0x3f);
    } else {
      const next = i + 1 < length ? text.charCodeAt(i + 1) : 0;
      if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const point = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
        heap[p++] = 0xf0 | (point >> 18);
        heap[p++] = 0x80 | ((point >> 12) & 0x3f);
        heap[p++] = 0x80 | ((point >> 6) & 0x3f);
        heap[p++] = 0x80 | (point & 0x3f);
        i++;
      } else {
        unit = 0xfffd;
        heap[p++] = 0xef;
        heap[p++] = 0xbf;
        heap[p++] = 0xbd;
      }
    }
  }
  return p;
}

/** Writes the bytes `view` views at `at`. */
export function writeView(view: ArrayBufferView, heap: Uint8Array, at: number): number {
  heap.set(view instanceof Uint8Array ? view : new Uint8Array(view.buffer, view.byteOffset, view.byteLength), at);
  return view.byteLength;
}

/** A safe integer as 8 bytes, little-endian two's complement, at `at`. */
export function writeSafeInteger(value: number, heap: Uint8Array, at: number): void {
  const high = Math.floor(value / TWO_POW_32);
  writeWords(value - high * TWO_POW_32, high, heap, at);
}

/** A bigint in [-2^63, 2^64) as 8 bytes, little-endian two's complement, at `at`. */
export function writeBigInt(value: bigint, heap: Uint8Array, at: number): void {
  const unsigned = BigInt.asUintN(64, value);
  writeWords(Number(unsigned & 0xffffffffn), Number(unsigned >> 32n), heap, at);
}

/** Two 32-bit words, low then high, little-endian, at any byte `at`. */
function writeWords(low: number, high: number, heap: Uint8Array, at: number): void {
  for (let i = 0; i < 4; i++) {
    heap[at + i] = (low >>> (8 * i)) & 0xff;
    heap[at + 4 + i] = (high >>> (8 * i)) & 0xff;
  }
}

/**
 * Bytes `item` takes in wasm memory at most (3 per UTF-16 unit of a string),
 * or throws the TypeError or RangeError that names it as `what` (or
 * `what[index]`): the one place that says which values are items.
 */
export function itemBytesBound(item: unknown, what: string, index = -1): number {
  switch (typeof item) {
    case 'string':
      return item.length * 3;
    case 'number':
      if (!Number.isSafeInteger(item)) {
        throw new RangeError(
          `${itemLabel(what, index)}: a number item must be a safe integer (from -(2^53 - 1) to 2^53 - 1), got ${String(item)}; ` +
            'use a string or a bigint for other values',
        );
      }
      return NUMERIC_ITEM_BYTES;
    case 'bigint':
      if (item < INT64_MIN || item >= UINT64_LIMIT) {
        throw new RangeError(`${itemLabel(what, index)}: a bigint item must be from -(2^63) to 2^64 - 1, got ${item}n`);
      }
      return NUMERIC_ITEM_BYTES;
    case 'object':
      if (item !== null && ArrayBuffer.isView(item)) {
        if (item.byteLength >= MAX_ITEM_BYTES) {
          throw new RangeError(`${itemLabel(what, index)} must be smaller than 2 GiB (wasm32 addresses), got ${item.byteLength} bytes`);
        }
        return item.byteLength;
      }
      break;
    default:
      break;
  }
  throw new TypeError(
    `${itemLabel(what, index)} must be a string, Uint8Array, ArrayBufferView, number or bigint; got ${describeValue(item)}`,
  );
}

/** Writes an item that {@link itemBytesBound} accepted at `at`; returns its length in bytes. */
export function writeCheckedItem(item: Item, heap: Uint8Array, at: number): number {
  if (typeof item === 'string') return writeUtf8(item, heap, at);
  if (typeof item === 'number') {
    writeSafeInteger(item, heap, at);
    return NUMERIC_ITEM_BYTES;
  }
  if (typeof item === 'bigint') {
    writeBigInt(item, heap, at);
    return NUMERIC_ITEM_BYTES;
  }
  return writeView(item, heap, at);
}

/**
 * An item as its own bytes (a string as itself: its UTF-8 bytes are the
 * item), for a server that hashes items itself; the errors of
 * {@link itemBytesBound}.
 */
export function itemAsBytes(item: unknown, what: string, index = -1): string | Uint8Array {
  const bound = itemBytesBound(item, what, index);
  if (typeof item === 'string') return item;
  if (typeof item === 'object') {
    const view = item as ArrayBufferView;
    return view instanceof Uint8Array ? view : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  }
  const bytes = new Uint8Array(bound);
  writeCheckedItem(item as Item, bytes, 0);
  return bytes;
}

export function isNumericItemArray(value: unknown): value is NumericItemArray {
  return (
    value instanceof Uint32Array ||
    value instanceof Int32Array ||
    value instanceof Float64Array ||
    value instanceof BigUint64Array ||
    value instanceof BigInt64Array
  );
}

/**
 * Writes elements [start, start + count) of a numeric array as 8-byte items
 * at `at` (a multiple of 8). The caller has checked that Float64 elements are
 * safe integers.
 */
export function writeNumericRun(items: NumericItemArray, start: number, count: number, heap: Uint8Array, at: number): void {
  if (items instanceof BigUint64Array || items instanceof BigInt64Array) {
    heap.set(new Uint8Array(items.buffer, items.byteOffset + start * NUMERIC_ITEM_BYTES, count * NUMERIC_ITEM_BYTES), at);
    return;
  }
  const words = new Uint32Array(heap.buffer, at, count * 2);
  let word = 0;
  if (items instanceof Uint32Array) {
    for (let i = start; i < start + count; i++) {
      words[word++] = items[i]!;
      words[word++] = 0;
    }
  } else if (items instanceof Int32Array) {
    for (let i = start; i < start + count; i++) {
      const value = items[i]!;
      words[word++] = value >>> 0;
      words[word++] = value >> 31; // sign extension: 0 or 0xffffffff
    }
  } else {
    for (let i = start; i < start + count; i++) {
      const value = items[i]!;
      const high = Math.floor(value / TWO_POW_32);
      words[word++] = value - high * TWO_POW_32;
      words[word++] = high;
    }
  }
}
