// The teaching demo's growth mode (?mode=growth) in Chromium, built with Vite
// into a folder of its own and served under a sub-path. What the page shows is
// checked against a growable filter run here in Node with the same options,
// seed and items: the same filter then grows the same way, bucket for bucket,
// so the page must show exactly the core's shapes, tables and rates. The
// splits the page reads back are checked against the rule of hash id 3
// (hashing.hpp), independently of the page's code. Screenshots go to
// test-output/demo/.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ScalableCuckooFilter } from '../../dist/cjs/index.node.js';
import { scalableBuckets, scalableShape, traceGrowingAdd, type GrowthTrace, type ScalableShape } from '../../dist/cjs/inspect.node.js';
import { repoRoot } from '../support/pack';
import { pageErrors } from './support/browser';
import { buildDemoInto, demoInBrowser, phone, settle, shoot } from './support/demo-page';

// Not build/demo: demo.test.ts builds that one, and the two may run at once.
const demoDir = join(repoRoot, 'build', 'demo-growth-test');
const options = { initialCapacity: 16, fpr: 0.01, growth: 1.2, seed: 5 };
const query = '?mode=growth&cap=16&fpr=0.01&g=1.2&seed=5';
// The page measures false positives on these never-added items.
const probes = Float64Array.from({ length: 100_000 }, (_, i) => 2 ** 40 + i);

const demo = demoInBrowser(demoDir, () => buildDemoInto(demoDir));
const openGrowth = (address = query, viewport?: { width: number; height: number }, prepare?: (page: Page) => Promise<void>) => demo.open(address, viewport, prepare);

async function gauge(page: Page, name: string): Promise<number> {
  return page.$eval(`[data-gauge="${name}"]`, (node) => Number((node as HTMLElement).dataset.value));
}

/** The slot values the page shows, for the m buckets the table has. */
async function tableOnPage(page: Page): Promise<number[]> {
  const { values, buckets } = await page.$eval('#growth-table', (table) => ({
    values: Array.from(table.querySelectorAll('.gslot'), (cell) => Number((cell as HTMLElement).dataset.value)),
    buckets: Number((table as HTMLElement).dataset.buckets),
  }));
  return values.slice(0, 4 * buckets);
}

function measured(filter: ScalableCuckooFilter): number {
  return filter.hasMany(probes).reduce((sum, a) => sum + a, 0) / probes.length;
}

async function expectShapeOnPage(page: Page, shape: ScalableShape, items: number): Promise<void> {
  expect(await gauge(page, 'buckets')).toBe(shape.bucketCount);
  expect(await gauge(page, 'level')).toBe(shape.level);
  expect(await gauge(page, 'split')).toBe(shape.splitBucket);
  expect(await gauge(page, 'items')).toBe(items);
  const table = await page.$eval('#growth-table', (node) => ({ ...(node as HTMLElement).dataset }));
  expect(table).toMatchObject({ buckets: String(shape.bucketCount), level: String(shape.level), split: String(shape.splitBucket) });
  expect(await page.textContent('#growth-strip')).toContain(`m = 2^L + s = ${2 ** shape.level} + ${shape.splitBucket} = ${shape.bucketCount} buckets`);
}

/** hashing.hpp, hash id 3: a slot is fingerprint << T | 2^e + x; a split sends it by x's lowest bit, which it loses. */
function tail(value: number, tailBits: number) {
  const t = value & (2 ** tailBits - 1);
  const known = 31 - Math.clz32(t);
  return { fingerprint: value >>> tailBits, known, bits: t ^ (1 << known) };
}

function expectSplitRule(before: number, route: string, after: number, tailBits: number): void {
  const b = tail(before, tailBits);
  const a = tail(after, tailBits);
  expect(a.fingerprint).toBe(b.fingerprint);
  if (route === 'both') {
    expect([b.known, after]).toEqual([0, before]);
    return;
  }
  expect(b.bits & 1).toBe(route === 'low' ? 0 : 1);
  expect([a.known, a.bits]).toEqual([b.known - 1, b.bits >>> 1]);
}

const nonZeroSorted = (values: Iterable<number>) => [...values].filter((v) => v !== 0).sort((x, y) => x - y);

