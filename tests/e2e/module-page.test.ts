// The package's ES build in a real browser with no bundler: a page imports
// /dist/esm/index.mjs, calls init() with no options (the loader must find
// /dist/wasm/cuckoo.wasm by itself through import.meta.url), and exercises
// the API, byte round trips, FormatError and the golden fixture.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../support/pack';
import { launchChromium, pageErrors, waitForResult } from './support/browser';
import { startStaticServer, type StaticServer } from './support/server';

interface Golden {
  byteLength: number;
  itemCount: number;
  params: { fingerprintBits: number; bucketSize: number; bucketCount: number; maxKicks: number; seed: number };
  probes: { item: string; contains: boolean }[];
}
const golden: Golden = JSON.parse(readFileSync(join(repoRoot, 'tests', 'fixtures', 'golden-f12-b4-m1024-seed42.json'), 'utf8'));

let server: StaticServer | undefined;
let browser: Browser | undefined;
let page: Page;
let result: Record<string, any>;
const wasmResponses: { url: string; status: number; contentType: string | undefined }[] = [];

beforeAll(async () => {
  for (const file of ['dist/esm/index.mjs', 'dist/wasm/cuckoo.wasm']) {
    readFileSync(join(repoRoot, file)); // throws a clear ENOENT when the package is not built
  }
  server = await startStaticServer(repoRoot);
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('response', (response) => {
    if (response.url().endsWith('.wasm')) {
      wasmResponses.push({ url: response.url(), status: response.status(), contentType: response.headers()['content-type'] });
    }
  });
  await page.addInitScript((probes) => {
    (window as unknown as { __probes: string[] }).__probes = probes;
  }, golden.probes.map((p) => p.item));
  const started = Date.now();
  await page.goto(`${server.url}tests/e2e/pages/module.html`);
  result = await waitForResult(page);
  console.log(`module page: load + run ${Date.now() - started} ms (init ${result.initMs.toFixed(1)} ms, page work ${result.totalMs.toFixed(1)} ms)`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('init() with no options fetches /dist/wasm/cuckoo.wasm as application/wasm', () => {
  expect(result.initialized).toBe(true);
  expect(wasmResponses).toEqual([{ url: `${server!.url}dist/wasm/cuckoo.wasm`, status: 200, contentType: 'application/wasm' }]);
  const served = server!.requests.filter((r) => r.path.endsWith('.wasm'));
  expect(served).toEqual([{ method: 'GET', path: '/dist/wasm/cuckoo.wasm', status: 200, contentType: 'application/wasm' }]);
});

test('10,000 strings and 10,000 numbers: add, has, hasMany, delete', () => {
  expect(result.addedStrings).toBe(10000);
  expect(result.addedNumbers).toBe(10000);
  expect(result.stringsAllPresent).toBe(true);
  expect(result.numbersPresent).toBe(10000);
  expect(result.numbersAsSingles).toBe(true);
  expect(result.bigintEqualsNumber).toBe(true);
  expect(result.stringNotNumber).toBe(false);
  // 10,000 absent strings at an expected rate near 0.1 %: far fewer than 1 %.
  expect(result.expectedFpr).toBeLessThan(0.002);
  expect(result.falsePositives).toBeLessThan(100);
  expect(result.deleted).toBe(5000);
  expect(result.deletedNumbers).toBe(5000);
  expect(result.sizeAfterDeletes).toBe(10000);
  expect(result.keptStillPresent).toBe(true);
  expect(result.deletedStillAnswering).toBeLessThan(100);
});

test('toBytes / fromBytes round trip is byte-identical and answers the same', () => {
  expect(result.copySize).toBe(20000);
  expect(result.sameBytes).toBe(true);
  expect(result.copyAnswers).toBe(true);
  expect(result.byteLength).toBeGreaterThan(64);
});

test('bad bytes throw FormatError with the right code', () => {
  const formatError = (code: string) => ({ isFormatError: true, isCuckooFilterError: true, code, name: expect.any(String) });
  expect(result.errors).toEqual({
    tooShort: formatError('BAD_MAGIC'),
    badMagic: formatError('BAD_MAGIC'),
    checksum: formatError('CHECKSUM_MISMATCH'),
    truncated: formatError('TRUNCATED'),
  });
});

test('the golden fixture loads in the browser and gives the recorded probe answers', () => {
  expect(result.golden).toEqual({
    byteLength: golden.byteLength,
    size: golden.itemCount,
    params: { ...golden.params, seed: String(golden.params.seed), semiSort: false, keyedHash: false, multiplyShiftHash: false },
    sameBytes: true,
  });
  expect(result.goldenAnswers).toHaveLength(golden.probes.length);
  expect(Object.fromEntries(golden.probes.map((p, i) => [p.item, result.goldenAnswers[i]]))).toEqual(
    Object.fromEntries(golden.probes.map((p) => [p.item, p.contains])),
  );
});

test('no console errors and no uncaught errors', () => {
  expect(pageErrors(page)).toEqual([]);
  expect(server!.requests.filter((r) => r.status !== 200)).toEqual([]);
});
