// The fixed-size mode's live item box and its panels on the paper's analysis
// (Sec. 4, 5.1, 5.2) in Chromium, each checked against the core run here in
// Node: the item's location as locate gives it, and every measured number
// recomputed by filling the same filters with the same numbered items and
// seeds, one add at a time, as each panel says it measures. The panels
// measure by themselves as the page opens: nothing here clicks to start them.
// Screenshots of each panel at laptop and phone width go to test-output/demo/.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CuckooFilter } from '../../dist/cjs/index.node.js';
import { BloomFilter } from '../../dist/cjs/bloom.node.js';
import { buckets, locate, practicalMaxLoad, tableBits, traceAdd } from '../../dist/cjs/inspect.node.js';
import { repoRoot } from '../support/pack';
import { buildDemoInto, demoInBrowser, shoot, shootAt } from './support/demo-page';
import { clippedText } from './support/clipping';
import { expectNoErrors, relationOnPage, tableOnPage } from './support/demo-readers';

const demoDir = join(repoRoot, 'build', 'demo-paper-views-test');
const openDemo = demoInBrowser(demoDir, () => buildDemoInto(demoDir)).open;
const narrowPhone = { width: 360, height: 780 };

/** The numbered items 1, 2, 3, … added one by one until one add's kicks run out (its fingerprint goes to the stash): the table's load then. */
function loadAtFirstFailure(filter: CuckooFilter): number {
  for (let item = 1; filter.add(item) && filter.stashed === 0; item++);
  return filter.loadFactor;
}

async function measured(page: Page, panel: string): Promise<void> {
  await page.waitForSelector(`${panel}[data-state="done"]`, { timeout: 150000 });
}

const percent = (value: number, digits = 1) => `${(value * 100).toFixed(digits)}\u00a0%`;

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

