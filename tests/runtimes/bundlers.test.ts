// Production browser bundles of the installed package by esbuild, Vite,
// webpack and Rollup, each served on 127.0.0.1 and run in headless Chromium,
// the page reporting exercise.mjs's answers; the full module (inspect and
// bloom) through webpack; and a module Web Worker.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../e2e/support/browser';
import { besideTheBundle, newApp, pageProgram, programsByEntry, workerProgram, allEntries } from './support/consumer';
import { copyWasmBeside, esbuild, filesUnder, vite, webpackOrRollup, writePage } from './support/bundles';
import { expectedAnswers } from './support/expected';
import { runPage, type PageRun } from './support/pages';
import { reportAtEnd } from './support/report';

const report = reportAtEnd('Browser bundles in Chromium');

let browser: Browser;
let appDir: string;
beforeAll(async () => {
  appDir = newApp('bundlers');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A program file in the app folder. */
function writeProgram(file: string, source: string): void {
  writeFileSync(join(appDir, file), source);
}

/** The page ran the program without a failed request, a console error or an uncaught error, loading `modules`. */
function expectClean(run: PageRun, modules: string[]): void {
  expect(run.modules).toEqual(modules);
  expect(run.badRequests).toEqual([]);
  expect(run.errors).toEqual([]);
}

test('esbuild --bundle --minify --format=esm --platform=browser, the .wasm beside the bundle and locateFile', async () => {
  writeProgram('esbuild-main.mjs', pageProgram(programsByEntry.main, besideTheBundle));
  const out = join(appDir, 'esbuild-out');
  const build = await esbuild(appDir, ['esbuild-main.mjs'], out);
  copyWasmBeside(out);
  writePage(out, './esbuild-main.js');
  const run = await runPage(browser, out);
  report(`esbuild: build ${build.ms} ms, page ${run.ms} ms`);
  expect(run.answers).toEqual(expectedAnswers(programsByEntry.main));
  expectClean(run, ['cuckoo.wasm']);
});

test('Vite (vite build, no configuration): the .wasm emitted as an asset and found with no options', async () => {
  // A folder of its own: Vite builds the whole app folder from its index.html.
  const app = newApp('bundlers-vite');
  writeFileSync(join(app, 'main.mjs'), pageProgram(programsByEntry.main));
  writePage(app, './main.mjs');
  const build = await vite(app);
  const dist = join(app, 'dist');
  expect(filesUnder(dist).filter((file) => file.endsWith('.wasm'))).toEqual([expect.stringMatching(/^assets\/cuckoo-[\w-]+\.wasm$/)]);
  const run = await runPage(browser, dist);
  report(`Vite: build ${build.ms} ms, page ${run.ms} ms`);
  expect(run.answers).toEqual(expectedAnswers(programsByEntry.main));
  expectClean(run, ['cuckoo.wasm']);
});

test('webpack (mode production, target web): the .wasm emitted as an asset and found with no options', async () => {
  writeProgram('webpack-main.mjs', pageProgram(programsByEntry.main));
  const out = join(appDir, 'webpack-out');
  const build = await webpackOrRollup('webpack', appDir, 'webpack-main.mjs', out);
  // Only the lean module: nothing in the main entry reaches the full one.
  expect(JSON.parse(build.stdout).filter((file: string) => file.endsWith('.wasm'))).toHaveLength(1);
  // webpack's output is a classic script (its automatic publicPath reads document.currentScript).
  writePage(out, './app.js', 'classic');
  const run = await runPage(browser, out);
  report(`webpack: build ${build.ms} ms, page ${run.ms} ms`);
  expect(run.answers).toEqual(expectedAnswers(programsByEntry.main));
  expectClean(run, ['cuckoo.wasm']);
});

test('Rollup (node-resolve with browser: true, terser), the .wasm beside the bundle and locateFile', async () => {
  writeProgram('rollup-main.mjs', pageProgram(programsByEntry.main, besideTheBundle));
  const out = join(appDir, 'rollup-out');
  const build = await webpackOrRollup('rollup', appDir, 'rollup-main.mjs', out);
  // Rollup has no asset handling of its own for new URL(…, import.meta.url): it emits no .wasm.
  expect(JSON.parse(build.stdout)).toEqual(['app.js']);
  copyWasmBeside(out);
  writePage(out, './app.js');
  const run = await runPage(browser, out);
  report(`Rollup: build ${build.ms} ms, page ${run.ms} ms`);
  expect(run.answers).toEqual(expectedAnswers(programsByEntry.main));
  expectClean(run, ['cuckoo.wasm']);
});

test('the full module through webpack: cuckoo-wasm/inspect and cuckoo-wasm/bloom with the main entry', async () => {
  writeProgram('webpack-full.mjs', pageProgram(allEntries));
  const out = join(appDir, 'webpack-full-out');
  const build = await webpackOrRollup('webpack', appDir, 'webpack-full.mjs', out);
  writePage(out, './app.js', 'classic');
  const run = await runPage(browser, out);
  report(`webpack, every entry: build ${build.ms} ms, page ${run.ms} ms`);
  expect(run.answers).toEqual(expectedAnswers(allEntries));
  expectClean(run, ['cuckoo-full.wasm']);
});

test('a module Web Worker (bundled by esbuild) imports every entry, inits and answers the page', async () => {
  writeProgram('worker.mjs', workerProgram(allEntries, besideTheBundle, 'postMessage'));
  // The page does not import the package: the answers can only come from the worker.
  writeProgram(
    'worker-page.mjs',
    `const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
worker.onmessage = ({ data }) => {
  if (data.error !== undefined) globalThis.__error = data.error;
  else globalThis.__result = data.answers;
};
worker.onerror = (event) => { globalThis.__error = event.message || 'the worker failed to load'; };
`,
  );
  const out = join(appDir, 'worker-out');
  const build = await esbuild(appDir, ['worker-page.mjs', 'worker.mjs'], out);
  copyWasmBeside(out);
  writePage(out, './worker-page.js');
  const run = await runPage(browser, out);
  report(`Web Worker: build ${build.ms} ms, page ${run.ms} ms`);
  expect(run.answers).toEqual(expectedAnswers(allEntries));
  expectClean(run, ['cuckoo-full.wasm']);
});
