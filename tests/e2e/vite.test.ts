// The package as a Vite user gets it: `npm pack`ed, installed into an empty
// project, imported as 'cuckoo-wasm' from a minimal app, bundled by
// `vite build` (Vite from this repository's node_modules; 'cuckoo-wasm'
// resolves from the consumer's node_modules), served under a sub-path and
// run in Chromium. Also the dev server, which pre-bundles the package.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { packAndInstall, repoRoot, type InstalledPackage } from '../support/pack';
import { launchChromium, pageErrors, waitForResult } from './support/browser';
import { startStaticServer, type StaticServer } from './support/server';

const viteBin = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
const subPath = '/some/sub/path/';

// The same check in every app; `setup` is how the app calls init().
function mainJs(imports: string, setup: string): string {
  return `import { init, CuckooFilter, FormatError } from 'cuckoo-wasm';
${imports}
async function run() {
  ${setup}
  const filter = CuckooFilter.create({ capacity: 5000, fpr: 0.001, seed: 3 });
  const strings = Array.from({ length: 1000 }, (_, i) => 'key-' + i);
  const added = filter.addMany(strings) + filter.addMany(Uint32Array.from({ length: 1000 }, (_, i) => i));
  const present = filter.hasMany(strings).reduce((a, b) => a + b, 0) + filter.hasMany(Uint32Array.from({ length: 1000 }, (_, i) => i)).reduce((a, b) => a + b, 0);
  const copy = CuckooFilter.fromBytes(filter.toBytes());
  const copySize = copy.size;
  const deleted = copy.delete('key-1');
  let formatError = null;
  try { CuckooFilter.fromBytes(new Uint8Array(10)); } catch (e) { formatError = e instanceof FormatError ? e.code : String(e); }
  const result = { added, present, copySize, deleted, sizeAfterDelete: copy.size, formatError };
  filter.dispose(); copy.dispose();
  return result;
}
run().then((result) => { window.__result = result; document.body.textContent = JSON.stringify(result); },
  (error) => { window.__error = error && error.stack ? error.stack : String(error); });
`;
}
const expected = { added: 2000, present: 2000, copySize: 2000, deleted: true, sizeAfterDelete: 1999, formatError: 'BAD_MAGIC' };

