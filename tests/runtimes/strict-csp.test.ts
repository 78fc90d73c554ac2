// The package where the Content-Security-Policy is `script-src 'self'
// 'wasm-unsafe-eval'`: no eval, no new Function, no inline script, only
// WebAssembly compilation. A page served with that header, and a Chrome
// Manifest V3 extension whose service worker imports a bundle of the package.
// Both run fixtures/strict-csp.mjs: the lean module, then the full one
// (cuckoo-wasm/inspect and /bloom imported later, the live filter moved).
import { cpSync, copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import { chromiumPath, launchChromium, pageErrors, waitForResult } from '../e2e/support/browser';
import { copyWasmBeside, esbuild } from './support/bundles';
import { fixturesDir, newApp } from './support/consumer';
import { expectedAnswers } from './support/expected';
import { servePolicy } from './support/policy-server';
import { reportAtEnd } from './support/report';

const report = reportAtEnd('Strict Content-Security-Policy');
const strictPolicy = "script-src 'self' 'wasm-unsafe-eval'";

// What strictRun() answers when everything loads: the lean module's answers,
// the full module's, the filter made before the upgrade still answering
// (through CuckooFilter.has and inspect.traceHas), and the policy refusing eval.
const expectedStrictRun = {
  lean: expectedAnswers(['main']),
  full: expectedAnswers(['main', 'inspect', 'bloom']),
  moved: [true, true],
  evalRefused: true,
};

let appDir: string;
beforeAll(async () => {
  appDir = newApp('strict-csp');
  copyFileSync(join(fixturesDir, 'strict-csp.mjs'), join(appDir, 'strict-csp.mjs'));
});

/** Copies fixtures/`fixture` into the app folder and builds strict-bundle.js (esbuild) and the .wasm files into it. */
async function folderWithBundle(fixture: string): Promise<string> {
  const dir = join(appDir, fixture);
  cpSync(join(fixturesDir, fixture), dir, { recursive: true });
  const build = await esbuild(appDir, ['strict-csp.mjs'], dir);
  // esbuild names the output after the entry; the fixtures import strict-bundle.js.
  renameSync(join(dir, 'strict-csp.js'), join(dir, 'strict-bundle.js'));
  copyWasmBeside(dir);
  report(`${fixture}: esbuild ${build.ms} ms`);
  return dir;
}

test(`a page served with "${strictPolicy}" loads the lean and the full module, with no violation but the page's own eval probe`, async () => {
  const dir = await folderWithBundle('strict-page');
  const server = await servePolicy(dir, strictPolicy);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const started = Date.now();
    const response = await page.goto(server.url);
    expect(response?.headers()['content-security-policy']).toBe(strictPolicy);
    const answers = await waitForResult<Record<string, unknown>>(page, 30_000);
    report(`page: ${Date.now() - started} ms`);
    const { violations, ...rest } = answers;
    expect(rest).toEqual(expectedStrictRun);
    // The one violation is the probe's: neither module nor its glue evaluated a string.
    expect(violations).toEqual([{ directive: 'script-src', blockedURI: 'eval', sourceFile: `${server.url}strict-bundle.js` }]);
    // No console error either (this Chromium reports a violation as the event above, not on the console).
    expect(pageErrors(page)).toEqual([]);
    expect(server.requests).toEqual(
      ['/', '/watch.js', '/page.js', '/strict-bundle.js', '/cuckoo.wasm', '/cuckoo-full.wasm'].map((path) => ({ path, status: 200 })),
    );
  } finally {
    await browser.close();
    await server.close();
  }
});

describe('a Manifest V3 extension whose service worker imports a bundle of the package', () => {
  let context: BrowserContext;
  let profileDir: string;
  const workers = new Map<string, Worker>();

  beforeAll(async () => {
    const declared = await folderWithBundle('extension');
    // The same extension with MV3's default policy for extension pages, script-src 'self'.
    const defaultPolicy = join(appDir, 'extension-default-policy');
    cpSync(declared, defaultPolicy, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(declared, 'manifest.json'), 'utf8'));
    delete manifest.content_security_policy;
    manifest.name += ' (default policy)';
    writeFileSync(join(defaultPolicy, 'manifest.json'), JSON.stringify(manifest, null, 2));

    profileDir = mkdtempSync(join(tmpdir(), 'cuckoo-wasm-chromium-profile-'));
    const extensions = `${declared},${defaultPolicy}`;
    const started = Date.now();
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chromiumPath,
      // Headless through the flag itself: Debian's Chromium loads extensions in its new headless mode.
      headless: false,
      args: [
        '--headless=new',
        `--disable-extensions-except=${extensions}`,
        `--load-extension=${extensions}`,
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    const found = context.serviceWorkers();
    while (found.length < 2) found.push(await context.waitForEvent('serviceworker', { timeout: 30_000 }));
    for (const worker of found) {
      workers.set(await worker.evaluate(() => (globalThis as any).chrome.runtime.getManifest().name as string), worker);
    }
    report(`extensions: Chromium started and both service workers up in ${Date.now() - started} ms`);
  });

  afterAll(async () => {
    await context?.close();
    if (profileDir !== undefined) rmSync(profileDir, { recursive: true, force: true });
  });

  test("with the policy an extension that uses WebAssembly declares, script-src 'self' 'wasm-unsafe-eval': both modules load and answer", async () => {
    const worker = workers.get('cuckoo-wasm in a service worker')!;
    expect(worker.url()).toMatch(/^chrome-extension:\/\/[a-p]{32}\/service-worker\.js$/);
    expect(await worker.evaluate(() => (globalThis as any).answers)).toEqual(expectedStrictRun);
  });

  test("with MV3's default policy, script-src 'self', init() rejects with the browser's reason (WebAssembly is refused there)", async () => {
    const worker = workers.get('cuckoo-wasm in a service worker (default policy)')!;
    const answers = await worker.evaluate(() => (globalThis as any).answers);
    expect(answers).toEqual({
      failed: expect.stringMatching(
        /^CuckooFilterError: init: could not load the WebAssembly module: WebAssembly\.compile\(\): .*Content Security policy.*"script-src 'self'"/,
      ),
    });
  });
});
