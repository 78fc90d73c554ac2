// Launches the system Chromium (Debian's /usr/bin/chromium; `npx playwright
// install` needs the internet) and records, for every page it opens, the
// console errors and uncaught page errors.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const errorsByPage = new WeakMap<Page, string[]>();

function track(page: Page): void {
  if (errorsByPage.has(page)) return;
  const errors: string[] = [];
  errorsByPage.set(page, errors);
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url, lineNumber } = message.location();
    errors.push(`console.error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.stack ?? error.message}`));
  page.on('crash', () => errors.push('crash: the page crashed'));
}

function trackContext(context: BrowserContext): BrowserContext {
  context.on('page', track);
  for (const page of context.pages()) track(page);
  const newPage = context.newPage.bind(context);
  context.newPage = async () => {
    const page = await newPage();
    track(page);
    return page;
  };
  return context;
}

/**
 * Console errors (`console.error`, failed resource loads) and uncaught
 * errors of a page opened by a browser from {@link launchChromium}, so far.
 */
export function pageErrors(page: Page): string[] {
  const errors = errorsByPage.get(page);
  if (errors === undefined) throw new Error('pageErrors: this page was not opened by a browser from launchChromium()');
  return errors;
}

/** Headless Chromium whose pages (from newPage or newContext().newPage) are tracked by {@link pageErrors}. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`no Chromium at ${chromiumPath}: apt-get install chromium, or set CHROMIUM_PATH`);
  }
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  // Browser.newPage calls this.newContext, so wrapping newContext covers both.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => trackContext(await newContext(options));
  return browser;
}

/** Waits until the page sets `window.__result` (or throws `window.__error`), and returns it. */
export async function waitForResult<T = unknown>(page: Page, timeout = 60000): Promise<T> {
  const handle = await page.waitForFunction(
    () => {
      const w = window as unknown as { __result?: unknown; __error?: unknown };
      return w.__error !== undefined ? { error: String(w.__error) } : w.__result !== undefined ? { result: w.__result } : undefined;
    },
    undefined,
    { timeout },
  );
  const value = (await handle.jsonValue()) as { error?: string; result?: T };
  if (value.error !== undefined) throw new Error(`the page failed: ${value.error}\n${pageErrors(page).join('\n')}`);
  return value.result as T;
}
