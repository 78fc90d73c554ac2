// Two views of the fixed-size mode that read the core's newer inspection in
// Chromium, checked against the core in Node: a semi-sorted bucket as its
// table stores it (semiSortedBucket: rank, nibbles, low bits, bits saved), for
// the bucket pointed at, focused or chosen; and, after a delete frees a slot
// in a full filter, the stashed fingerprint's walk replayed kick by kick
// (traceDelete's stashReplacement). Screenshots at 1280 and 360 px wide.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CuckooFilter } from '../../dist/cjs/index.node.js';
import { buckets, locate, semiSortedBucket, stash, traceAdd, traceDelete } from '../../dist/cjs/inspect.node.js';
import { repoRoot } from '../support/pack';
import { buildDemoInto, demoInBrowser, settle, shoot, shootAt } from './support/demo-page';
import { chainOnPage, expectNoErrors, tableOnPage } from './support/demo-readers';

const demoDir = join(repoRoot, 'build', 'demo-semi-stash-test');
const openDemo = demoInBrowser(demoDir, () => buildDemoInto(demoDir)).open;
const narrowPhone = { width: 360, height: 780 };

async function semiOnPage(page: Page) {
  return page.$eval('#semi-bucket-view', (node) => {
    const d = (node as HTMLElement).dataset;
    const list = (text: string | undefined) => (text ?? '').split(',').map(Number);
    return {
      bucket: Number(d.bucket),
      fingerprints: list(d.fingerprints),
      highNibbles: list(d.nibbles),
      rank: Number(d.rank),
      lowBits: list(d.low),
      storedBits: Number(d.stored),
      plainBits: Number(d.plain),
    };
  });
}

async function insertNumbered(page: Page, count: number): Promise<void> {
  await page.fill('#bulk-count', String(count));
  await page.click('#bulk');
  await page.waitForFunction((n) => document.querySelector('#caption')?.textContent?.startsWith(`Inserted ${n} items`), count, { timeout: 60000 });
  await page.waitForSelector('html[data-busy="false"]');
}

describe('a semi-sorted bucket as stored', () => {
  test.each([['laptop', { width: 1280, height: 800 }], ['phone', narrowPhone]] as const)('%s: the bucket pointed at, focused or chosen is the core’s', async (name, viewport) => {
    const page = await openDemo('?m=16&b=4&f=8&semi=1&seed=3', viewport);
    expect(await page.isVisible('#semi-panel')).toBe(true);
    await insertNumbered(page, 40);
    using core = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8, seed: 3, semiSort: true });
    for (let i = 1; i <= 40; i++) expect(core.add(`item-${i}`)).toBe(true);
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    const expectBucket = async (bucket: number) => {
      const stored = semiSortedBucket(core, bucket);
      const shown = await semiOnPage(page);
      expect(shown).toEqual({
        bucket,
        fingerprints: [...stored.fingerprints],
        highNibbles: [...stored.highNibbles],
        rank: stored.rank,
        lowBits: [...stored.lowBits],
        storedBits: stored.storedBits,
        plainBits: stored.plainBits,
      });
      // The table's own bucket, sorted; 12 + 4 (f − 4) bits, one saved per entry.
      expect(shown.fingerprints).toEqual([...buckets(core, bucket, 1).slots].sort((a, b) => a - b));
      expect(shown.highNibbles).toEqual(shown.fingerprints.map((fp) => fp >>> 4));
      expect(shown.storedBits).toBe(28);
      expect(shown.plainBits - shown.storedBits).toBe(4);
      expect(shown.rank).toBeLessThan(3876);
    };
    const i1 = locate(core, 'item-40').i1;
    await page.hover(`#table .bucket[data-bucket="${i1}"]`);
    await expectBucket(i1);
    await page.focus('#table .bucket[data-bucket="3"]');
    await page.keyboard.press('Tab'); // to bucket 4, by keyboard
    await expectBucket(4);
    await page.fill('#semi-bucket', '11');
    await expectBucket(11);
    // An insert into the bucket on show updates it once the animation ends.
    const trace = traceAdd(core, 'fig');
    await page.fill('#semi-bucket', String(trace.placed?.bucket ?? trace.i1));
    await page.fill('#item', 'fig');
    await page.keyboard.press('Enter');
    await settle(page);
    await expectBucket(trace.placed?.bucket ?? trace.i1);
    if (name === 'phone') expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(narrowPhone.width);
    await shootAt(page, '#semi-panel', `${name}-semi-bucket`);
    expectNoErrors(page);
    await page.close();
  });

  test('hidden for a plain filter', async () => {
    const page = await openDemo('?m=16&b=4&f=8&semi=0');
    expect(await page.isVisible('#semi-panel')).toBe(false);
    expect(await page.$eval('#table .bucket', (n) => (n as HTMLElement).tabIndex)).toBe(-1);
    expectNoErrors(page);
    await page.close();
  });
});

