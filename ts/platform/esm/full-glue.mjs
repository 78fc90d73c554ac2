// The full module's glue and default location, for the ES module build
// (ts/src/full-module.ts imports this file; only cuckoo-wasm/inspect and
// cuckoo-wasm/bloom reach it, so only they make bundlers emit
// cuckoo-full.wasm).
import createCuckooFullModule from '../wasm/cuckoo-full.mjs';

export { createCuckooFullModule };

export function fullWasmUrl() {
  return new URL('../wasm/cuckoo-full.wasm', import.meta.url).href;
}
