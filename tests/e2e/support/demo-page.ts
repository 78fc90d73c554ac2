// The teaching demo in a test: built, served under a sub-path (as on a
// project page) and opened in Chromium at a viewport; waiting until its
// animation ends; screenshots to test-output/demo/. Shared by the test files
// of its modes.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { init } from '../../../dist/cjs/index.node.js';
import { repoRoot } from '../../support/pack';
import { launchChromium } from './browser';
import { startStaticServer, type StaticServer } from './server';

export const laptop = { width: 1280, height: 800 };
export const phone = { width: 390, height: 844 };
const shotsDir = join(repoRoot, 'test-output', 'demo');

/**
 * For the calling test file: `build` writes the demo to `dir` (before all its
 * tests), which is then served, with Chromium launched and the package's wasm
 * loaded in Node. `open` opens the demo at `query` and waits until it has its
 * first filter.
 */
export function demoInBrowser(dir: string, build: () => void) {
  let server: StaticServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    build();
    mkdirSync(shotsDir, { recursive: true });
    server = await startStaticServer(dir, { basePath: '/some/sub/path/' });
    browser = await launchChromium();
    await init();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    /** `prepare` runs on the new page before it loads the demo (to install a clock, say). */
    async open(query = '', viewport = laptop, prepare?: (page: Page) => Promise<void>): Promise<Page> {
      const page = await browser!.newPage({ viewport });
      await prepare?.(page);
      await page.goto(`${server!.url}${query}`);
      await page.waitForSelector('html[data-ready="true"]', { timeout: 20000 });
      return page;
    },
  };
}

/**
 * Builds the demo (tsc, then Vite) into `dir`: a folder of the test file's own,
 * since demo.test.ts builds build/demo with scripts/build-demo and test files
 * may run at once.
 */
export function buildDemoInto(dir: string): void {
  execFileSync('npx', ['tsc', '-p', 'web-demo/tsconfig.json'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const vite = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', 'web-demo/vite.config.mjs', '--outDir', dir, '--emptyOutDir'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Jumps to the end of the current animation and waits until nothing runs. */
export async function settle(page: Page, timeout = 60000): Promise<void> {
  await page.keyboard.press('End');
  await page.waitForSelector('html[data-busy="false"]', { timeout });
}

export async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage });
}

/** A screenshot of the viewport with `selector`'s top just below the sticky bar of the player and caption. */
export async function shootAt(page: Page, selector: string, name: string): Promise<void> {
  await page.mouse.move(0, 0); // a pointer left over a table would change what hover shows
  await page.$eval(selector, (node) => {
    node.scrollIntoView({ block: 'start' });
    const bar = document.querySelector('.playbar');
    // Panels stop below the bar by themselves (scroll-margin); anything else is moved there.
    const top = node.getBoundingClientRect().top;
    if (bar !== null && getComputedStyle(bar).position === 'sticky' && top < bar.getBoundingClientRect().bottom) window.scrollBy(0, top - bar.getBoundingClientRect().bottom - 8);
  });
  await shoot(page, name, false);
}
