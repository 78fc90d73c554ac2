'use strict';
// Node's platform for the CommonJS build, installed by the entries of the
// `node` condition (ts/src/use-node.ts): the packaged .wasm files are read
// from the file system; http(s) locations are fetched.
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { readFile } = require('node:fs/promises');
const { webcrypto } = require('node:crypto');

function packagedWasmUrl(file) {
  return pathToFileURL(path.join(__dirname, '..', 'wasm', file)).href;
}

exports.packagedWasmUrl = packagedWasmUrl;

exports.leanWasmUrl = function leanWasmUrl() {
  return packagedWasmUrl('cuckoo.wasm');
};

exports.loadBinary = async function loadBinary(location) {
  if (/^https?:/.test(location)) {
    const response = await fetch(location);
    if (!response.ok) throw new Error(`fetching ${location} answered ${response.status} ${response.statusText}`);
    return response.arrayBuffer();
  }
  return readFile(location.startsWith('file:') ? new URL(location) : location);
};

// A seed nobody can guess (filters made without one: ts/src/validate.ts);
// node:crypto's, since Node 18 has no global crypto.
exports.randomWords = function randomWords(count) {
  return webcrypto.getRandomValues(new Uint32Array(count));
};
