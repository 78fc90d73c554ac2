// The teaching demo (web-demo/) in Chromium, built by scripts/build-demo and
// served under a sub-path, as on a project page. What the page shows is
// checked against the core run here in Node on the same items: the same
// parameters and seed give the same hashes, kicks and table, so the page
// must show exactly the core's trace. Screenshots of each main state go to
// test-output/demo/. Bucket counts that are not powers of two are in
// demo-any-count.test.ts, the growth mode in growth-demo.test.ts.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CuckooFilter } from '../../dist/cjs/index.node.js';
import { BloomFilter } from '../../dist/cjs/bloom.node.js';
import { buckets, locate, stash, traceAdd, traceDelete, traceHas, type InsertTrace } from '../../dist/cjs/inspect.node.js';
import { repoRoot } from '../support/pack';
import { demoInBrowser, phone, settle, shoot } from './support/demo-page';
import { chainOnPage, expectNoErrors, measured, relationOnPage, tableOnPage, value } from './support/demo-readers';

const demoDir = join(repoRoot, 'build', 'demo');

const demo = demoInBrowser(demoDir, () => {
  const started = Date.now();
  execFileSync('bash', ['scripts/build-demo', '--no-package'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  console.log(`demo build (tsc + vite): ${Date.now() - started} ms`);
});
const openDemo = demo.open;

describe('the teaching walk-through at 16 x 4 slots of 6 bits', () => {
  let page: Page;
  // The same filter in Node, fed the same items as the page.
  let core: CuckooFilter;
  let bloom: BloomFilter;
  let inserted = 0;
  let firstKick: InsertTrace | undefined;

  function coreInsert(): InsertTrace {
    const item = `item-${++inserted}`;
    const trace = traceAdd(core, item);
    if (trace.added) bloom.add(item);
    return trace;
  }

  beforeAll(async () => {
    core = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6, maxKicks: 500, seed: 0 });
    bloom = new BloomFilter({ bitCount: 16 * 4 * 6, hashCount: 4, seed: 0 });
    page = await openDemo();
  });
  afterAll(async () => {
    await page?.close();
    core?.dispose();
    bloom?.dispose();
  });

  test('opens empty with the teaching defaults, shared through the address', async () => {
    expect(new URL(page.url()).search).toBe('?m=16&b=4&f=6&kicks=500&seed=0&semi=0&fmt=bin');
    expect(await tableOnPage(page)).toEqual(new Array(64).fill(0));
    expect(await page.$eval('#stash', (node) => node.classList.contains('empty'))).toBe(true);
    expect(await value(page, '[data-gauge="load"]')).toBe(0);
    expect(await value(page, '[data-gauge="bound"]')).toBe(core.fprBound);
    expect(await page.title()).toContain('Cuckoo filter');
    await shoot(page, 'laptop-empty');
    expectNoErrors(page);
  });

  test('inserting until the first kick: the chain on the page is the core trace, and the XOR sums add up', async () => {
    for (let i = 0; i < 200 && firstKick === undefined; i++) {
      await page.keyboard.press('n');
      await settle(page);
      const trace = coreInsert();
      expect(Number(await page.$eval('#chain', (node) => (node as HTMLElement).dataset.kickCount))).toBe(trace.kickCount);
      if (trace.kickCount > 0) firstKick = trace;
    }
    const trace = firstKick!;
    expect(trace).toBeDefined();
    expect(inserted).toBeLessThan(64); // within a few dozen items
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);

    const chain = await chainOnPage(page);
    expect(chain.map(({ hidden, ...kick }) => kick)).toEqual(trace.kicks);
    expect(chain.every((kick) => !kick.hidden)).toBe(true);
    const end = await page.$eval('#chain .kick-end', (node) => ({ ...(node as HTMLElement).dataset }));
    expect(end).toEqual({ end: 'placed', bucket: String(trace.placed!.bucket), slot: String(trace.placed!.slot) });
    for (const kick of chain) expect(kick.nextBucket).toBe(kick.bucket ^ kick.evictedHashMod);

    const xor = await relationOnPage(page);
    expect(xor.fingerprint).toBe(trace.fingerprint);
    expect(xor.fingerprintBits).toBe(trace.fingerprint.toString(2).padStart(6, '0'));
    const bits = (text: string) => parseInt(text, 2);
    expect([xor.i1, xor.hashMod, xor.i2].every((b) => b.length === 4)).toBe(true);
    expect(bits(xor.i1) ^ bits(xor.hashMod)).toBe(bits(xor.i2));
    expect(bits(xor.backI2) ^ bits(xor.backHashMod)).toBe(bits(xor.back));
    expect(bits(xor.back)).toBe(bits(xor.i1));
    expect({ i1: bits(xor.i1), hashMod: bits(xor.hashMod), i2: bits(xor.i2) }).toEqual({
      i1: trace.i1,
      hashMod: trace.fingerprintHashMod,
      i2: trace.i2,
    });
    expect(xor.values).toEqual({ i1: trace.i1, hashMod: trace.fingerprintHashMod, i2: trace.i2, back: trace.i1, fingerprintHash: trace.fingerprintHash });
    expect(xor.check).toContain('✓');
    expect(trace.hashId).toBe(1);
    expect(xor.hashId).toBe(1);
    expect(xor.layout).toContain('m = 16 = 2^4 is a power of two');
    expect(xor.why.hidden).toBe(true);
    const diagram = await page.$eval('.relation-diagram', (node) => ({ ...(node as HTMLElement).dataset }));
    expect(diagram).toEqual({ i1: String(trace.i1), i2: String(trace.i2) });
    expectNoErrors(page);
  });

  test('stepping through the chain: each kick shows its swap and its arithmetic, and nothing moves', async () => {
    const trace = firstKick!;
    await page.keyboard.press('Space'); // pause
    expect(await page.getAttribute('#play', 'aria-pressed')).toBe('false');
    await page.keyboard.press('Home');
    const boxes = () =>
      page.$$eval('.panel, #table, #chain, #caption, .bucket, #stash', (nodes) =>
        nodes.map((node) => {
          const r = node.getBoundingClientRect();
          return [r.x, r.y, r.width, r.height].map((v) => Math.round(v)).join(',');
        }),
      );
    const layout = await boxes();
    // Steps: the hash, the choice of bucket, one per kick, the placement.
    expect(await page.textContent('#step-count')).toBe(`step 1 of ${trace.kicks.length + 3}`);
    await page.keyboard.press('ArrowRight');
    expect(await page.$$eval('.bucket.is-current', (n) => n.map((b) => Number((b as HTMLElement).dataset.bucket)))).toEqual([trace.kicks[0]!.bucket]);
    for (const [k, kick] of trace.kicks.entries()) {
      await page.keyboard.press('ArrowRight');
      const cell = `.bucket[data-bucket="${kick.bucket}"] .slot[data-slot="${kick.slot}"]`;
      expect(await page.$eval(cell, (node) => [Number((node as HTMLElement).dataset.fp), node.classList.contains('is-chosen')])).toEqual([
        kick.incoming,
        true,
      ]);
      expect(await page.$eval(`.bucket[data-bucket="${kick.nextBucket}"]`, (node) => node.classList.contains('is-next'))).toBe(true);
      const caption = await page.textContent('#caption');
      const b = (v: number) => v.toString(2).padStart(4, '0');
      expect(caption).toContain(`Kick ${k + 1}:`);
      expect(caption).toContain(`${b(kick.bucket)} XOR ${b(kick.evictedHashMod)} = ${b(kick.nextBucket)} = ${kick.nextBucket}`);
      const math = await page.$$eval('#kick-now .math-bits', (nodes) => nodes.map((n) => n.textContent));
      expect(math).toEqual([kick.evicted.toString(2).padStart(6, '0'), b(kick.bucket), b(kick.evictedHashMod), b(kick.nextBucket)]);
      const visible = (await chainOnPage(page)).filter((item) => !item.hidden).length;
      expect(visible).toBe(k + 1);
      if (k === 0) await shoot(page, 'laptop-kick');
      expect(await boxes()).toEqual(layout);
    }
    await page.keyboard.press('ArrowRight');
    const placed = trace.placed!;
    expect(await page.$eval(`.bucket[data-bucket="${placed.bucket}"] .slot[data-slot="${placed.slot}"]`, (n) => n.classList.contains('is-placed'))).toBe(true);
    expect(await boxes()).toEqual(layout);
    await page.keyboard.press('ArrowLeft');
    expect(await page.textContent('#step-count')).toBe(`step ${trace.kicks.length + 2} of ${trace.kicks.length + 3}`);
    await page.keyboard.press('Space'); // play again
    await settle(page);
    expectNoErrors(page);
  });

  test('speed controls and Space, also with a button focused', async () => {
    await page.click('#faster');
    expect(await page.textContent('#speed')).toBe('2×');
    await page.keyboard.press('Space'); // the focused button must not click again
    expect(await page.textContent('#speed')).toBe('2×');
    expect(await page.getAttribute('#play', 'aria-pressed')).toBe('false');
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    expect(await page.textContent('#speed')).toBe('8×');
    await page.keyboard.press('-');
    expect(await page.textContent('#speed')).toBe('4×');
    await page.keyboard.press('Space');
    expect(await page.getAttribute('#play', 'aria-pressed')).toBe('true');
    expectNoErrors(page);
  });

  test('the gauges follow the load; the measured rate is the core’s and plausible', async () => {
    const load = await value(page, '[data-gauge="load"]');
    expect(load).toBe(core.loadFactor);
    expect(load).toBeGreaterThan(0.5);
    expect(await value(page, '[data-gauge="expected"]')).toBe(core.expectedFpr);
    const rate = await value(page, '[data-gauge="measured"]');
    expect(rate).toBe(measured(core));
    expect(rate).toBeGreaterThan(core.expectedFpr * 0.6);
    expect(rate).toBeLessThan(core.expectedFpr * 1.4);
    expect(await value(page, '[data-gauge="bits"]')).toBe(core.bitsPerItem);
    const points = Number(await page.$eval('#fpr-chart', (n) => (n as HTMLElement).dataset.points));
    expect(points).toBe(inserted + 1);
    expect(await value(page, '[data-gauge="bloom-measured"]')).toBe(measured(bloom));
    expect(await value(page, '[data-gauge="bloom-expected"]')).toBe(bloom.expectedFpr);
  });

  test('the Bloom panel shows the k probe positions of the current item', async () => {
    const k = await page.$eval('#bloom-summary', (n) => Number((n as HTMLElement).dataset.k));
    expect(k).toBe(4);
    const shown = await page.$eval('#bloom-bits', (n) => (n as HTMLElement).dataset.probes!.split(',').map(Number));
    expect(shown).toEqual([...bloom.probePositions(`item-${inserted}`)]);
    expect(await page.textContent('#bloom-summary')).toContain(`${k} places: bits ${shown.join(', ')}`);
  });

  test('look up: the matching slots light up, and the answer is the core’s', async () => {
    for (const item of ['item-5', 'never-added']) {
      await page.fill('#item', item);
      await page.click('#lookup');
      await settle(page);
      const trace = traceHas(core, item);
      const lit = await page.$$eval('#table .slot.is-match', (cells) =>
        cells.map((c) => `${(c.closest('.bucket') as HTMLElement).dataset.bucket}:${(c as HTMLElement).dataset.slot}`),
      );
      const expected = [
        ...trace.slotsInI1.map((s) => `${trace.i1}:${s}`),
        ...(trace.i1 !== trace.i2 ? trace.slotsInI2.map((s) => `${trace.i2}:${s}`) : []),
      ];
      expect(lit.sort()).toEqual(expected.sort());
      expect(await page.textContent('#caption')).toContain(trace.found ? 'probably in the set' : 'certainly not in the set');
    }
    expect(traceHas(core, 'item-5').found).toBe(true);
    await shoot(page, 'laptop-lookup');
    await page.fill('#item', '');
  });

  test('fill until it fails: the page stops at the first failure, with the core’s fingerprint in the stash', async () => {
    await page.focus('#item');
    await page.keyboard.press('Escape'); // leaves the item box, so that keys are commands again
    await page.keyboard.press('f');
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('First failure'), undefined, { timeout: 60000 });
    await page.waitForSelector('html[data-busy="false"]');
    let trace: InsertTrace;
    do trace = coreInsert();
    while (trace.stashed === null);
    const coreStash = stash(core);
    expect(coreStash.occupied).toBe(true);
    expect(await page.$eval('#stash', (n) => Number((n as HTMLElement).dataset.fp))).toBe(coreStash.fingerprint);
    expect(await page.textContent('#stash-note')).toContain(`bucket ${coreStash.bucket} (its other bucket: ${coreStash.alternateBucket})`);
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    const chain = await chainOnPage(page);
    expect(chain.map(({ hidden, ...kick }) => kick)).toEqual(trace.kicks);
    expect(chain).toHaveLength(500);
    expect(await page.$eval('#chain .kick-end', (n) => (n as HTMLElement).dataset.end)).toBe('stashed');
    expect(await page.textContent('#caption')).toContain(`First failure at insert`);
    expect(await page.textContent('#caption')).toContain(`“item-${inserted}”`);
    expect(await value(page, '[data-gauge="load"]')).toBe(core.loadFactor);
    // The table's load, the stash told apart: a full table is at most 100 %.
    expect(core.stashed).toBe(1);
    expect(core.loadFactor).toBe((core.size - 1) / core.slotCount);
    expect(await page.textContent('[data-gauge="load"]')).toContain(`(${core.size - 1} / ${core.slotCount}) + 1 stashed`);
    expect(await value(page, '[data-gauge="measured"]')).toBe(measured(core));
    const bars = Number(await page.$eval('#kick-chart', (n) => (n as HTMLElement).dataset.bars));
    expect(bars).toBe(inserted);
    await shoot(page, 'laptop-full');
    expectNoErrors(page);
  });

  test('with the stash taken, an insert whose kicks run out is undone and refused, and changes nothing', async () => {
    const before = [...buckets(core).slots];
    await page.fill('#item', 'one too many');
    await page.keyboard.press('Enter');
    await settle(page);
    const trace = traceAdd(core, 'one too many');
    expect(trace.added).toBe(false);
    expect(trace.kickCount).toBe(500);
    expect(trace.undone).not.toBeNull();
    expect(core.full).toBe(true);
    expect([...buckets(core).slots]).toEqual(before);
    // The page plays the walk the core undid, and says so.
    const chain = await chainOnPage(page);
    expect(chain.map(({ hidden, ...kick }) => kick)).toEqual(trace.kicks);
    expect(await page.$eval('#chain .kick-end', (n) => (n as HTMLElement).dataset.end)).toBe('undone');
    expect(await page.textContent('#caption')).toContain(`${trace.undone!.fingerprint.toString(2).padStart(6, '0')} is still homeless, and the stash already holds`);
    expect(await page.textContent('#caption')).toContain('Every kick is undone, last first, and “one too many” is refused: the table is exactly as before.');
    expect(await page.textContent('[data-gauge="load"] .gauge-note')).toContain('the last insert was refused');
    expect(await tableOnPage(page)).toEqual(before);
  });

  test('delete: the cuckoo filter removes the copy and makes room; the Bloom panel says why it cannot', async () => {
    await page.fill('#item', 'item-3');
    await page.click('#delete');
    await settle(page);
    const trace = traceDelete(core, 'item-3');
    expect(trace.deleted).toBe(true);
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    expect(await page.$eval('#stash', (n) => Number((n as HTMLElement).dataset.fp))).toBe(stash(core).fingerprint);
    expect(await value(page, '[data-gauge="load"]')).toBe(core.loadFactor);
    expect(await page.$eval('#bloom-bits', (n) => (n as HTMLElement).dataset.mode)).toBe('delete');
    const explanation = await page.textContent('#bloom-delete');
    expect(explanation).toContain('The Bloom filter cannot');
    expect(explanation).toContain('still says “maybe” for “item-3”');
    expect(bloom.has('item-3')).toBe(true);
    await shoot(page, 'laptop-delete');
    await page.fill('#item', '');
    expectNoErrors(page);
  });

  test('download the bytes and load them back: the same table', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    expect(download.suggestedFilename()).toBe('cuckoo-m16-b4-f6-seed0.cf');
    const file = await download.path();
    const bytes = readFileSync(file);
    expect(new Uint8Array(bytes)).toEqual(core.toBytes());
    await page.click('#reset');
    await settle(page);
    expect(await tableOnPage(page)).toEqual(new Array(64).fill(0));
    await page.setInputFiles('#load', file);
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('Loaded'));
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    expect(await page.textContent('#caption')).toContain(`${core.size} fingerprints`);
    expectNoErrors(page);
  });

  test('bad bytes are reported on the page, not thrown', async () => {
    await page.setInputFiles('#load', { name: 'junk.cf', mimeType: 'application/octet-stream', buffer: Buffer.from('not a filter') });
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('Could not load junk.cf'));
    expectNoErrors(page);
  });
});

