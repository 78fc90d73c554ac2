// The package as users get it: `npm pack`, installed into an empty project,
// used through import and require, type-checked through its exports map, and
// within its download budget.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { packAndInstall, repoRoot, type InstalledPackage } from '../support/pack';

let installed: InstalledPackage;
beforeAll(() => {
  installed = packAndInstall();
});
afterAll(() => installed?.remove());

const publicNames = ['CuckooFilter', 'CuckooFilterError', 'FormatError', 'ScalableCuckooFilter', 'init', 'isInitialized'];

// The same script for both module systems: it checks what the entry exports
// and uses it, printing a JSON summary.
const usage = `
  const names = Object.keys(api).filter((k) => k !== 'default' && k !== '__esModule').sort();
  await api.init();
  const filter = api.CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 5 });
  filter.addMany(['a', 'b', 'c']);
  const copy = api.CuckooFilter.fromBytes(filter.toBytes());
  let formatError = null;
  try { api.CuckooFilter.fromBytes(new Uint8Array(3)); } catch (e) { formatError = [e instanceof api.FormatError, e instanceof api.CuckooFilterError, e.code]; }
  const trace = inspect.traceAdd(filter, 'd');
  const m = filter.params.bucketCount;
  const reflected = trace.i2 === (trace.fingerprintHashMod - trace.i1 + m) % m;
  const inspected = { hashId: trace.hashId, reflected, added: trace.added, slots: inspect.buckets(filter).slots.length };
  const grown = api.ScalableCuckooFilter.create({ initialCapacity: 10, fpr: 0.01 });
  const scalable = { added: grown.addMany(new Uint32Array(5000).map((_, i) => i)), grew: grown.bucketCount > 3,
    kept: api.ScalableCuckooFilter.fromBytes(grown.toBytes()).hasMany(new Uint32Array([0, 4999])).join() };
  const bloomFilter = bloom.BloomFilter.create({ capacity: 100, fpr: 0.01 });
  bloomFilter.add('x');
  const bloomed = { has: [bloomFilter.has('x'), bloomFilter.has('not added')], names: Object.keys(bloom).filter((k) => k !== 'default' && k !== '__esModule') };
  console.log(JSON.stringify({ names, has: [copy.has('a'), copy.has('b'), copy.has('zzz')], size: copy.size,
    params: { ...filter.params, seed: String(filter.params.seed) }, formatError, inspected, scalable, bloomed }));
  filter.dispose(); copy.dispose(); grown.dispose();
`;

function runNode(file: string): {
  names: string[];
  has: boolean[];
  size: number;
  params: object;
  formatError: unknown[];
  inspected: object;
  scalable: object;
  bloomed: object;
} {
  return JSON.parse(execFileSync(process.execPath, [file], { cwd: installed.consumerDir, encoding: 'utf8' }));
}

const expected = {
  names: publicNames,
  has: [true, true, false],
  size: 3,
  // fpr 0.01 -> b = 4, f = 10; 269 buckets hold 1000 (the worked example of cli.test.ts).
  params: { bucketCount: 269, bucketSize: 4, fingerprintBits: 10, maxKicks: 500, seed: '5', semiSort: false, keyedHash: false, multiplyShiftHash: false },
  formatError: [true, true, 'BAD_MAGIC'],
  // 269 is not a power of two: hash id 2, i2 = (c - i1) mod m.
  inspected: { hashId: 2, reflected: true, added: true, slots: 1076 },
  scalable: { added: 5000, grew: true, kept: '1,1' },
  bloomed: { has: [true, false], names: ['BloomFilter'] },
};

test('import works in an ES module', () => {
  const file = join(installed.consumerDir, 'use.mjs');
  writeFileSync(file, `import * as api from 'cuckoo-wasm';\nimport * as inspect from 'cuckoo-wasm/inspect';\nimport * as bloom from 'cuckoo-wasm/bloom';\n${usage}`);
  expect(runNode(file)).toEqual(expected);
});

test('require works in CommonJS', () => {
  const file = join(installed.consumerDir, 'use.cjs');
  writeFileSync(file, `const api = require('cuckoo-wasm');\nconst inspect = require('cuckoo-wasm/inspect');\nconst bloom = require('cuckoo-wasm/bloom');\n(async () => {${usage}})();`);
  expect(runNode(file)).toEqual(expected);
});

