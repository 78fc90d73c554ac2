// The replica benchmark's write cost: addMany of batches of 1,000 items on a
// filter with a change log (this release's default), on one without
// (logLength 0), and, given --baseline DIR (a checkout of the release before
// change logs, built), on that release's filter: the same items in the same
// order into filters of the same shape and seed, batch k of each in turn, so
// that load and the machine's noise are shared.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { now } from '../support/measurement.mjs';

export async function writeRun({ client, items, baseline, progress }) {
  const variants = [
    { label: 'this release, with the change log', open: () => RedisCuckooFilter.create(client, 'written-logged', { capacity: items, fpr: 0.001, seed: 5 }) },
    { label: 'this release, logLength 0 (no log)', open: () => RedisCuckooFilter.create(client, 'written-unlogged', { capacity: items, fpr: 0.001, seed: 5, logLength: 0 }) },
  ];
  if (baseline !== undefined) {
    const dist = path.resolve(baseline, 'dist', 'esm');
    const { init } = await import(pathToFileURL(path.join(dist, 'index.node.mjs')).href);
    const { RedisCuckooFilter: Baseline } = await import(pathToFileURL(path.join(dist, 'redis', 'index.mjs')).href);
    await init();
    variants.push({ label: `the release before change logs (${baseline})`, open: () => Baseline.create(client, 'written-baseline', { capacity: items, fpr: 0.001, seed: 5 }) });
  }
  progress(`writes: ${items} items in batches of 1,000 into ${variants.length} filters, in turn`);
  const filters = [];
  for (const variant of variants) filters.push(await variant.open());
  const ms = variants.map(() => 0);
  for (let start = 0; start < items; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, items - start) }, (_, i) => `item-${start + i}`);
    for (let v = 0; v < filters.length; v++) {
      const begin = now();
      await filters[v].addMany(batch);
      ms[v] += now() - begin;
    }
  }
  const sizes = await Promise.all(filters.map((filter) => filter.size()));
  for (const filter of filters) await filter.drop();
  return variants.map((variant, v) => ({ label: variant.label, ms: ms[v], items: sizes[v] }));
}
