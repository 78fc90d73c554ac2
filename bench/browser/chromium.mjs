// The browser column of `npm run bench`: the package as a user gets it
// (`npm pack`, installed into an empty project) served on 127.0.0.1 with a
// bench page, opened in headless Chromium through playwright-core. The page
// runs the same measurement module as Node (bench/shared/); Node drives it
// with page.evaluate, so each repetition can alternate between the two.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { serve } from './server.mjs';

const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(BENCH_DIR, '..');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// As the e2e tests launch it (tests/e2e/support/browser.ts).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** Why the browser column cannot run here, or null when it can. */
export function browserUnavailable() {
  if (!existsSync(CHROMIUM_PATH)) return `no Chromium at ${CHROMIUM_PATH} (Debian: apt-get install chromium; or set CHROMIUM_PATH)`;
  try {
    createRequire(import.meta.url).resolve('playwright-core');
  } catch {
    return 'playwright-core is not installed (npm ci)';
  }
  return null;
}

function npm(args, cwd) {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * `npm pack` of the repository (dist/ as `npm run bench` has just built it,
 * so the prepack build is skipped) installed into an empty project, as
 * tests/support/pack.ts does for the package tests. Returns the folder.
 */
function packAndInstall(workDir) {
  npm(['pack', '--ignore-scripts', '--pack-destination', workDir, '--loglevel=error'], ROOT);
  const tarball = readdirSync(workDir).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${workDir}`);
  const consumer = path.join(workDir, 'consumer');
  mkdirSync(consumer);
  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
  npm(['install', path.join(workDir, tarball), '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], consumer);
  return { consumer, tarball };
}

/**
 * The installed package at /node_modules/ and bench/ at /bench/, served on
 * 127.0.0.1. Returns { url, tarball, close() }.
 */
export async function startBenchSite() {
  const workDir = mkdtempSync(path.join(tmpdir(), 'cuckoo-wasm-bench-'));
  try {
    const { consumer, tarball } = packAndInstall(workDir);
    const server = await serve({ '/node_modules/': path.join(consumer, 'node_modules'), '/bench/': BENCH_DIR });
    return {
      url: server.url,
      tarball,
      close: async () => {
        await server.close();
        rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A new Chromium with bench/browser/page.html of `site` open, once the page
 * has loaded the package (window.__ready). `jsFlags` are added to V8's flags.
 * Returns { browserVersion, crossOriginIsolated, evaluate(fn, arg), close() }.
 */
export async function openBenchPage(site, { jsFlags = [] } = {}) {
  const { chromium } = await import('playwright-core');
  // --expose-gc only adds window.gc, called between timed sections as Node's bench does.
  const args = [...CHROMIUM_ARGS, `--js-flags=${['--expose-gc', ...jsFlags].join(' ')}`];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
  try {
    const tab = await browser.newPage();
    const errors = [];
    tab.on('pageerror', (error) => errors.push(error.stack ?? error.message));
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await tab.goto(`${site.url}bench/browser/page.html`);
    await tab.waitForFunction(() => window.__ready === true || window.__error !== undefined, undefined, { timeout: 60_000 });
    const failure = await tab.evaluate(() => window.__error);
    if (failure !== undefined) throw new Error(`the bench page failed: ${failure}\n${errors.join('\n')}`);
    return {
      browserVersion: `Chromium ${browser.version()}`,
      crossOriginIsolated: await tab.evaluate(() => globalThis.crossOriginIsolated === true),
      evaluate: async (fn, arg) => {
        try {
          return await tab.evaluate(fn, arg);
        } catch (error) {
          throw new Error(`${error.message}${errors.length ? `\npage errors:\n${errors.join('\n')}` : ''}`);
        }
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
