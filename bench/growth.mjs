#!/usr/bin/env node
// Filters that grow, measured as issue 12 asks, through the public API:
// - ScalableCuckooFilter grown from 1,000 to 10,000,000 items: false
//   negatives (none allowed) and the false-positive rate (10^6 never-added
//   lookups) at every decade, bits per item against a CuckooFilter sized for
//   10^7 up front, and insert and lookup speed against it, in the same run;
// - merge of two filters of 10^6 items each, against one filter of both.
// The chained-filter design and the growth factor's trade-off were measured
// here once; their findings are in bench/README.md.
//
//   node bench/growth.mjs [--quick] [--fpr R] [--json]
//
// `npm run bench -- --growth` runs it. --quick stops at 10^6 items. A program,
// not a test: it prints figures and whether the targets are met. Build first.

import { init, CuckooFilter, ScalableCuckooFilter } from 'cuckoo-wasm';
import { safeIntegerKeys } from './keys.mjs';
import { parseCommandLine, progressLog } from './support/cli.mjs';
import { countOnes, now, secondsSince } from './support/measurement.mjs';

const USAGE = 'usage: node bench/growth.mjs [--quick] [--fpr R] [--json]';
const args = parseCommandLine({ quick: { type: 'boolean' }, json: { type: 'boolean' }, fpr: { type: 'string', default: '0.001' } }, USAGE);
const [QUICK, JSON_OUTPUT, FPR] = [args.quick, args.json, Number(args.fpr)];
if (!(FPR > 0 && FPR < 1)) {
  console.error(`growth: --fpr must be between 0 and 1\n${USAGE}`);
  process.exit(2);
}
const FINAL = QUICK ? 1_000_000 : 10_000_000;
const INITIAL = 1000;
const PROBES = 1_000_000;
const SEED = 11;
const BATCH = 100_000;
const MERGE_EACH = QUICK ? 200_000 : 1_000_000;

const progress = progressLog('growth');

await init();
const present = safeIntegerKeys(0, FINAL);
const absent = safeIntegerKeys(2 ** 31, PROBES);

/** Grows `filter` to FINAL items in batches (every add must succeed), checking every decade; returns the checks and the time spent adding. */
function grow(filter) {
  const decades = [];
  let addSeconds = 0;
  let next = INITIAL;
  for (let done = 0; done < FINAL; ) {
    const end = Math.min(FINAL, done + BATCH, next);
    const started = now();
    const added = filter.addMany(present.subarray(done, end));
    addSeconds += secondsSince(started);
    if (added !== end - done) throw new Error(`add refused at ${done + added}`);
    done = end;
    if (done === next) {
      const falseNegatives = done - countOnes(filter.hasMany(present.subarray(0, done)));
      const fpr = countOnes(filter.hasMany(absent)) / PROBES;
      decades.push({ items: done, falseNegatives, fpr, bitsPerItem: filter.bitsPerItem, fprBound: filter.fprBound });
      progress(`${done} items, FPR ${fpr}, ${filter.bitsPerItem.toFixed(2)} bits/item`);
      next *= 10;
    }
  }
  return { decades, addSeconds };
}

function lookupSeconds(filter) {
  const started = now();
  filter.hasMany(present);
  filter.hasMany(absent);
  return secondsSince(started);
}

function measureGrowth() {
  const presized = CuckooFilter.create({ capacity: FINAL, fpr: FPR, seed: SEED });
  const started = now();
  for (let done = 0; done < FINAL; done += BATCH) presized.addMany(present.subarray(done, Math.min(FINAL, done + BATCH)));
  const presizedAdd = secondsSince(started);
  const presizedRate = countOnes(presized.hasMany(absent)) / PROBES;
  const growable = ScalableCuckooFilter.create({ initialCapacity: INITIAL, fpr: FPR, seed: SEED });
  const grown = grow(growable);
  // Lookups interleaved, best of three each: the machine is noisy.
  const best = { presized: Infinity, growable: Infinity };
  for (let round = 0; round < 3; round++) {
    best.presized = Math.min(best.presized, lookupSeconds(presized));
    best.growable = Math.min(best.growable, lookupSeconds(growable));
  }
  const lookups = FINAL + PROBES;
  const result = {
    fpr: FPR,
    final: FINAL,
    presized: { bitsPerItem: presized.bitsPerItem, fpr: presizedRate, addMops: FINAL / presizedAdd / 1e6, lookupMops: lookups / best.presized / 1e6 },
    scalable: {
      decades: grown.decades,
      bitsPerItem: growable.bitsPerItem,
      bucketCount: growable.bucketCount,
      slotBits: growable.slotBits,
      addMops: FINAL / grown.addSeconds / 1e6,
      lookupMops: lookups / best.growable / 1e6,
    },
  };
  presized.dispose();
  growable.dispose();
  return result;
}

