// '#platform' of the ES module build under the `node` condition (Node, Bun,
// Deno): the packaged .wasm is read from the file system.
import { readFile } from 'node:fs/promises';

export function leanWasmUrl() {
  return new URL('../wasm/cuckoo.wasm', import.meta.url).href;
}

export async function loadBinary(location) {
  if (/^https?:/.test(location)) {
    const response = await fetch(location);
    if (!response.ok) throw new Error(`fetching ${location} answered ${response.status} ${response.statusText}`);
    return response.arrayBuffer();
  }
  return readFile(location.startsWith('file:') ? new URL(location) : location);
}