describe('growth mode, one item at a time', () => {
  let page: Page;
  let core: ScalableCuckooFilter;
  let added = 0;

  beforeAll(async () => {
    core = ScalableCuckooFilter.create(options);
    page = await openGrowth();
  });
  afterAll(async () => {
    await page?.close();
    core?.dispose();
  });

  test('opens from the address with the core’s first table, the fixed-size panels hidden', async () => {
    expect(new URL(page.url()).search).toBe(query);
    expect(await page.getAttribute('[data-mode-link="growth"]', 'aria-current')).toBe('page');
    expect(await page.isVisible('#growth-table')).toBe(true);
    expect(await page.isVisible('#table')).toBe(false);
    await expectShapeOnPage(page, scalableShape(core), 0);
    expect(scalableShape(core).bucketCount).toBe(5);
    expect(await tableOnPage(page)).toEqual(new Array(20).fill(0));
    expect(await gauge(page, 'slot-bits')).toBe(core.slotBits);
    expect(await gauge(page, 'promise')).toBe(0.01);
    expect(await gauge(page, 'bound')).toBe(core.fprBound);
    expect(await page.title()).toContain('grows');
    await shoot(page, 'growth-laptop-empty');
    expect(pageErrors(page)).toEqual([]);
  });

  test('each add shows the core’s table, until the first growth, whose splits follow the tail bits', async () => {
    let from = scalableShape(core);
    let growthInNode: GrowthTrace = { added: false, growths: [] };
    while (scalableShape(core).bucketCount === from.bucketCount) {
      from = scalableShape(core);
      await page.keyboard.press('n');
      await settle(page);
      growthInNode = traceGrowingAdd(core, `item-${++added}`);
      expect(await tableOnPage(page)).toEqual([...scalableBuckets(core).slots]);
      expect(await gauge(page, 'items')).toBe(added);
    }
    const to = scalableShape(core);
    await expectShapeOnPage(page, to, added);
    expect(added).toBeLessThan(20);

    // The split list, against the core's table after the growth.
    const after = scalableBuckets(core).slots;
    const waited = growthInNode.growths.some((growth) => growth.held > 0);
    const splits = await page.$$eval('#split-list .split', (items) =>
      items.map((item) => ({ split: { ...(item as HTMLElement).dataset }, moves: Array.from(item.querySelectorAll('.move'), (move) => ({ ...(move as HTMLElement).dataset })) })),
    );
    expect(splits.length).toBe(to.bucketCount - from.bucketCount);
    for (const split of splits) {
      const [bucket, sibling, level] = ['bucket', 'sibling', 'level'].map((key) => Number(split.split[key]));
      expect(sibling).toBe(2 ** level + bucket);
      for (const move of split.moves) expectSplitRule(Number(move.before), move.route!, Number(move.after), to.tailBits);
      // The split's entries are where it put them; an entry that waited outside the table is put back after the
      // splits, wherever its buckets have room (its evictions may move others), so with one the halves are compared
      // to the core's trace in Node instead.
      const into = (routes: string[]) =>
        nonZeroSorted(split.moves.filter((m) => routes.includes(m.route!) && m.waited === 'false').map((m) => Number(m.after)));
      if (!waited) {
        expect(into(['low', 'both'])).toEqual(nonZeroSorted(after.subarray(4 * bucket, 4 * bucket + 4)));
        expect(into(['high', 'both'])).toEqual(nonZeroSorted(after.subarray(4 * sibling, 4 * sibling + 4)));
      }
    }
    // The page lists the core's own splits: the same entries, routes and values as a trace of the same add in Node.
    const shown = splits.map(({ split, moves }) => ({
      bucket: Number(split.bucket),
      moves: moves.map((m) => ({ before: Number(m.before), route: m.route, after: Number(m.after), waited: m.waited === 'true' })),
    }));
    const routeName = { stays: 'low', moves: 'high', copied: 'both' } as const;
    expect(shown).toEqual(
      growthInNode.growths.flatMap((growth) =>
        growth.splits.map((split) => ({
          bucket: split.bucket,
          moves: split.moves.map((m) => ({ before: m.before, route: routeName[m.route], after: m.after, waited: m.held })),
        })),
      ),
    );
    expect(await page.textContent('#split-summary')).toContain(`Growth 1, at “item-${added}”: ${from.bucketCount} → ${to.bucketCount} buckets`);
    expect(await page.$$eval('#growth-log tr', (rows) => rows.length)).toBe(1);
    // The rate against the bound: the core's measurement with its 95 % interval, and the load the small table grew at.
    const row = await page.$eval('#growth-log tr', (tr) => Object.fromEntries(Object.entries((tr as HTMLElement).dataset).map(([k, v]) => [k, Number(v)])));
    const rate = measured(core);
    expect(row.measured).toBe(rate);
    expect(row.low).toBeLessThan(rate);
    expect(row.high).toBeGreaterThan(rate);
    // Wilson's interval is about ±1.96 standard errors of the sample's share.
    const halfWidth = 1.96 * Math.sqrt((rate * (1 - rate)) / probes.length);
    expect((row.high! - row.low!) / 2).toBeGreaterThan(halfWidth * 0.8);
    expect((row.high! - row.low!) / 2).toBeLessThan(halfWidth * 1.25);
    expect(row.grewAt).toBe((from.entryCount + 1) / (4 * from.bucketCount));
    expect(row.grewAt).toBeGreaterThan(0.9);
    const caption = await page.textContent('#caption');
    expect(caption).toContain('(95\u00a0% interval ');
    expect(caption).toContain(`for 90\u00a0% load, `);
    expect(caption).toContain(`at the ${(row.grewAt! * 100).toFixed(1)}\u00a0% this table grew at`);
    expect(pageErrors(page)).toEqual([]);
  });

  test('the growth step by step: the table grows a bucket per split, and its last step is the core’s', async () => {
    const to = scalableShape(core);
    await page.keyboard.press('Space'); // pause
    await page.keyboard.press('Home');
    expect(await page.textContent('#caption')).toContain(`the table grows by 1.2`);
    const first = Number(await page.$eval('#growth-table', (n) => (n as HTMLElement).dataset.buckets));
    expect(first).toBeLessThan(to.bucketCount);
    expect(await gauge(page, 'buckets')).toBe(first);
    expect(await page.$$eval('.gbucket[data-state="future"]', (n) => n.length)).toBe(to.bucketCount - first);
    await page.keyboard.press('ArrowRight');
    expect(await page.textContent('#caption')).toMatch(/^Split bucket \d+/);
    expect(Number(await page.$eval('#growth-table', (n) => (n as HTMLElement).dataset.buckets))).toBe(first + 1);
    // The gauges show the same moment as the table: one split done.
    expect(await gauge(page, 'buckets')).toBe(first + 1);
    expect(await page.$$eval('#split-list .split.current', (n) => n.length)).toBe(1);
    await shoot(page, 'growth-laptop-split');
    await page.keyboard.press('End');
    expect(await tableOnPage(page)).toEqual([...scalableBuckets(core).slots]);
    await page.keyboard.press('Space'); // play again
    expect(pageErrors(page)).toEqual([]);
  });
});

