// The fixed-size mode's live item box and its panels on the paper's analysis
// (Sec. 4, 5.1, 5.2) in Chromium, each checked against the core run here in
// Node: the item's location as locate gives it, and every measured number
// recomputed by filling the same filters with the same numbered items and
// seeds, as each panel says it measures. Screenshots of each panel at laptop
// and phone width go to test-output/demo/.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CuckooFilter } from '../../dist/cjs/index.node.js';
import { BloomFilter } from '../../dist/cjs/bloom.node.js';
import { buckets, locate, practicalMaxLoad, tableBits, traceAdd } from '../../dist/cjs/inspect.node.js';
import { repoRoot } from '../support/pack';
import { buildDemoInto, demoInBrowser, shoot, shootAt } from './support/demo-page';
import { expectNoErrors, relationOnPage, tableOnPage } from './support/demo-readers';

const demoDir = join(repoRoot, 'build', 'demo-paper-views-test');
const openDemo = demoInBrowser(demoDir, () => buildDemoInto(demoDir)).open;
const narrowPhone = { width: 360, height: 780 };

/** The numbered items 1, 2, 3, … added one by one until the filter refuses one: the table's load then. */
function loadAtFirstFailure(filter: CuckooFilter): number {
  for (let item = 1; filter.add(item); item++);
  return filter.loadFactor;
}

async function measure(page: Page, panel: string, button: string): Promise<void> {
  await page.click(button);
  await page.waitForSelector(`${panel}[data-state="done"]`, { timeout: 150000 });
}

async function widthFits(page: Page, viewport: { width: number }): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
}

describe('the item box, live', () => {
  test('typing shows the item’s fingerprint, buckets and relation, inserts nothing; clearing goes back', async () => {
    const page = await openDemo();
    using core = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6, seed: 0 });
    await page.keyboard.press('i');
    for (const item of ['banana', 'banana split']) {
      await page.keyboard.type(item.slice(item === 'banana' ? 0 : 6), { delay: 25 });
      await page.waitForSelector(`#caption[data-preview="${item}"]`);
      const where = locate(core, item);
      const shown = await relationOnPage(page);
      expect(shown.fingerprint).toBe(where.fingerprint);
      expect(shown.values).toEqual({ i1: where.i1, hashMod: where.fingerprintHashMod, i2: where.i2, back: where.i1, fingerprintHash: where.fingerprintHash });
      expect(shown.i2).toBe(where.i2.toString(2).padStart(4, '0'));
      const marked = (mark: string) => page.$$eval(`#table .bucket.is-${mark}`, (n) => n.map((b) => Number((b as HTMLElement).dataset.bucket)));
      expect(await marked('i1')).toEqual([where.i1]);
      expect(await marked('i2')).toEqual(where.i1 === where.i2 ? [] : [where.i2]);
      expect(await page.textContent('#caption')).toContain(`Typed “${item}”: its fingerprint is ${where.fingerprint.toString(2).padStart(6, '0')}, i1 = ${where.i1}`);
      expect(await tableOnPage(page)).toEqual(new Array(64).fill(0));
      expect(await page.$eval('[data-gauge="load"]', (n) => Number((n as HTMLElement).dataset.value))).toBe(0);
    }
    await shoot(page, 'laptop-live-item', false);
    await page.fill('#item', '');
    await page.waitForFunction(() => document.querySelector('#caption')?.getAttribute('data-preview') === null);
    expect(await page.$$eval('#table .bucket.is-i1', (n) => n.length)).toBe(0);
    // Enter inserts the typed item: the operation's frames replace the preview, which does not come back.
    await page.fill('#item', 'cherry');
    await page.keyboard.press('Enter');
    await page.waitForSelector('html[data-busy="false"]');
    await page.waitForTimeout(300);
    expect(await page.getAttribute('#caption', 'data-preview')).toBeNull();
    const trace = traceAdd(core, 'cherry');
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    expect(trace.placed).not.toBeNull();
    expectNoErrors(page);
    await page.close();
  });

  test('at phone width', async () => {
    const page = await openDemo('?m=12', narrowPhone);
    await page.fill('#item', 'kiwi');
    await page.waitForSelector('#caption[data-preview="kiwi"]');
    using core = new CuckooFilter({ bucketCount: 12, bucketSize: 4, fingerprintBits: 6, seed: 0 });
    const where = locate(core, 'kiwi');
    expect(where.hashId).toBe(2);
    expect((await relationOnPage(page)).values).toMatchObject({ i1: where.i1, hashMod: where.fingerprintHashMod, i2: where.i2 });
    await widthFits(page, narrowPhone);
    await shootAt(page, '.ops', 'phone-live-item');
    expectNoErrors(page);
    await page.close();
  });
});

