// The demo's layout on a laptop (1280 x 800) and a phone (390 x 844), in
// Chromium: a low sticky bar of player and caption; on the phone, no text cut
// anywhere (by overflow or an ellipsis), tables that scroll rather than wrap
// inside a number, and the caption on screen with the table while a step
// plays. Then a screenshot of every view at both sizes, in
// test-output/demo/views/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../support/pack';
import { clippedText } from './support/clipping';
import { buildDemoInto, demoInBrowser, laptop, phone, settle } from './support/demo-page';
import { expectNoErrors } from './support/demo-readers';

const demoDir = join(repoRoot, 'build', 'demo-layout-test');
const openDemo = demoInBrowser(demoDir, () => buildDemoInto(demoDir)).open;
const viewsDir = join(repoRoot, 'test-output', 'demo', 'views');

async function fillUntilItFails(page: Page): Promise<void> {
  await page.keyboard.press('f');
  await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('First failure'), undefined, { timeout: 60000 });
  await settle(page);
}

/** Types `count` into the N field `field`, presses `button`, and waits until the run is over and its caption begins with `caption`. */
async function runMany(page: Page, field: string, button: string, count: number, caption: string): Promise<void> {
  await page.fill(field, String(count));
  await page.click(button);
  await page.waitForFunction((text) => document.querySelector('#caption')?.textContent?.startsWith(text), caption, { timeout: 60000 });
  await settle(page);
}

async function allMeasured(page: Page): Promise<void> {
  for (const panel of ['#fplen-panel', '#collision-panel', '#bsize-panel', '#space-panel']) {
    await page.waitForSelector(`${panel}[data-state="done"]`, { timeout: 150000 });
  }
}

/** Table cells whose text runs onto a second line, by the line boxes of their text. */
async function wrappedCells(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (cells) =>
    cells.flatMap((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
      return tops.size > 1 ? [cell.textContent ?? ''] : [];
    }),
  );
}

describe('on a laptop', () => {
  test('the sticky bar of player and caption stays low', async () => {
    const page = await openDemo('', laptop);
    const height = await page.$eval('.playbar', (n) => (n as HTMLElement).offsetHeight);
    console.log(`sticky bar at 1280 x 800: ${height} px`);
    expect(height).toBeLessThanOrEqual(120);
    await page.mouse.wheel(0, 2000);
    await page.waitForTimeout(200);
    expect(await page.$eval('.playbar', (n) => n.getBoundingClientRect().top)).toBe(0);
    expectNoErrors(page);
    await page.close();
  });
});

describe('on a phone, 390 x 844', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openDemo('', phone);
    await fillUntilItFails(page);
    await allMeasured(page);
  });
  afterAll(() => page?.close());

  test('after filling the table, no text is cut: the table, gauges, Bloom and space views, and everything else', async () => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    // The stash shows its whole fingerprint.
    expect(await page.textContent('#stash')).toMatch(/^[01]{6}$/);
    const views = ['.table-panel', '.gauges-panel', '.bloom-panel', '#space-panel'];
    expect(await clippedText(page, views)).toEqual([]);
    const everywhere = await clippedText(page);
    console.log(`clipped text at 390 px after filling the table: ${everywhere.length} elements`);
    expect(everywhere).toEqual([]);
    expectNoErrors(page);
  });

  test('tables scroll sideways rather than wrap inside a number', async () => {
    await page.waitForSelector('#sizing-rows tr');
    for (const cells of ['#bsize-rows td', '#space-rows td', '#sizing-rows td:not(.refused)', '#sizing-rows th']) {
      expect(await page.$$eval(cells, (n) => n.length)).toBeGreaterThan(0);
      expect(await wrappedCells(page, cells)).toEqual([]);
    }
    // Wider than the phone, so they scroll in their own box, not the page.
    const scrolls = await page.$$eval('.table-scroll', (boxes) => boxes.map((box) => [box.scrollWidth > box.clientWidth, getComputedStyle(box).overflowX]));
    expect(scrolls.some(([wider]) => wider)).toBe(true);
    for (const [wider, overflow] of scrolls) if (wider) expect(overflow).toBe('auto');
    expectNoErrors(page);
  });

  test('while a step plays, its caption and the buckets it marks are on screen together', async () => {
    await page.click('#reset');
    await settle(page);
    let kicks = 0;
    for (let i = 0; i < 80 && kicks === 0; i++) {
      // Pressed at the top of the page, where the buttons are: the page brings the table up below the bar.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.click('#insert-next');
      kicks = Number(await page.$eval('#chain', (n) => (n as HTMLElement).dataset.kickCount));
      if (kicks === 0) await settle(page);
    }
    expect(kicks).toBeGreaterThan(0);
    await page.keyboard.press('Space'); // pause, then walk through the steps
    await page.keyboard.press('Home');
    const steps = Number((await page.textContent('#step-count'))!.match(/of (\d+)/)![1]);
    for (let step = 1; step <= steps; step++) {
      const seen = await page.evaluate(() => {
        const bar = document.querySelector('.playbar')!.getBoundingClientRect();
        const caption = document.querySelector('#caption')!.getBoundingClientRect();
        const marked = Array.from(document.querySelectorAll('#table .bucket[class*="is-"]'), (node) => node.getBoundingClientRect());
        return {
          caption: caption.top >= 0 && caption.bottom <= innerHeight,
          marked: marked.length,
          onScreen: marked.every((box) => box.top >= bar.bottom - 1 && box.bottom <= innerHeight + 1),
        };
      });
      expect(seen).toEqual({ caption: true, marked: seen.marked, onScreen: true });
      expect(seen.marked).toBeGreaterThan(0);
      await page.keyboard.press('ArrowRight');
    }
    await page.keyboard.press('Space');
    expectNoErrors(page);
  });
});