describe('growth mode, items keep coming', () => {
  test('while items keep coming, every panel shows one moment: the table, the gauges, the log and the lookups agree', async () => {
    const page = await openGrowth();
    await page.click('#growth-keep');
    const seen = new Set<number>();
    for (let sample = 0; sample < 12; sample++) {
      await page.waitForTimeout(250);
      // Read in one evaluation, between two frames of the page.
      const now = await page.evaluate(() => {
        const value = (name: string) => Number(document.querySelector<HTMLElement>(`[data-gauge="${name}"]`)!.dataset.value);
        const newestRow = document.querySelector<HTMLElement>('#growth-log tr');
        return {
          items: value('items'),
          buckets: value('buckets'),
          found: value('found'),
          foundText: document.querySelector('[data-gauge="found"]')!.textContent!,
          tableBuckets: Number(document.querySelector<HTMLElement>('#growth-table')!.dataset.buckets),
          newestRow: newestRow === null ? null : { items: Number(newestRow.dataset.items), to: Number(newestRow.dataset.to) },
          rows: Number(document.querySelector<HTMLElement>('#growth-log')!.dataset.rows),
        };
      });
      seen.add(now.items);
      expect(now.tableBuckets).toBe(now.buckets);
      expect(now.found).toBe(now.items);
      expect(now.foundText).toContain(`of ${now.items.toLocaleString('en-US')}`);
      if (now.newestRow !== null) {
        expect(now.newestRow.items).toBeLessThanOrEqual(now.items);
        // The newest growth is the table on show, or one the table has since grown past.
        expect(now.newestRow.to).toBeLessThanOrEqual(now.buckets);
      }
    }
    await page.click('#growth-keep'); // stop
    expect(seen.size).toBeGreaterThan(3);
    expect(pageErrors(page)).toEqual([]);
  });

  test('add 1,500 fast-forwarded: every growth logged with the core’s shapes and rates, under the promise; every item found', async () => {
    const page = await openGrowth();
    for (let i = 0; i < 6; i++) await page.keyboard.press('+');
    expect(await page.textContent('#speed')).toBe('64×');
    await page.fill('#growth-count', '1500');
    await page.click('#growth-add-n');
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('Added 1,500 items'), undefined, { timeout: 120000 });
    await page.waitForSelector('html[data-busy="false"]');

    using core = ScalableCuckooFilter.create(options);
    const growths: Array<{ items: number; from: ScalableShape; to: ScalableShape; measured: number; bound: number }> = [];
    for (let i = 1; i <= 1500; i++) {
      const from = scalableShape(core);
      core.add(`item-${i}`);
      const to = scalableShape(core);
      if (to.bucketCount !== from.bucketCount) growths.push({ items: i, from, to, measured: measured(core), bound: core.fprBound });
    }
    expect(growths.length).toBeGreaterThan(15);
    const shape = scalableShape(core);
    await expectShapeOnPage(page, shape, 1500);
    expect(shape.level - shape.initialLevel).toBeGreaterThanOrEqual(5); // doubled at least five times
    expect(await gauge(page, 'load')).toBe(core.loadFactor);
    expect(await gauge(page, 'bits')).toBe(core.bitsPerItem);
    expect(await gauge(page, 'bound')).toBe(core.fprBound);
    expect(await gauge(page, 'measured')).toBe(measured(core));
    expect(await gauge(page, 'measured')).toBeLessThanOrEqual(options.fpr);
    expect(await gauge(page, 'found')).toBe(1500);
    for (let i = 1; i <= 1500; i++) expect(core.has(`item-${i}`)).toBe(true);

    // The log, newest first: one row per growth, each the core's.
    const rows = await page.$$eval('#growth-log tr', (trs) => trs.map((tr) => ({ ...(tr as HTMLElement).dataset })));
    expect(rows.map((row) => Number(row.index))).toEqual(growths.map((_, k) => growths.length - k));
    for (const [k, growth] of [...growths].reverse().entries()) {
      const row = rows[k]!;
      expect(Number(row.items)).toBe(growth.items);
      expect([Number(row.from), Number(row.to)]).toEqual([growth.from.bucketCount, growth.to.bucketCount]);
      expect([Number(row.level), Number(row.split)]).toEqual([growth.to.level, growth.to.splitBucket]);
      expect(Number(row.copies)).toBe(growth.to.entryCount - growth.from.entryCount - 1);
      expect(Number(row.measured)).toBe(growth.measured);
      expect(Number(row.bound)).toBe(growth.bound);
      // The bound is on the expected rate: a sample of 100,000 may pass it by a little, never the promise.
      expect(growth.measured).toBeLessThanOrEqual(options.fpr);
      expect(growth.bound).toBeLessThanOrEqual(options.fpr);
    }
    expect(Number(await page.$eval('#rate-chart', (n) => (n as HTMLElement).dataset.points))).toBe(growths.length);
    expect(Number(await page.$eval('#bits-chart', (n) => (n as HTMLElement).dataset.points))).toBe(growths.length);
    expect(await page.$eval('#growth-table', (n) => (n as HTMLElement).dataset.mode)).toBe('compact');
    await shoot(page, 'growth-laptop-grown');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('values out of range fall back to the defaults, the form starts a new filter, and a click leads back to the fixed size', async () => {
    const page = await openGrowth('?mode=growth&cap=0&fpr=2&g=3&seed=-1');
    expect(new URL(page.url()).search).toBe('?mode=growth&cap=16&fpr=0.01&g=1.2&seed=0');
    await page.fill('input[name="cap"]', '100');
    await page.selectOption('select[name="g"]', '2');
    await page.click('#growth-params button[type="submit"]');
    await page.waitForFunction(() => location.search.includes('cap=100'));
    expect(new URL(page.url()).search).toBe('?mode=growth&cap=100&fpr=0.01&g=2&seed=0');
    using core = ScalableCuckooFilter.create({ initialCapacity: 100, fpr: 0.01, growth: 2 });
    await expectShapeOnPage(page, scalableShape(core), 0);

    await page.click('[data-mode-link="fixed"]');
    await page.waitForSelector('html[data-mode="fixed"][data-ready="true"]');
    expect(new URL(page.url()).search).toBe('?m=16&b=4&f=6&kicks=500&seed=0&semi=0&fmt=bin');
    expect(await page.isVisible('#table')).toBe(true);
    expect(await page.isVisible('#growth-table')).toBe(false);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});

describe('growth mode at 1×, on the page’s own clock', () => {
  test('“Keep adding” takes 16 items to 10,000 within 60 s of page time, its first growth played step by step; Stop says where it got to', async () => {
    const page = await openGrowth('?mode=growth', undefined, (p) => p.clock.install());
    expect(await page.textContent('#speed')).toBe('1×');
    expect(await page.textContent('.intro p[data-for-mode="growth"]')).toContain('A filter made for 16 items that gets 10,000');
    await page.keyboard.press('k');
    let reachedAt: number | undefined;
    let stepsSeen = 0;
    for (let second = 1; second <= 60 && reachedAt === undefined; second++) {
      await page.clock.runFor(1000);
      stepsSeen = Math.max(stepsSeen, Number((await page.textContent('#step-count'))?.match(/of (\d+)/)?.[1] ?? 0));
      if ((await gauge(page, 'items')) >= 10_000) reachedAt = second;
    }
    console.log(`growth mode at 1×: 10,000 items after ${reachedAt} s of page time`);
    expect(reachedAt).toBeLessThanOrEqual(60);
    // The first growth was played step by step; later ones did not stop the run.
    expect(stepsSeen).toBeGreaterThan(2);
    expect(Number(await page.$eval('#growth-log', (n) => (n as HTMLElement).dataset.rows))).toBeGreaterThan(20);
    await page.keyboard.press('k');
    await page.clock.runFor(100);
    const items = await gauge(page, 'items');
    expect(await page.textContent('#caption')).toMatch(new RegExp(`^Stopped\\. Added ${items.toLocaleString('en-US')} items: \\d+ growths, 5 → [\\d,]+ buckets`));
    expect(await page.textContent('#growth-keep')).toBe('Keep adding');
    expect(await gauge(page, 'found')).toBe(items);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});

describe('growth mode on a phone-width screen', () => {
  test('nothing is wider than the screen, in the first growths and after many', async () => {
    const page = await openGrowth(query, phone);
    await shoot(page, 'growth-phone-empty', false);
    for (let i = 0; i < 5; i++) await page.keyboard.press('+');
    await page.fill('#growth-count', '40');
    await page.click('#growth-add-n');
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('Added 40 items'), undefined, { timeout: 60000 });
    await page.waitForSelector('html[data-busy="false"]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await page.keyboard.press('Home');
    await page.$eval('.growth-table-panel', (panel) => panel.scrollIntoView());
    await shoot(page, 'growth-phone-table', false);
    await page.fill('#growth-count', '2000');
    await page.click('#growth-add-n');
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('Added 2,000 items'), undefined, { timeout: 120000 });
    await page.waitForSelector('html[data-busy="false"]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await shoot(page, 'growth-phone-grown');
    expect(await gauge(page, 'found')).toBe(2040);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