describe('parameters', () => {
  test('come from the address: 64 buckets of 2, 8-bit fingerprints in hex, 50 kicks, seed 7', async () => {
    const page = await openDemo('?m=64&b=2&f=8&kicks=50&seed=7&semi=0&fmt=hex');
    const form = await page.$eval('#params', (form) =>
      Object.fromEntries(['m', 'b', 'f', 'kicks', 'seed', 'fmt'].map((name) => [name, ((form as HTMLFormElement).elements.namedItem(name) as HTMLInputElement).value])),
    );
    expect(form).toEqual({ m: '64', b: '2', f: '8', kicks: '50', seed: '7', fmt: 'hex' });
    expect(await page.$$eval('#table .bucket', (n) => n.length)).toBe(64);
    expect(await page.$$eval('#table .slot', (n) => n.length)).toBe(128);
    using core = new CuckooFilter({ bucketCount: 64, bucketSize: 2, fingerprintBits: 8, maxKicks: 50, seed: 7 });
    for (const item of ['apple', 'pear', 'plum']) {
      await page.fill('#item', item);
      await page.keyboard.press('Enter');
      await settle(page);
      const trace = traceAdd(core, item);
      const cell = `.bucket[data-bucket="${trace.placed!.bucket}"] .slot[data-slot="${trace.placed!.slot}"]`;
      expect(await page.textContent(cell)).toBe(trace.fingerprint.toString(16).padStart(2, '0'));
      expect(await relationOnPage(page).then((x) => x.i1)).toBe(locate(core, item).i1.toString(2).padStart(6, '0'));
    }
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    await shoot(page, 'laptop-url-params');

    // Changing a parameter in the form starts a new filter and updates the address.
    await page.fill('input[name="m"]', '32');
    await page.click('#params button[type="submit"]');
    await page.waitForFunction(() => location.search.startsWith('?m=32&'));
    expect(new URL(page.url()).search).toBe('?m=32&b=2&f=8&kicks=50&seed=7&semi=0&fmt=hex');
    expect(await page.$$eval('#table .bucket', (n) => n.length)).toBe(32);
    expectNoErrors(page);
    await page.close();
  });

  test('semi-sorted: the page shows the core’s sorted buckets after every insert', async () => {
    const page = await openDemo('?m=16&b=4&f=8&semi=1&seed=3');
    using core = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8, seed: 3, semiSort: true });
    let kicked = false;
    for (let i = 1; i <= 62; i++) {
      await page.keyboard.press('n');
      await settle(page);
      const trace = traceAdd(core, `item-${i}`);
      kicked ||= trace.kickCount > 0;
      if (trace.kickCount > 0 || i % 10 === 0) expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    }
    expect(kicked).toBe(true);
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    expect(await page.isChecked('input[name="semi"]')).toBe(true);
    expectNoErrors(page);
    await page.close();
  });

  test('values out of range fall back to the defaults; semi-sorting needs b = 4', async () => {
    const page = await openDemo('?m=4097&b=2&f=99&kicks=-1&seed=x&semi=1&fmt=oct');
    expect(new URL(page.url()).search).toBe('?m=16&b=2&f=6&kicks=500&seed=0&semi=0&fmt=bin');
    expect(await page.isDisabled('input[name="semi"]')).toBe(true);
    expectNoErrors(page);
    await page.close();
  });

  test('large tables are drawn compactly, and bulk inserts fast-forward', async () => {
    const page = await openDemo('?m=2048&b=4&f=12&seed=1');
    expect(await page.$eval('#table', (n) => (n as HTMLElement).dataset.mode)).toBe('compact');
    expect(await page.$$eval('#table .slot', (n) => n.length)).toBe(0);
    await page.fill('#bulk-count', '7000');
    await page.click('#bulk');
    await page.waitForSelector('html[data-busy="false"]', { timeout: 60000 });
    using core = new CuckooFilter({ bucketCount: 2048, bucketSize: 4, fingerprintBits: 12, seed: 1 });
    for (let i = 1; i <= 7000; i++) core.add(`item-${i}`);
    expect(await value(page, '[data-gauge="load"]')).toBe(core.loadFactor);
    expect(await value(page, '[data-gauge="measured"]')).toBe(measured(core));
    expect(await page.textContent('#caption')).toContain('Inserted 7,000 items');
    await shoot(page, 'laptop-large');
    expectNoErrors(page);
    await page.close();
  });
});

