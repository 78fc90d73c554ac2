// The installed package in the runtimes that read it from node_modules: Node
// (ES modules, CommonJS, worker_threads), Bun and Deno, each loading every
// entry (the main one alone loads the lean module, /inspect and /bloom the
// full one) and giving exercise.mjs's answers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, run } from './support/children';
import { allEntries, cjsProgram, esmProgram, newApp, programsByEntry, workerProgram, type Entry } from './support/consumer';
import { expectedAnswers } from './support/expected';
import { reportAtEnd } from './support/report';

const report = reportAtEnd('Node, Bun and Deno: time per program');
const entryNames = Object.keys(programsByEntry) as (keyof typeof programsByEntry)[];

let appDir: string;
let denoDir: string;
beforeAll(() => {
  appDir = newApp('server-runtimes');
  // Deno's cache (the npm packages it analyses, compiled code) stays in the test's own folder.
  denoDir = mkdtempSync(join(tmpdir(), 'cuckoo-wasm-deno-'));
});
afterAll(() => rmSync(denoDir, { recursive: true, force: true }));

/** Writes `source` as `file` in the app folder and runs it with `runtime`; the JSON it printed. */
async function runProgram(runtime: string, args: string[], file: string, source: string, env?: NodeJS.ProcessEnv): Promise<unknown> {
  writeFileSync(join(appDir, file), source);
  const { stdout, ms } = await run(runtime, [...args, file], { cwd: appDir, env: { ...process.env, ...env } });
  report(`${runtime.split('/').pop()} ${file}: ${ms} ms`);
  return JSON.parse(stdout);
}

const node = (file: string, source: string) => runProgram(process.execPath, [], file, source);
// Neither may download anything: the package comes from the consumer's node_modules.
const bun = (file: string, source: string) => runProgram(bin('bun'), ['--no-install'], file, source);
const deno = (file: string, source: string) =>
  runProgram(bin('deno'), ['run', '--cached-only', '--allow-read'], file, source, {
    DENO_DIR: denoDir,
    DENO_NO_UPDATE_CHECK: '1',
    NO_COLOR: '1',
  });

describe('Node', () => {
  test.each(entryNames)('an ES module importing the %s entry', async (name) => {
    const entries = programsByEntry[name];
    expect(await node(`node-${name}.mjs`, esmProgram(entries))).toEqual(expectedAnswers(entries));
  });

  test.each(entryNames)('a CommonJS module requiring the %s entry', async (name) => {
    const entries = programsByEntry[name];
    expect(await node(`node-${name}.cjs`, cjsProgram(entries))).toEqual(expectedAnswers(entries));
  });

  test('worker_threads: a worker imports every entry, inits and answers', async () => {
    // The main thread does not import the package: the answers can only come from the worker.
    writeFileSync(
      join(appDir, 'thread.mjs'),
      `import { parentPort } from 'node:worker_threads';\n${workerProgram(allEntries, 'undefined', 'parentPort.postMessage')}`,
    );
    const main = `import { Worker } from 'node:worker_threads';
const worker = new Worker(new URL('./thread.mjs', import.meta.url));
worker.once('message', (message) => {
  console.log(JSON.stringify(message));
  void worker.terminate();
});
worker.once('error', (error) => {
  console.error(error);
  process.exitCode = 1;
});
`;
    expect(await node('threads.mjs', main)).toEqual({ answers: expectedAnswers(allEntries) });
  });
});

describe('Bun', () => {
  test.each(entryNames)('an ES module importing the %s entry', async (name) => {
    const entries = programsByEntry[name];
    expect(await bun(`bun-${name}.mjs`, esmProgram(entries))).toEqual(expectedAnswers(entries));
  });

  test('a CommonJS module requiring every entry', async () => {
    expect(await bun('bun-all.cjs', cjsProgram(allEntries))).toEqual(expectedAnswers(allEntries));
  });
});

describe('Deno (--allow-read only)', () => {
  test.each(entryNames)('an ES module importing the %s entry', async (name) => {
    const entries: readonly Entry[] = programsByEntry[name];
    expect(await deno(`deno-${name}.mjs`, esmProgram(entries))).toEqual(expectedAnswers(entries));
  });

  test('a CommonJS module requiring every entry', async () => {
    expect(await deno('deno-all.cjs', cjsProgram(allEntries))).toEqual(expectedAnswers(allEntries));
  });
});
