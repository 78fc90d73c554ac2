#!/usr/bin/env node
// `npm run bench`: cuckoo-wasm (through its public TypeScript API, dist/esm),
// the native C++ core (build/native/bench/cuckoo_bench --json) and the npm
// packages cuckoo-filter and bloom-filters, side by side in one markdown table.
//
//   node bench/node-bench.mjs            2^16 and 2^22 buckets (about 2-3 minutes)
//   node bench/node-bench.mjs --quick    2^16 buckets only, fewer repetitions
//   node bench/node-bench.mjs --json     the raw results as JSON instead of the table
//   node bench/node-bench.mjs --space    bits per item at the requested capacity (space.mjs), no timing
//
// A program, not a test: it prints figures (and whether the project's targets
// are met) and exits 0 either way. Build first: bash scripts/build.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';

import { init, CuckooFilter } from '../dist/esm/index.js';
import { practicalMaxLoad } from '../dist/esm/inspect.js';
import { hexStrings, safeIntegerKeys, uint32Keys } from './keys.mjs';
import { loadPeers, measurePeer } from './peers.mjs';
import { measureSpace, renderSpace } from './space.mjs';
import { now, secondsSince } from './support/clock.mjs';
import { countOnes, median } from './support/stats.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const NATIVE_BENCH = path.join(ROOT, 'build/native/bench/cuckoo_bench');

const FINGERPRINT_BITS = 12;
/** Semi-sorted rows use one bit more: the same space as FINGERPRINT_BITS plain. */
const SEMI_SORTED_BITS = FINGERPRINT_BITS + 1;
const BUCKET_SIZE = 4;
const SEED = 1;
/** Absent keys looked up per filter (capped at the slot count). */
const MAX_NEGATIVES = 1 << 22;
/** Keys per peer has- / delete measurement. */
const PEER_SAMPLE = 50_000;

// ---------------------------------------------------------------- arguments

const USAGE = 'usage: node bench/node-bench.mjs [--quick] [--json] | --space [--json]';
const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
for (const arg of argv) {
  if (arg !== '--quick' && arg !== '--json' && arg !== '--space') {
    console.error(`node-bench: unknown argument ${arg}\n${USAGE}`);
    process.exit(2);
  }
}
const QUICK = argv.includes('--quick');
const JSON_OUTPUT = argv.includes('--json');
const SPACE = argv.includes('--space');
const SIZES = QUICK ? [16] : [16, 22];
/** Timed runs per (mode, size) for cuckoo-wasm, after one untimed warm-up run at 2^16. */
const REPS = QUICK ? { 16: 3, 22: 1 } : { 16: 5, 22: 1 };

const launched = now();
const progress = (text) => process.stderr.write(`[bench ${secondsSince(launched).toFixed(1)}s] ${text}\n`);

// A full collection between measurements (untimed), so that no timed loop
// pays for marking a heap left over from key generation or an earlier run.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');

// ------------------------------------------------------------- native core

