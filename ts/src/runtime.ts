// One loaded WebAssembly module as the library uses it: its plain exports,
// views of its memory kept current, and the blocks of memory that items cross
// in. One per program (loader.ts); every filter object holds the one it lives
// in.

import type { Address, CoreExports, Handle } from './core-exports.js';
import { itemBytesBound, writeCheckedItem, type Item } from './items.js';

/** Which module: the main entry's lean one, cuckoo-wasm/patch's, or the full one that cuckoo-wasm/inspect, /bloom and /redis load. */
export type ModuleKind = 'lean' | 'patch' | 'full';

/** Bytes of the block a single item is written to: strings up to a third of this take the fast path. */
export const SCRATCH_BYTES = 16384;
/** Bytes of the block for out-parameters: a new handle, or a few words. */
const RESULTS_BYTES = 128;
/** Batch buffers larger than this are released after a batch. */
const TRIM_BYTES = 4 << 20;

const ascii = new TextDecoder();

/** A growable block of wasm memory for batches. */
export class WasmBuffer {
  address: Address = 0;
  capacity = 0;

  constructor(private readonly runtime: Runtime) {}

  /** Makes room for `bytes`, keeping the first `keep` bytes. Throws RangeError when memory runs out. */
  reserve(bytes: number, keep = 0): Address {
    if (bytes <= this.capacity) return this.address;
    const capacity = Math.max(bytes, this.capacity * 2, 256);
    const address = this.runtime.allocate(capacity);
    if (address === 0) {
      throw new RangeError(`cuckoo-wasm: cannot allocate ${bytes} bytes of WebAssembly memory (the limit is 4 GiB in all)`);
    }
    if (keep > 0) this.runtime.u8.copyWithin(address, this.address, this.address + keep);
    if (this.address !== 0) this.runtime.core.free(this.address);
    this.address = address;
    this.capacity = capacity;
    return address;
  }

  /** Frees the block if it is larger than `bytes`; the next reserve allocates afresh. */
  shrinkTo(bytes: number): void {
    if (this.capacity <= bytes) return;
    this.runtime.core.free(this.address);
    this.address = 0;
    this.capacity = 0;
  }
}

export class Runtime {
  // Views of wasm memory. When memory grows its old buffer is detached (its
  // views' length becomes 0) and the views are made afresh on next use. They
  // are not remade from inside the module's report of growth: a JavaScript
  // allocation made while wasm runs, under a call V8 inlined, crashes Node 20
  // (V8 11.3) with a segmentation fault.
  #u8: Uint8Array;
  #u32: Uint32Array;
  /** A fixed block for one item: per-call methods write their item here. */
  readonly scratch: Address;
  /** A fixed block for out-parameters: a new handle, or a few words. */
  readonly results: Address;
  /** Batch buffers: packed item bytes, their offsets, and answers. */
  readonly batchData: WasmBuffer;
  readonly batchOffsets: WasmBuffer;
  readonly batchAnswers: WasmBuffer;
  /** The facts every error needs, read once. */
  readonly statusOk: number;

  constructor(
    readonly kind: ModuleKind,
    readonly core: CoreExports,
    /** The full module's embind functions (inspection, Bloom filters); absent in the lean module. */
    readonly embind: unknown,
  ) {
    this.#u8 = new Uint8Array(core.memory.buffer);
    this.#u32 = new Uint32Array(core.memory.buffer);
    this.scratch = this.allocate(SCRATCH_BYTES);
    this.results = this.allocate(RESULTS_BYTES);
    if (this.scratch === 0 || this.results === 0) throw new RangeError('cuckoo-wasm: cannot allocate the item and result blocks');
    this.batchData = new WasmBuffer(this);
    this.batchOffsets = new WasmBuffer(this);
    this.batchAnswers = new WasmBuffer(this);
    this.statusOk = core.status_ok();
  }

  /** wasm memory as bytes, current after any growth. */
  get u8(): Uint8Array {
    const view = this.#u8;
    return view.length !== 0 ? view : this.#refreshViews().#u8;
  }

  /** wasm memory as 32-bit words, current after any growth. */
  get u32(): Uint32Array {
    const view = this.#u32;
    return view.length !== 0 ? view : this.#refreshViews().#u32;
  }

  #refreshViews(): this {
    this.#u8 = new Uint8Array(this.core.memory.buffer);
    this.#u32 = new Uint32Array(this.core.memory.buffer);
    return this;
  }

  /** A block of `bytes` bytes (8-byte aligned), or 0 when it does not fit (malloc takes a 32-bit size). */
  allocate(bytes: number): Address {
    return bytes < 2 ** 31 ? this.core.malloc(Math.max(bytes, 1)) >>> 0 : 0;
  }

  /**
   * Runs `use` with a temporary block of `bytes` bytes of wasm memory, freed
   * afterwards whatever happens; `context` names the call in the RangeError
   * when memory runs out.
   */
  withTemporary<T>(bytes: number, context: string, use: (address: Address) => T): T {
    const address = this.allocate(bytes);
    if (address === 0) {
      throw new RangeError(
        `${context}: cannot allocate ${bytes} bytes of WebAssembly memory (2 GiB at most at once, 4 GiB in all); ` +
          'dispose filters you no longer need',
      );
    }
    try {
      return use(address);
    } finally {
      this.core.free(address);
    }
  }

  /**
   * Checks `item` (errors name it as `label`), writes it to the scratch block,
   * or to a block of its own when it is large, and runs `use` on it there.
   */
  withItem<T>(item: unknown, label: string, use: (address: Address, length: number) => T): T {
    const bound = itemBytesBound(item, label);
    if (bound <= SCRATCH_BYTES) return use(this.scratch, writeCheckedItem(item as Item, this.u8, this.scratch));
    return this.withTemporary(bound, label, (address) => use(address, writeCheckedItem(item as Item, this.u8, address)));
  }

  /** The handle the core wrote to the result block. */
  takeResultHandle(): Handle {
    return this.u32[this.results >>> 2]!;
  }

  /** A NUL-terminated ASCII text the module returned the address of. */
  text(address: Address): string {
    const bytes = this.u8;
    let end = address;
    while (bytes[end] !== 0) end++;
    return ascii.decode(bytes.subarray(address, end));
  }

  /** Gives back memory after an unusually large batch. */
  trimBatchBuffers(): void {
    this.batchData.shrinkTo(TRIM_BYTES);
    this.batchOffsets.shrinkTo(TRIM_BYTES);
    this.batchAnswers.shrinkTo(TRIM_BYTES);
  }
}
