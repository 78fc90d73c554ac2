/**
 * cuckoo-wasm/patch: patches between versions of a filter (FORMAT.md,
 * "Patches"). A server that changes a filter sends `newer.diff(older)`; a
 * page holding `older` applies it and holds `newer`, byte for byte, having
 * downloaded a few bytes per changed slot instead of the whole filter. A
 * patch names the versions it goes from and to by the checksum their bytes
 * end with ({@link checksumOf}), so that one made from another version is
 * refused (FormatError `WRONG_BASE`) and changes nothing.
 *
 * Importing this entry adds `diff` and `applyPatch` to CuckooFilter and
 * ScalableCuckooFilter, and makes `init()` load cuckoo-patch.wasm: the main
 * entry's module with patches, a few KB more.
 *
 * @example
 * ```ts
 * import { init, CuckooFilter } from 'cuckoo-wasm';
 * import 'cuckoo-wasm/patch';
 * await init();
 * using v1 = CuckooFilter.create({ capacity: 100_000, fpr: 0.001, seed: 1 });
 * using v2 = v1.clone();
 * v2.add('mallory');
 * const patch = v2.diff(v1);       // a Uint8Array of a few dozen bytes
 * v1.applyPatch(patch);             // v1 now equals v2: v1.toBytes() is v2.toBytes()
 * v1.applyPatch(patch);             // FormatError WRONG_BASE: v1 is no longer the base
 * ```
 * @packageDocumentation
 */

import type { Handle } from './core-exports.js';
import { CuckooFilterError, errorForStatus, FormatError, type CuckooFilterErrorCode, type FormatErrorCode } from './errors.js';
import { CuckooFilter } from './filter.js';
import { describeValue } from './items.js';
import { requirePatches, type PatchExports } from './patch-module.js';
import type { Runtime } from './runtime.js';
import { ScalableCuckooFilter } from './scalable.js';

/** A filter patches work on. */
export type PatchableFilter = CuckooFilter | ScalableCuckooFilter;

/** What a patch's header says ({@link describePatch}). */
export interface PatchInfo {
  /** The checksum of the version it applies to, 16 hexadecimal digits ({@link checksumOf}). */
  readonly base: string;
  /** The checksum of the version it makes. */
  readonly result: string;
  /** The class of the filter it is for. */
  readonly filter: 'CuckooFilter' | 'ScalableCuckooFilter';
  /** The table is sent whole (a patch is never longer than the filter's bytes plus 24). */
  readonly wholeTable: boolean;
  /** Slots whose value it changes (0 when the table is sent whole). */
  readonly changedSlots: number;
  readonly byteLength: number;
}

declare module './filter.js' {
  interface CuckooFilter {
    /**
     * The patch that turns `older` — a version of this filter (same
     * parameters and seed), or its `toBytes()` — into this filter. Added by
     * `import 'cuckoo-wasm/patch'`. A CuckooFilterError with code INCOMPATIBLE
     * when they are not versions of one filter.
     * @example
     * ```ts
     * const patch = current.diff(previousBytes); // send it to whoever holds previousBytes
     * ```
     */
    diff(older: CuckooFilter | Uint8Array): Uint8Array;
    /**
     * Applies a patch made by `newer.diff(this)`: this filter then equals
     * `newer`, bytes, stash, count and eviction state included. A FormatError
     * with code WRONG_BASE when the patch was made from another version (or
     * for another filter), another FormatError code for a damaged patch; in
     * every case the filter is unchanged. Added by `import 'cuckoo-wasm/patch'`.
     * @example
     * ```ts
     * filter.applyPatch(new Uint8Array(await (await fetch(`/filter/patch?from=${checksumOf(filter)}`)).arrayBuffer()));
     * ```
     */
    applyPatch(patch: Uint8Array): void;
  }
}

declare module './scalable.js' {
  interface ScalableCuckooFilter {
    /**
     * The patch from `older` (a version of this filter or its bytes) to this
     * filter, while its table has kept its size: a filter that grew in
     * between has no patch (CuckooFilterError INCOMPATIBLE; send it whole).
     * Added by `import 'cuckoo-wasm/patch'`.
     * @example
     * ```ts
     * const patch = seen.diff(snapshot);
     * ```
     */
    diff(older: ScalableCuckooFilter | Uint8Array): Uint8Array;
    /**
     * Applies a patch made by `newer.diff(this)`, as CuckooFilter's does.
     * @example
     * ```ts
     * seen.applyPatch(patch);
     * ```
     */
    applyPatch(patch: Uint8Array): void;
  }
}