describe('the stash walks again after a delete', () => {
  test.each([['laptop', { width: 1280, height: 800 }], ['phone', narrowPhone]] as const)('%s: the walk on the page is the core’s, kick by kick', async (name, viewport) => {
    const page = await openDemo('?m=16&b=4&f=6&seed=0', viewport);
    await page.keyboard.press('f');
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('First failure'), undefined, { timeout: 60000 });
    await page.waitForSelector('html[data-busy="false"]');
    using core = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6, seed: 0 });
    const items: string[] = [];
    do items.push(`item-${items.length + 1}`);
    while (traceAdd(core, items.at(-1)!).stashed === null);
    const stashed = stash(core);
    expect(stashed.occupied).toBe(true);
    // An item whose delete makes the stashed fingerprint kick before it lands.
    const item = items.find((candidate) => {
      using copy = core.clone();
      const walk = traceDelete(copy, candidate).stashReplacement;
      return walk !== null && walk.kicks.length > 1 && walk.end === 'placed';
    })!;
    expect(item).toBeDefined();
    const trace = traceDelete(core, item);
    const walk = trace.stashReplacement!;
    expect(walk.kicks[0]!.incoming).toBe(stashed.fingerprint);

    await page.fill('#item', item);
    await page.click('#delete');
    await settle(page);
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    expect(await page.$eval('#stash', (n) => n.classList.contains('empty'))).toBe(true);
    const chain = await chainOnPage(page);
    expect(chain.map(({ hidden, ...kick }) => kick)).toEqual(walk.kicks);
    expect(await page.$eval('#chain .kick-end', (n) => ({ ...(n as HTMLElement).dataset }))).toEqual({ end: 'placed', bucket: String(walk.bucket), slot: String(walk.slot) });
    expect(await page.textContent('#caption')).toContain(`lands in slot ${walk.slot} of bucket ${walk.bucket} after ${walk.kickCount} kicks. The stash is empty`);

    // Replayed: the removal, the freed slot with the stash's two buckets, then one step per kick.
    await page.keyboard.press('Space');
    await page.keyboard.press('Home');
    expect(await page.textContent('#step-count')).toBe(`step 1 of ${walk.kicks.length + 4}`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.textContent('#caption')).toContain(`the stash holds ${stashed.fingerprint.toString(2).padStart(6, '0')}`);
    expect(await page.$$eval('.bucket.is-current', (n) => n.map((b) => Number((b as HTMLElement).dataset.bucket)))).toEqual([stashed.bucket]);
    for (const [k, kick] of walk.kicks.entries()) {
      await page.keyboard.press('ArrowRight');
      expect(await page.textContent('#caption')).toContain(`Kick ${k + 1}:`);
      const cell = `.bucket[data-bucket="${kick.bucket}"] .slot[data-slot="${kick.slot}"]`;
      expect(await page.$eval(cell, (n) => Number((n as HTMLElement).dataset.fp))).toBe(kick.incoming);
      expect((await chainOnPage(page)).filter((c) => !c.hidden)).toHaveLength(k + 1);
      if (k === 0) await (name === 'phone' ? shootAt(page, '.kicks-panel', `${name}-stash-walk`) : shoot(page, `${name}-stash-walk`, false));
    }
    if (name === 'phone') expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(narrowPhone.width);
    expectNoErrors(page);
    await page.close();
  });
});