describe('every view, at both sizes', () => {
  const fixedViews: Array<[selector: string, name: string]> = [
    ['.table-panel', 'table'],
    ['.relation-panel', 'relation'],
    ['.kicks-panel', 'kicks'],
    ['#fp-panel', 'false-positive'],
    ['.gauges-panel', 'gauges'],
    ['.bloom-panel', 'bloom'],
    ['#fplen-panel', 'fingerprint-length'],
    ['#collision-panel', 'collision'],
    ['#bsize-panel', 'bucket-size'],
    ['#space-panel', 'space'],
    ['.keys', 'keys'],
  ];
  const growthViews: Array<[selector: string, name: string]> = [
    ['.growth-table-panel', 'growth-table'],
    ['.split-panel', 'growth-split'],
    ['.growth-gauges-panel', 'growth-gauges'],
    ['.growth-log-panel', 'growth-log'],
  ];

  async function shootView(page: Page, selector: string, file: string): Promise<void> {
    await page.mouse.move(0, 0);
    await page.$eval(selector, (node) => node.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(100);
    await page.screenshot({ path: join(viewsDir, `${file}.png`) });
  }

  for (const [size, viewport] of [['laptop', laptop], ['phone', phone]] as const) {
    test(`${size}: the fixed-size mode's views mid-walk, the semi-sorted bucket, a presenter step and the growth mode's`, async () => {
      mkdirSync(viewsDir, { recursive: true });
      const page = await openDemo('', viewport);
      await page.screenshot({ path: join(viewsDir, `${size}-top.png`) });
      await runMany(page, '#bulk-count', '#bulk', 48, 'Inserted 48 items');
      await page.keyboard.press('p');
      await settle(page);
      await allMeasured(page);
      for (const [selector, name] of fixedViews) await shootView(page, selector, `${size}-${name}`);
      expect(await clippedText(page)).toEqual([]);
      expectNoErrors(page);
      await page.close();

      const semi = await openDemo('?m=16&b=4&f=8&semi=1', viewport);
      await runMany(semi, '#bulk-count', '#bulk', 40, 'Inserted 40 items');
      await shootView(semi, '#semi-panel', `${size}-semi-sorted`);
      await semi.close();

      const present = await openDemo('?present=3', viewport);
      await present.waitForSelector('#presenter[data-step="3"]');
      await present.waitForTimeout(1500);
      await present.screenshot({ path: join(viewsDir, `${size}-presenter.png`) });
      await present.close();

      const growth = await openDemo('?mode=growth', viewport);
      await runMany(growth, '#growth-count', '#growth-add-n', 60, 'Added 60 items');
      for (const [selector, name] of growthViews) await shootView(growth, selector, `${size}-${name}`);
      expect(await clippedText(growth)).toEqual([]);
      expectNoErrors(growth);
      await growth.close();
    });
  }
});
