// What the fixed-size mode teaches beside the table, in Chromium, against the
// core run here in Node: who wins the Bloom side-by-side and from which f the
// cuckoo filter would; the example item (two different buckets); a false
// positive found and walked through slot by slot, with its chance; the kick
// chart's axis and the bits-per-item note; and the presenter mode's steps,
// keys and addresses. Screenshots go to test-output/demo/.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CuckooFilter } from '../../dist/cjs/index.node.js';
import { bloomExpectedFpr, buckets, cuckooRates, locate, optimalBloomHashCount, practicalMaxLoad, tableBits, traceAdd, traceHas } from '../../dist/cjs/inspect.node.js';
import { repoRoot } from '../support/pack';
import { buildDemoInto, demoInBrowser, settle, shootAt } from './support/demo-page';
import { expectNoErrors, relationOnPage } from './support/demo-readers';

const demoDir = join(repoRoot, 'build', 'demo-teaching-test');
const openDemo = demoInBrowser(demoDir, () => buildDemoInto(demoDir)).open;

/** The verdict's two rates for a 16 x 4 table of f bits, full to the practical load of b = 4, from the core's own formulas. */
function match(fingerprintBits: number, semiSort: boolean) {
  const load = practicalMaxLoad(4);
  using filter = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits, semiSort, seed: 0 });
  const bits = tableBits(filter);
  const items = 64 * load;
  return { cuckoo: cuckooRates(4, fingerprintBits, load).expectedFpr, bloom: bloomExpectedFpr(bits, optimalBloomHashCount(bits / items), items) };
}

/** The smallest f from which the cuckoo filter's rate stays below Bloom's up to 16 bits. */
function winsFrom(semiSort: boolean): number {
  let from = 17;
  for (let f = 16; f >= (semiSort ? 5 : 2); f--) {
    const m = match(f, semiSort);
    if (!(m.cuckoo < m.bloom)) break;
    from = f;
  }
  return from;
}

describe('the Bloom side-by-side says who wins, and why', () => {
  test('at the default (f = 6) the Bloom filter wins, in the core’s numbers; its links set up tables where the cuckoo filter does', async () => {
    const page = await openDemo();
    const verdict = await page.$eval('#bloom-verdict', (n) => ({ ...(n as HTMLElement).dataset, text: n.textContent ?? '' }) as Record<string, string | undefined> & { text: string });
    const now = match(6, false);
    expect(verdict.winner).toBe('bloom');
    expect([Number(verdict.cuckoo), Number(verdict.bloom)]).toEqual([now.cuckoo, now.bloom]);
    expect(now.bloom).toBeLessThan(now.cuckoo);
    expect(verdict.text).toContain('Here the Bloom filter wins, and that is right.');
    expect(verdict.text).toContain('only below a rate of about 3');
    const plain = winsFrom(false);
    const semi = winsFrom(true);
    expect(verdict.winsFrom).toBe(`${plain},${semi}`);
    expect(plain).toBeLessThanOrEqual(16);
    const links = await page.$$eval('#bloom-verdict a', (anchors) => anchors.map((a) => a.textContent));
    expect(links).toEqual([`f = ${plain}`, `f = ${semi}, semi-sorted`]);
    await shootAt(page, '.bloom-panel', 'laptop-bloom-verdict');
    // A link sets the table up without reloading the page: then the cuckoo filter wins.
    await page.click('#bloom-verdict a >> nth=0');
    await page.waitForFunction((f) => location.search.includes(`&f=${f}&`), plain);
    expect(await page.$eval('#bloom-verdict', (n) => (n as HTMLElement).dataset.winner)).toBe('cuckoo');
    expect(await page.textContent('#bloom-verdict')).toContain('That is the paper’s claim');
    expect(await page.$eval('#fplen-panel', (n) => (n as HTMLElement).dataset.state)).not.toBe('idle');
    expectNoErrors(page);
    await page.close();
  });
});

describe('the default example', () => {
  test('the item box offers an item whose two buckets differ, and the relation panel works it out before anything is added', async () => {
    const page = await openDemo();
    using core = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6, seed: 0 });
    // The old placeholder, “apple”, is the one-bucket case at these parameters: the reason for choosing.
    expect(locate(core, 'apple').i1).toBe(locate(core, 'apple').i2);
    const example = (await page.getAttribute('#item', 'placeholder'))!;
    const where = locate(core, example);
    expect(where.i1).not.toBe(where.i2);
    const shown = await relationOnPage(page);
    expect(shown.values).toEqual({ i1: where.i1, hashMod: where.fingerprintHashMod, i2: where.i2, back: where.i1, fingerprintHash: where.fingerprintHash });
    expect(shown.check).toContain('✓ The same XOR leads back');
    expect(shown.check).not.toContain('one bucket');
    expect(await page.$eval('#relation', (n) => (n as HTMLElement).dataset.example)).toBe(example);
    expectNoErrors(page);
    await page.close();
  });
});

