// Builds the teaching demo into build/demo/: a static folder with relative
// URLs (base './'), so it works served from any path, e.g. a project page.
// The library comes from the repository's own build in dist/ (run
// `bash scripts/build` first; scripts/build-demo does both).
import { fileURLToPath } from 'node:url';

const fromHere = (path) => fileURLToPath(new URL(path, import.meta.url));

export default {
  root: fromHere('.'),
  base: './',
  publicDir: false,
  clearScreen: false,
  logLevel: 'warn',
  resolve: {
    alias: [
      { find: /^cuckoo-wasm\/inspect$/, replacement: fromHere('../dist/esm/inspect.mjs') },
      { find: /^cuckoo-wasm\/bloom$/, replacement: fromHere('../dist/esm/bloom.mjs') },
      { find: /^cuckoo-wasm$/, replacement: fromHere('../dist/esm/index.mjs') },
    ],
  },
  // The paper's views measure in a module worker (measure-worker.ts), which imports the package's entries.
  worker: { format: 'es' },
  build: {
    outDir: fromHere('../build/demo'),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
  },
};
