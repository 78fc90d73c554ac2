// A page that keeps a filter current with patches (cuckoo-wasm/patch), in
// Chromium, against a server in this process: the page loads the whole
// filter once, then asks for a patch from the version it holds after every
// change on the server; a patch made from another version is refused
// (WRONG_BASE) and the page fetches the whole filter again. After every
// step, the page answers exactly as the server's filter does, and holds its
// version. The page is tests/e2e/pages/patches.html, the README's client.
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../support/pack';
import { launchChromium, pageErrors, waitForResult } from './support/browser';
import { startStaticServer, type RouteReply, type StaticServer } from './support/server';

// The server's side runs on the built package, as a Node server would.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { init, CuckooFilter } = require('../../dist/cjs/index.node.js') as typeof import('../../dist/cjs/index');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checksumOf, describePatch } = require('../../dist/cjs/patch.node.js') as typeof import('../../dist/cjs/patch');

type Filter = InstanceType<typeof CuckooFilter>;

let server: StaticServer;
let browser: Browser;
let page: Page;
let filter: Filter;
/** The versions the server handed out, by checksum: it makes patches from them. */
const versions = new Map<string, Uint8Array>();
/** A patch the server sends instead of the right one (a patch from another version). */
let wrongPatch: Uint8Array | undefined;
const patchSizes: number[] = [];
const wasmFetched: string[] = [];

function wholeFilter(): RouteReply {
  const bytes = filter.toBytes();
  versions.set(checksumOf(bytes), bytes);
  return { status: 200, contentType: 'application/octet-stream', body: bytes };
}

function patchFrom(url: URL): RouteReply {
  const from = url.searchParams.get('from') ?? '';
  if (from === checksumOf(filter)) return { status: 204 };
  const older = versions.get(from);
  if (older === undefined) return { status: 404, contentType: 'text/plain', body: 'no patch from this version' };
  versions.set(checksumOf(filter), filter.toBytes());
  const patch = wrongPatch ?? filter.diff(older);
  patchSizes.push(patch.length);
  return { status: 200, contentType: 'application/octet-stream', body: patch };
}

const items = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
// Members of every version, and strangers (false positives must agree too).
const probes = [...items('base', 5000), ...items('added', 3000), ...items('added-0', 1000), ...items('stranger', 10_000)];

interface PageApi {
  log: string[];
}

async function pageUpdate(): Promise<string[]> {
  await page.evaluate(() => (window as unknown as { __api: { update(): Promise<void> } }).__api.update());
  return page.evaluate(() => (window as unknown as { __api: PageApi }).__api.log.slice());
}

/** The page holds the server's filter: the same version, the same answer for every probe. */
async function expectPageHoldsTheServersFilter(): Promise<void> {
  const [version, answers] = await page.evaluate(
    (list) => {
      const api = (window as unknown as { __api: { version(): string; answers(items: string[]): number[] } }).__api;
      return [api.version(), api.answers(list)] as const;
    },
    probes,
  );
  expect(version).toBe(checksumOf(filter));
  expect(answers).toEqual(Array.from(filter.hasMany(probes)));
}

beforeAll(async () => {
  await init();
  filter = CuckooFilter.create({ capacity: 50_000, fpr: 0.001, seed: 31 });
  filter.addMany(items('base', 20_000));
  server = await startStaticServer(repoRoot, { routes: { '/filter': wholeFilter, '/filter/patch': patchFrom } });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('response', (response) => {
    if (response.url().endsWith('.wasm')) wasmFetched.push(new URL(response.url()).pathname);
  });
  await page.goto(`${server.url}tests/e2e/pages/patches.html`);
  expect(await waitForResult(page)).toBe('ready');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  filter?.dispose();
});

test('the page loads the whole filter once, on the patch module, and answers as the server', async () => {
  expect(wasmFetched).toEqual(['/dist/wasm/cuckoo-patch.wasm']);
  await expectPageHoldsTheServersFilter();
  expect(await pageUpdate()).toEqual(['whole', 'current']);
});

test('after each change on the server, a patch brings the page to the same version', async () => {
  const bytes = filter.toBytes().length;
  for (let round = 0; round < 3; round++) {
    filter.addMany(items(`added-${round}`, 1000));
    filter.deleteMany(items('base', 200 * (round + 1)).slice(200 * round));
    const log = await pageUpdate();
    expect(log[log.length - 1]).toBe('patch');
    await expectPageHoldsTheServersFilter();
  }
  // Two changes while the page waits: one patch from the version it holds.
  filter.addMany(items('added', 3000));
  filter.deleteMany(items('base', 1000).slice(600));
  expect((await pageUpdate()).slice(-1)).toEqual(['patch']);
  await expectPageHoldsTheServersFilter();
  expect(patchSizes.length).toBe(4);
  expect(Math.max(...patchSizes)).toBeLessThan(bytes / 5);
  expect(server.requests.filter((request) => request.path === '/filter').length).toBe(1);
});

test('a patch for another version is refused with WRONG_BASE, and the page falls back to the whole filter', async () => {
  const first = [...versions.values()][0]!;
  using older = CuckooFilter.fromBytes(first);
  filter.addMany(items('late', 500));
  wrongPatch = filter.diff(older);
  expect(describePatch(wrongPatch).base).not.toBe(await page.evaluate(() => (window as unknown as { __api: { version(): string } }).__api.version()));
  const log = await pageUpdate();
  wrongPatch = undefined;
  expect(log.slice(-2)).toEqual(['WRONG_BASE', 'whole']);
  await expectPageHoldsTheServersFilter();
  expect(server.requests.filter((request) => request.path === '/filter').length).toBe(2);
});

test('a server that no longer has the page\'s version sends no patch: the page fetches the whole filter', async () => {
  versions.clear();
  filter.deleteMany(items('late', 100));
  expect((await pageUpdate()).slice(-1)).toEqual(['whole']);
  await expectPageHoldsTheServersFilter();
  // And it goes on with patches from the version it now holds.
  filter.add('one more');
  expect((await pageUpdate()).slice(-1)).toEqual(['patch']);
  await expectPageHoldsTheServersFilter();
  expect(pageErrors(page).filter((error) => !/Failed to load resource.*404/.test(error))).toEqual([]);
});
