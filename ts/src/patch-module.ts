// The patch module (cuckoo-patch.wasm): the lean module's exports plus
// patches (bindings/patch_exports.cpp), standalone as the lean one is, so
// that a page applying patches fetches a few KB more than the main entry's
// module rather than the full one. Importing this file, as cuckoo-wasm/patch
// does, makes init() load it (the full module, which has the same exports,
// when cuckoo-wasm/inspect, /bloom or /redis is imported too).

import type { Address, CoreExports, Handle } from './core-exports.js';
import { CuckooFilterError } from './errors.js';
import { instantiateLean } from './lean-module.js';
import { needModule, requireRuntime } from './loader.js';
import { patchWasmUrl } from './patch-wasm.js';
import type { Runtime } from './runtime.js';

/** The exports of patches, in the patch module and the full one. */
export interface PatchExports extends CoreExports {
  /** A status; the new patch's address and length in the two words at `out` (the caller frees the address). */
  cuckoo_diff(older: Handle, newer: Handle, out: Address): number;
  scalable_diff(older: Handle, newer: Handle, out: Address): number;
  cuckoo_apply_patch(handle: Handle, patch: Address, length: number): number;
  scalable_apply_patch(handle: Handle, patch: Address, length: number): number;
  /** A status; eight words at `out`: base and result checksums (low, high), format, whole table, changed slots (low, high). */
  patch_describe(patch: Address, length: number, out: Address): number;
  cuckoo_state_checksum(handle: Handle, out: Address): void;
  scalable_state_checksum(handle: Handle, out: Address): void;
  patch_status_text(status: number): Address;
  patch_status_format_code(status: number): Address;
  patch_status_error_code(status: number): Address;
}

needModule({
  kind: 'patch',
  file: 'cuckoo-patch.wasm',
  entries: 'cuckoo-wasm/patch',
  defaultUrl: patchWasmUrl,
  // The loader took it for a lean module (it is one, with more exports): the patches must be there.
  // (Asked of the instance by a property, which the package's short export names rename with it.)
  instantiate: async (module) => {
    const runtime = await instantiateLean(module, 'patch');
    if (typeof (runtime.core as PatchExports).cuckoo_apply_patch !== 'function') {
      throw new Error('this program imports cuckoo-wasm/patch, which needs cuckoo-patch.wasm; the module given is cuckoo.wasm');
    }
    return runtime;
  },
});

/** The runtime and its patch exports; throws a CuckooFilterError naming `caller` when no module with patches is loaded. */
export function requirePatches(caller: string): { runtime: Runtime; core: PatchExports } {
  const runtime = requireRuntime(caller);
  if (runtime.kind === 'lean') {
    throw new CuckooFilterError(
      'NOT_INITIALIZED',
      `${caller}: patches need the patch module, which \`await init()\` loads once cuckoo-wasm/patch is imported; ` +
        "it was imported after init() loaded the main entry's module: call `await init()` again (your filters move to it)",
    );
  }
  return { runtime, core: runtime.core as PatchExports };
}
