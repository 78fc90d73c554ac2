// A newcomer's first minutes with the packed package: a filter logged shows
// what it is (console.log in Node, Bun and Deno; what a browser console
// receives in Chromium), and the installed command sizes a filter for a file
// exactly. (The defaults, and toJSON() and String() in every runtime, are in
// fixtures/exercise.mjs; the details of each in tests/ts.)
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, CDPSession } from 'playwright-core';
import { launchChromium, pageErrors, waitForResult } from '../e2e/support/browser';
import { startStaticServer } from '../e2e/support/server';
import { copyWasmBeside, esbuild, writePage } from './support/bundles';
import { bin, run } from './support/children';
import { besideTheBundle, consumerDir, newApp } from './support/consumer';

let appDir: string;
beforeAll(() => {
  appDir = newApp('newcomer');
});

// capacity 1000 at the default rate, 0.001: b = 4 and f = 13 (8 / 2^13 <= 0.001),
// the bound 8 / 8192 = 0.0009765625, and 269 buckets of 4 for 1000 items.
const logged = `import { init, CuckooFilter, ScalableCuckooFilter } from 'cuckoo-wasm';
await init();
const filter = CuckooFilter.create({ capacity: 1000, seed: 5 });
filter.addMany(['a', 'b', 'c']);
console.log(filter);
const growable = new ScalableCuckooFilter({ seed: 5 });
console.log(growable);
growable.dispose();
console.log(growable);
filter.dispose();
`;