describe('a false positive, walked through', () => {
  test('items never added are looked up until one gets a “maybe”; its lookup plays slot by slot, with 2b / 2^f beside it', async () => {
    const page = await openDemo();
    using core = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6, maxKicks: 500, seed: 0 });
    await page.fill('#bulk-count', '40');
    await page.click('#bulk');
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('Inserted 40 items'), undefined, { timeout: 60000 });
    await settle(page);
    for (let i = 1; i <= 40; i++) traceAdd(core, `item-${i}`);
    await page.keyboard.press('p');
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#fp-status')?.dataset.item !== undefined);
    const status = await page.$eval('#fp-status', (n) => ({ ...(n as HTMLElement).dataset, text: n.textContent ?? '' }) as Record<string, string | undefined> & { text: string });
    // The first of stranger-1, stranger-2, … the core answers "maybe" for.
    let tried = 1;
    while (!traceHas(core, `stranger-${tried}`).found) tried++;
    expect(status.item).toBe(`stranger-${tried}`);
    expect(Number(status.tried)).toBe(tried);
    const trace = traceHas(core, status.item!);
    // Slot by slot: i1's slots, then i2's, up to the first that holds the fingerprint.
    const { slots } = buckets(core);
    const expected: Array<{ bucket: number; slot: number; fp: number }> = [];
    let matched = false;
    for (const bucket of trace.i1 === trace.i2 ? [trace.i1] : [trace.i1, trace.i2]) {
      for (let slot = 0; slot < 4 && !matched; slot++) {
        expected.push({ bucket, slot, fp: slots[bucket * 4 + slot]! });
        matched = slots[bucket * 4 + slot] === trace.fingerprint;
      }
    }
    expect(matched).toBe(true);
    const listed = await page.$$eval('#fp-list li', (items) => items.map((li) => ({ bucket: Number((li as HTMLElement).dataset.bucket), slot: Number((li as HTMLElement).dataset.slot), fp: Number((li as HTMLElement).dataset.fp) })));
    expect(listed).toEqual(expected);
    expect(await page.$$eval('#fp-list li.match', (n) => n.length)).toBe(1);
    expect(status.text).toContain('At most 2b / 2^f = 8 / 64 = 12.5\u00a0% (eq. 5)');
    expect(Number(status.expected)).toBe(core.expectedFpr);
    expect(Number(status.bound)).toBe(core.fprBound);
    // On the table: a step per slot compared after the first, the last one the match.
    await page.keyboard.press('Space'); // pause
    await page.keyboard.press('Home');
    expect(await page.textContent('#step-count')).toBe(`step 1 of ${expected.length + 1}`);
    for (let k = 0; k < expected.length; k++) {
      await page.keyboard.press('ArrowRight');
      const { bucket, slot } = expected[k]!;
      expect(await page.textContent('#caption')).toContain(`Slot ${slot} of bucket ${bucket}`);
    }
    expect(await page.textContent('#caption')).toContain(`yet “${status.item}” was never added: a false positive.`);
    expect(await page.$$eval('#table .slot.is-match', (n) => n.length)).toBe(1);
    await page.keyboard.press('Space');
    await shootAt(page, '#fp-panel', 'laptop-false-positive');
    expectNoErrors(page);
    await page.close();
  });

  test('an empty table has none to find, and says so', async () => {
    const page = await openDemo();
    await page.click('#fp-find');
    expect(await page.textContent('#fp-status')).toContain('the table is empty, so nothing can match');
    expectNoErrors(page);
    await page.close();
  });
});

describe('the gauges’ smaller points', () => {
  test('the kick chart names its log scale; bits per item explains a stashed item', async () => {
    const page = await openDemo();
    await page.keyboard.press('f');
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('First failure'), undefined, { timeout: 60000 });
    await settle(page);
    const ticks = await page.$$eval('#kick-chart text.tick', (nodes) => nodes.map((n) => n.textContent));
    expect(ticks.slice(0, 5)).toEqual(['0', '1', '10', '100', '500']);
    expect(await page.$$eval('#kick-chart text.axis', (nodes) => nodes.map((n) => n.textContent))).toEqual(['load', 'kicks (log scale)']);
    using core = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6, maxKicks: 500, seed: 0 });
    for (let i = 1; core.stashed === 0; i++) core.add(`item-${i}`);
    const note = await page.textContent('[data-gauge="bits"] .gauge-note');
    expect(note).toBe(`${tableBits(core)} table bits (6 per slot) / ${core.size} items, one of them in the stash, outside the table: so fewer bits per item than per slot`);
    expect(await page.$eval('[data-gauge="bits"]', (n) => Number((n as HTMLElement).dataset.value))).toBe(core.bitsPerItem);
    expect(core.bitsPerItem).toBeLessThan(6);
    expect(await page.textContent('#fpr-chart')).toContain('top: the bound 2b/2^f');
    expectNoErrors(page);
    await page.close();
  });
});

