// The teaching demo with bucket counts that are not powers of two (hash id 2)
// in Chromium: the relation panel shows the reflection i2 = (c - i1) mod m
// with the core's numbers, says why XOR needs a power of two with numbers that
// show it failing, and the table, kicks, saved bytes and gauges are the core's
// for the same parameters, seed and items.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter } from '../../dist/cjs/index.node.js';
import { buckets, locate, stash, traceAdd, traceHas, type InsertTrace, type ItemLocation } from '../../dist/cjs/inspect.node.js';
import { repoRoot } from '../support/pack';
import { buildDemoInto, demoInBrowser, settle, shoot } from './support/demo-page';
import { chainOnPage, expectNoErrors, measured, relationOnPage, tableOnPage, value } from './support/demo-readers';

const demoDir = join(repoRoot, 'build', 'demo-any-count-test');
const openDemo = demoInBrowser(demoDir, () => buildDemoInto(demoDir)).open;

describe('any bucket count: m not a power of two reflects the buckets about c (hash id 2)', () => {
  const fp6 = (value: number) => value.toString(2).padStart(6, '0');

  /** The line on XOR, checked against its own numbers and the item's: XOR must leave the table, and folding back must not lead home. */
  function expectXorBreaks(m: number, why: Awaited<ReturnType<typeof relationOnPage>>['why'], where: ItemLocation | null): void {
    const { bucket, offset, lands, folded, back } = why;
    expect(why.hidden).toBe(false);
    expect(lands).toBe(bucket ^ offset);
    expect(lands).toBeGreaterThanOrEqual(m);
    expect(folded).toBe(lands % m);
    expect(back).toBe(folded ^ offset);
    expect(back).not.toBe(bucket);
    expect(why.text).toMatch(/^XOR needs a power of two: /);
    expect(why.text).toContain(`${bucket} XOR ${offset} = ${lands}, no bucket of 0–${m - 1}; folded back to ${lands} mod ${m} = ${folded}`);
    expect(why.text).toContain(`${folded} XOR ${offset} = ${back}, not ${bucket}`);
    if (where === null) return;
    const c = where.fingerprintHashMod;
    // The item's own numbers whenever they show the fault, else its c from another bucket.
    if ((where.i1 ^ c) >= m) expect([bucket, offset]).toEqual([where.i1, c]);
    else if (Array.from({ length: m }, (_, j) => j ^ c).some((j) => j >= m)) expect(offset).toBe(c);
  }

  test('from the address, ?m=12: the reflection with the core’s numbers, the line on XOR, and kicks that reflect', async () => {
    const m = 12;
    const mod = (value: number) => ((value % m) + m) % m;
    const page = await openDemo('?m=12');
    expect(new URL(page.url()).search).toBe('?m=12&b=4&f=6&kicks=500&seed=0&semi=0&fmt=bin');
    expect(await page.$eval('input[name="m"]', (n) => (n as HTMLInputElement).value)).toBe('12');
    expect(await page.$eval('html', (n) => n.dataset.hashId)).toBe('2');
    expect(await page.$$eval('#table .bucket', (n) => n.length)).toBe(m);
    expect(await page.innerText('#relation-title')).toBe('Two buckets from one reflection');
    expect(await page.isVisible('.kicks-panel [data-for-hash-id="2"]')).toBe(true);
    expect(await page.isVisible('.kicks-panel [data-for-hash-id="1"]')).toBe(false);
    // Before any item, the panel works out the example the item box offers, one whose two buckets differ.
    using core = new CuckooFilter({ bucketCount: m, bucketSize: 4, fingerprintBits: 6, seed: 0 });
    const empty = await relationOnPage(page);
    expect(empty.hashId).toBe(2);
    expect(empty.layout).toContain('hash id 2 (xxh3-64-range-v1): m = 12 is not a power of two');
    const example = await page.getAttribute('#item', 'placeholder');
    const exampleAt = locate(core, example!);
    expect(exampleAt.i1).not.toBe(exampleAt.i2);
    expect(empty.values).toMatchObject({ i1: exampleAt.i1, hashMod: exampleAt.fingerprintHashMod, i2: exampleAt.i2 });
    expectXorBreaks(m, empty.why, exampleAt);

    let trace: InsertTrace | undefined;
    for (let i = 1; i <= 4 * m && !(trace && trace.kickCount > 0); i++) {
      await page.keyboard.press('n');
      await settle(page);
      trace = traceAdd(core, `item-${i}`);
      expect(trace.hashId).toBe(2);
      const shown = await relationOnPage(page);
      const c = trace.fingerprintHashMod;
      expect(shown.values).toEqual({ i1: trace.i1, hashMod: c, i2: trace.i2, back: trace.i1, fingerprintHash: trace.fingerprintHash });
      // The reflection, recomputed from the numbers on show: there and back again.
      expect(mod(shown.values.hashMod - shown.values.i1)).toBe(shown.values.i2);
      expect(mod(shown.values.hashMod - shown.values.i2)).toBe(shown.values.back);
      expect(shown.check).toContain(`✓ The same step leads back: either way, i1 + i2 = ${trace.i1 + trace.i2} ≡ ${c} = c (mod 12)`);
      expect(shown.sums).not.toContain('XOR');
      expectXorBreaks(m, shown.why, trace);
    }
    expect(trace!.kickCount).toBeGreaterThan(0);
    const { i1, i2, fingerprintHashMod: c, kicks } = trace!;
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    const chain = await chainOnPage(page);
    expect(chain.map(({ hidden, ...kick }) => kick)).toEqual(kicks);
    for (const kick of chain) expect(kick.nextBucket).toBe(mod(kick.evictedHashMod - kick.bucket));
    expect(await page.$$eval('#chain .kick-next', (n) => n.map((x) => x.textContent))).toEqual(
      kicks.map((k) => `→ (${k.evictedHashMod} − ${k.bucket}) mod 12 = ${k.nextBucket}`),
    );

    await page.keyboard.press('Space'); // pause
    await page.keyboard.press('Home');
    expect(await page.textContent('#caption')).toContain(`i2 = (c − i1) mod m = (${c} − ${i1}) mod 12 = ${i2}`);
    await page.keyboard.press('ArrowRight');
    for (const [k, kick] of kicks.entries()) {
      await page.keyboard.press('ArrowRight');
      const caption = await page.textContent('#caption');
      expect(caption).toContain(`Kick ${k + 1}:`);
      expect(caption).toContain(
        `(c − ${kick.bucket}) mod m with c from hash(${fp6(kick.evicted)}): (${kick.evictedHashMod} − ${kick.bucket}) mod 12 = ${kick.nextBucket}`,
      );
      const math = await page.$$eval('#kick-now .math-bits', (nodes) => nodes.map((n) => n.textContent));
      expect(math).toEqual([fp6(kick.evicted), String(kick.bucket), String(kick.evictedHashMod), String(kick.nextBucket)]);
      if (k === 0) await shoot(page, 'laptop-reflection-kick');
    }
    await page.keyboard.press('Space');
    await settle(page);
    await shoot(page, 'laptop-reflection');
    expectNoErrors(page);
    await page.close();
  });

  test('from the form, m = 20: filled to the first failure, every item is found, and the bytes are format version 2', async () => {
    const page = await openDemo();
    await page.fill('input[name="m"]', '20');
    await page.click('#params button[type="submit"]');
    await page.waitForFunction(() => location.search.startsWith('?m=20&'));
    expect(new URL(page.url()).search).toBe('?m=20&b=4&f=6&kicks=500&seed=0&semi=0&fmt=bin');
    expect(await page.$$eval('#table .bucket', (n) => n.length)).toBe(20);
    expect(await page.$eval('html', (n) => n.dataset.hashId)).toBe('2');
    expect((await relationOnPage(page)).hashId).toBe(2);

    await page.keyboard.press('f');
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('First failure'), undefined, { timeout: 60000 });
    await page.waitForSelector('html[data-busy="false"]');
    using core = new CuckooFilter({ bucketCount: 20, bucketSize: 4, fingerprintBits: 6, seed: 0 });
    const items: string[] = [];
    let trace: InsertTrace;
    do {
      items.push(`item-${items.length + 1}`);
      trace = traceAdd(core, items.at(-1)!);
    } while (trace.stashed === null);
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    expect(await page.$eval('#stash', (n) => Number((n as HTMLElement).dataset.fp))).toBe(stash(core).fingerprint);
    expect(await value(page, '[data-gauge="load"]')).toBe(core.loadFactor);
    expect(core.loadFactor).toBeGreaterThan(0.85);

    // No item lost: each one, looked up on the page, is in one of its two buckets or the stash.
    for (const item of items) {
      await page.fill('#item', item);
      await page.click('#lookup');
      await settle(page);
      expect(await page.textContent('#caption')).toContain('probably in the set');
      expect(traceHas(core, item).found).toBe(true);
    }
    await page.fill('#item', '');
    await shoot(page, 'laptop-reflection-full');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    expect(download.suggestedFilename()).toBe('cuckoo-m20-b4-f6-seed0.cf');
    const bytes = new Uint8Array(readFileSync(await download.path()));
    expect(bytes).toEqual(core.toBytes());
    expect(bytes[4]).toBe(2);
    expect(await page.textContent('#caption')).toContain(`Saved ${bytes.length} bytes: a 64-byte header (format version 2, which stores m), the ${bytes.length - 72}-byte table`);
    await page.click('#reset');
    await settle(page);
    await page.setInputFiles('#load', await download.path());
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('Loaded'));
    expect(new URL(page.url()).search).toBe('?m=20&b=4&f=6&kicks=500&seed=0&semi=0&fmt=bin');
    expect(await tableOnPage(page)).toEqual([...buckets(core).slots]);
    expectNoErrors(page);
    await page.close();
  });

  test('a large table, m = 1000, filled to 90 %: the core’s load, and every item found', async () => {
    const page = await openDemo('?m=1000&b=4&f=12&seed=1');
    expect(await page.$eval('#table', (n) => (n as HTMLElement).dataset.mode)).toBe('compact');
    await page.fill('#bulk-count', '3600');
    await page.click('#bulk');
    await page.waitForFunction(() => document.querySelector('#caption')?.textContent?.startsWith('Inserted 3,600 items'), undefined, { timeout: 60000 });
    await page.waitForSelector('html[data-busy="false"]');
    using core = new CuckooFilter({ bucketCount: 1000, bucketSize: 4, fingerprintBits: 12, seed: 1 });
    for (let i = 1; i <= 3600; i++) expect(core.add(`item-${i}`)).toBe(true);
    expect(core.loadFactor).toBe(0.9);
    expect(await value(page, '[data-gauge="load"]')).toBe(core.loadFactor);
    expect(await value(page, '[data-gauge="measured"]')).toBe(measured(core));
    for (let i = 1; i <= 3600; i++) expect(core.has(`item-${i}`)).toBe(true);
    const last = locate(core, 'item-3600');
    expect(last.hashId).toBe(2);
    expect((await relationOnPage(page)).values).toMatchObject({ i1: last.i1, hashMod: last.fingerprintHashMod, i2: last.i2, back: last.i1 });
    expectNoErrors(page);
    await page.close();
  });
});
