// What a browser downloads for a program using each entry, bundled by esbuild
// (minified, for the browser) and by Vite: each page is run in Chromium, and
// every file it requested (the HTML page aside, which is the app's) is
// measured as gzip -9 would send it. The main entry has a budget of 30 KiB
// with either bundler; /patch, /inspect and /bloom are printed for the README.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../e2e/support/browser';
import { copyWasmBeside, esbuild, vite, writePage } from './support/bundles';
import { besideTheBundle, newApp } from './support/consumer';
import { runPage } from './support/pages';
import { reportAtEnd } from './support/report';

const report = reportAtEnd('Bytes a browser fetches, gzip -9 (no file name in the header, as a server sends it)');
const budget = 30 * 1024;

// Each program imports what its entry's users import and shows that it works.
const programs = {
  main: {
    imports: "import { init, CuckooFilter } from 'cuckoo-wasm';",
    use: `const filter = CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  filter.add('a');
  return [filter.has('a'), filter.size];`,
  },
  patch: {
    imports: "import { init, CuckooFilter } from 'cuckoo-wasm';\nimport { checksumOf } from 'cuckoo-wasm/patch';",
    use: `const filter = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 1 });
  const newer = filter.clone();
  newer.add('a');
  filter.applyPatch(newer.diff(filter));
  return [filter.has('a') && checksumOf(filter) === checksumOf(newer), filter.size];`,
  },
  inspect: {
    imports: "import { init, CuckooFilter } from 'cuckoo-wasm';\nimport { traceAdd } from 'cuckoo-wasm/inspect';",
    use: `const filter = CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  return [traceAdd(filter, 'a').added && filter.has('a'), filter.size];`,
  },
  bloom: {
    imports: "import { init } from 'cuckoo-wasm';\nimport { BloomFilter } from 'cuckoo-wasm/bloom';",
    use: `const filter = BloomFilter.create({ capacity: 1000, fpr: 0.01 });
  filter.add('a');
  return [filter.has('a'), filter.size];`,
  },
};
type EntryName = keyof typeof programs;

function programSource(entry: EntryName, initOptions: string): string {
  const { imports, use } = programs[entry];
  return `${imports}
async function run() {
  await init(${initOptions});
  ${use}
}
run().then((answers) => { globalThis.__result = answers; }, (error) => { globalThis.__error = String((error && error.stack) || error); });
`;
}

/** Bytes of `file` compressed by gzip -9 -n (the name would add bytes a server does not send). */
function gzipped(file: string): number {
  return execFileSync('gzip', ['-9', '-n', '-c'], { input: readFileSync(file), maxBuffer: 16 * 1024 * 1024 }).length;
}

interface Download {
  javascript: number;
  wasm: number;
  total: number;
  files: string[];
}

/** Runs the page in `dir` and measures what it fetched; the program must have answered [true, 1]. */
async function measurePage(dir: string, wasmModule: string): Promise<Download> {
  const run = await runPage(browser, dir);
  expect(run.answers).toEqual([true, 1]);
  expect(run.badRequests).toEqual([]);
  expect(run.errors).toEqual([]);
  expect(run.modules).toEqual([wasmModule]);
  const fetched = run.fetched.filter((path) => path !== '/' && !path.endsWith('.html'));
  const sizes = fetched.map((path) => ({ path, bytes: gzipped(join(dir, path)), wasm: path.endsWith('.wasm') }));
  expect(sizes.every(({ path }) => path.endsWith('.js') || path.endsWith('.wasm'))).toBe(true);
  const javascript = sizes.filter((file) => !file.wasm).reduce((sum, file) => sum + file.bytes, 0);
  const wasm = sizes.filter((file) => file.wasm).reduce((sum, file) => sum + file.bytes, 0);
  return { javascript, wasm, total: javascript + wasm, files: sizes.map(({ path, bytes }) => `${path} ${bytes}`) };
}

let browser: Browser;
let appDir: string;
beforeAll(async () => {
  appDir = newApp('size');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

function record(name: string, download: Download): void {
  report(`${name}: ${download.javascript} B JavaScript + ${download.wasm} B wasm = ${download.total} B (${download.files.join(', ')})`);
}

const moduleOf = (entry: EntryName) => (entry === 'main' ? 'cuckoo.wasm' : entry === 'patch' ? 'cuckoo-patch.wasm' : 'cuckoo-full.wasm');

async function esbuildDownload(entry: EntryName): Promise<Download> {
  const file = `size-${entry}.mjs`;
  writeFileSync(join(appDir, file), programSource(entry, besideTheBundle));
  const out = join(appDir, `esbuild-${entry}`);
  await esbuild(appDir, [file], out);
  copyWasmBeside(out);
  writePage(out, `./size-${entry}.js`);
  const download = await measurePage(out, moduleOf(entry));
  record(`esbuild, cuckoo-wasm${entry === 'main' ? '' : `/${entry}`}`, download);
  return download;
}

async function viteDownload(entry: EntryName): Promise<Download> {
  const app = newApp(`size-vite-${entry}`);
  writeFileSync(join(app, 'main.mjs'), programSource(entry, ''));
  writePage(app, './main.mjs');
  await vite(app);
  const download = await measurePage(join(app, 'dist'), moduleOf(entry));
  record(`Vite, cuckoo-wasm${entry === 'main' ? '' : `/${entry}`}`, download);
  return download;
}

test(`import { init, CuckooFilter } from 'cuckoo-wasm' bundled by esbuild (--minify): at most ${budget} bytes gzipped`, async () => {
  const download = await esbuildDownload('main');
  expect(download.total).toBeLessThanOrEqual(budget);
});

test(`the same program built by Vite: at most ${budget} bytes gzipped`, async () => {
  const download = await viteDownload('main');
  expect(download.total).toBeLessThanOrEqual(budget);
});

// No budget: the figures are for the README. What they fetch is checked all the same.
test.each(['patch', 'inspect', 'bloom'] as const)('cuckoo-wasm/%s by esbuild and by Vite (printed)', async (entry) => {
  await esbuildDownload(entry);
  await viteDownload(entry);
});
