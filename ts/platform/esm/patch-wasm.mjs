// The patch module's default location, for the ES module build
// (ts/src/patch-module.ts imports this file; only cuckoo-wasm/patch reaches
// it, so only it makes bundlers emit cuckoo-patch.wasm).

export function patchWasmUrl() {
  return new URL('../wasm/cuckoo-patch.wasm', import.meta.url).href;
}
