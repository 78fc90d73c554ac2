// Cloudflare's workerd (npm workerd): ES module Workers bundled by esbuild
// with the conditions a Workers build uses, the .wasm imported as a module
// (workerd compiles it: init({ wasmModule })), served at two compatibility
// dates, and fetched from here.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, firstAnswer, freePort, run, startServer, type Server } from './support/children';
import { fixturesDir, newApp } from './support/consumer';
import { filesUnder } from './support/bundles';
import { expectedAnswers } from './support/expected';
import { reportAtEnd } from './support/report';

const report = reportAtEnd('workerd');
const workerNames = ['lean-2024', 'lean-2025', 'full-2024', 'full-2025'] as const;

let workerd: Server | undefined;
const urls = new Map<string, string>();

beforeAll(async () => {
  const appDir = newApp('workerd');
  for (const file of ['lean-worker.mjs', 'full-worker.mjs']) copyFileSync(join(fixturesDir, 'workerd', file), join(appDir, file));
  const out = join(appDir, 'out');
  // The file loader copies each imported .wasm (under its own name) and keeps the import for workerd to resolve.
  const build = await run(
    bin('esbuild'),
    ['lean-worker.mjs', 'full-worker.mjs', '--bundle', '--format=esm', '--platform=browser', '--conditions=workerd,worker,browser',
      '--loader:.wasm=copy', '--asset-names=[name]', `--outdir=${out}`, '--log-level=warning'],
    { cwd: appDir },
  );
  expect(filesUnder(out)).toEqual(['cuckoo-full.wasm', 'cuckoo.wasm', 'full-worker.js', 'lean-worker.js']);
  // No fetch of a .wasm and no file: URL in a Worker: the bundles must import the modules.
  expect(readFileSync(join(out, 'lean-worker.js'), 'utf8')).toContain('from "./cuckoo.wasm"');
  expect(readFileSync(join(out, 'full-worker.js'), 'utf8')).toContain('from "./cuckoo-full.wasm"');

  let config = readFileSync(join(fixturesDir, 'workerd', 'config.capnp'), 'utf8');
  for (const name of workerNames) {
    const port = await freePort();
    config = config.replace(`@PORT:${name}@`, String(port));
    urls.set(name, `http://127.0.0.1:${port}/`);
  }
  writeFileSync(join(out, 'config.capnp'), config);

  const started = Date.now();
  workerd = startServer(bin('workerd'), ['serve', 'config.capnp'], out);
  for (const url of urls.values()) await firstAnswer(url, workerd);
  report(`esbuild ${build.ms} ms; workerd answering on ${urls.size} sockets after ${Date.now() - started} ms`);
});

afterAll(async () => {
  await workerd?.stop();
});

async function answersOf(name: (typeof workerNames)[number]): Promise<unknown> {
  const response = await fetch(urls.get(name)!);
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${name} answered ${response.status}:\n${body}\nworkerd printed:\n${workerd!.output()}`);
  return JSON.parse(body);
}

test('the main entry, compatibility date 2024-09-23 (no WeakRef, no FinalizationRegistry)', async () => {
  expect(await answersOf('lean-2024')).toEqual(expectedAnswers(['main']));
});

test('the main entry, compatibility date 2025-09-01', async () => {
  expect(await answersOf('lean-2025')).toEqual(expectedAnswers(['main']));
});

test('every entry (the full module), compatibility date 2024-09-23', async () => {
  expect(await answersOf('full-2024')).toEqual(expectedAnswers(['main', 'inspect', 'bloom']));
});

test('every entry (the full module), compatibility date 2025-09-01', async () => {
  expect(await answersOf('full-2025')).toEqual(expectedAnswers(['main', 'inspect', 'bloom']));
});
