// '#platform' of the ES module build, for browsers, workers and every runtime
// that is not Node (the package.json's "imports" maps it). The literal
// `new URL('…', import.meta.url)` lets bundlers (Vite, webpack, Rollup) see
// the .wasm and emit it as an asset.

export function leanWasmUrl() {
  return new URL('../wasm/cuckoo.wasm', import.meta.url).href;
}

export async function loadBinary(location) {
  const response = await fetch(location);
  if (!response.ok) throw new Error(`fetching ${location} answered ${response.status} ${response.statusText}`);
  return response.arrayBuffer();
}