const indexHtml = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>cuckoo-wasm in Vite</title></head>
<body><script type="module" src="./main.js"></script></body></html>
`;

let consumerDir: string | undefined;
let installed: InstalledPackage | undefined;
let browser: Browser | undefined;
const servers: StaticServer[] = [];
let devServer: ChildProcess | undefined;

function writeApp(name: string, main: string): string {
  const dir = join(consumerDir!, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'index.html'), indexHtml);
  writeFileSync(join(dir, 'main.js'), main);
  // No import of 'vite' here: the consumer does not have it installed.
  writeFileSync(join(dir, 'vite.config.mjs'), `export default { base: './', clearScreen: false, logLevel: 'warn' };\n`);
  return dir;
}

function viteBuild(appDir: string): { output: string; ms: number } {
  const started = Date.now();
  const output = execFileSync(process.execPath, [viteBin, 'build', appDir, '--config', join(appDir, 'vite.config.mjs')], {
    cwd: appDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { output, ms: Date.now() - started };
}

function builtFiles(appDir: string): string[] {
  return readdirSync(join(appDir, 'dist'), { recursive: true, encoding: 'utf8' }).map((f) => f.replaceAll('\\', '/'));
}

async function openAndRun(url: string): Promise<{ page: Page; result: unknown; wasm: { url: string; contentType?: string }[]; ms: number }> {
  const page = await browser!.newPage();
  const wasm: { url: string; contentType?: string }[] = [];
  page.on('response', (response) => {
    if (/\.wasm(\?|$)/.test(response.url())) wasm.push({ url: response.url(), contentType: response.headers()['content-type'] });
  });
  const started = Date.now();
  await page.goto(url);
  let result: unknown;
  try {
    result = await waitForResult(page, 20000);
  } catch (error) {
    result = { failed: error instanceof Error ? error.message : String(error) };
  }
  return { page, result, wasm, ms: Date.now() - started };
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

beforeAll(async () => {
  let started = Date.now();
  installed = packAndInstall();
  consumerDir = installed.consumerDir;
  console.log(`npm pack + install: ${Date.now() - started} ms`);
  started = Date.now();
  browser = await launchChromium();
  console.log(`chromium launch: ${Date.now() - started} ms`);
});

afterAll(async () => {
  if (devServer !== undefined && devServer.exitCode === null) {
    const exited = new Promise((done) => devServer!.once('exit', done));
    devServer.kill('SIGTERM');
    await exited;
  }
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  installed?.remove();
});

async function buildServeRun(appDir: string) {
  const build = viteBuild(appDir);
  const files = builtFiles(appDir);
  const server = await startStaticServer(join(appDir, 'dist'), { basePath: subPath });
  servers.push(server);
  const run = await openAndRun(server.url);
  console.log(`${appDir.slice(consumerDir!.length + 1)}: vite build ${build.ms} ms, page ${run.ms} ms\n${build.output.trim()}`);
  return { build, files, server, ...run };
}

test('vite build with no configuration: init() finds the emitted, hashed cuckoo.wasm under a sub-path', async () => {
  const app = writeApp('zero-config', mainJs('', 'await init();'));
  const { files, server, page, result, wasm } = await buildServeRun(app);

  // Vite sees new URL('../wasm/cuckoo.wasm', import.meta.url) and emits the file once, hashed.
  const emitted = files.filter((f) => f.endsWith('.wasm'));
  expect(emitted).toEqual([expect.stringMatching(/^assets\/cuckoo-[\w-]+\.wasm$/)]);
  const packaged = readFileSync(join(consumerDir!, 'node_modules', 'cuckoo-wasm', 'dist', 'wasm', 'cuckoo.wasm'));
  expect(readFileSync(join(app, 'dist', emitted[0]!)).equals(packaged)).toBe(true);

  expect(result).toEqual(expected);
  expect(wasm).toEqual([{ url: `${server.url}${emitted[0]}`, contentType: 'application/wasm' }]);
  expect(pageErrors(page)).toEqual([]);
  expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
});

test("vite build with locateFile and 'cuckoo-wasm/wasm/cuckoo.wasm?url'", async () => {
  const app = writeApp(
    'locate-file',
    mainJs("import wasmUrl from 'cuckoo-wasm/wasm/cuckoo.wasm?url';", 'await init({ locateFile: () => wasmUrl });'),
  );
  const { files, server, page, result, wasm } = await buildServeRun(app);
  const emitted = files.filter((f) => f.endsWith('.wasm'));
  expect(emitted).toEqual([expect.stringMatching(/^assets\/cuckoo-[\w-]+\.wasm$/)]);
  expect(result).toEqual(expected);
  expect(wasm).toEqual([{ url: `${server.url}${emitted[0]}`, contentType: 'application/wasm' }]);
  expect(pageErrors(page)).toEqual([]);
});

test('vite dev server with no configuration (dependency pre-bundling on)', async () => {
  const app = writeApp('dev', mainJs('', 'await init();'));
  const port = await freePort();
  const base = '/dev/sub/';
  const started = Date.now();
  devServer = spawn(process.execPath, [viteBin, app, '--config', join(app, 'vite.config.mjs'), '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--base', base], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  devServer.stdout!.on('data', (chunk) => (log += chunk));
  devServer.stderr!.on('data', (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}${base}`;
  // logLevel 'warn' hides the banner: poll until the server answers.
  for (;;) {
    if (devServer.exitCode !== null) throw new Error(`vite dev exited with ${devServer.exitCode}:\n${log}`);
    if (Date.now() - started > 20000) throw new Error(`vite dev did not answer at ${url} in 20 s:\n${log}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  const ready = Date.now() - started;
  const { page, result, wasm, ms } = await openAndRun(url);
  console.log(`vite dev: ready ${ready} ms, page ${ms} ms, wasm from ${wasm.map((w) => w.url).join(', ')}${log ? `\n${log}` : ''}`);
  expect(result).toEqual(expected);
  expect(wasm).toEqual([{ url: expect.stringMatching(/\/cuckoo\.wasm(\?.*)?$/), contentType: 'application/wasm' }]);
  expect(pageErrors(page)).toEqual([]);
});
