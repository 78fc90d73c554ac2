'use strict';
// The web platform of the CommonJS build (ts/src/loader.ts's default): a
// bundle made from require() has no location of its own to find the .wasm
// files from, so the caller says where they are.

function packagedWasmUrl(file) {
  throw new Error(
    `cuckoo-wasm loaded through require() outside Node cannot find ${file} by itself: ` +
      'import it as an ES module, or pass init({ wasmBinary }), init({ wasmModule }) or init({ locateFile })',
  );
}

exports.packagedWasmUrl = packagedWasmUrl;

exports.leanWasmUrl = function leanWasmUrl() {
  return packagedWasmUrl('cuckoo.wasm');
};

exports.loadBinary = async function loadBinary(location) {
  const response = await fetch(location);
  if (!response.ok) throw new Error(`fetching ${location} answered ${response.status} ${response.statusText}`);
  return response.arrayBuffer();
};

// A seed nobody can guess (filters made without one: ts/src/validate.ts).
exports.randomWords = function randomWords(count) {
  return crypto.getRandomValues(new Uint32Array(count));
};