function measureMerge() {
  const a = present.subarray(0, MERGE_EACH);
  const b = present.subarray(MERGE_EACH, 2 * MERGE_EACH);
  // Both sets alternately, item by item: a filter whose items arrive as a
  // merge's do, both halves from the start.
  const mixed = new Float64Array(2 * MERGE_EACH);
  for (let i = 0; i < MERGE_EACH; i++) [mixed[2 * i], mixed[2 * i + 1]] = [a[i], b[i]];
  // Per kind, one filter holding each set, merged, beside one holding both
  // and one fed alternately.
  const kinds = [
    ['CuckooFilter', () => CuckooFilter.create({ capacity: 2 * MERGE_EACH, fpr: FPR, seed: SEED })],
    ['ScalableCuckooFilter', () => ScalableCuckooFilter.create({ initialCapacity: INITIAL, fpr: FPR, seed: SEED })],
  ];
  const rate = (filter) => countOnes(filter.hasMany(absent)) / PROBES;
  return kinds.map(([name, make]) => {
    const [first, second, both, interleaved] = [make(), make(), make(), make()];
    first.addMany(a);
    second.addMany(b);
    both.addMany(a);
    both.addMany(b);
    interleaved.addMany(mixed);
    const merged = first.merge(second);
    const row = {
      name,
      merged: name === 'CuckooFilter' ? merged : true,
      falseNegatives: a.length + b.length - countOnes(first.hasMany(a)) - countOnes(first.hasMany(b)),
      fpr: rate(first),
      oneFilterFpr: rate(both),
      interleavedFpr: rate(interleaved),
      bitsPerItem: first.bitsPerItem,
    };
    for (const f of [first, second, both, interleaved]) f.dispose();
    return row;
  });
}

function render({ growth, merge }) {
  const lines = [];
  const pct = (v) => `${(100 * v).toFixed(4)}%`;
  lines.push(`## Growing to ${growth.final.toLocaleString('en-US')} items from ${INITIAL.toLocaleString('en-US')}, fpr ${growth.fpr}`, '');
  lines.push('| items | false negatives | FPR | bits/item |');
  lines.push('|--:|--:|--:|--:|');
  for (const d of growth.scalable.decades) {
    lines.push(`| ${d.items.toLocaleString('en-US')} | ${d.falseNegatives} | ${pct(d.fpr)} | ${d.bitsPerItem.toFixed(2)} |`);
  }
  lines.push('');
  const p = growth.presized;
  lines.push('| at the end | bits per item | vs sized up front | adds (M/s) | vs sized | lookups (M/s) | vs sized |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|');
  lines.push(`| CuckooFilter sized for ${growth.final.toLocaleString('en-US')} | ${p.bitsPerItem.toFixed(2)} | 1 | ${p.addMops.toFixed(2)} | 1 | ${p.lookupMops.toFixed(2)} | 1 |`);
  const s = growth.scalable;
  lines.push(
    `| ScalableCuckooFilter | ${s.bitsPerItem.toFixed(2)} | ${(s.bitsPerItem / p.bitsPerItem).toFixed(2)} | ${s.addMops.toFixed(2)} | ` +
      `${(s.addMops / p.addMops).toFixed(2)} | ${s.lookupMops.toFixed(2)} | ${(s.lookupMops / p.lookupMops).toFixed(2)} |`,
  );
  lines.push('', `## Merging two filters of ${MERGE_EACH.toLocaleString('en-US')} items each`, '');
  lines.push('| filters | merged | false negatives | FPR | FPR of one filter of both | the same, added alternately |');
  lines.push('|---|---|--:|--:|--:|--:|');
  for (const m of merge) {
    lines.push(`| ${m.name} | ${m.merged} | ${m.falseNegatives} | ${pct(m.fpr)} | ${pct(m.oneFilterFpr)} | ${pct(m.interleavedFpr)} |`);
  }
  const targets = [
    [`FPR <= ${growth.fpr} at every decade, no false negative`, s.decades.every((d) => d.fpr <= growth.fpr && d.falseNegatives === 0)],
    ['bits per item <= 1.3x sized up front', s.bitsPerItem / p.bitsPerItem <= 1.3],
    ['adds >= 0.7x sized up front', s.addMops / p.addMops >= 0.7],
    ['lookups >= 0.5x sized up front', s.lookupMops / p.lookupMops >= 0.5],
    ['merge: no false negative, FPR as one filter of both (within 20 %)', merge.every((m) => m.falseNegatives === 0 && m.fpr <= 1.2 * m.oneFilterFpr + 1e-5)],
  ];
  lines.push('', 'Targets (issue 12):', ...targets.map(([what, met]) => `  ${met ? 'met    ' : 'NOT met'}  ${what}`));
  return lines.join('\n');
}

const results = { growth: measureGrowth(), merge: measureMerge() };
console.log(JSON_OUTPUT ? JSON.stringify(results, null, 2) : render(results));
