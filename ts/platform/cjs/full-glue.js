'use strict';
// The full module's glue and default location, for the CommonJS build
// (ts/src/full-module.ts requires this file; only cuckoo-wasm/inspect and
// cuckoo-wasm/bloom reach it). The location is the installed platform's.

exports.createCuckooFullModule = require('../wasm/cuckoo-full.cjs');

exports.fullWasmUrl = function fullWasmUrl() {
  return require('./loader.js').packagedWasmUrl('cuckoo-full.wasm');
};
