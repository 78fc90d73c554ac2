// Node's platform for the ES module build, installed by the entries of the
// `node` condition (ts/src/use-node.ts): the packaged .wasm files are read
// from the file system; http(s) locations are fetched.
import { webcrypto } from 'node:crypto';
import { readFile } from 'node:fs/promises';

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
  if (/^https?:/.test(location)) {
    const response = await fetch(location);
    if (!response.ok) throw new Error(`fetching ${location} answered ${response.status} ${response.statusText}`);
    return response.arrayBuffer();
  }
  return readFile(location.startsWith('file:') ? new URL(location) : location);
}

// A seed nobody can guess (filters made without one: ts/src/validate.ts);
// node:crypto's, since Node 18 has no global crypto.
export function randomWords(count) {
  return webcrypto.getRandomValues(new Uint32Array(count));
}
