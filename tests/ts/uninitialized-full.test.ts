// The full module (cuckoo-full.wasm), which init() loads once
// cuckoo-wasm/inspect or cuckoo-wasm/bloom is imported. Jest gives each test
// file its own module registry, so here nothing is loaded yet.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter, CuckooFilterError, init, isInitialized } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';
import { thrownBy } from '../support/thrown';

const wasmFolder = join(__dirname, '..', '..', 'dist', 'wasm');

test('the Bloom filters before init() throw NOT_INITIALIZED with what to do', () => {
  expect(isInitialized()).toBe(false);
  for (const [name, call] of [
    ['new BloomFilter', () => new BloomFilter({ bitCount: 64, hashCount: 3 })],
    ['BloomFilter.create', () => BloomFilter.create({ capacity: 10, fpr: 0.01 })],
  ] as const) {
    const caught = thrownBy(call);
    expect(caught).toBeInstanceOf(CuckooFilterError);
    expect(caught.code).toBe('NOT_INITIALIZED');
    expect(caught.message).toBe(`${name}: cuckoo-wasm is not initialized; call \`await init()\` once before using it`);
  }
});

test('a program importing cuckoo-wasm/bloom loads cuckoo-full.wasm, and refuses the lean module', async () => {
  const lean = init({ wasmBinary: readFileSync(join(wasmFolder, 'cuckoo.wasm')) });
  await expect(lean).rejects.toMatchObject({ code: 'LOAD_FAILED' });
  await expect(lean).rejects.toThrow(
    /this program imports cuckoo-wasm\/inspect, \/bloom or \/redis, which need cuckoo-full\.wasm; the module given is cuckoo\.wasm/,
  );
  const seen: string[] = [];
  await init({
    locateFile: (file, folder) => {
      seen.push(file, folder);
      return join(wasmFolder, file);
    },
  });
  expect(seen[0]).toBe('cuckoo-full.wasm');
  expect(seen[1]).toMatch(/^file:.*\/dist\/wasm\/$/);
  using bloom = BloomFilter.create({ capacity: 100, fpr: 0.01 });
  using filter = CuckooFilter.create({ capacity: 100, fpr: 0.01 });
  expect(bloom.add('x') && filter.add('x')).toBe(true);
});
