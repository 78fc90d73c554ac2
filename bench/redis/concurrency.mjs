// The concurrency target: P processes, each adding its own items to one filter
// at once, then no false negative, the exact size and a false-positive rate
// within binomial limits; and the same items SADDed to a SET by P processes
// at once on the same server, for scale.

import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { CuckooFilter } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { item, itemsFrom } from './items.mjs';

const WORKER = join(dirname(fileURLToPath(import.meta.url)), 'worker.mjs');
export const BATCH = 1000;
/** Never-added probes start here, far from every added item. */
export const PROBE_BASE = 10 ** 12;

/** Starts P workers adding to `name`, lets them go at once, resolves to their {seconds, added}. */
async function runWorkers(target, name, processes, perProcess) {
  const workers = Array.from({ length: processes }, (_, p) => {
    const child = spawn(process.execPath, [WORKER, target, name, String(p * perProcess), String(perProcess), String(BATCH)], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = [];
    const ready = new Promise((resolve) => createInterface({ input: child.stdout }).on('line', (line) => (lines.push(line), line === 'ready' && resolve())));
    const done = new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(lines[lines.length - 1])) : reject(new Error(`worker ${p} exited with ${code}`)))));
    return { child, ready, done };
  });
  await Promise.all(workers.map((worker) => worker.ready));
  for (const worker of workers) worker.child.stdin.end('go\n');
  return Promise.all(workers.map((worker) => worker.done));
}

/** The rate at which a slot of a shard holding `items` matches a stranger: 1 − (1 − load / (2^f − 1))^(2b). */
export function expectedRate(params, items) {
  const slotsPerBucket = params.semiSort ? 4 : params.bucketSize;
  const load = items / params.shards / (params.bucketCount * slotsPerBucket);
  return 1 - (1 - load / (2 ** params.fingerprintBits - 1)) ** (2 * slotsPerBucket);
}

/** n·p ± 5·sqrt(n·p·(1 − p)): a filter of rate p shows its positives there but for odds below 10^-6. */
export function binomialLimits(n, p) {
  const spread = 5 * Math.sqrt(n * p * (1 - p));
  return [n * p - spread, n * p + spread];
}

export function probesOf(count) {
  return Array.from({ length: count }, (_, k) => item(PROBE_BASE + k));
}

async function positives(filter, probes) {
  let found = 0;
  for (let start = 0; start < probes.length; start += 10_000) for (const answer of await filter.hasMany(probes.slice(start, start + 10_000))) found += answer;
  return found;
}

/**
 * One concurrency run: a filter `name` (capacity, fpr, shards) filled by P
 * processes; a SET `<name>-set` filled the same way when `withSet`.
 */
export async function concurrencyRun({ client, target, name, capacity, fpr, shards, processes, perProcess, probes, withSet, progress }) {
  const filter = await RedisCuckooFilter.create(client, name, { capacity, fpr, shards });
  progress(`${processes} processes × ${perProcess} adds into '${name}' (${shards} shard${shards > 1 ? 's' : ''})`);
  const filterRuns = await runWorkers(target, name, processes, perProcess);
  const total = processes * perProcess;
  let setRuns = null;
  if (withSet) {
    progress(`${processes} processes × ${perProcess} SADD into the SET ${name}-set`);
    setRuns = await runWorkers(target, `set:${name}-set`, processes, perProcess);
  }
  progress('checking: every item, the size, the false-positive rate');
  let falseNegatives = 0;
  for (let start = 0; start < total; start += 10_000) {
    for (const answer of await filter.hasMany(itemsFrom(start, Math.min(10_000, total - start)))) if (answer !== 1) falseNegatives++;
  }
  const size = await filter.size();
  const found = await positives(filter, probes);
  const rate = expectedRate(filter.params, total);
  const [low, high] = binomialLimits(probes.length, rate);
  // An in-process CuckooFilter of the same parameters and items, on the same probes (one shard only).
  let inProcess = null;
  if (shards === 1) {
    const { shards: _, ...params } = filter.params;
    const local = new CuckooFilter(params);
    for (let start = 0; start < total; start += 100_000) local.addMany(itemsFrom(start, Math.min(100_000, total - start)));
    inProcess = 0;
    for (let start = 0; start < probes.length; start += 100_000) for (const answer of local.hasMany(probes.slice(start, start + 100_000))) inProcess += answer;
    local.dispose();
  }
  const rateOf = (runs) => (runs === null ? null : total / Math.max(...runs.map((run) => run.seconds)));
  return {
    name,
    shards,
    processes,
    perProcess,
    added: filterRuns.reduce((sum, run) => sum + run.added, 0),
    addsPerSecond: rateOf(filterRuns),
    saddPerSecond: rateOf(setRuns),
    falseNegatives,
    size,
    probes: probes.length,
    falsePositives: found,
    inProcessFalsePositives: inProcess,
    expectedRate: rate,
    limits: [low, high],
    filter,
  };
}
