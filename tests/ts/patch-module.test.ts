// The patch module (cuckoo-patch.wasm), which init() loads once
// cuckoo-wasm/patch is imported: the lean module's exports and patches. Jest
// gives each test file its own module registry, so here the main entry loads
// first, alone, and cuckoo-wasm/patch is imported later, as a page that
// loads it on demand would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter, CuckooFilterError, init } from 'cuckoo-wasm';
import { thrownBy } from '../support/thrown';

const wasmFolder = join(__dirname, '..', '..', 'dist', 'wasm');

test('imported after the lean module loaded, cuckoo-wasm/patch asks for init() again, which moves the filters', async () => {
  await init();
  using filter = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 9 });
  filter.addMany(['a', 'b']);
  using newer = filter.clone();
  newer.add('c');
  const patchEntry = await import('cuckoo-wasm/patch');
  const early = thrownBy(() => patchEntry.diff(newer, filter));
  expect(early).toBeInstanceOf(CuckooFilterError);
  expect(early.code).toBe('NOT_INITIALIZED');
  expect(early.message).toMatch(/^CuckooFilter\.diff: patches need the patch module, which `await init\(\)` loads once cuckoo-wasm\/patch is imported/);
  // The lean module is not the one it needs.
  await expect(init({ wasmBinary: readFileSync(join(wasmFolder, 'cuckoo.wasm')) })).rejects.toThrow(
    /this program imports cuckoo-wasm\/patch, which needs cuckoo-patch\.wasm; the module given is cuckoo\.wasm/,
  );
  const seen: string[] = [];
  await init({ locateFile: (file) => (seen.push(file), join(wasmFolder, file)) });
  expect(seen).toEqual(['cuckoo-patch.wasm']);
  // The filters moved with their contents, and patches work on them.
  const patch = patchEntry.diff(newer, filter);
  patchEntry.applyPatch(filter, patch);
  expect(filter.has('c')).toBe(true);
  expect(filter.toBytes()).toEqual(newer.toBytes());
});
