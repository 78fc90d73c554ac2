// The Node counterpart of bench/browser/page.html: a fresh Node process that
// loads the package and the shared measurement module, and runs what its
// parent asks over IPC ({ id, method, arg } → { id, result } or { id, error }).
// A process of its own, so that its JIT state owes nothing to the main
// table's runs, as the page's owes nothing to them either.

import { init, CuckooFilter } from 'cuckoo-wasm';
import { kernelName, useGenericKernel } from 'cuckoo-wasm/inspect';
import { createWasmBench } from '../shared/wasm-bench.mjs';

await init();
const bench = createWasmBench({ CuckooFilter, kernelName, useGenericKernel, gc: globalThis.gc });
process.on('message', ({ id, method, arg }) => {
  try {
    process.send({ id, result: bench[method](arg) });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.send({ ready: true });
