#!/usr/bin/env node
// `npm run bench -- --patches`: patches between versions of a filter
// (cuckoo-wasm/patch, FORMAT.md "Patches"), against issue 31's targets, in
// one run on the package as users get it (the patch module in Node's
// WebAssembly):
//   - size: a filter of 10^6 items at ε = 0.1 % (CuckooFilter.create), then
//     0.1 %, 1 % and 10 % of them deleted and as many others added; bytes
//     per changed slot at most (f + log2(S / C) + 3) / 8 for C changed slots
//     of S, and never more than the filter's bytes and a small header (the
//     table whole: every item replaced);
//   - time: applyPatch of the 1 % patch at most 5 ms, first call (V8's
//     baseline code) and the median of later ones, and diff beside it.
//
//   node bench/patches.mjs [--quick] [--json]    (--quick: 10^5 items)
//
// A benchmark, not a test: it prints figures and exits 0 either way.

import { CuckooFilter, init } from 'cuckoo-wasm';
import { checksumOf, describePatch } from 'cuckoo-wasm/patch';
import { describeMachine, parseCommandLine, progressLog } from './support/cli.mjs';
import { fixed } from './support/format.mjs';
import { median, now } from './support/measurement.mjs';

const { quick, json } = parseCommandLine({ quick: { type: 'boolean' }, json: { type: 'boolean' } }, 'usage: node bench/patches.mjs [--quick] [--json]');
const ITEMS = quick ? 100_000 : 1_000_000;
const FPR = 0.001;
const CHURNS = [0.001, 0.01, 0.1];
const APPLY_RUNS = 21;
const progress = progressLog('patches bench');

const numbers = (first, count) => Float64Array.from({ length: count }, (_, i) => first + i);

/** The filter after `churn` of its items were deleted and as many others added. */
function churned(base, churn) {
  const changed = Math.round(ITEMS * churn);
  const newer = base.clone();
  if (newer.deleteMany(numbers(0, changed)) !== changed || newer.addMany(numbers(10 * ITEMS, changed)) !== changed) {
    throw new Error(`the ${churn} churn did not go as planned`);
  }
  return newer;
}

function sizeRow(label, base, newer, fingerprintBits) {
  const start = now();
  const patch = newer.diff(base);
  const diffMs = now() - start;
  const info = describePatch(patch);
  const slots = base.slotCount;
  const perSlot = info.wholeTable ? undefined : patch.length / info.changedSlots;
  const bound = info.wholeTable ? undefined : (fingerprintBits + Math.log2(slots / info.changedSlots) + 3) / 8;
  const filterBytes = newer.toBytes().length;
  return { label, changedSlots: info.changedSlots, slots, wholeTable: info.wholeTable, patchBytes: patch.length, filterBytes, perSlot, bound, diffMs, patch };
}

function applyTimes(base, patch, expected) {
  const times = [];
  for (let run = 0; run < APPLY_RUNS; run++) {
    const copy = base.clone();
    const start = now();
    copy.applyPatch(patch);
    times.push(now() - start);
    if (checksumOf(copy) !== expected) throw new Error('applyPatch did not give the newer version');
    copy.dispose();
  }
  return { first: times[0], median: median(times.slice(1)), min: Math.min(...times.slice(1)) };
}

async function main() {
  await init();
  const machine = describeMachine();
  progress(`a filter of ${ITEMS} items at fpr ${FPR}`);
  const base = CuckooFilter.create({ capacity: ITEMS, fpr: FPR, seed: 31 });
  base.addMany(numbers(0, ITEMS));
  const f = base.params.fingerprintBits;
  const rows = [];
  let apply;
  for (const churn of CHURNS) {
    progress(`${churn * 100} % churn`);
    const newer = churned(base, churn);
    const row = sizeRow(`${churn * 100} % deleted, as many added`, base, newer, f);
    if (churn === 0.01) apply = { ...applyTimes(base, row.patch, checksumOf(newer)), patchBytes: row.patch.length, changedSlots: row.changedSlots };
    delete row.patch;
    rows.push(row);
    newer.dispose();
  }
  progress('every item replaced: the table whole');
  const replaced = base.clone();
  replaced.clear();
  replaced.addMany(numbers(20 * ITEMS, ITEMS));
  const whole = sizeRow('every item replaced', base, replaced, f);
  delete whole.patch;
  rows.push(whole);
  replaced.dispose();
  progress('semi-sorted, 1 % churn (for comparison: a sorted bucket moves its values)');
  const semi = CuckooFilter.create({ capacity: ITEMS, fpr: FPR, seed: 31, semiSort: true });
  semi.addMany(numbers(0, ITEMS));
  const semiNewer = churned(semi, 0.01);
  const semiRow = sizeRow('semi-sorted, 1 % churn', semi, semiNewer, semi.params.fingerprintBits);
  delete semiRow.patch;
  rows.push(semiRow);
  semi.dispose();
  semiNewer.dispose();
  const results = { machine, items: ITEMS, fpr: FPR, params: base.params, rows, apply };
  base.dispose();
  results.machine.loadAverageAtEnd = (await import('node:os')).default.loadavg()[0];
  console.log(json ? JSON.stringify(results, (key, value) => (typeof value === 'bigint' ? String(value) : value), 2) : render(results));
}

function render({ machine, items, fpr, params, rows, apply }) {
  const lines = [
    `Patches, ${items} items at fpr ${fpr} (f = ${params.fingerprintBits}, b = ${params.bucketSize}, ${params.bucketCount} buckets); ${machine.cpu}, ${machine.cores} cores, load ${fixed(machine.loadAverageAtStart, 1)} to ${fixed(machine.loadAverageAtEnd, 1)}, Node ${machine.node}`,
    '',
    '| change | changed slots C | patch bytes | bytes per changed slot | bound (f + log2(S/C) + 3) / 8 | met | filter bytes | diff ms |',
    '|---|--:|--:|--:|--:|---|--:|--:|',
  ];
  for (const row of rows) {
    const met = row.wholeTable ? (row.patchBytes <= row.filterBytes + 24 ? `yes: the table whole, ${row.patchBytes - row.filterBytes} B over the filter` : 'no') : row.perSlot <= row.bound ? 'yes' : 'no';
    lines.push(`| ${row.label} | ${row.wholeTable ? 'all (whole table)' : row.changedSlots} | ${row.patchBytes} | ${row.perSlot === undefined ? '—' : fixed(row.perSlot, 3)} | ${row.bound === undefined ? '—' : fixed(row.bound, 3)} | ${met} | ${row.filterBytes} | ${fixed(row.diffMs, 1)} |`);
  }
  lines.push(
    '',
    `applyPatch of the 1 % patch (${apply.patchBytes} bytes, ${apply.changedSlots} changed slots), ${APPLY_RUNS} runs on copies of the base: first ${fixed(apply.first, 2)} ms (V8's baseline code), then median ${fixed(apply.median, 2)} ms, min ${fixed(apply.min, 2)} ms; target at most 5 ms: ${apply.median <= 5 ? 'met' : 'not met'}`,
  );
  return lines.join('\n');
}

await main();
