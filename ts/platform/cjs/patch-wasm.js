'use strict';
// The patch module's default location, for the CommonJS build
// (ts/src/patch-module.ts requires this file; only cuckoo-wasm/patch reaches
// it). The location is the installed platform's.

exports.patchWasmUrl = function patchWasmUrl() {
  return require('./loader.js').packagedWasmUrl('cuckoo-patch.wasm');
};
