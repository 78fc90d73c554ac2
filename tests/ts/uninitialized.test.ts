// Jest gives each test file its own module registry, so here the wasm module
// starts unloaded. This file imports the main entry alone, so init() loads
// the lean module, cuckoo.wasm (uninitialized-full.test.ts: the full one).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter, CuckooFilterError, init, isInitialized, ScalableCuckooFilter } from 'cuckoo-wasm';
import { thrownBy } from '../support/thrown';

const wasmFolder = join(__dirname, '..', '..', 'dist', 'wasm');
const wasmPath = join(wasmFolder, 'cuckoo.wasm');

test('every entry point before init() throws NOT_INITIALIZED with what to do', () => {
  expect(isInitialized()).toBe(false);
  const calls: Array<[string, () => unknown]> = [
    ['new CuckooFilter', () => new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8 })],
    ['CuckooFilter.create', () => CuckooFilter.create({ capacity: 10, fpr: 0.01 })],
    ['CuckooFilter.fromBytes', () => CuckooFilter.fromBytes(new Uint8Array(10))],
    ['new ScalableCuckooFilter', () => new ScalableCuckooFilter({ initialCapacity: 10, fpr: 0.01 })],
    ['ScalableCuckooFilter.create', () => ScalableCuckooFilter.create({ initialCapacity: 10, fpr: 0.01 })],
    ['ScalableCuckooFilter.fromBytes', () => ScalableCuckooFilter.fromBytes(new Uint8Array(10))],
  ];
  for (const [name, call] of calls) {
    const caught = thrownBy(call);
    expect(caught).toBeInstanceOf(CuckooFilterError);
    expect(caught.code).toBe('NOT_INITIALIZED');
    expect(caught.message).toBe(
      `${name}: cuckoo-wasm is not initialized; call \`await init()\` once before using it`,
    );
  }
});

test('bad init options are rejected with a TypeError', async () => {
  await expect(init(42 as never)).rejects.toThrow(/init: options must be an object/);
  await expect(init({ wasmBinary: 'bytes' as never })).rejects.toThrow(/wasmBinary must be an ArrayBuffer or a Uint8Array/);
  await expect(init({ wasmModule: new Uint8Array(8) as never })).rejects.toThrow(/wasmModule must be a WebAssembly.Module/);
  await expect(init({ locateFile: '/x.wasm' as never })).rejects.toThrow(/locateFile must be a function/);
  expect(isInitialized()).toBe(false);
});

test('a failed load rejects with LOAD_FAILED, naming what went wrong, and a later init() can succeed', async () => {
  const failed = init({ locateFile: (file) => `/nonexistent/folder/${file}` });
  await expect(failed).rejects.toMatchObject({ name: 'CuckooFilterError', code: 'LOAD_FAILED' });
  await expect(failed).rejects.toThrow(/\/nonexistent\/folder\/cuckoo\.wasm/);
  expect(isInitialized()).toBe(false);
  const corrupt = init({ wasmBinary: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]) });
  await expect(corrupt).rejects.toMatchObject({ code: 'LOAD_FAILED' });
  // The full module is not what a program of the main entry alone loads.
  const other = init({ wasmBinary: readFileSync(join(wasmFolder, 'cuckoo-full.wasm')) });
  await expect(other).rejects.toThrow(/this program needs cuckoo\.wasm; the module given is cuckoo-full\.wasm/);
  expect(isInitialized()).toBe(false);

  // locateFile receives the file name and the default folder.
  const seen: string[] = [];
  await init({
    locateFile: (file, folder) => {
      seen.push(file, folder);
      return wasmPath;
    },
  });
  expect(seen[0]).toBe('cuckoo.wasm');
  expect(seen[1]).toMatch(/^file:.*\/dist\/wasm\/$/);
  expect(isInitialized()).toBe(true);
  await init(); // idempotent
  using filter = CuckooFilter.create({ capacity: 10, fpr: 0.01 });
  expect(filter.add('ok')).toBe(true);
});

test('init accepts the module bytes and a compiled module', async () => {
  // Already initialized above: a second init() resolves without reloading.
  await expect(init({ wasmBinary: readFileSync(wasmPath) })).resolves.toBeUndefined();
  await expect(init({ wasmModule: await WebAssembly.compile(readFileSync(wasmPath)) })).resolves.toBeUndefined();
});
