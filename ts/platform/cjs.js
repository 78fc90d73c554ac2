'use strict';
// Platform shim of the CommonJS build (copied to dist/cjs/platform.js).
const path = require('node:path');
const { pathToFileURL } = require('node:url');

exports.createCuckooModule = require('../wasm/cuckoo.cjs');

exports.defaultWasmUrl = function defaultWasmUrl() {
  return pathToFileURL(path.join(__dirname, '..', 'wasm', 'cuckoo.wasm')).href;
};

exports.readLocalFile = function readLocalFile(location) {
  const { readFile } = require('node:fs/promises');
  return readFile(location.startsWith('file:') ? new URL(location) : location);
};
