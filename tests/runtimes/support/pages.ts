// Runs a built app in Chromium: serves its folder on 127.0.0.1, opens the
// page, waits for the answers it reports, and tells which of the package's
// modules the browser fetched (by content: bundlers rename the files).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { pageErrors, waitForResult } from '../../e2e/support/browser';
import { startStaticServer, type ServedRequest, type StaticServer } from '../../e2e/support/server';
import { packagedWasm } from './bundles';

export interface PageRun {
  /** What the page reported (window.__result), or the failure it reported. */
  answers: unknown;
  /** The package's modules the page fetched, by name: 'cuckoo.wasm', 'cuckoo-patch.wasm' or 'cuckoo-full.wasm'. */
  modules: string[];
  /** Every request that was not answered 200, and every .wasm not served as application/wasm. */
  badRequests: ServedRequest[];
  /** Console errors and uncaught errors. */
  errors: string[];
  /** The paths the page requested, in order. */
  fetched: string[];
  ms: number;
}

/** The packaged module whose bytes `file` holds, or a description of what it is not. */
export function whichModule(file: string): string {
  const bytes = readFileSync(file);
  for (const name of ['cuckoo.wasm', 'cuckoo-patch.wasm', 'cuckoo-full.wasm'] as const) {
    if (bytes.equals(readFileSync(packagedWasm(name)))) return name;
  }
  return `${file} (not a packaged module)`;
}

const servers: StaticServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Serves `dir` (closed after the test file) and opens `page` in it. */
export async function runPage(browser: Browser, dir: string, page = 'index.html'): Promise<PageRun> {
  const server = await startStaticServer(dir);
  servers.push(server);
  const tab = await browser.newPage();
  const started = Date.now();
  try {
    await tab.goto(`${server.url}${page}`);
    let answers: unknown;
    try {
      answers = await waitForResult(tab, 30_000);
    } catch (error) {
      answers = { failed: error instanceof Error ? error.message : String(error) };
    }
    const ms = Date.now() - started;
    const wasm = server.requests.filter((request) => request.path.endsWith('.wasm'));
    return {
      answers,
      modules: wasm.map((request) => whichModule(join(dir, request.path))),
      badRequests: server.requests.filter(
        (request) => request.status !== 200 || (request.path.endsWith('.wasm') && request.contentType !== 'application/wasm'),
      ),
      errors: [...pageErrors(tab)],
      fetched: server.requests.map((request) => request.path),
      ms,
    };
  } finally {
    await tab.close();
  }
}
