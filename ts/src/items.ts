// Turning JavaScript items into bytes in wasm memory.
//
// An item is hashed as bytes, so every accepted type has one byte encoding:
// - string: its UTF-8 bytes ('abc' and new TextEncoder().encode('abc') are the same item);
// - Uint8Array or any other ArrayBufferView: the bytes it views;
// - number (a safe integer) or bigint (-2^63 .. 2^64-1): 8 bytes, little-endian
//   two's complement int64, so 5 and 5n are the same item, and '5' is another.
// Items are written straight into buffers inside wasm memory so that a call
// into the core passes only (address, length).

import type { Address, RawModule } from './raw.js';

/** Anything that can be added to or looked up in a filter. See the module comment of items.ts for the encoding. */
export type Item = string | Uint8Array | ArrayBufferView | number | bigint;

/** Typed arrays whose elements are integer items: the fast path of the batch methods. */
export type NumericItemArray = Uint32Array | Int32Array | Float64Array | BigUint64Array | BigInt64Array;

/** Bytes of a number or bigint item, and of each item of a numeric batch. */
export const NUMERIC_ITEM_BYTES = 8;

const TWO_POW_32 = 4294967296;
const INT64_MIN = -(2n ** 63n);
const UINT64_LIMIT = 2n ** 64n;
const utf8 = new TextEncoder();
/** An item is copied into one block of wasm memory, which _malloc cannot make this large. */
const MAX_ITEM_BYTES = 2 ** 31;
/** Scratch buffers larger than this are released after a batch. */
const TRIM_BYTES = 4 << 20;

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.length > 40 ? `a string of length ${value.length}` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  if (typeof value === 'object') return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  return typeof value;
}

function itemLabel(what: string, index: number): string {
  return index < 0 ? what : `${what}[${index}]`;
}

/** A growable block of wasm memory. */
export class WasmBuffer {
  address: Address = 0;
  capacity = 0;

  constructor(private readonly module: RawModule) {}

  /** Makes room for `bytes`, keeping the first `keep` bytes. Throws RangeError when memory runs out. */
  reserve(bytes: number, keep = 0): Address {
    if (bytes <= this.capacity) return this.address;
    const capacity = Math.max(bytes, this.capacity * 2, 256);
    // _malloc takes a 32-bit size: larger requests would wrap around.
    const address = capacity < 2 ** 31 ? this.module._malloc(capacity) >>> 0 : 0;
    if (address === 0) {
      throw new RangeError(`cuckoo-wasm: cannot allocate ${bytes} bytes of WebAssembly memory (the limit is 4 GiB in all)`);
    }
    if (keep > 0) this.module.HEAPU8.copyWithin(address, this.address, this.address + keep);
    if (this.address !== 0) this.module._free(this.address);
    this.address = address;
    this.capacity = capacity;
    return address;
  }

  /** Frees the block if it is larger than `bytes`; the next reserve allocates afresh. */
  shrinkTo(bytes: number): void {
    if (this.capacity <= bytes) return;
    this.module._free(this.address);
    this.address = 0;
    this.capacity = 0;
  }
}

/**
 * Runs `use` with a temporary block of `bytes` bytes of wasm memory, freed
 * afterwards whatever happens.
 */
export function withTemporary<T>(module: RawModule, bytes: number, context: string, use: (address: Address) => T): T {
  const address = bytes < 2 ** 31 ? module._malloc(Math.max(bytes, 1)) >>> 0 : 0;
  if (address === 0) {
    throw new RangeError(
      `${context}: cannot allocate ${bytes} bytes of WebAssembly memory (2 GiB at most at once, 4 GiB in all); ` +
        'dispose filters you no longer need',
    );
  }
  try {
    return use(address);
  } finally {
    module._free(address);
  }
}

/**
 * Writes items into wasm memory. One per loaded module; its buffers live as
 * long as the module.
 */
export class ItemWriter {
  /** Holds single items, or the packed bytes of a batch. */
  readonly data: WasmBuffer;
  /** Offsets of a packed batch. */
  readonly aux: WasmBuffer;
  /** Answers of a hasMany chunk. */
  readonly answers: WasmBuffer;
  // Views of wasm memory, kept between calls: reading module.HEAPU8 costs a
  // lookup in a large object, a noticeable share of a single-item call. When
  // memory grows its old buffer is detached (length 0) and the views are
  // taken afresh.
  #u8: Uint8Array;
  #u32: Uint32Array;

  constructor(private readonly module: RawModule) {
    this.data = new WasmBuffer(module);
    this.aux = new WasmBuffer(module);
    this.answers = new WasmBuffer(module);
    this.data.reserve(4096);
    this.#u8 = module.HEAPU8;
    this.#u32 = module.HEAPU32;
  }

