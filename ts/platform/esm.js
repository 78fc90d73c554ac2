// Platform shim of the ES module build (copied to dist/esm/platform.js).
// The literal `new URL('…', import.meta.url)` lets bundlers (Vite, webpack,
// Rollup) see the .wasm and emit it as an asset.
import createCuckooModule from '../wasm/cuckoo.mjs';

export { createCuckooModule };

export function defaultWasmUrl() {
  return new URL('../wasm/cuckoo.wasm', import.meta.url).href;
}

export async function readLocalFile(location) {
  const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:fs/promises');
  return readFile(location.startsWith('file:') ? new URL(location) : location);
}