describe('on a phone-width screen', () => {
  test('nothing is wider than the screen, and the walk-through works', async () => {
    const page = await openDemo('', phone);
    await shoot(page, 'phone-empty', false);
    let kicks = 0;
    for (let i = 0; i < 80 && kicks === 0; i++) {
      await page.keyboard.press('n');
      await settle(page);
      kicks = Number(await page.$eval('#chain', (n) => (n as HTMLElement).dataset.kickCount));
    }
    expect(kicks).toBeGreaterThan(0);
    await page.keyboard.press('Space');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await shoot(page, 'phone-kick');
    await page.keyboard.press('Space');
    await page.keyboard.press('f');
    await page.waitForSelector('html[data-busy="false"]', { timeout: 60000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await shoot(page, 'phone-full');
    expectNoErrors(page);
    await page.close();
  });
});

describe('npm start’s server', () => {
  test('serves the built demo on 127.0.0.1, prints the URL and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [join(repoRoot, 'web-demo', 'serve.mjs'), demoDir], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout!.on('data', (chunk) => {
          output += String(chunk);
          const match = /cuckoo-wasm demo: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
      });
      const index = await fetch(url);
      expect(index.status).toBe(200);
      expect(await index.text()).toContain('<title>Cuckoo filter, step by step');
      const wasm = readdirSync(join(demoDir, 'assets')).find((file) => file.endsWith('.wasm'))!;
      const asset = await fetch(`${url}assets/${wasm}`);
      expect(asset.headers.get('content-type')).toBe('application/wasm');
      expect((await fetch(`${url}../../etc/passwd`)).status).toBe(404);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
