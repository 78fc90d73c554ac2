// The web platform of the ES module build (ts/src/loader.ts's default): for
// browsers, workers and every runtime that is not Node. The literal
// `new URL('…', import.meta.url)` lets bundlers (Vite, webpack, Rollup) see
// the lean module and emit it as an asset.

export function leanWasmUrl() {
  return new URL('../wasm/cuckoo.wasm', import.meta.url).href;
}

// (Not `new URL(<template>, import.meta.url)`, which Vite reads as "every
// file of ../wasm/" and copies them all into a build.)
export function packagedWasmUrl(file) {
  const here = import.meta.url;
  return new URL(`../wasm/${file}`, here).href;
}

export async function loadBinary(location) {
  const response = await fetch(location);
  if (!response.ok) throw new Error(`fetching ${location} answered ${response.status} ${response.statusText}`);
  return response.arrayBuffer();
}

// A seed nobody can guess (filters made without one: ts/src/validate.ts).
export function randomWords(count) {
  return crypto.getRandomValues(new Uint32Array(count));
}
