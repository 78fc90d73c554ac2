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

/**
 * The calls each filter class's bindings register under its prefix
 * (bindings/item_calls.hpp): `cuckooInsertItem`, `scalableInsertItem`, ...
 */
export interface RawFilterCalls {
  InsertItem(handle: Handle, item: Address, length: number): boolean;
  InsertUniqueItem(handle: Handle, item: Address, length: number): boolean;
  ContainsItem(handle: Handle, item: Address, length: number): boolean;
  EraseItem(handle: Handle, item: Address, length: number): boolean;
  CountItem(handle: Handle, item: Address, length: number): number;
  InsertPacked(handle: Handle, data: Address, offsets: Address, count: number): number;
  ContainsPacked(handle: Handle, data: Address, offsets: Address, count: number, out: Address): void;
  ErasePacked(handle: Handle, data: Address, offsets: Address, count: number): number;
  InsertFixed(handle: Handle, data: Address, width: number, count: number): number;
  ContainsFixed(handle: Handle, data: Address, width: number, count: number, out: Address): void;
  EraseFixed(handle: Handle, data: Address, width: number, count: number): number;
  SerializedSize(handle: Handle): number;
  Serialize(handle: Handle, out: Address): void;
  Deserialize(data: Address, length: number, outHandle: Address): number;
  Clone(handle: Handle, outHandle: Address): number;
  Destroy(handle: Handle): void;
  /** A status: merging differing filters, or kMergeWouldOverfill. */
  Merge(handle: Handle, other: Handle): number;
}

type Prefixed<Prefix extends string, Calls> = { [Name in keyof Calls as `${Prefix}${Name & string}`]: Calls[Name] };

export interface RawModule extends Prefixed<'cuckoo', RawFilterCalls>, Prefixed<'scalable', RawFilterCalls> {
  /** Replaced by a new view whenever memory grows: always read it afresh. */
  readonly HEAPU8: Uint8Array;
  readonly HEAPU32: Uint32Array;
  readonly HEAPF64: Float64Array;
  _malloc(bytes: number): Address;
  _free(address: Address): void;

  // Integer options cross as numbers; the core checks their range and whole-ness.
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
  clearFilter(handle: Handle): void;
  describeFilter(handle: Handle): FilterInfo;
  // Growable filters (bindings/scalable_bindings.cpp).
  createScalable(
    initialCapacity: number,
    falsePositiveRate: number,
    growth: number,
    maxKicks: number,
    seedLow: number,
    seedHigh: number,
    semiSort: boolean,
    outHandle: Address,
  ): number;
  clearScalable(handle: Handle): number;
  describeScalable(handle: Handle): ScalableInfo;
  checkSerializedHeader(header: Address, totalLength: number): number;

  // The core's facts (bindings/facts_bindings.cpp).
  statusText(status: number): string;
  /** The FormatError code of a byte-format status, '' for any other status. */
  statusFormatCode(status: number): string;
  /** The CuckooFilterError code of a status that is neither a parameter's nor the format's (INCOMPATIBLE), or ''. */
  statusErrorCode(status: number): string;
  /** The options (comma-separated) whose values a parameter status is about, or ''. */
  statusOptions(status: number): string;
  /** The core's sentence for what an option must be, "<option> must be ...", or ''. */
  optionRule(option: string): string;
  readonly statusOk: number;
  /** The status of a merge that would overfill the filter (nothing changed). */
  readonly statusMergeWouldOverfill: number;
  readonly defaultGrowth: number;
  readonly defaultMaxKicks: number;
  /** Bytes of the serialized header (FORMAT.md); checkSerializedHeader reads at most these. */
  readonly serializedHeaderBytes: number;

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
  describeBloom(handle: Handle): BloomInfo;

  // A filter whose table lives elsewhere (bindings/parts_bindings.cpp).
  partsLocatePacked(
    fingerprintBits: number,
    bucketCount: number,
    seedLow: number,
    seedHigh: number,
    data: Address,
    offsets: Address,
    count: number,
    out: Address,
  ): void;
  partsLocateFixed(
    fingerprintBits: number,
    bucketCount: number,
    seedLow: number,
    seedHigh: number,
    data: Address,
    width: number,
    count: number,
    out: Address,
  ): void;
  partsOf(handle: Handle, out: Address): void;
  partsRestore(
    fingerprintBits: number,
    bucketSize: number,
    bucketCount: number,
    maxKicks: number,
    seedLow: number,
    seedHigh: number,
    semiSort: boolean,
    payload: Address,
    length: number,
    stashOccupied: boolean,
    stashFingerprint: number,
    stashBucket: number,
    itemCount: number,
    outHandle: Address,
  ): number;