/** What patches call for each filter class. */
interface ClassCalls {
  readonly name: 'CuckooFilter' | 'ScalableCuckooFilter';
  readonly fromBytes: (bytes: Uint8Array) => PatchableFilter;
  diff(core: PatchExports): PatchExports['cuckoo_diff'];
  apply(core: PatchExports): PatchExports['cuckoo_apply_patch'];
  checksum(core: PatchExports): PatchExports['cuckoo_state_checksum'];
}

const cuckooCalls: ClassCalls = {
  name: 'CuckooFilter',
  fromBytes: (bytes) => CuckooFilter.fromBytes(bytes),
  diff: (core) => core.cuckoo_diff,
  apply: (core) => core.cuckoo_apply_patch,
  checksum: (core) => core.cuckoo_state_checksum,
};
const scalableCalls: ClassCalls = {
  name: 'ScalableCuckooFilter',
  fromBytes: (bytes) => ScalableCuckooFilter.fromBytes(bytes),
  diff: (core) => core.scalable_diff,
  apply: (core) => core.scalable_apply_patch,
  checksum: (core) => core.scalable_state_checksum,
};

function callsOf(filter: unknown, what: string): ClassCalls {
  if (filter instanceof CuckooFilter) return cuckooCalls;
  if (filter instanceof ScalableCuckooFilter) return scalableCalls;
  throw new TypeError(`${what}: filter must be a CuckooFilter or a ScalableCuckooFilter, got ${describeValue(filter)}`);
}

function checkBytes(bytes: unknown, what: string): Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${what} must be a Uint8Array, got ${describeValue(bytes)}`);
  return bytes;
}

/** 16 hexadecimal digits of the 64-bit value whose low and high words are at `at` in wasm memory. */
function hexAt(runtime: Runtime, at: number): string {
  const words = runtime.u32;
  return words[(at >>> 2) + 1]!.toString(16).padStart(8, '0') + words[at >>> 2]!.toString(16).padStart(8, '0');
}

/** The error for a status of a patch call: the patch statuses' own facts, else any status's. */
function patchError(runtime: Runtime, core: PatchExports, status: number, what: string, detail = ''): Error {
  const formatCode = runtime.text(core.patch_status_format_code(status));
  const errorCode = runtime.text(core.patch_status_error_code(status));
  if (formatCode === '' && errorCode === '') return errorForStatus(runtime, status, what);
  const message = `${what}: ${runtime.text(core.patch_status_text(status))}${detail}`;
  return formatCode !== '' ? new FormatError(formatCode as FormatErrorCode, message) : new CuckooFilterError(errorCode as CuckooFilterErrorCode, message);
}

/**
 * The checksum a filter's bytes end with, as 16 hexadecimal digits: the name
 * patches give a version of a filter. For a filter, computed without
 * serializing it; for bytes (`toBytes()` output), their last 8 bytes, read
 * as FORMAT.md's little-endian checksum, without checking them.
 * @example
 * ```ts
 * checksumOf(filter) === checksumOf(filter.toBytes()); // true
 * ```
 */
export function checksumOf(filter: PatchableFilter | Uint8Array): string {
  const what = 'checksumOf';
  if (filter instanceof Uint8Array) {
    if (filter.length < 8) throw new RangeError(`${what}: ${filter.length} bytes are not a filter's bytes (they end with an 8-byte checksum)`);
    const view = new DataView(filter.buffer, filter.byteOffset + filter.length - 8, 8);
    return view.getUint32(4, true).toString(16).padStart(8, '0') + view.getUint32(0, true).toString(16).padStart(8, '0');
  }
  const calls = callsOf(filter, what);
  const handle = filter.live(what);
  const { runtime, core } = requirePatches(what);
  calls.checksum(core)(handle, runtime.results);
  return hexAt(runtime, runtime.results);
}

/**
 * The patch that turns `older` into `newer`, two versions of one filter (the
 * same class, parameters and seed; a growable filter's table the same size).
 * `older` may be the filter or its `toBytes()`. Also `newer.diff(older)`.
 * @throws CuckooFilterError INCOMPATIBLE when they are not two versions of
 *   one filter; FormatError for bytes that are not a filter of the class.
 * @example
 * ```ts
 * const patch = diff(current, previousBytes);
 * ```
 */