function runNative() {
  if (!existsSync(NATIVE_BENCH)) {
    return { error: `${path.relative(ROOT, NATIVE_BENCH)} not found: run bash scripts/build` };
  }
  const args = ['--json', '--log2-buckets', SIZES.join(','), '--bits', String(FINGERPRINT_BITS), '--bucket-size', String(BUCKET_SIZE)];
  const result = spawnSync(NATIVE_BENCH, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (result.status !== 0) return { error: `cuckoo_bench exited with ${result.status}: ${result.stderr.trim()}` };
  return {
    command: `${path.relative(ROOT, NATIVE_BENCH)} ${args.join(' ')}`,
    rows: JSON.parse(result.stdout),
    stderr: result.stderr.trim(), // "BUG: ..." lines, if any
  };
}

// -------------------------------------------------------------- cuckoo-wasm

// One set of loops per key type, so that each call site sees one kind of key.
function addStrings(filter, keys, limit) {
  let n = 0;
  while (n < limit && filter.add(keys[n])) n++;
  return n;
}
function hasStrings(filter, keys, count) {
  let hits = 0;
  for (let i = 0; i < count; i++) if (filter.has(keys[i])) hits++;
  return hits;
}
function deleteStrings(filter, keys, count) {
  let deleted = 0;
  for (let i = 0; i < count; i++) if (filter.delete(keys[i])) deleted++;
  return deleted;
}
function addNumbers(filter, keys, limit) {
  let n = 0;
  while (n < limit && filter.add(keys[n])) n++;
  return n;
}
function hasNumbers(filter, keys, count) {
  let hits = 0;
  for (let i = 0; i < count; i++) if (filter.has(keys[i])) hits++;
  return hits;
}
function deleteNumbers(filter, keys, count) {
  let deleted = 0;
  for (let i = 0; i < count; i++) if (filter.delete(keys[i])) deleted++;
  return deleted;
}

/**
 * How each mode adds, looks up and deletes. `setup` prepares the inputs
 * (untimed); `present` narrows them to the n keys that were stored (untimed);
 * add/has/miss/del are the timed calls.
 */
function makeModes(keys) {
  const batch = (api, keysText, present, absent, copy) => ({
    api,
    keys: keysText,
    setup: (limit, negatives) => ({ add: copy(present, limit), neg: copy(absent, negatives) }),
    present: (c, n) => {
      c.stored = n === c.add.length ? c.add : copy(c.add, n);
    },
    add: (f, c) => f.addMany(c.add),
    has: (f, c) => countOnes(f.hasMany(c.stored)),
    miss: (f, c) => countOnes(f.hasMany(c.neg)),
    del: (f, c) => f.deleteMany(c.stored),
  });
  const arrayPrefix = (array, n) => array.slice(0, n);
  const typedPrefix = (array, n) => array.subarray(0, n);
  const modes = [
    {
      id: 'call-string',
      api: 'add / has / delete',
      keys: 'string',
      setup: (limit, negatives) => ({ limit, negatives }),
      add: (f, c) => addStrings(f, keys.strings, c.limit),
      has: (f, c, n) => hasStrings(f, keys.strings, n),
      miss: (f, c) => hasStrings(f, keys.absentStrings, c.negatives),
      del: (f, c, n) => deleteStrings(f, keys.strings, n),
    },
    {
      id: 'call-number',
      api: 'add / has / delete',
      keys: 'number',
      setup: (limit, negatives) => ({ limit, negatives }),
      add: (f, c) => addNumbers(f, keys.numbers, c.limit),
      has: (f, c, n) => hasNumbers(f, keys.numbers, n),
      miss: (f, c) => hasNumbers(f, keys.absentNumbers, c.negatives),
      del: (f, c, n) => deleteNumbers(f, keys.numbers, n),
    },
    { id: 'batch-string', ...batch('addMany / hasMany / deleteMany', 'string[]', keys.strings, keys.absentStrings, arrayPrefix) },
    { id: 'batch-uint32', ...batch('addMany / hasMany / deleteMany', 'Uint32Array', keys.uint32, keys.absentUint32, typedPrefix) },
    { id: 'batch-float64', ...batch('addMany / hasMany / deleteMany', 'Float64Array', keys.numbers, keys.absentNumbers, typedPrefix) },
  ];
  // The paper's semi-sorted table at the same space: 13-bit fingerprints stored in 12 bits.
  const semiSorted = { fingerprintBits: SEMI_SORTED_BITS, semiSort: true };
  modes.push(
    { ...modes.find((m) => m.id === 'call-string'), id: 'semi-call-string', table: semiSorted },
    { ...modes.find((m) => m.id === 'batch-uint32'), id: 'semi-batch-uint32', table: semiSorted },
  );
  // 2^k - 1 buckets, the other hash layout (hash id 2), beside 2^k: the same table size.
  modes.push(
    { ...modes.find((m) => m.id === 'call-number'), id: 'any-count-call-number', belowPowerOfTwo: true },
    { ...modes.find((m) => m.id === 'batch-uint32'), id: 'any-count-batch-uint32', belowPowerOfTwo: true },
  );
  modes.keys = keys;
  return modes;
}

/**
 * Present keys use indices from 0, absent keys indices from 2^31: the sets
 * for 2^16 buckets are prefixes of those for 2^22, and never overlap.
 */
function makeKeys(present, absent) {
  const ABSENT_BASE = 2 ** 31;
  return {
    strings: hexStrings(0, present),
    absentStrings: hexStrings(ABSENT_BASE, absent),
    numbers: safeIntegerKeys(0, present),
    absentNumbers: safeIntegerKeys(ABSENT_BASE, absent),
    uint32: uint32Keys(0, present),
    absentUint32: uint32Keys(ABSENT_BASE, absent),
  };
}

/** CPU time the process got during timed sections, as a share of their wall time. */
const cpuShares = [];

/** Runs fn; returns [its result, wall seconds]. Records the CPU share of the interval. */
function timed(fn) {
  const cpu = process.cpuUsage();
  const start = now();
  const value = fn();
  const wall = secondsSince(start);
  const used = process.cpuUsage(cpu);
  if (wall > 0.005) cpuShares.push((used.user + used.system) / 1e6 / wall);
  return [value, wall];
}

/** One filter: fill to the first failed add, look up, measure, delete, dispose. */
function runOnce(mode, log2, c) {
  const filter = new CuckooFilter({
    bucketCount: 2 ** log2 - (mode.belowPowerOfTwo ? 1 : 0),
    bucketSize: BUCKET_SIZE,
    fingerprintBits: FINGERPRINT_BITS,
    seed: SEED,
    ...mode.table,
  });
  try {
    const [n, add] = timed(() => mode.add(filter, c));
    mode.present?.(c, n);
    const [hits, has] = timed(() => mode.has(filter, c, n));
    const negatives = c.negatives ?? c.neg.length;
    const [falsePositives, miss] = timed(() => mode.miss(filter, c));
    const stats = {
      size: filter.size,
      loadFactor: filter.loadFactor,
      bitsPerItem: filter.bitsPerItem,
      expectedFpr: filter.expectedFpr,
      serializedBytes: filter.toBytes().length,
    };
    const [deleted, del] = timed(() => mode.del(filter, c, n));
    return { n, hits, negatives, falsePositives, deleted, stats, add, has, miss, del };
  } finally {
    filter.dispose();
  }
}

/** Summarises the runs of one mode at one size (rates: median over runs). */
function summarise(mode, log2, runs) {
  const first = runs[0];
  const rate = (ops, field) => median(runs.map((run) => ops(run) / run[field])) / 1e6;
  return {
    id: mode.id,
    semiSort: mode.table?.semiSort === true,
    belowPowerOfTwo: mode.belowPowerOfTwo === true,
    api: mode.api,
    keys: mode.keys,
    log2Buckets: log2,
    runs: runs.length,
    items: first.n,
    loadFactor: first.stats.loadFactor,
    addMops: rate((run) => run.n, 'add'),
    hasPositiveMops: rate((run) => run.n, 'has'),
    hasNegativeMops: rate((run) => run.negatives, 'miss'),
    deleteMops: rate((run) => run.n, 'del'),
    bitsPerItem: first.stats.bitsPerItem,
    // Stored bits per entry over the load: f, or f - 1 semi-sorted.
    bitsPerItemIdeal: (mode.table?.semiSort ? SEMI_SORTED_BITS - 1 : FINGERPRINT_BITS) / first.stats.loadFactor,
    serializedBytes: first.stats.serializedBytes,
    serializedBytesPerItem: first.stats.serializedBytes / first.n,
    negativeLookups: first.negatives,
    falsePositives: first.falsePositives,
    measuredFpr: first.falsePositives / first.negatives,
    expectedFpr: first.stats.expectedFpr,
    falseNegatives: Math.max(...runs.map((run) => run.n - run.hits)),
    deleteFailures: Math.max(...runs.map((run) => run.n - run.deleted)),
  };
}

/**
 * Measures every mode at 2^log2 buckets. Repetitions go round-robin over the
 * modes (mode 1, 2, ..., 5, then again), so a burst of load from other
 * processes spreads over all modes instead of hitting one.
 */
function measureOurs(modes, log2, reps, warmUp) {
  const slots = BUCKET_SIZE * 2 ** log2;
  const contexts = modes.map((mode) => mode.setup(slots + 1, Math.min(slots, MAX_NEGATIVES)));
  if (warmUp) {
    modes.forEach((mode, m) => runOnce(mode, log2, contexts[m]));
  }
  const runs = modes.map(() => []);
  for (let r = 0; r < reps; r++) {
    progress(`cuckoo-wasm 2^${log2}, run ${r + 1} of ${reps} of each mode`);
    modes.forEach((mode, m) => {
      collectGarbage();
      runs[m].push(runOnce(mode, log2, contexts[m]));
    });
  }
  return modes.map((mode, m) => summarise(mode, log2, runs[m]));
}

// --------------------------------------------------------------- formatting

function mops(value) {
  if (value === null || value === undefined) return 'n/a';
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  if (value >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}
const percent = (value, digits = 3) => `${(100 * value).toFixed(digits)}%`;
const ratio = (value) => (value >= 100 ? `${value.toFixed(0)}×` : `${value.toFixed(1)}×`);
const minutes = (s) => (s >= 90 ? `~${Math.round(s / 60)} min` : `~${Math.round(s)} s`);

function bestPeer(peers, field) {
  let best = null;
  for (const p of peers) if (p[field] !== null && (best === null || p[field] > best[field])) best = p;
  return best;
}

function ratios(row, peers) {
  const out = {};
  for (const field of ['addMops', 'hasPositiveMops', 'hasNegativeMops', 'deleteMops']) {
    const best = bestPeer(peers, field);
    out[field] = best ? { ratio: row[field] / best[field], peer: best.name } : null;
  }
  return out;
}

function render(results) {
  const { machine, native, ours, peers, peerEstimates } = results;
  const lines = [];
  lines.push('## cuckoo-wasm benchmark');
  lines.push('');
  lines.push(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.os}; Node ${machine.node}; single thread.` +
      (QUICK ? ' Mode: --quick (2^16 only).' : ''),
  );
  const share = machine.cpuShareOfTimedLoops;
  lines.push(
    `Contention: 1-min load average ${machine.loadAverageAtStart.toFixed(2)} at start, ${machine.loadAverageAtEnd.toFixed(2)} at end; ` +
      `cuckoo-wasm's timed loops got a median ${percent(share.median, 0)} (min ${percent(share.min, 0)}) of a CPU` +
      (share.median < 0.9 || share.min < 0.7
        ? ' (under 100%: other processes competed for the cores, so the rates below are lower than on an idle machine).'
        : ' (over 100% = GC and compiler threads).'),
  );
  lines.push(
    `Method: f=${FINGERPRINT_BITS}, b=${BUCKET_SIZE}, seed ${SEED}; distinct pre-generated keys (strings: 16 random hex chars; ` +
      'numbers: random integers < 2^53, Uint32Array: random u32); each filter filled until the first add returns false; ' +
      'has+ over every stored key, has− over never-added keys (→ FPR), then delete of every stored key. ' +
      'M ops/s = ops / elapsed process.hrtime.bigint(). ' +
      `cuckoo-wasm: one untimed warm-up run per mode, then the median of ${REPS[16]} runs at 2^16` +
      (QUICK ? '' : `, 1 run at 2^22`) +
      ' (runs go round-robin over the modes, with a full GC before each, untimed)' +
      `. Native: cuckoo_bench --json (random u64 keys, median of 5 runs at 2^16${QUICK ? '' : ', 1 run at 2^22'}). ` +
      `npm peers: string keys, per call, one warm-up on a small filter, filled to cuckoo-wasm's 2^16 item count (or first failed add); ` +
      `add timed over the whole fill, has+ over all stored keys, has− and delete over ${PEER_SAMPLE / 1000}k keys; ` +
      'their bits/item are estimated from serialized JSON (length × 8 / items).',
  );
  lines.push('');
  lines.push(
    '| implementation | API / keys | buckets | items (load) | add | has+ | has− | delete | bits/item | serialized B/item | FPR | false neg. | vs best peer: add / has+ / has− / delete |',
  );
  lines.push('|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|');
  const peers16 = peers.filter((p) => p.log2Buckets === 16);
  for (const log2 of SIZES) {
    for (const row of ours.filter((r) => r.log2Buckets === log2)) {
      let vs = '—';
      if (log2 === 16 && peers16.length) {
        const r = ratios(row, peers16);
        vs = ['addMops', 'hasPositiveMops', 'hasNegativeMops', 'deleteMops'].map((f) => (r[f] ? ratio(r[f].ratio) : 'n/a')).join(' / ');
      }
      const name = row.semiSort ? `cuckoo-wasm semi-sorted f=${SEMI_SORTED_BITS}` : 'cuckoo-wasm';
      const buckets = row.belowPowerOfTwo ? `2^${log2} − 1 (hash id 2)` : `2^${log2}`;
      lines.push(
        `| ${name} | ${row.api}, ${row.keys} | ${buckets} | ${row.items} (${row.loadFactor.toFixed(4)}) | ${mops(row.addMops)} | ` +
          `${mops(row.hasPositiveMops)} | ${mops(row.hasNegativeMops)} | ${mops(row.deleteMops)} | ${row.bitsPerItem.toFixed(2)} | ` +
          `${row.serializedBytesPerItem.toFixed(3)} | ${percent(row.measuredFpr)} | ${row.falseNegatives} | ${vs} |`,
      );
    }
    const n = native.rows?.find((r) => r.log2Buckets === log2);
    if (n) {
      lines.push(
        `| native C++ core | insert / contains / erase, u64 | 2^${log2} | ${n.items} (${n.loadFactor.toFixed(4)}) | ${mops(n.constructMops)} | ` +
          `${mops(n.positiveLookupMops)} | ${mops(n.negativeLookupMops)} | ${mops(n.deleteMops)} | ${n.bitsPerItem.toFixed(2)} | — | ` +
          `${percent(n.measuredFpr)} | ${native.stderr.includes('false negatives') ? 'see stderr' : 0} | — |`,
      );
    } else if (native.error) {
      lines.push(`| native C++ core | — | 2^${log2} | ${native.error} | | | | | | | | | |`);
    }
    for (const p of peers.filter((r) => r.log2Buckets === log2)) {
      let fn = p.falseNegatives ? `**${p.falseNegatives}** (${(100 * (p.falseNegatives / p.items)).toPrecision(2)}%)` : '0';
      if (p.deleteFailures) fn += `; ${p.deleteFailures} of ${p.deletes} deletes found nothing`;
      lines.push(
        `| ${p.name} | ${p.config}, string | 2^${log2} | ${p.items} (${(p.items / (BUCKET_SIZE * 2 ** 16)).toFixed(4)}) | ${mops(p.addMops)} | ` +
          `${mops(p.hasPositiveMops)} | ${mops(p.hasNegativeMops)} | ${mops(p.deleteMops)} | ≈${p.jsonBitsPerItem.toFixed(1)} (JSON) | ` +
          `${p.jsonBytesPerItem.toFixed(2)} (JSON) | ${percent(p.measuredFpr)} | ${fn} | — |`,
      );
    }
    if (log2 === 22) {
      for (const e of peerEstimates) {
        lines.push(`| ${e.name} | string | 2^22 | skipped: too slow (est. ${minutes(e.seconds)} for ${e.items} items) | | | | | | | | | |`);
      }
    }
  }
  lines.push('');
  lines.push(semiSortedRatios(ours));
  lines.push('');
  lines.push(anyCountRatios(ours));
  lines.push('');
  lines.push('Rates in M ops/s. Load of npm peers = items / (4 × 2^16) (the Bloom filter has no slots). "vs best peer" = cuckoo-wasm ops/s ÷ the fastest npm peer for that operation at 2^16.');
  lines.push('');
  lines.push('Targets:');
  for (const t of results.targets) lines.push(`- ${t.met ? 'MET' : 'NOT MET'}: ${t.text}`);
  return lines.join('\n');
}

/** The row of the power-of-two plain table with the same API, keys and size as `row`. */
function plainTwin(ours, row) {
  return ours.find(
    (r) => !r.semiSort && !r.belowPowerOfTwo && r.log2Buckets === row.log2Buckets && r.api === row.api && r.keys === row.keys,
  );
}

/** Rates of `row` over its plain power-of-two twin's. */
function rateRatios(row, twin) {
  const share = (field) => row[field] / twin[field];
  return { add: share('addMops'), has: share('hasPositiveMops'), miss: share('hasNegativeMops'), del: share('deleteMops') };
}

/** 2^k - 1 bucket rows (hash id 2) as a fraction of the 2^k rows with the same API and keys. */
function anyCountRatios(ours) {
  const parts = [];
  for (const row of ours.filter((r) => r.belowPowerOfTwo)) {
    const r = rateRatios(row, plainTwin(ours, row));
    parts.push(
      `2^${row.log2Buckets} ${row.api}, ${row.keys}: add ${r.add.toFixed(2)}, has+ ${r.has.toFixed(2)}, ` +
        `has− ${r.miss.toFixed(2)}, delete ${r.del.toFixed(2)}`,
    );
  }
  return `2^k − 1 buckets (hash id 2) ÷ 2^k buckets (hash id 1), same run: ${parts.join('; ') || 'n/a'}.`;
}

/** Semi-sorted rows as a fraction of the plain rows with the same API and keys. */
function semiSortedRatios(ours) {
  const parts = [];
  for (const semi of ours.filter((r) => r.semiSort)) {
    const plain = plainTwin(ours, semi);
    if (!plain) continue;
    const share = (field) => `${(semi[field] / plain[field]).toFixed(2)}`;
    parts.push(
      `2^${semi.log2Buckets} ${semi.api}, ${semi.keys}: add ${share('addMops')}, has+ ${share('hasPositiveMops')}, ` +
        `has− ${share('hasNegativeMops')}, delete ${share('deleteMops')}; FPR ${(semi.measuredFpr / plain.measuredFpr).toFixed(2)}, ` +
        `bits/item ${(semi.bitsPerItem / plain.bitsPerItem).toFixed(3)}`,
    );
  }
  return `Semi-sorted (f=${SEMI_SORTED_BITS}) ÷ plain (f=${FINGERPRINT_BITS}), same space: ${parts.join('; ') || 'n/a'}.`;
}

// ------------------------------------------------------------------ targets

function evaluateTargets(ours, peers) {
  const targets = [];
  const at16 = (id) => ours.find((r) => r.id === id && r.log2Buckets === 16);
  const peers16 = peers.filter((p) => p.log2Buckets === 16);

  const call = at16('call-string');
  const callMin = Math.min(call.hasPositiveMops, call.hasNegativeMops);
  targets.push({
    id: 'has-call-string',
    met: callMin >= 5,
    text:
      `per-call has() on 16-char strings ≥ 5 M ops/s at 2^16: has+ ${mops(call.hasPositiveMops)}, has− ${mops(call.hasNegativeMops)}` +
      (callMin >= 5 ? '' : ` (${percent(1 - callMin / 5, 0)} short)`),
  });

  const u32 = at16('batch-uint32');
  const f64 = at16('batch-float64');
  const u32Min = Math.min(u32.hasPositiveMops, u32.hasNegativeMops);
  targets.push({
    id: 'hasMany-numeric',
    met: u32Min >= 30,
    text:
      `hasMany on numeric keys ≥ 30 M ops/s at 2^16: Uint32Array has+ ${mops(u32.hasPositiveMops)}, has− ${mops(u32.hasNegativeMops)}` +
      (u32Min >= 30 ? '' : ` (${percent(1 - u32Min / 30, 0)} short)`) +
      `; Float64Array has+ ${mops(f64.hasPositiveMops)}, has− ${mops(f64.hasNegativeMops)}`,
  });

  if (peers16.length) {
    const names = { addMops: 'add', hasPositiveMops: 'has+', hasNegativeMops: 'has−', deleteMops: 'delete' };
    const worst = (row) => {
      const r = ratios(row, peers16);
      let low = null;
      for (const [field, v] of Object.entries(r)) if (v && (low === null || v.ratio < low.ratio)) low = { ...v, op: names[field] };
      return low;
    };
    const callWorst = worst(call);
    const all = ours.filter((r) => r.log2Buckets === 16).map((r) => ({ row: r, low: worst(r) }));
    const allWorst = all.reduce((a, b) => (b.low.ratio < a.low.ratio ? b : a));
    targets.push({
      id: 'vs-peers',
      met: allWorst.low.ratio >= 30,
      text:
        `≥ 30× the best npm peer on every operation at 2^16: lowest like-for-like (per-call strings) ${ratio(callWorst.ratio)} ` +
        `(${callWorst.op} vs ${callWorst.peer}); lowest over all modes ${ratio(allWorst.low.ratio)} ` +
        `(${allWorst.row.id}, ${allWorst.low.op} vs ${allWorst.low.peer})`,
    });
  }

  const anyCount = ours.filter((r) => r.belowPowerOfTwo).map((row) => ({ row, r: rateRatios(row, plainTwin(ours, row)) }));
  const anyCountWorst = Math.min(...anyCount.flatMap(({ r }) => Object.values(r)));
  targets.push({
    id: 'any-count',
    met: anyCountWorst >= 0.9,
    text:
      `2^k − 1 buckets (hash id 2) within 10% of 2^k (hash id 1) for every operation, per call and batched: ` +
      `slowest ratio ${anyCountWorst.toFixed(2)}`,
  });

  let worstBits = null;
  for (const r of ours) {
    for (const [what, value] of [
      ['bitsPerItem', r.bitsPerItem],
      ['serialized', (8 * r.serializedBytes) / r.items],
    ]) {
      const off = Math.abs(value / r.bitsPerItemIdeal - 1);
      if (worstBits === null || off > worstBits.off) worstBits = { off, what, row: r, value };
    }
  }
  targets.push({
    id: 'bits-per-item',
    met: worstBits.off <= 0.02,
    text:
      `bits per item within 2% of f/load, for filter.bitsPerItem and toBytes() × 8 / items: worst ${percent(worstBits.off, 2)} off ` +
      `(${worstBits.what} ${worstBits.value.toFixed(3)} vs 12/${worstBits.row.loadFactor.toFixed(4)} = ${worstBits.row.bitsPerItemIdeal.toFixed(3)} at 2^${worstBits.row.log2Buckets})`,
  });
  return targets;
}

// --------------------------------------------------------------------- main

async function mainSpace() {
  await init();
  const rows = measureSpace(practicalMaxLoad);
  console.log(JSON_OUTPUT ? JSON.stringify(rows, null, 2) : renderSpace(rows));
}

async function main() {
  const cpus = os.cpus();
  const machine = {
    cpu: cpus[0]?.model?.trim() ?? 'unknown CPU',
    cores: cpus.length,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg()[0],
  };
  const startedAt = now();

  progress(`native: ${path.relative(ROOT, NATIVE_BENCH)} --json --log2-buckets ${SIZES.join(',')}`);
  const native = runNative();
  if (native.error) progress(`native: ${native.error}`);

  await init();

  const ours = [];
  const peers = [];
  for (const log2 of SIZES) {
    const slots = BUCKET_SIZE * 2 ** log2;
    progress(`generating ${slots + 1} present + ${Math.min(slots, MAX_NEGATIVES)} absent keys of each kind`);
    const modes = makeModes(makeKeys(slots + 1, Math.min(slots, MAX_NEGATIVES)));
    collectGarbage();
    ours.push(...measureOurs(modes, log2, REPS[log2], log2 === 16));
    if (log2 === 16) {
      const target = ours.find((r) => r.id === 'call-string').items;
      const keys = modes.keys;
      for (const peer of loadPeers()) {
        progress(`${peer.name} 2^16, up to ${target} items`);
        collectGarbage();
        peers.push(measurePeer(peer, 16, keys.strings, keys.absentStrings, target, PEER_SAMPLE));
      }
    }
  }

  // What the skipped 2^22 peer runs would take at their 2^16 rates (an
  // underestimate: a larger table has more cache misses).
  const items22 = ours.find((r) => r.id === 'call-string' && r.log2Buckets === 22)?.items ?? Math.round(0.953 * BUCKET_SIZE * 2 ** 22);
  const negatives22 = Math.min(BUCKET_SIZE * 2 ** 22, MAX_NEGATIVES);
  const peerEstimates = peers.map((p) => ({
    id: p.id,
    name: p.name,
    items: items22,
    seconds:
      items22 / (p.addMops * 1e6) +
      items22 / (p.hasPositiveMops * 1e6) +
      negatives22 / (p.hasNegativeMops * 1e6) +
      (p.deleteMops ? items22 / (p.deleteMops * 1e6) : 0),
  }));

  machine.loadAverageAtEnd = os.loadavg()[0];
  machine.cpuShareOfTimedLoops = { median: median(cpuShares), min: Math.min(...cpuShares) };
  const results = {
    machine,
    options: { quick: QUICK, sizes: SIZES, reps: REPS, fingerprintBits: FINGERPRINT_BITS, bucketSize: BUCKET_SIZE, seed: SEED },
    native,
    ours,
    peers,
    peerEstimates,
    targets: evaluateTargets(ours, peers),
    totalSeconds: secondsSince(startedAt),
  };
  if (JSON_OUTPUT) console.log(JSON.stringify(results, null, 2));
  else console.log(render(results));
  progress(`done in ${results.totalSeconds.toFixed(0)} s`);
}

await (SPACE ? mainSpace() : main());