  // Inspection (bindings/inspect_bindings.cpp).
  inspectLocate(handle: Handle, item: Address, length: number): RawLocation;
  inspectTraceInsert(handle: Handle, item: Address, length: number, kickCapacity: number): RawInsertTrace;
  inspectTraceLookup(handle: Handle, item: Address, length: number): RawLookupTrace;
  inspectTraceErase(handle: Handle, item: Address, length: number): RawDeleteTrace;
  inspectReadSlots(handle: Handle, firstBucket: number, bucketCount: number, out: Address): void;
  inspectReadStash(handle: Handle): RawStash;
  inspectAlternateBucket(handle: Handle, bucket: number, fingerprint: number): number;
  inspectMix32(value: number): number;
  inspectTableBits(handle: Handle): number;
  inspectScalableShape(handle: Handle): RawScalableShape;
  inspectReadScalableSlots(handle: Handle, firstBucket: number, bucketCount: number, out: Address): void;
  inspectKernelName(handle: Handle): string;
  inspectUseGenericKernel(handle: Handle): void;
  inspectPracticalMaxLoad(bucketSize: number): number;
  inspectOptimalBloomHashCount(bitsPerItem: number): number;
  readonly InsertEnd: { readonly refused: EmbindEnumValue; readonly placed: EmbindEnumValue; readonly stashed: EmbindEnumValue };
  readonly DeleteSource: { readonly nowhere: EmbindEnumValue; readonly bucket: EmbindEnumValue; readonly stash: EmbindEnumValue };
  readonly noSlot: number;
}

/** A CuckooFilter's parameters and statistics (describeFilter). */
export interface ScalableInfo {
  readonly itemCount: number;
  readonly entryCount: number;
  readonly slotCount: number;
  readonly loadFactor: number;
  readonly byteLength: number;
  readonly bitsPerItem: number;
  readonly fprBound: number;
  readonly bucketCount: number;
  readonly fingerprintBits: number;
  readonly tailBits: number;
  readonly rounds: number;
  readonly initialCapacity: number;
  readonly fpr: number;
  readonly growth: number;
  readonly maxKicks: number;
  readonly seedLow: number;
  readonly seedHigh: number;
  readonly semiSort: boolean;
  readonly full: boolean;
}

export interface FilterInfo {
  readonly itemCount: number;
  readonly slotCount: number;
  readonly loadFactor: number;
  readonly byteLength: number;
  readonly bitsPerItem: number;
  readonly expectedFpr: number;
  readonly fprBound: number;
  readonly fingerprintBits: number;
  readonly bucketSize: number;
  readonly bucketCount: number;
  readonly maxKicks: number;
  readonly seedLow: number;
  readonly seedHigh: number;
  readonly full: boolean;
  readonly semiSort: boolean;
}

/** A BloomFilter's parameters and statistics (describeBloom). */
export interface BloomInfo {
  readonly itemCount: number;
  readonly bitCount: number;
  readonly hashCount: number;
  readonly byteLength: number;
  readonly bitsPerItem: number;
  readonly expectedFpr: number;
  readonly blocked: boolean;
  readonly seedLow: number;
  readonly seedHigh: number;
}

/** A value of an enum the bindings register: compared by identity. */
export interface EmbindEnumValue {
  readonly value: number;
}

export interface RawLocation {
  readonly hashLow: number;
  readonly hashHigh: number;
  readonly fingerprint: number;
  readonly i1: number;
  readonly i2: number;
  readonly fingerprintHash: number;
  readonly fingerprintHashMod: number;
  readonly hashId: number;
}

export interface RawKick {
  readonly bucket: number;
  readonly slot: number;
  readonly incoming: number;
  readonly evicted: number;
  readonly nextBucket: number;
  readonly evictedHashMod: number;
}

export interface RawInsertTrace {
  readonly location: RawLocation;
  readonly added: boolean;
  readonly kickCount: number;
  readonly kicks: RawKick[];
  readonly end: EmbindEnumValue;
  readonly endBucket: number;
  readonly endSlot: number;
  readonly endFingerprint: number;
}

export interface RawLookupTrace {
  readonly location: RawLocation;
  readonly found: boolean;
  readonly slotsInI1: number;
  readonly slotsInI2: number;
  readonly copiesInStash: number;
}

export interface RawDeleteTrace {
  readonly location: RawLocation;
  readonly deleted: boolean;
  readonly from: EmbindEnumValue;
  readonly bucket: number;
  readonly slot: number;
  readonly stashReinserted: boolean;
}

export interface RawStash {
  readonly occupied: boolean;
  readonly fingerprint: number;
  readonly bucket: number;
  readonly alternateBucket: number;
}

/** What describeScalable does not tell of a growable table's shape. */
export interface RawScalableShape {
  readonly level: number;
  readonly splitBucket: number;
  readonly initialLevel: number;
  readonly stashCount: number;
}