export function diff<F extends PatchableFilter>(newer: F, older: F | Uint8Array): Uint8Array {
  const calls = callsOf(newer, 'diff');
  const what = `${calls.name}.diff`;
  const newerHandle = newer.live('diff');
  if (older instanceof Uint8Array) {
    const loaded = calls.fromBytes(older);
    try {
      return diffHandles(calls, what, loaded.live('diff'), newerHandle);
    } finally {
      loaded.dispose();
    }
  }
  if (callsOf(older, what) !== calls) throw new TypeError(`${what}: older must be a ${calls.name} or its bytes, got ${describeValue(older)}`);
  return diffHandles(calls, what, older.live('diff'), newerHandle);
}

function diffHandles(calls: ClassCalls, what: string, older: Handle, newer: Handle): Uint8Array {
  const { runtime, core } = requirePatches(what);
  const status = calls.diff(core)(older, newer, runtime.results);
  if (status !== runtime.statusOk) throw patchError(runtime, core, status, what);
  const [address, length] = runtime.u32.subarray(runtime.results >>> 2, (runtime.results >>> 2) + 2) as unknown as [number, number];
  try {
    return runtime.u8.slice(address, address + length);
  } finally {
    core.free(address);
  }
}

/**
 * Applies `patch` to `filter`, which then is the patch's result version,
 * byte for byte. Also `filter.applyPatch(patch)`.
 * @throws FormatError WRONG_BASE when `filter` is not the version the patch
 *   was made from (or the patch is for another filter); another FormatError
 *   code for a damaged patch. The filter is then unchanged.
 * @example
 * ```ts
 * try {
 *   applyPatch(filter, patch);
 * } catch (error) {
 *   if (error instanceof FormatError && error.code === 'WRONG_BASE') filter = CuckooFilter.fromBytes(await fetchWhole());
 * }
 * ```
 */
export function applyPatch(filter: PatchableFilter, patch: Uint8Array): void {
  const calls = callsOf(filter, 'applyPatch');
  const what = `${calls.name}.applyPatch`;
  const handle = filter.live('applyPatch');
  checkBytes(patch, `${what}: patch`);
  const { runtime, core } = requirePatches(what);
  const status = runtime.withTemporary(patch.length, what, (address) => {
    runtime.u8.set(patch, address);
    return calls.apply(core)(handle, address, patch.length);
  });
  if (status === runtime.statusOk) return;
  let detail = '';
  if (runtime.text(core.patch_status_format_code(status)) === 'WRONG_BASE') {
    const info = describePatch(patch);
    detail = ` (the patch goes from version ${info.base} of a ${info.filter} to ${info.result}; this filter is version ${checksumOf(filter)})`;
  }
  throw patchError(runtime, core, status, what, detail);
}

/**
 * What a patch's header says: the versions it goes from and to, and its
 * size. The patch's framing and checksum are checked, not its body.
 * @throws FormatError for bytes that are not a patch, or a damaged one.
 * @example
 * ```ts
 * const { base, result } = describePatch(patch); // serve it to a client at version `base`
 * ```
 */
export function describePatch(patch: Uint8Array): PatchInfo {
  const what = 'describePatch';
  checkBytes(patch, `${what}: patch`);
  const { runtime, core } = requirePatches(what);
  const status = runtime.withTemporary(patch.length, what, (address) => {
    runtime.u8.set(patch, address);
    return core.patch_describe(address, patch.length, runtime.results);
  });
  if (status !== runtime.statusOk) throw patchError(runtime, core, status, what);
  const at = runtime.results;
  const words = runtime.u32.subarray(at >>> 2, (at >>> 2) + 8);
  return Object.freeze({
    base: hexAt(runtime, at),
    result: hexAt(runtime, at + 8),
    filter: words[4] === 3 ? 'ScalableCuckooFilter' : 'CuckooFilter',
    wholeTable: words[5] === 1,
    changedSlots: words[7]! * 2 ** 32 + words[6]!,
    byteLength: patch.length,
  });
}

// The methods, on both classes' prototypes (declared above for TypeScript).
for (const Class of [CuckooFilter, ScalableCuckooFilter]) {
  Object.defineProperties(Class.prototype, {
    diff: { value: function (this: PatchableFilter, older: PatchableFilter | Uint8Array) { return diff(this, older); }, writable: true, configurable: true },
    applyPatch: { value: function (this: PatchableFilter, patch: Uint8Array) { applyPatch(this, patch); }, writable: true, configurable: true },
  });
}
