// The full module (cuckoo-full.wasm): the patch module's exports plus the
// embind bindings of inspection (bindings/inspect_bindings.cpp,
// inspect_scalable_bindings.cpp) and of the Bloom filters
// (bindings/bloom_bindings.cpp), which return JavaScript objects. Importing
// this file, as cuckoo-wasm/inspect and cuckoo-wasm/bloom do, makes init()
// load this module instead of the lean one.

import type { Address, CoreExports, Handle, KicksSeedSort, TableShapeArgs } from './core-exports.js';
import { createCuckooFullModule, fullWasmUrl } from './full-glue.js';
import type { Kick } from './inspect-types.js';
import { needModule, requireFullRuntime } from './loader.js';
import type { PatchExports } from './patch-module.js';
import { Runtime } from './runtime.js';

/** A filter's state as the parts exports take it: the stash (occupied, fingerprint, bucket), the item count and the PRNG state's two halves. */
export type StateArguments = [stashOccupied: number, stashFingerprint: number, stashBucket: number, itemCount: number, prngLow: number, prngHigh: number];

/** The full module's plain exports: the patch module's (so the lean module's) and those only it has. */
export interface FullCoreExports extends PatchExports {
  // A filter whose table lives elsewhere (bindings/parts_exports.cpp):
  // cuckoo-wasm/redis, which loads this module.
  parts_locate_packed(
    fingerprintBits: number,
    bucketCount: number,
    seedLow: number,
    seedHigh: number,
    flags: number,
    data: Address,
    offsets: Address,
    count: number,
    out: Address,
  ): void;
  parts_locate_fixed(
    fingerprintBits: number,
    bucketCount: number,
    seedLow: number,
    seedHigh: number,
    flags: number,
    data: Address,
    width: number,
    count: number,
    out: Address,
  ): void;
  parts_of(handle: Handle, out: Address): void;
  parts_restore(
    ...args: [
      ...TableShapeArgs,
      payload: Address,
      length: number,
      ...StateArguments,
      outHandle: Address,
    ]
  ): number;
  parts_replace_buckets(...args: [handle: Handle, buckets: Address, count: number, contents: Address, stride: number, ...StateArguments]): number;
  parts_size_for(...args: [capacity: number, fpr: number, ...KicksSeedSort, out: Address]): number;
  parts_unrank_table(out: Address): void;
}

/** The embind functions of the full module. */
export interface FullModule {
  // Bloom filters (bindings/bloom_bindings.cpp); a handle addresses either kind.
  createBloom(blocked: boolean, bitCount: number, hashCount: number, seedLow: number, seedHigh: number, outHandle: Address): number;
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

  // Inspection (bindings/inspect_bindings.cpp, inspect_table_bindings.cpp, inspect_scalable_bindings.cpp).
  inspectLocate(handle: Handle, item: Address, length: number): RawLocation;
  inspectTraceInsert(handle: Handle, item: Address, length: number, kickCapacity: number): RawInsertTrace;
  inspectTraceLookup(handle: Handle, item: Address, length: number): RawLookupTrace;
  inspectTraceErase(handle: Handle, item: Address, length: number, kickCapacity: number): RawDeleteTrace;
  inspectReadSlots(handle: Handle, firstBucket: number, bucketCount: number, out: Address): void;
  inspectReadStash(handle: Handle): RawStash;
  inspectReadSemiSortedBucket(handle: Handle, bucket: number): RawSemiSortedBucket;
  inspectAlternateBucket(handle: Handle, bucket: number, fingerprint: number): number;
  inspectMix32(value: number): number;
  inspectTableBits(handle: Handle): number;
  inspectScalableShape(handle: Handle): RawScalableShape;
  inspectReadScalableSlots(handle: Handle, firstBucket: number, bucketCount: number, out: Address): void;
  inspectTraceGrowingInsert(handle: Handle, item: Address, length: number): RawGrowthTrace;
  inspectKernelName(handle: Handle): string;
  inspectUseGenericKernel(handle: Handle): void;
  inspectPracticalMaxLoad(bucketSize: number): number;
  inspectOptimalBloomHashCount(bitsPerItem: number): number;
  inspectHashIdFor(bucketCount: number): number;
  inspectSemiSortAllowed(bucketSize: number, fingerprintBits: number): boolean;
  inspectCuckooRates(bucketSize: number, fingerprintBits: number, loadFactor: number): RawCuckooRates;
  inspectCuckooSizing(capacity: number, fpr: number, semiSort: boolean): RawCuckooSizing;
  inspectBloomSizing(capacity: number, fpr: number): RawBloomSizing;
  inspectBloomRate(bitCount: number, hashCount: number, items: number): number;
  readonly WalkEnd: {
    readonly none: EmbindEnumValue;
    readonly placed: EmbindEnumValue;
    readonly stashed: EmbindEnumValue;
    readonly undone: EmbindEnumValue;
  };
  readonly SplitRoute: { readonly stays: EmbindEnumValue; readonly moves: EmbindEnumValue; readonly copied: EmbindEnumValue };
  readonly DeleteSource: { readonly nowhere: EmbindEnumValue; readonly bucket: EmbindEnumValue; readonly stash: EmbindEnumValue };
  readonly noSlot: number;
  readonly semiSortedRanks: number;
  readonly nibbleRankBits: number;
  readonly scalableMaxLoad: number;
  readonly scalableBucketSize: number;
}