  /** wasm memory as bytes, current after any growth. */
  heapU8(): Uint8Array {
    if (this.#u8.length === 0) this.refreshViews();
    return this.#u8;
  }

  /** wasm memory as 32-bit words, current after any growth. */
  heapU32(): Uint32Array {
    if (this.#u32.length === 0) this.refreshViews();
    return this.#u32;
  }

  private refreshViews(): void {
    this.#u8 = this.module.HEAPU8;
    this.#u32 = this.module.HEAPU32;
  }

  /** Gives back memory after an unusually large item or batch. */
  trim(): void {
    this.data.shrinkTo(TRIM_BYTES);
    this.aux.shrinkTo(TRIM_BYTES);
    this.answers.shrinkTo(TRIM_BYTES);
  }

  /** Gives back the item buffer after an unusually large single item. */
  trimIfLarge(): void {
    if (this.data.capacity > TRIM_BYTES) this.data.shrinkTo(TRIM_BYTES);
  }

  /** Encodes one item at the start of `data`; returns its length in bytes. */
  writeSingle(item: unknown, what: string): number {
    // The common cases first, without a buffer check: `data` always holds
    // 4096 bytes, and a safe integer is 8 of them.
    if (typeof item === 'number' && Number.isSafeInteger(item)) {
      this.putInt64(item, this.data.address);
      return NUMERIC_ITEM_BYTES;
    }
    return this.writeAt(item, 0, what);
  }

  /**
   * Encodes `item` at byte `offset` of `data`, growing `data` (and keeping
   * what precedes `offset`) as needed; returns the item's length. An error
   * names the item as `what`, or `what[index]` for an item of a batch: the
   * label is put together only when there is an error to report, since
   * building a string per item would cost more than encoding it.
   */
  writeAt(item: unknown, offset: number, what: string, index = -1): number {
    switch (typeof item) {
      case 'string':
        return this.writeString(item, offset);
      case 'number':
        if (!Number.isSafeInteger(item)) {
          throw new RangeError(
            `${itemLabel(what, index)}: a number item must be a safe integer (from -(2^53 - 1) to 2^53 - 1), got ${String(item)}; ` +
              'use a string or a bigint for other values',
          );
        }
        this.putInt64(item, this.data.reserve(offset + 8, offset) + offset);
        return NUMERIC_ITEM_BYTES;
      case 'bigint':
        if (item < INT64_MIN || item >= UINT64_LIMIT) {
          throw new RangeError(`${itemLabel(what, index)}: a bigint item must be from -(2^63) to 2^64 - 1, got ${item}n`);
        }
        this.writeBigInt64(item, offset);
        return NUMERIC_ITEM_BYTES;
      case 'object':
        if (item !== null && ArrayBuffer.isView(item)) {
          if (item.byteLength >= MAX_ITEM_BYTES) {
            throw new RangeError(`${itemLabel(what, index)} must be smaller than 2 GiB (wasm32 addresses), got ${item.byteLength} bytes`);
          }
          return this.writeBytes(item, offset);
        }
        break;
      default:
        break;
    }
    throw new TypeError(
      `${itemLabel(what, index)} must be a string, Uint8Array, ArrayBufferView, number or bigint; got ${describeValue(item)}`,
    );
  }

  private writeString(text: string, offset: number): number {
    const length = text.length;
    const base = (length * 3 + offset <= this.data.capacity ? this.data.address : this.data.reserve(offset + length * 3, offset)) + offset;
    const heap = this.heapU8();
    // ASCII is copied directly: much cheaper than TextEncoder for short keys.
    for (let i = 0; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) return utf8.encodeInto(text, heap.subarray(base, base + length * 3)).written;
      heap[base + i] = code;
    }
    return length;
  }

  /** A safe integer as 8 bytes, little-endian two's complement, at `address` (a multiple of 4 within `data`). */
  private putInt64(value: number, address: number): void {
    const high = Math.floor(value / TWO_POW_32);
    const words = this.heapU32();
    if ((address & 3) === 0) {
      words[address >>> 2] = value - high * TWO_POW_32;
      words[(address >>> 2) + 1] = high;
      return;
    }
    const low = value - high * TWO_POW_32;
    const heap = this.heapU8();
    for (let i = 0; i < 4; i++) heap[address + i] = (low >>> (8 * i)) & 0xff;
    for (let i = 0; i < 4; i++) heap[address + 4 + i] = (high >>> (8 * i)) & 0xff;
  }

  private writeBigInt64(value: bigint, offset: number): void {
    const unsigned = BigInt.asUintN(64, value);
    const base = this.data.reserve(offset + 8, offset) + offset;
    const low = Number(unsigned & 0xffffffffn);
    const high = Number(unsigned >> 32n);
    const heap = this.heapU8();
    for (let i = 0; i < 4; i++) heap[base + i] = (low >>> (8 * i)) & 0xff;
    for (let i = 0; i < 4; i++) heap[base + 4 + i] = (high >>> (8 * i)) & 0xff;
  }

  private writeBytes(view: ArrayBufferView, offset: number): number {
    const length = view.byteLength;
    const base = this.data.reserve(offset + length, offset) + offset;
    this.heapU8().set(new Uint8Array(view.buffer, view.byteOffset, length), base);
    return length;
  }

  /**
   * Writes elements [start, start + count) of a numeric array as 8-byte items
   * at the start of `data`. The caller has checked that Float64 elements are
   * safe integers.
   */
  writeNumericRun(items: NumericItemArray, start: number, count: number): void {
    const base = this.data.reserve(count * NUMERIC_ITEM_BYTES);
    if (items instanceof BigUint64Array || items instanceof BigInt64Array) {
      this.heapU8().set(new Uint8Array(items.buffer, items.byteOffset + start * NUMERIC_ITEM_BYTES, count * NUMERIC_ITEM_BYTES), base);
      return;
    }
    const words = this.heapU32();
    let word = base >>> 2;
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
