// What the teaching demo's fixed-size mode shows, read from the page's data
// attributes (the table's slots, gauges, the kick chain, the relation panel),
// for the test files that check it against the core.
import type { Page } from 'playwright-core';
import { pageErrors } from './browser';

// The page measures false positives on these never-added items.
export const probes = Float64Array.from({ length: 20_000 }, (_, i) => 2 ** 40 + i);

export async function tableOnPage(page: Page): Promise<number[]> {
  return page.$$eval('#table .slot', (cells) => cells.map((cell) => Number((cell as HTMLElement).dataset.fp)));
}

export async function value(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (node) => Number((node as HTMLElement).dataset.value));
}

export async function chainOnPage(page: Page) {
  return page.$$eval('#chain .kick', (items) =>
    items.map((item) => {
      const d = (item as HTMLElement).dataset;
      return {
        bucket: Number(d.bucket),
        slot: Number(d.slot),
        incoming: Number(d.incoming),
        evicted: Number(d.evicted),
        nextBucket: Number(d.next),
        evictedHashMod: Number(d.hashMod),
        hidden: (item as HTMLElement).hidden,
      };
    }),
  );
}

/** The relation panel's numbers, read from the bits it shows (hash id 1) or its rows' values; its layout and its line on XOR. */
export async function relationOnPage(page: Page) {
  return page.$eval('#relation', (panel) => {
    const bits = (row: string) => panel.querySelector(`[data-row="${row}"] .bits`)?.getAttribute('data-bits') ?? '';
    const shown = (row: string) => Number((panel.querySelector(`[data-row="${row}"]`) as HTMLElement).dataset.value);
    const why = panel.querySelector('.relation-why') as HTMLElement;
    return {
      hashId: Number((panel.querySelector('.relation-layout') as HTMLElement).dataset.hashId),
      layout: panel.querySelector('.relation-layout')?.textContent ?? '',
      sums: panel.querySelector('.relation-sums')?.textContent ?? '',
      why: {
        hidden: why.hidden,
        text: why.textContent ?? '',
        ...Object.fromEntries(['bucket', 'offset', 'lands', 'folded', 'back'].map((key) => [key, Number(why.dataset[key])])),
      } as { hidden: boolean; text: string; bucket: number; offset: number; lands: number; folded: number; back: number },
      fingerprint: bits('fingerprint') === '' ? NaN : shown('fingerprint'),
      fingerprintBits: panel.querySelector('[data-row="fingerprint"] .bits')?.textContent ?? '',
      i1: bits('i1'),
      hashMod: bits('hashmod'),
      i2: bits('i2'),
      backI2: bits('back-i2'),
      backHashMod: bits('back-hashmod'),
      back: bits('back'),
      values: { i1: shown('i1'), hashMod: shown('hashmod'), i2: shown('i2'), back: shown('back'), fingerprintHash: shown('fphash') },
      check: panel.querySelector('.relation-check')?.textContent ?? '',
    };
  });
}

export function expectNoErrors(page: Page): void {
  expect(pageErrors(page)).toEqual([]);
}

export function measured(filter: { hasMany(items: Float64Array): Uint8Array }): number {
  return filter.hasMany(probes).reduce((sum, a) => sum + a, 0) / probes.length;
}