describe('presenter mode', () => {
  const stepOf = (page: Page) => page.$eval('#presenter', (n) => Number((n as HTMLElement).dataset.step));
  /** The step's view: its top on screen, below the sticky bar, above the presenter's panel. */
  async function viewOnScreen(page: Page, selector: string): Promise<boolean> {
    return page.$eval(selector, (node) => {
      const top = node.getBoundingClientRect().top;
      const bar = document.querySelector('.playbar')!.getBoundingClientRect().bottom;
      const panel = document.querySelector('#presenter')!.getBoundingClientRect().top;
      return top >= bar - 1 && top < panel;
    });
  }

  test('ten steps in the paper’s order; next and back by key and button; the step in the address', async () => {
    const page = await openDemo('?present=1');
    await page.waitForSelector('#presenter:not([hidden])');
    expect(await stepOf(page)).toBe(1);
    expect(await page.textContent('#presenter-step')).toBe('1 / 10');
    expect(await page.isDisabled('#presenter-back')).toBe(true);
    const sections: string[] = [];
    for (let step = 1; step <= 10; step++) {
      if (step > 1) await page.keyboard.press(step % 2 === 0 ? 'PageDown' : ']');
      expect(await stepOf(page)).toBe(step);
      expect(new URL(page.url()).searchParams.get('present')).toBe(String(step));
      sections.push((await page.textContent('#presenter-section'))!);
      expect((await page.textContent('#presenter-script'))!.length).toBeGreaterThan(200);
    }
    expect(sections[0]).toBe('Sec. 1–2');
    // The paper's sections in order: each step's first section number at least the last one's.
    const first = sections.map((s) => Number(/Sec\. (\d+)/.exec(s)![1]));
    expect(first).toEqual([...first].sort((a, b) => a - b));
    expect(await page.isDisabled('#presenter-next')).toBe(true);
    await page.keyboard.press('PageUp');
    expect(await stepOf(page)).toBe(9);
    await page.keyboard.press('[');
    expect(await stepOf(page)).toBe(8);
    await page.click('#presenter-back');
    expect(await stepOf(page)).toBe(7);
    await page.click('#presenter-next');
    expect(await stepOf(page)).toBe(8);
    // Keys typed into a field stay there.
    await page.focus('#item');
    await page.keyboard.press('PageDown');
    expect(await stepOf(page)).toBe(8);
    expectNoErrors(page);
    await page.close();
  });

  test('each step opens its view with its state prepared; a link opens the class at a step', async () => {
    const views = ['.bloom-panel', '.relation-panel', '.kicks-panel', '#fp-panel', '.bloom-panel', '#fplen-panel', '#bsize-panel', '#semi-panel', '#space-panel', '.gauges-panel'];
    for (const [index, view] of views.entries()) {
      const page = await openDemo(`?present=${index + 1}`);
      await page.waitForSelector(`#presenter[data-step="${index + 1}"]`);
      await page.waitForTimeout(1200); // the view is brought back after panels above it settle
      expect(await viewOnScreen(page, view)).toBe(true);
      const params = new URL(page.url()).searchParams;
      expect(params.get('seed')).toBe('0');
      switch (index + 1) {
        case 1:
          expect(Number(await page.$eval('[data-gauge="load"]', (n) => (n as HTMLElement).dataset.value))).toBeGreaterThan(0);
          break;
        case 2:
          expect(await page.inputValue('#item')).toBe(await page.getAttribute('#item', 'placeholder'));
          break;
        case 3:
          expect(Number(await page.$eval('#chain', (n) => (n as HTMLElement).dataset.kickCount))).toBeGreaterThan(0);
          break;
        case 4:
          expect(await page.$eval('#fp-status', (n) => (n as HTMLElement).dataset.item)).toMatch(/^stranger-\d+$/);
          break;
        case 5:
          expect(await page.textContent('#bloom-delete')).toContain('“item-7”');
          break;
        case 8:
          expect(params.get('semi')).toBe('1');
          expect(await page.isVisible('#semi-panel')).toBe(true);
          expect(await page.$eval('#semi-bucket-view', (n) => (n as HTMLElement).dataset.fingerprints!.split(',').every((fp) => fp !== '0'))).toBe(true);
          break;
        case 9:
          expect(await page.$eval('#sizing-form', (n) => (n as HTMLElement).dataset.capacity)).toBe('1000000');
          break;
        case 10:
          await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('First failure'), undefined, { timeout: 60000 });
          break;
      }
      if (index + 1 === 3) await shootAt(page, '.kicks-panel', 'laptop-presenter-kicks');
      expectNoErrors(page);
      await page.close();
    }
  });
});