/** The Emscripten module object of the full module's glue: its embind functions and its raw exports. */
interface GlueModule extends FullModule {
  readonly asm: CoreExports;
}

/** The full module's glue factory (cuckoo-full.mjs / .cjs), as much of its options as the loader uses. */
export type FullGlueFactory = (options: {
  instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object;
  locateFile(file: string): string;
  printErr(message: string): void;
}) => Promise<GlueModule>;

/** Instantiates the full module through its glue, which registers the embind bindings. */
async function instantiateFull(module: WebAssembly.Module): Promise<Runtime> {
  const glueMessages: string[] = [];
  let failed: (error: unknown) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => {
    failed = reject;
  });
  const glue = await Promise.race([
    (createCuckooFullModule as FullGlueFactory)({
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), failed);
        return {};
      },
      // The glue never fetches (instantiateWasm above gives it the module), but
      // without locateFile it computes new URL('cuckoo-full.wasm',
      // import.meta.url), which throws where import.meta.url is undefined
      // (Cloudflare Workers).
      locateFile: (file) => file,
      printErr: (message) => glueMessages.push(message),
    }),
    failure,
  ]).catch((error: unknown) => {
    const details = glueMessages.length > 0 ? ` (${glueMessages.join('; ')})` : '';
    throw new Error(`${error instanceof Error ? error.message : String(error)}${details}`, { cause: error });
  });
  return new Runtime('full', glue.asm, glue);
}

needModule({ kind: 'full', file: 'cuckoo-full.wasm', entries: 'cuckoo-wasm/inspect, /bloom or /redis', defaultUrl: fullWasmUrl, instantiate: instantiateFull });

/** The full module's runtime, embind functions and plain exports; throws a CuckooFilterError naming `caller` before it is loaded. */
export function requireFull(caller: string): { runtime: Runtime; full: FullModule; core: FullCoreExports } {
  const runtime = requireFullRuntime(caller);
  return { runtime, full: runtime.embind as FullModule, core: runtime.core as FullCoreExports };
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

export interface RawWalk {
  readonly kickCount: number;
  /** The bindings give each kick with the public type's fields, as they are. */
  readonly kicks: Kick[];
  readonly end: EmbindEnumValue;
  readonly endBucket: number;
  readonly endSlot: number;
  readonly endFingerprint: number;
}

export interface RawInsertTrace {
  readonly location: RawLocation;
  readonly added: boolean;
  readonly walk: RawWalk;
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
  readonly stashWalk: RawWalk;
}

export interface RawSemiSortedBucket {
  readonly rank: number;
  /** The sorted nibbles, 4 bits each, the smallest lowest. */
  readonly nibbles: number;
  readonly lowBits: number[];
}

export interface RawSplitMove {
  readonly before: number;
  readonly after: number;
  readonly route: EmbindEnumValue;
  readonly lowSlot: number;
  readonly highSlot: number;
  readonly held: boolean;
}

export interface RawGrowthTrace {
  readonly added: boolean;
  readonly growths: {
    readonly fromBuckets: number;
    readonly toBuckets: number;
    readonly held: number;
    readonly stillHeld: number;
    readonly splits: { readonly bucket: number; readonly sibling: number; readonly level: number; readonly moves: RawSplitMove[] }[];
  }[];
}

export interface RawStash {
  readonly occupied: boolean;
  readonly fingerprint: number;
  readonly bucket: number;
  readonly alternateBucket: number;
}

/** What the plain getters do not tell of a growable table's shape, and its entries (bindings/inspect_scalable_bindings.cpp). */
export interface RawScalableShape {
  readonly level: number;
  readonly splitBucket: number;
  readonly initialLevel: number;
  readonly stashCount: number;
  readonly entryCount: number;
}

/** The rates of a table shape (bindings/inspect_table_bindings.cpp). */
export interface RawCuckooRates {
  readonly fprBound: number;
  readonly expectedFpr: number;
}

/** The core's sizing for a capacity and rate, without a table; only `status` counts when it is not ok. */
export interface RawCuckooSizing {
  readonly status: number;
  readonly fingerprintBits: number;
  readonly bucketSize: number;
  readonly bucketCount: number;
  readonly tableBits: number;
  readonly rates: RawCuckooRates;
}

/** The core's sizing of a standard Bloom filter; only `status` counts when it is not ok. */
export interface RawBloomSizing {
  readonly status: number;
  readonly bitCount: number;
  readonly hashCount: number;
  readonly expectedFpr: number;
}