test('the types resolve for ESM and CommonJS consumers (moduleResolution nodenext)', () => {
  const consumer = installed.consumerDir;
  const source = `
    const filter: CuckooFilter = CuckooFilter.create({ capacity: 10, fpr: 0.01 });
    const added: boolean = filter.add('x');
    const answers: Uint8Array = filter.hasMany(new Uint32Array([1, 2]));
    const bytes: Uint8Array = filter.toBytes();
    const seed: bigint = filter.params.seed;
    const code: FormatErrorCode | undefined = undefined;
    // @ts-expect-error a boolean is not an item
    filter.add(true);
    // @ts-expect-error bucketSize must be 1, 2, 4 or 8
    new CuckooFilter({ bucketCount: 16, bucketSize: 3, fingerprintBits: 8 });
    const trace: InsertTrace = traceAdd(filter, 'y');
    // Defaults, and a filter's facts: each getter's type, the seed as a string.
    using defaulted = CuckooFilter.create({ capacity: 10 });
    using growable = new ScalableCuckooFilter();
    const facts = defaulted.toJSON();
    const described: [number, string, string] = 'disposed' in facts ? [0, '', ''] : [facts.size, facts.params.seed, String(growable)];
    // @ts-expect-error a fact is not a method
    facts.toBytes;
    export { added, answers, bytes, seed, code, trace, described };
  `;
  const inspectImport = `import { traceAdd, type InsertTrace } from 'cuckoo-wasm/inspect';\n`;
  writeFileSync(join(consumer, 'types.mts'), `import { init, CuckooFilter, ScalableCuckooFilter, type FormatErrorCode } from 'cuckoo-wasm';\n${inspectImport}await init();\n${source}`);
  writeFileSync(join(consumer, 'types.cts'), `import { CuckooFilter, ScalableCuckooFilter, type FormatErrorCode } from 'cuckoo-wasm';\n${inspectImport}${source}`);
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, lib: ['es2022', 'esnext.disposable', 'dom'], types: [] },
      files: ['types.mts', 'types.cts'],
    }),
  );
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  expect(() => execFileSync(process.execPath, [tsc, '-p', consumer], { encoding: 'utf8', stdio: 'pipe' })).not.toThrow();
});

test('the CLI is installed as a bin', () => {
  const output = execFileSync(join(installed.consumerDir, 'node_modules', '.bin', 'cuckoo-wasm'), ['--version'], {
    encoding: 'utf8',
  });
  expect(output.trim()).toBe(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version);
});

test('the tarball holds the built package and nothing else', () => {
  const files = execFileSync('tar', ['-tzf', installed.tarball], { encoding: 'utf8' }).trim().split('\n').sort();
  for (const required of [
    'package/package.json',
    'package/README.md',
    'package/FORMAT.md',
    'package/dist/wasm/cuckoo.wasm',
    'package/dist/wasm/cuckoo-patch.wasm',
    'package/dist/wasm/cuckoo-full.wasm',
    'package/dist/wasm/cuckoo-full.mjs',
    'package/dist/wasm/cuckoo-full.cjs',
    'package/dist/esm/index.mjs',
    'package/dist/esm/index.node.mjs',
    'package/dist/esm/index.d.mts',
    'package/dist/esm/platform-web.mjs',
    'package/dist/esm/platform-node.mjs',
    'package/dist/cjs/index.js',
    'package/dist/cjs/index.node.js',
    'package/dist/cjs/index.d.ts',
    'package/dist/cjs/cli.js',
    'package/dist/esm/inspect.mjs',
    'package/dist/cjs/inspect.d.ts',
    'package/dist/esm/bloom.mjs',
    'package/dist/cjs/bloom.d.ts',
    'package/dist/esm/redis/index.mjs',
    'package/dist/cjs/redis/index.d.ts',
    'package/dist/esm/patch.mjs',
    'package/dist/esm/patch-wasm.mjs',
    'package/dist/cjs/patch.d.ts',
    'package/dist/cjs/patch-wasm.js',
    // node10 resolution of the subpaths (TypeScript's moduleResolution node10).
    'package/inspect/package.json',
    'package/bloom/package.json',
    'package/patch/package.json',
    'package/redis/package.json',
  ]) {
    expect(files).toContain(required);
  }
  const stubs = ['package/inspect/package.json', 'package/bloom/package.json', 'package/patch/package.json', 'package/redis/package.json'];
  expect(files.filter((f) => !f.startsWith('package/dist/') && !/^package\/[^/]+$/.test(f) && !stubs.includes(f))).toEqual([]);
});

// What a page with no bundler downloads for `import 'cuckoo-wasm'`: the ES
// module graph from dist/esm/index.mjs (relative imports followed) plus the
// module it loads, cuckoo.wasm. (What bundlers make of the same import has
// its own budget, with the bundlers: tests/runtimes.)
function esmGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const source = readFileSync(entry, 'utf8');
  for (const match of source.matchAll(/(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*['"](\.[^'"]+)['"]/g)) {
    esmGraph(resolve(dirname(entry), (match[1] ?? match[2])!), seen);
  }
  return seen;
}

test('a page with no bundler fetches the lean module and none of Node, the full module or the CLI', () => {
  const dist = join(installed.consumerDir, 'node_modules', 'cuckoo-wasm', 'dist');
  const files = [...esmGraph(join(dist, 'esm', 'index.mjs')), join(dist, 'wasm', 'cuckoo.wasm')];
  for (const absent of ['platform-node.mjs', 'full-module.mjs', 'full-glue.mjs', 'cuckoo-full', 'cli.js', 'inspect.mjs', 'bloom.mjs']) {
    expect(files.filter((f) => f.includes(absent))).toEqual([]);
  }
  const sizes = files.map((f) => [f.slice(dist.length + 1), gzipSync(readFileSync(f), { level: 9 }).length] as const);
  const total = sizes.reduce((sum, [, size]) => sum + size, 0);
  console.log(`no-bundler download of cuckoo-wasm, gzip -9: ${total} bytes\n${sizes.map(([f, s]) => `  ${f}: ${s}`).join('\n')}`);
  // Unminified and file by file, so above the bundled budget (30 KiB); a file that
  // has no business here would show as a jump.
  expect(total).toBeLessThanOrEqual(40 * 1024);
});
