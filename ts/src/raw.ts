// The raw WebAssembly module as bindings/cuckoo_bindings.cpp exposes it.
// Internal: users see only the classes in filter.ts.

/** Options the Emscripten glue accepts (a subset). */
export interface EmscriptenModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  printErr?: (message: string) => void;
}

/** A filter handle: the address of a cuckoo::CuckooFilter in wasm memory. */
export type Handle = number;
/** An address in wasm memory. */
export type Address = number;

export interface RawModule {
  /** Replaced by a new view whenever memory grows: always read it afresh. */
  readonly HEAPU8: Uint8Array;
  readonly HEAPU32: Uint32Array;
  readonly HEAPF64: Float64Array;
  _malloc(bytes: number): Address;
  _free(address: Address): void;

  createFilter(
    fingerprintBits: number,
    bucketSize: number,
    bucketCount: number,
    maxKicks: number,
    seedLow: number,
    seedHigh: number,
    semiSort: boolean,
    outHandle: Address,
  ): number;
  createFilterForCapacity(
    capacity: number,
    falsePositiveRate: number,
    maxKicks: number,
    seedLow: number,
    seedHigh: number,
    semiSort: boolean,
    outHandle: Address,
  ): number;
  cloneFilter(handle: Handle, outHandle: Address): number;
  destroyFilter(handle: Handle): void;

  insertItem(handle: Handle, item: Address, length: number): boolean;
  insertUniqueItem(handle: Handle, item: Address, length: number): number;
  containsItem(handle: Handle, item: Address, length: number): boolean;
  eraseItem(handle: Handle, item: Address, length: number): boolean;
  countItem(handle: Handle, item: Address, length: number): number;
  clearFilter(handle: Handle): void;

  insertPacked(handle: Handle, data: Address, offsets: Address, count: number): number;
  containsPacked(handle: Handle, data: Address, offsets: Address, count: number, out: Address): void;
  erasePacked(handle: Handle, data: Address, offsets: Address, count: number): number;
  insertFixed(handle: Handle, data: Address, width: number, count: number): number;
  containsFixed(handle: Handle, data: Address, width: number, count: number, out: Address): void;
  eraseFixed(handle: Handle, data: Address, width: number, count: number): number;

  describeFilter(handle: Handle, out: Address): void;
  serializedSize(handle: Handle): number;
  serializeFilter(handle: Handle, out: Address): void;
  deserializeFilter(data: Address, length: number, outHandle: Address): number;
  checkSerializedHeader(header: Address, totalLength: number): number;
  statusText(status: number): string;

  // Bloom filters (bindings/bloom_bindings.cpp); a handle addresses either kind.
  createBloom(
    blocked: boolean,
    bitCount: number,
    hashCount: number,
    seedLow: number,
    seedHigh: number,
    outHandle: Address,
  ): number;
  createBloomForCapacity(
    blocked: boolean,
    capacity: number,
    falsePositiveRate: number,
    seedLow: number,
    seedHigh: number,
    outHandle: Address,
  ): number;
  destroyBloom(handle: Handle): void;
  bloomInsertItem(handle: Handle, item: Address, length: number): boolean;
  bloomContainsItem(handle: Handle, item: Address, length: number): boolean;
  bloomProbePositions(handle: Handle, item: Address, length: number, out: Address): number;
  bloomInsertPacked(handle: Handle, data: Address, offsets: Address, count: number): number;
  bloomContainsPacked(handle: Handle, data: Address, offsets: Address, count: number, out: Address): void;
  bloomInsertFixed(handle: Handle, data: Address, width: number, count: number): number;
  bloomContainsFixed(handle: Handle, data: Address, width: number, count: number, out: Address): void;
  bloomItemCount(handle: Handle): number;
  describeBloom(handle: Handle, out: Address): void;

  // Inspection (bindings/inspect_bindings.cpp); out layouts are in ts/src/inspect.ts.
  inspectLocate(handle: Handle, item: Address, length: number, out: Address): void;
  inspectTraceInsert(handle: Handle, item: Address, length: number, kicks: Address, kickCapacity: number, out: Address): boolean;
  inspectTraceLookup(handle: Handle, item: Address, length: number, out: Address): boolean;
  inspectTraceErase(handle: Handle, item: Address, length: number, out: Address): boolean;
  inspectReadSlots(handle: Handle, firstBucket: number, bucketCount: number, out: Address): void;
  inspectReadStash(handle: Handle, out: Address): void;
  inspectAlternateBucket(handle: Handle, bucket: number, fingerprint: number): number;
  inspectMix32(value: number): number;
  inspectTableBits(handle: Handle): number;
  inspectPracticalMaxLoad(bucketSize: number): number;
  inspectOptimalBloomHashCount(bitsPerItem: number): number;
}

/** Index of each double that describeFilter writes; mirrors the bindings. */
export const InfoField = {
  ItemCount: 0,
  SlotCount: 1,
  LoadFactor: 2,
  SizeInBytes: 3,
  BitsPerItem: 4,
  ExpectedFpr: 5,
  FprBound: 6,
  FingerprintBits: 7,
  BucketSize: 8,
  BucketCount: 9,
  MaxKicks: 10,
  SeedLow: 11,
  SeedHigh: 12,
  IsFull: 13,
  SemiSort: 14,
  Count: 15,
} as const;

/** Index of each double that describeBloom writes; mirrors bindings/bloom_bindings.cpp. */
export const BloomInfoField = {
  ItemCount: 0,
  BitCount: 1,
  HashCount: 2,
  SizeInBytes: 3,
  BitsPerItem: 4,
  ExpectedFpr: 5,
  Blocked: 6,
  SeedLow: 7,
  SeedHigh: 8,
  Count: 9,
} as const;

/** Bytes of the serialized header (FORMAT.md); checkSerializedHeader reads at most these. */
export const SERIALIZED_HEADER_BYTES = 56;

/** insertUniqueItem results (cuckoo::InsertOutcome). */
export const InsertOutcome = { Inserted: 0, AlreadyPresent: 1, Full: 2 } as const;