/** The lines each runtime's console.log must print, in order; the floats in between are each runtime's own. */
const expectedLines = [
  /^CuckooFilter \{$/,
  /^ {2}size: 3,$/,
  /^ {2}slotCount: 1076,$/,
  /^ {2}fprBound: 0\.0009765625,$/,
  /^ {2}full: false,$/,
  /^ {2}params: \{$/,
  /^ {4}bucketCount: 269,$/,
  /^ {4}fingerprintBits: 13,$/,
  // Deno quotes strings with ", Node and Bun with '.
  /^ {4}seed: ['"]5['"],$/,
  /^ScalableCuckooFilter \{$/,
  /^ {2}size: 0,$/,
  // 100 items at first: ceil(100 / (4 * 0.9)) = 28 buckets.
  /^ {2}bucketCount: 28,$/,
  /^ {4}initialCapacity: 100,$/,
  /^ {4}fpr: 0\.001,$/,
  /^ScalableCuckooFilter \{ disposed: true \}$/,
];

function expectLinesInOrder(stdout: string): void {
  const lines = stdout.split('\n');
  let at = 0;
  for (const pattern of expectedLines) {
    const found = lines.findIndex((line, k) => k >= at && pattern.test(line));
    expect([pattern.source, found >= 0]).toEqual([pattern.source, true]);
    at = found + 1;
  }
}

describe('console.log of a filter shows its class, size, table, rate and parameters', () => {
  beforeAll(() => writeFileSync(join(appDir, 'logged.mjs'), logged));

  test('Node', async () => {
    expectLinesInOrder((await run(process.execPath, ['logged.mjs'], { cwd: appDir })).stdout);
  });

  test('Bun', async () => {
    expectLinesInOrder((await run(bin('bun'), ['--no-install', 'logged.mjs'], { cwd: appDir })).stdout);
  });

  test('Deno', async () => {
    const env = { ...process.env, DENO_DIR: join(appDir, '.deno'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
    expectLinesInOrder((await run(bin('deno'), ['run', '--cached-only', '--allow-read', 'logged.mjs'], { cwd: appDir, env })).stdout);
  });
});

describe('a browser console (Chromium, an esbuild bundle)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  // Its preview of an object runs no getters, so a page logs String(filter) or filter.toJSON().
  const page = `import { init, CuckooFilter } from 'cuckoo-wasm';
await init(${besideTheBundle});
const filter = CuckooFilter.create({ capacity: 1000, seed: 5 });
filter.addMany(['a', 'b', 'c']);
console.log(String(filter));
console.log(filter.toJSON());
filter.dispose();
console.log(\`\${filter}\`);
globalThis.__result = 'logged';
`;

  interface Logged {
    type: string;
    value?: unknown;
    preview?: { overflow: boolean; properties: { name: string; type: string; value?: string }[] };
  }

  test('String(filter) and filter.toJSON() show the class, size, table and rate; a disposed filter says so', async () => {
    writeFileSync(join(appDir, 'console-page.mjs'), page);
    const out = join(appDir, 'console-page');
    await esbuild(appDir, ['console-page.mjs'], out);
    copyWasmBeside(out);
    writePage(out, './console-page.js');
    const server = await startStaticServer(out);
    const tab = await browser.newPage();
    try {
      // What DevTools receives: the console call's arguments, as the protocol gives them.
      const cdp: CDPSession = await tab.context().newCDPSession(tab);
      const messages: Logged[] = [];
      cdp.on('Runtime.consoleAPICalled', (event: { type: string; args: Logged[] }) => {
        if (event.type === 'log') messages.push(event.args[0]!);
      });
      await cdp.send('Runtime.enable');
      await tab.goto(server.url);
      expect(await waitForResult(tab, 30_000)).toBe('logged');
      expect(pageErrors(tab)).toEqual([]);
      expect(messages).toHaveLength(3);
      const [text, facts, disposed] = messages as [Logged, Logged, Logged];
      expect(text.type).toBe('string');
      expect(text.value).toMatch(/^CuckooFilter \{"size":3,"slotCount":1076,"loadFactor":[\d.e-]+,.*"fprBound":0\.0009765625,"full":false,"params":\{"bucketCount":269,/);
      expect(facts.type).toBe('object');
      // A console previews an object's first five properties and expands it on a click: the facts
      // begin with size and the table's slots.
      const shown = Object.fromEntries(facts.preview!.properties.map(({ name, value }) => [name, value]));
      expect(shown).toMatchObject({ size: '3', slotCount: '1076', stashed: '0' });
      expect(facts.preview!.overflow).toBe(true);
      expect(disposed).toMatchObject({ type: 'string', value: 'CuckooFilter {"disposed":true}' });
    } finally {
      await tab.close();
      await server.close();
    }
  });
});

test('the installed cuckoo-wasm build sizes a 100,000-line file exactly: at most 14.0 bits per item at the default rate', async () => {
  const dir = join(appDir, 'cli');
  mkdirSync(dir);
  writeFileSync(join(dir, 'words.txt'), Array.from({ length: 100_000 }, (_, i) => `word-${i}\n`).join(''));
  const cli = join(consumerDir(), 'node_modules', '.bin', 'cuckoo-wasm');
  const { stderr } = await run(cli, ['build', 'words.txt', '-o', 'words.cf'], { cwd: dir });
  const [sizing, wrote] = stderr.trimEnd().split('\n') as [string, string];
  expect(sizing).toMatch(/^sized for the 100000 items counted in words\.txt: \d+ buckets of 4 slots \(\d+\), 13-bit fingerprints, FPR at most 0\.0977% \(--fpr 0\.001, the default\)$/);
  const [, items, bytes, bitsPerItem] = /^wrote words\.cf: (\d+) items, (\d+) bytes, ([\d.]+) bits per item, expected FPR [\d.]+%$/.exec(wrote) ?? [];
  expect([Number(items), Number(bytes)]).toEqual([100_000, statSync(join(dir, 'words.cf')).size]);
  expect(Number(bitsPerItem)).toBeLessThanOrEqual(14.0);
  // The table is what the file holds, less its 64-byte header and 8-byte checksum.
  expect(((Number(bytes) - 72) * 8) / 100_000).toBeLessThanOrEqual(14.0);
  // And every line is in it.
  const { stdout } = await run(cli, ['query', 'words.cf', 'word-0', 'word-99999'], { cwd: dir });
  expect(stdout).toBe('word-0\tyes\nword-99999\tyes\n');
  expect(readFileSync(join(dir, 'words.cf')).subarray(0, 4).toString('latin1')).toBe('CKFW');
});