describe('the paper’s panels, against the core', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openDemo('?m=64&b=4&f=6&kicks=500&seed=5');
  });
  afterAll(() => page?.close());

  test('fingerprint length: the load at the first failure against f, for this m and Fig. 2’s sizes', async () => {
    await measure(page, '#fplen-panel', '#fplen-measure');
    const curves = await page.$$eval('#fplen-chart polyline.curve', (lines) =>
      lines.map((line) => ({ m: Number((line as SVGElement).dataset.m), loads: (line as SVGElement).dataset.loads!.split(',').map(Number), current: line.classList.contains('current') })),
    );
    expect(curves.map((c) => c.m)).toEqual([16, 64, 256, 4096, 65536]);
    expect(curves.filter((c) => c.current).map((c) => c.m)).toEqual([64]);
    for (const curve of curves) {
      const loads = Array.from({ length: 15 }, (_, i) => {
        let lowest = 1;
        for (let trial = 0; trial < 3; trial++) {
          using filter = new CuckooFilter({ bucketCount: curve.m, bucketSize: 4, fingerprintBits: i + 2, maxKicks: 500, seed: 5 + trial });
          lowest = Math.min(lowest, loadAtFirstFailure(filter));
        }
        return lowest;
      });
      expect(curve.loads).toEqual(loads);
    }
    const listed = await page.$$eval('#fplen-loads li', (items) => items.map((li) => [Number((li as HTMLElement).dataset.f), Number((li as HTMLElement).dataset.value)]));
    expect(listed).toEqual(curves[1]!.loads.map((load, i) => [i + 2, load]));
    // Fig. 2's shape: short fingerprints fill large tables poorly; from about 6 bits every size is near 95 %.
    const large = curves.at(-1)!.loads;
    expect(large[0]).toBeLessThan(0.6);
    for (const curve of curves) for (const load of curve.loads.slice(6)) expect(load).toBeGreaterThan(0.9);
    await shootAt(page, '#fplen-panel', 'laptop-fingerprint-length');
    expectNoErrors(page);
  });

  test('2b + 1 items with one fingerprint and two buckets: eight fill them, the ninth ends in the stash', async () => {
    await page.fill('#collision-item', 'apple');
    await page.selectOption('#collision-f', '4');
    await measure(page, '#collision-panel', '#collision-run');
    const group = await page.$$eval('#collision-group li', (items) => items.map((li) => ({ ...(li as HTMLElement).dataset })));
    using core = new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 4, maxKicks: 500, seed: 5 });
    const chosen = locate(core, 'apple');
    expect(chosen.i1).not.toBe(chosen.i2);
    const expected = ['apple'];
    for (let n = 1; expected.length < 9; n++) {
      const where = locate(core, `item-${n}`);
      if (where.fingerprint === chosen.fingerprint && (where.i1 === chosen.i1 || where.i1 === chosen.i2)) expected.push(`item-${n}`);
    }
    expect(group.map((g) => g.item)).toEqual(expected);
    const pair = [chosen.i1, chosen.i2].sort((a, b) => a - b);
    for (const g of group) {
      expect(Number(g.fp)).toBe(chosen.fingerprint);
      expect([Number(g.i1), Number(g.i2)].sort((a, b) => a - b)).toEqual(pair);
    }
    const traces = expected.map((item) => traceAdd(core, item));
    expect(group.map((g) => g.outcome)).toEqual(traces.map((t) => (t.stashed ? 'stash' : `${t.placed!.bucket}:${t.placed!.slot}`)));
    expect(traces.slice(0, 8).every((t) => t.placed !== null)).toBe(true);
    const last = traces[8]!;
    expect(last.stashed).not.toBeNull();
    expect(last.kickCount).toBe(500);
    // Every kick swaps equal fingerprints between the two buckets.
    for (const kick of last.kicks) {
      expect(kick.evicted).toBe(chosen.fingerprint);
      expect(pair).toContain(kick.bucket);
    }
    const shownSlots = await page.$$eval('#collision-buckets .slot', (cells) => cells.map((c) => Number((c as HTMLElement).dataset.fp)));
    expect(shownSlots).toEqual([...buckets(core, chosen.i1, 1).slots, ...buckets(core, chosen.i2, 1).slots]);
    expect(core.add('apple')).toBe(false);
    expect(await page.textContent('#collision-status')).toContain('ends in the stash. The filter now refuses every insert');
    await shootAt(page, '#collision-panel', 'laptop-collision');
    expectNoErrors(page);
  });

  test('bucket size: b = 1, 2, 4, 8 in the same slots with the same f', async () => {
    await measure(page, '#bsize-panel', '#bsize-measure');
    const rows = await page.$$eval('#bsize-rows tr', (trs) => trs.map((tr) => Object.fromEntries(Object.entries((tr as HTMLElement).dataset).map(([k, v]) => [k, Number(v)]))));
    const probes = Float64Array.from({ length: 100_000 }, (_, i) => 2 ** 40 + i);
    expect(rows.map((r) => r.b)).toEqual([1, 2, 4, 8]);
    for (const row of rows) {
      const b = row.b as 1 | 2 | 4 | 8;
      expect(row.buckets).toBe(256 / b);
      let load = 0;
      let bits = 0;
      let fpr = 0;
      for (let trial = 0; trial < 10; trial++) {
        using filter = new CuckooFilter({ bucketCount: 256 / b, bucketSize: b, fingerprintBits: 6, maxKicks: 500, seed: 5 + trial });
        load += loadAtFirstFailure(filter);
        bits += filter.bitsPerItem;
        fpr += filter.hasMany(probes).reduce((sum, a) => sum + a, 0) / probes.length;
        expect(row.bound).toBe(filter.fprBound);
      }
      expect(row.load).toBeCloseTo(load / 10, 12);
      expect(row.bits).toBeCloseTo(bits / 10, 12);
      expect(row.fpr).toBeCloseTo(fpr / 10, 12);
    }
    // Sec. 5.1: larger buckets fill fuller, and with the same f answer yes to strangers more often.
    for (let i = 1; i < 4; i++) {
      expect(rows[i]!.load).toBeGreaterThan(rows[i - 1]!.load);
      expect(rows[i]!.fpr).toBeGreaterThan(rows[i - 1]!.fpr);
    }
    expect(await page.textContent('#bsize-rule')).toContain('256 slots of 6 bits');
    await shootAt(page, '#bsize-panel', 'laptop-bucket-size');
    expectNoErrors(page);
  });

  test('space against false positives: the core’s sizing, the crossovers and this filter', async () => {
    await page.waitForSelector('#space-panel[data-state="done"]', { timeout: 60000 });
    const series = await page.$$eval('#space-chart polyline[data-series]', (lines) =>
      Object.fromEntries(lines.map((line) => [(line as SVGElement).dataset.series!, (line as SVGElement).dataset.bits!.split(',').map(Number)])),
    );
    const capacity = 1_000_000;
    const rates = Array.from({ length: 101 }, (_, k) => 10 ** (-(20 + k) / 20));
    const cuckooBits = (fpr: number, semiSort: boolean) => {
      using filter = CuckooFilter.create({ capacity, fpr, semiSort });
      return tableBits(filter) / capacity;
    };
    const bloomBits = (fpr: number) => {
      using bloom = BloomFilter.create({ capacity, fpr });
      return bloom.bitCount / capacity;
    };
    expect(series.plain).toEqual(rates.map((r) => cuckooBits(r, false)));
    expect(series.semiSorted).toEqual(rates.map((r) => cuckooBits(r, true)));
    expect(series.bloom).toEqual(rates.map(bloomBits));
    expect(cuckooBits(0.001, false)).toBeCloseTo(13.76, 2); // the README's figure
    const crossover = (name: string) => page.$eval(`.crossover-text.${name}`, (n) => Number((n as HTMLElement).dataset.value));
    for (const [name, semi, near] of [['plain', false, 8 / 2 ** 14], ['semiSorted', true, 0.0037]] as const) {
      const at = await crossover(name);
      // Just above it a cuckoo filter takes at least a Bloom filter's bits; just below, fewer.
      expect(cuckooBits(at * 1.000001, semi)).toBeGreaterThanOrEqual(bloomBits(at * 1.000001));
      expect(cuckooBits(at * 0.999999, semi)).toBeLessThan(bloomBits(at * 0.999999));
      for (const r of rates.filter((r) => r < at)) expect(cuckooBits(r, semi)).toBeLessThan(bloomBits(r));
      expect(at).toBeGreaterThan(near * 0.98);
      expect(at).toBeLessThan(near * 1.02);
    }
    using here = new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 6, seed: 5 });
    expect(await page.$eval('#space-chart', (n) => (n as HTMLElement).dataset.here)).toBe(`${here.fprBound},${tableBits(here) / (here.slotCount * practicalMaxLoad(4))}`);
    const decades = await page.$$eval('#space-rows tr', (trs) => trs.map((tr) => Number((tr as HTMLElement).dataset.plain)));
    expect(decades).toEqual([1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6].map((r) => cuckooBits(r, false)));
    await shootAt(page, '#space-panel', 'laptop-space');
    expectNoErrors(page);
  });

  test('keeps its measurements when only the number format changes, and starts over for a new m', async () => {
    await page.selectOption('select[name="fmt"]', 'hex');
    expect(await page.$eval('#fplen-panel', (n) => (n as HTMLElement).dataset.state)).toBe('done');
    await page.fill('input[name="m"]', '32');
    await page.click('#params button[type="submit"]');
    await page.waitForFunction(() => location.search.startsWith('?m=32&'));
    for (const panel of ['#fplen-panel', '#collision-panel', '#bsize-panel']) expect(await page.$eval(panel, (n) => (n as HTMLElement).dataset.state)).toBe('idle');
    expect(await page.$eval('#space-panel', (n) => (n as HTMLElement).dataset.state)).toBe('done');
    expectNoErrors(page);
  });
});

describe('the paper’s panels at phone width', () => {
  test('nothing is wider than the screen; each panel measures', async () => {
    const page = await openDemo('', narrowPhone);
    await page.waitForSelector('#space-panel[data-state="done"]', { timeout: 60000 });
    await measure(page, '#fplen-panel', '#fplen-measure');
    await measure(page, '#collision-panel', '#collision-run');
    await measure(page, '#bsize-panel', '#bsize-measure');
    await widthFits(page, narrowPhone);
    for (const [panel, name] of [['#fplen-panel', 'fingerprint-length'], ['#collision-panel', 'collision'], ['#bsize-panel', 'bucket-size'], ['#space-panel', 'space']]) {
      await shootAt(page, panel!, `phone-${name}`);
    }
    // By keyboard: the collision form submits with Enter.
    await page.focus('#collision-item');
    await page.keyboard.press('End');
    await page.keyboard.type('s');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#collision-panel[data-state="done"]', { timeout: 60000 });
    expect(await page.$eval('#collision-group li', (li) => (li as HTMLElement).dataset.item)).toBe('apples');
    expectNoErrors(page);
    await page.close();
  });
});


