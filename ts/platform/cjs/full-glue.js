'use strict';
// The full module's glue and default location, for the CommonJS build
// (ts/src/full-module.ts requires this file; only cuckoo-wasm/inspect and
// cuckoo-wasm/bloom reach it).
const { packagedWasmUrl } = require('#platform');

exports.createCuckooFullModule = require('../wasm/cuckoo-full.cjs');

exports.fullWasmUrl = function fullWasmUrl() {
  return packagedWasmUrl('cuckoo-full.wasm');
};
