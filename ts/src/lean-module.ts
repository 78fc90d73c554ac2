// The lean module (cuckoo.wasm): a standalone wasm with no JavaScript glue,
// instantiated here with the two imports it has; the patch module
// (cuckoo-patch.wasm) is the same with patches, and is instantiated alike.

import type { CoreExports } from './core-exports.js';
import { Runtime, type ModuleKind } from './runtime.js';

export const LEAN_WASM_FILE = 'cuckoo.wasm';

interface LeanExports extends CoreExports {
  /** Runs the core's static constructors, once, before any other call. */
  _initialize(): void;
}

export async function instantiateLean(module: WebAssembly.Module, kind: ModuleKind = 'lean'): Promise<Runtime> {
  const imports = {
    // The runtime notices growth itself (its views are detached): see runtime.ts.
    env: { emscripten_notify_memory_growth: () => undefined },
    wasi_snapshot_preview1: {
      proc_exit: (code: number) => {
        throw new Error(`cuckoo-wasm: the WebAssembly module stopped (exit code ${code})`);
      },
    },
  };
  const instance = await WebAssembly.instantiate(module, imports);
  const core = instance.exports as unknown as LeanExports;
  core._initialize();
  return new Runtime(kind, core, undefined);
}