describe('the paper’s panels, measured as the page opens, against the core', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openDemo();
  });
  afterAll(() => page?.close());

  test('Fig. 2: the lowest load of 10 seeds against f, at 2^10, 2^12 and 2^15 buckets, with the paper’s 95 %', async () => {
    await measured(page, '#fplen-panel');
    const doneAt = Number(await page.$eval('#fplen-panel', (n) => (n as HTMLElement).dataset.doneAtMs));
    console.log(`Fig. 2 curves on the page ${doneAt} ms after it started loading`);
    const curves = await page.$$eval('#fplen-chart polyline.curve', (lines) =>
      lines.map((line) => ({
        m: Number((line as SVGElement).dataset.m),
        loads: (line as SVGElement).dataset.loads!.split(',').map(Number),
        highest: (line as SVGElement).dataset.highest!.split(',').map(Number),
      })),
    );
    expect(curves.map((c) => c.m)).toEqual([2 ** 10, 2 ** 12, 2 ** 15]);
    const widths = [2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16];
    for (const curve of curves) {
      widths.forEach((f, i) => {
        const loads = Array.from({ length: 10 }, (_, trial) => {
          using filter = new CuckooFilter({ bucketCount: curve.m, bucketSize: 4, fingerprintBits: f, maxKicks: 500, seed: 1 + trial });
          return loadAtFirstFailure(filter);
        });
        expect([curve.loads[i], curve.highest[i]]).toEqual([Math.min(...loads), Math.max(...loads)]);
      });
    }
    // Fig. 2's shape: short fingerprints fill the large table poorly; from f = 6 on every size is near the paper's 95 %.
    const large = curves.at(-1)!.loads;
    expect(large[0]).toBeLessThan(0.6);
    for (const curve of curves) for (const load of curve.loads.slice(4)) expect(Math.abs(load - 0.95)).toBeLessThan(0.03);
    // The paper's own value is drawn, and the words are read off the largest curve.
    expect(await page.$$eval('#fplen-chart .paper-mark', (n) => n.length)).toBe(1);
    const tail = large.slice(widths.indexOf(10));
    const plateau = tail.reduce((a, b) => a + b, 0) / tail.length;
    let from = 16;
    for (let i = widths.length - 1; i >= 0 && large[i]! >= plateau - 0.01; i--) from = widths[i]!;
    const status = await page.textContent('#fplen-status');
    expect(status).toContain(`its plateau, ${percent(plateau)}, from f = ${from} on`);
    expect(status).toContain(`With 2-bit fingerprints the larger table fills less (${percent(large[0]!, 0)} against ${percent(curves[0]!.loads[0]!, 0)} at 2^10)`);
    await shootAt(page, '#fplen-panel', 'laptop-fingerprint-length');
    expectNoErrors(page);
  });

  test('2b + 1 items with one fingerprint and two buckets, for an example whose buckets differ: eight fill them, the ninth ends in the stash', async () => {
    await measured(page, '#collision-panel');
    const group = await page.$$eval('#collision-group li', (items) => items.map((li) => ({ ...(li as HTMLElement).dataset })));
    using core = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 4, maxKicks: 500, seed: 0 });
    const item = group[0]!.item!;
    expect(await page.getAttribute('#collision-item', 'placeholder')).toBe(item);
    const chosen = locate(core, item);
    expect(chosen.i1).not.toBe(chosen.i2);
    const expected = [item];
    for (let n = 1; expected.length < 9; n++) {
      const where = locate(core, `item-${n}`);
      if (`item-${n}` !== item && where.fingerprint === chosen.fingerprint && (where.i1 === chosen.i1 || where.i1 === chosen.i2)) expected.push(`item-${n}`);
    }
    expect(group.map((g) => g.item)).toEqual(expected);
    const traces = expected.map((it) => traceAdd(core, it));
    expect(group.map((g) => g.outcome)).toEqual(traces.map((t) => (t.stashed ? 'stash' : `${t.placed!.bucket}:${t.placed!.slot}`)));
    expect(traces.slice(0, 8).every((t) => t.placed !== null)).toBe(true);
    const last = traces[8]!;
    expect(last.stashed).not.toBeNull();
    expect(last.kickCount).toBe(500);
    // Every kick swaps equal fingerprints between the two buckets.
    for (const kick of last.kicks) {
      expect(kick.evicted).toBe(chosen.fingerprint);
      expect([chosen.i1, chosen.i2]).toContain(kick.bucket);
    }
    const shownSlots = await page.$$eval('#collision-buckets .slot', (cells) => cells.map((c) => Number((c as HTMLElement).dataset.fp)));
    expect(shownSlots).toEqual([...buckets(core, chosen.i1, 1).slots, ...buckets(core, chosen.i2, 1).slots]);
    // Issue 26: one more copy is refused (its walk undone); any other item still goes in.
    expect(core.add(item)).toBe(false);
    let other = 1;
    while (expected.includes(`item-${other}`)) other++;
    expect(core.add(`item-${other}`)).toBe(true);
    const status = await page.textContent('#collision-status');
    expect(status).toContain(`buckets ${chosen.i1} and ${chosen.i2}`);
    expect(status).toContain('whose other bucket is the other full one, 500 times (max kicks 500), and ends in the stash.');
    expect(status).toContain(`One more copy of “${item}” is now refused`);
    expect(status).toContain(`(“item-${other}” did)`);
    await shootAt(page, '#collision-panel', 'laptop-collision');
    expectNoErrors(page);
  });

  test('an item whose two buckets are one: b + 1 = 5 are enough, and the words say so', async () => {
    using probe = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6, seed: 0 });
    let item = '';
    for (let n = 0; item === ''; n++) if (locate(probe, `w${n}`).i1 === locate(probe, `w${n}`).i2) item = `w${n}`;
    await page.fill('#collision-item', item);
    await page.selectOption('#collision-f', '6');
    await page.click('#collision-run');
    await measured(page, '#collision-panel');
    expect(await page.$$eval('#collision-group li', (n) => n.length)).toBe(5);
    const status = await page.textContent('#collision-status');
    expect(status).toContain(`one bucket, ${locate(probe, item).i1} (here i1 = i2`);
    expect(status).toContain('whose other bucket is this same full bucket');
    expect(status).not.toContain('the other full one');
    await page.fill('#collision-item', '');
    await page.selectOption('#collision-f', '4');
    expectNoErrors(page);
  });

  test('bucket size: b = 1, 2, 4, 8 at 2^16 slots within 6 points of the paper’s 50, 84, 95, 98 %, beside this table’s', async () => {
    await measured(page, '#bsize-panel');
    console.log(`bucket sizes on the page ${await page.$eval('#bsize-panel', (n) => (n as HTMLElement).dataset.doneAtMs)} ms after it started loading`);
    const rows = await page.$$eval('#bsize-rows tr', (trs) => trs.map((tr) => Object.fromEntries(Object.entries((tr as HTMLElement).dataset).map(([k, v]) => [k, Number(v)]))));
    const probes = Float64Array.from({ length: 100_000 }, (_, i) => 2 ** 40 + i);
    expect(rows.map((r) => r.b)).toEqual([1, 2, 4, 8]);
    const paper = { 1: 0.5, 2: 0.84, 4: 0.95, 8: 0.98 } as const;
    for (const row of rows) {
      const b = row.b as 1 | 2 | 4 | 8;
      expect(row.buckets).toBe(65536 / b);
      const loads: number[] = [];
      const small: number[] = [];
      let bits = 0;
      let fpr = 0;
      for (let trial = 0; trial < 10; trial++) {
        using filter = new CuckooFilter({ bucketCount: 65536 / b, bucketSize: b, fingerprintBits: 12, maxKicks: 500, seed: 1 + trial });
        loads.push(loadAtFirstFailure(filter));
        bits += filter.bitsPerItem;
        fpr += filter.hasMany(probes).reduce((sum, a) => sum + a, 0) / probes.length;
        expect(row.bound).toBe(filter.fprBound);
        using mine = new CuckooFilter({ bucketCount: 64 / b, bucketSize: b, fingerprintBits: 6, maxKicks: 500, seed: trial });
        small.push(loadAtFirstFailure(mine));
      }
      expect(row.load).toBeCloseTo(loads.reduce((x, y) => x + y) / 10, 12);
      expect([row.lowest, row.highest]).toEqual([Math.min(...loads), Math.max(...loads)]);
      expect(row.table).toBeCloseTo(small.reduce((x, y) => x + y) / 10, 12);
      expect(row.bits).toBeCloseTo(bits / 10, 12);
      expect(row.fpr).toBeCloseTo(fpr / 10, 12);
      expect(row.paper).toBe(paper[b]);
      // The target: the page's default shows the paper's loads, within 6 points.
      expect(Math.abs(row.load - paper[b])).toBeLessThanOrEqual(0.06);
    }
    // Sec. 5.1: larger buckets fill fuller, and with the same f answer yes to strangers more often.
    for (let i = 1; i < 4; i++) {
      expect(rows[i]!.load).toBeGreaterThan(rows[i - 1]!.load);
      expect(rows[i]!.fpr).toBeGreaterThan(rows[i - 1]!.fpr);
    }
    expect(await page.$$eval('#bsize-chart .paper-mark', (n) => n.length)).toBe(4);
    const status = await page.textContent('#bsize-status');
    expect(status).toContain(`reach ${rows.map((r) => (r.load! * 100).toFixed(1)).join(', ')} % before their first failure`);
    expect(status).toContain('the paper: 50, 84, 95, 98 %');
    expect(status).toContain(`This page's table of 64 slots reaches ${rows.map((r) => (r.table! * 100).toFixed(1)).join(', ')} %`);
    // Eq. (6) with the measured loads: the fewest bits per item at each rate.
    const bitsText = await page.textContent('#bsize-bits');
    for (const fpr of [0.01, 0.001]) {
      const costs = rows.map((r) => Math.ceil(Math.log2((2 * r.b!) / fpr)) / r.load!);
      const best = rows[costs.indexOf(Math.min(...costs))]!.b;
      expect(bitsText).toContain(`${costs.map((c) => c.toFixed(1)).join(', ')} bits per item: fewest at b = ${best}`);
    }
    await shootAt(page, '#bsize-panel', 'laptop-bucket-size');
    expectNoErrors(page);
  });

  test('space against false positives: the core’s sizing, its crossovers reconciled with the paper’s 3 %, and this filter', async () => {
    await measured(page, '#space-panel');
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
    const edges = (name: string) => page.$eval(`.crossover-text.${name}`, (n) => [Number((n as HTMLElement).dataset.value), Number((n as HTMLElement).dataset.firstWin)]);
    for (const [name, semi, near] of [['plain', false, 8 / 2 ** 14], ['semiSorted', true, 0.0037]] as const) {
      const [at, firstWin] = await edges(name);
      // Just above it a cuckoo filter takes at least a Bloom filter's bits; just below, fewer.
      expect(cuckooBits(at! * 1.000001, semi)).toBeGreaterThanOrEqual(bloomBits(at! * 1.000001));
      expect(cuckooBits(at! * 0.999999, semi)).toBeLessThan(bloomBits(at! * 0.999999));
      for (const r of rates.filter((r) => r < at!)) expect(cuckooBits(r, semi)).toBeLessThan(bloomBits(r));
      expect(at).toBeGreaterThan(near * 0.98);
      expect(at).toBeLessThan(near * 1.02);
      // Above the crossover it still wins at some rates, the last of them firstWin; never above it.
      expect(firstWin).toBeGreaterThan(at!);
      expect(cuckooBits(firstWin!, semi)).toBeLessThan(bloomBits(firstWin!));
      for (const r of rates.filter((r) => r > firstWin! * 1.0001)) expect(cuckooBits(r, semi)).toBeGreaterThanOrEqual(bloomBits(r));
    }
    // Next to the numbers, in words: the paper's 3 % and why the core's staircase crosses lower.
    const semiText = await page.textContent('.crossover-text.semiSorted');
    expect(semiText).toContain('The paper says below about 3\u00a0% (Fig. 4: “3\u00a0%, 7.2 bits”)');
    expect(semiText).toContain('its curve lets f be a fraction of a bit');
    expect(semiText).toContain('the core must round f up to a whole bit');
    using atThree = CuckooFilter.create({ capacity, fpr: 0.03, semiSort: true });
    expect(semiText).toContain(`eq. (6) asks for log2(2b / ε) = ${Math.log2(8 / 0.03).toFixed(2)} bits and the core takes ${atThree.params.fingerprintBits}`);
    expect(semiText).toContain(`against Bloom's ${bloomBits(0.03).toFixed(2)}`);
    const plainText = await page.textContent('.crossover-text.plain');
    expect(plainText).toContain('like 0.100\u00a0% in the table below');
    // The paper's own marks: Table 2's smooth curves and Fig. 4's crossover.
    expect(await page.$$eval('#space-chart .space-line.paper', (n) => n.length)).toBe(2);
    expect(await page.$$eval('#space-chart .paper-point', (n) => n.length)).toBe(1);
    using here = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6, seed: 0 });
    expect(await page.$eval('#space-chart', (n) => (n as HTMLElement).dataset.here)).toBe(`${here.fprBound},${tableBits(here) / (here.slotCount * practicalMaxLoad(4))}`);
    const decades = await page.$$eval('#space-rows tr', (trs) => trs.map((tr) => [Number((tr as HTMLElement).dataset.plain), tr.lastElementChild!.textContent]));
    expect(decades).toEqual(
      [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6].map((r) => [cuckooBits(r, false), `${cuckooBits(r, false) < bloomBits(r) ? 'yes' : 'no'} / ${cuckooBits(r, true) < bloomBits(r) ? 'yes' : 'no'}`]),
    );
    await shootAt(page, '#space-panel', 'laptop-space');
    expectNoErrors(page);
  });

  test('the sizing calculator: what create chooses for n and ε, marked on the staircase; the core’s refusals in its words', async () => {
    const rows = () => page.$$eval('#sizing-rows tr', (trs) => trs.map((tr) => ({ ...(tr as HTMLElement).dataset })));
    const check = async (capacity: number, fpr: number) => {
      const shown = await rows();
      for (const [i, semiSort] of [[0, false], [1, true]] as const) {
        using filter = CuckooFilter.create({ capacity, fpr, semiSort });
        const row = shown[i]!;
        expect([Number(row.b), Number(row.f), Number(row.buckets), Number(row.bits)]).toEqual([filter.params.bucketSize, filter.params.fingerprintBits, filter.params.bucketCount, tableBits(filter)]);
        expect(Number(row.bound)).toBe(filter.fprBound);
        filter.addMany(Float64Array.from({ length: capacity }, (_, k) => k));
        expect(filter.stashed).toBe(0);
        expect(Number(row.expected)).toBe(filter.expectedFpr);
      }
      using bloom = BloomFilter.create({ capacity, fpr });
      bloom.addMany(Float64Array.from({ length: capacity }, (_, k) => k));
      expect([Number(shown[2]!.k), Number(shown[2]!.bits), Number(shown[2]!.expected)]).toEqual([bloom.hashCount, bloom.bitCount, bloom.expectedFpr]);
      const choice = JSON.parse((await page.$eval('#space-chart', (n) => (n as HTMLElement).dataset.choice))!);
      expect(choice).toEqual({ fpr, bits: { plain: Number(shown[0]!.bitsPerItem), semiSorted: Number(shown[1]!.bitsPerItem), bloom: Number(shown[2]!.bitsPerItem) } });
    };
    await check(1_000_000, 0.001);
    expect(await page.$$eval('#space-chart circle.choice', (n) => n.length)).toBe(3);
    await page.fill('#sizing-n', '20000');
    await page.fill('#sizing-fpr', '2');
    await page.click('#sizing-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#sizing-form')?.dataset.capacity === '20000');
    await check(20_000, 0.02);
    // The curves are the core's for this n now.
    await page.waitForSelector('#space-panel[data-state="done"]');
    expect(await page.textContent('#space-status')).toContain('n = 20,000 items');
    expect(await page.textContent('#sizing-note')).toContain('Fewest bits: ');
    await page.fill('#sizing-fpr', '0.0000000001');
    await page.click('#sizing-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#sizing-rows td.refused') !== null);
    expect(await page.textContent('#sizing-rows tr[data-kind="cuckoo"]')).toContain('fingerprints wider than 32 bits');
    await page.fill('#sizing-n', '1.5');
    await page.click('#sizing-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#sizing-note')?.textContent?.startsWith('n must be a whole number'));
    await page.fill('#sizing-n', '1000000');
    await page.fill('#sizing-fpr', '0.1');
    await page.click('#sizing-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#sizing-form')?.dataset.capacity === '1000000');
    await page.waitForSelector('#space-panel[data-state="done"]');
    expectNoErrors(page);
  });

  test('keeps its measurements when only the number format changes, and measures this table again for a new m', async () => {
    await page.selectOption('select[name="fmt"]', 'hex');
    expect(await page.$eval('#bsize-panel', (n) => (n as HTMLElement).dataset.state)).toBe('done');
    await page.fill('input[name="m"]', '32');
    await page.click('#params button[type="submit"]');
    await page.waitForFunction(() => location.search.startsWith('?m=32&'));
    await measured(page, '#bsize-panel');
    await measured(page, '#collision-panel');
    expect(await page.textContent('#bsize-rule')).toContain('this page\'s table, 128 slots of 6 bits');
    for (const panel of ['#fplen-panel', '#space-panel']) expect(await page.$eval(panel, (n) => (n as HTMLElement).dataset.state)).toBe('done');
    expectNoErrors(page);
  });
});

describe('the paper’s panels at phone width', () => {
  test('nothing is wider than the screen or cut; each panel measures by itself', async () => {
    const page = await openDemo('', narrowPhone);
    for (const panel of ['#space-panel', '#fplen-panel', '#collision-panel', '#bsize-panel']) await measured(page, panel);
    // Done: no progress bar is left on show.
    for (const bar of ['#fplen-progress', '#collision-progress', '#bsize-progress', '#space-progress']) expect(await page.isVisible(bar)).toBe(false);
    await widthFits(page, narrowPhone);
    expect(await clippedText(page, ['#fplen-panel', '#collision-panel', '#bsize-panel', '#space-panel'])).toEqual([]);
    for (const [panel, name] of [['#fplen-panel', 'fingerprint-length'], ['#collision-panel', 'collision'], ['#bsize-panel', 'bucket-size'], ['#space-panel', 'space']]) {
      await shootAt(page, panel!, `phone-${name}`);
    }
    // By keyboard: the collision form submits with Enter.
    await page.focus('#collision-item');
    await page.keyboard.type('apples');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#collision-group li')?.dataset.item === 'apples', undefined, { timeout: 60000 });
    expectNoErrors(page);
    await page.close();
  });
});
