#!/usr/bin/env node
// `npm run bench`: the JavaScript boundary (boundary.mjs), then cuckoo-wasm
// through its public API, the native core (cuckoo_bench --json) and the npm
// peers cuckoo-filter and bloom-filters in one markdown table. --boundary,
// --growth, --redis, --redis-module, --patches and --replicas run those programs; --space prints space.mjs's table
// (node/options.mjs has the flags). A program, not a test: it prints figures
// and whether the targets are met, and exits 0 either way.

import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';

import { init } from 'cuckoo-wasm';
import { practicalMaxLoad } from 'cuckoo-wasm/inspect';
import { cpuShares, makeKeys, makeModes, measureOurs } from './node/main-table.mjs';
import { NATIVE_BENCH, runNative } from './node/native.mjs';
import { PEER_SAMPLE, parseOptions } from './node/options.mjs';
import { renderBoundary, renderMain } from './node/render.mjs';
import { describeMachine, progressLog } from './support/cli.mjs';
import { evaluateTargets } from './node/targets.mjs';
import { loadPeers, measurePeer } from './peers.mjs';
import { measureSpace, renderSpace } from './space.mjs';
import { BUCKET_SIZE, FINGERPRINT_BITS, MAX_NEGATIVES, SEED, median, now, secondsSince } from './support/measurement.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const options = parseOptions(process.argv.slice(2));
const progress = progressLog('bench');

// A full collection between measurements (untimed), so that no timed loop
// pays for marking a heap left over from key generation or an earlier run.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');

async function mainSpace() {
  await init();
  const rows = measureSpace(practicalMaxLoad);
  console.log(options.json ? JSON.stringify(rows, null, 2) : renderSpace(rows));
}

/** The main table: every mode at every size, and the npm peers at 2^16. */
function measureMainTable() {
  const ours = [];
  const peers = [];
  for (const log2 of options.sizes) {
    const slots = BUCKET_SIZE * 2 ** log2;
    progress(`generating ${slots + 1} present + ${Math.min(slots, MAX_NEGATIVES)} absent keys of each kind`);
    const keys = makeKeys(slots + 1, Math.min(slots, MAX_NEGATIVES));
    const modes = makeModes(keys);
    collectGarbage();
    ours.push(...measureOurs(modes, log2, options.reps[log2], log2 === 16, { gc: collectGarbage, progress }));
    if (log2 === 16) {
      const target = ours.find((r) => r.id === 'call-string').items;
      for (const peer of loadPeers()) {
        progress(`${peer.name} 2^16, up to ${target} items`);
        collectGarbage();
        peers.push(measurePeer(peer, 16, keys.strings, keys.absentStrings, target, PEER_SAMPLE));
      }
    }
  }
  return { ours, peers };
}

async function main() {
  const machine = describeMachine();
  const startedAt = now();

  progress(`native: ${path.relative(ROOT, NATIVE_BENCH)} --json --log2-buckets ${options.sizes.join(',')}`);
  const native = runNative(options.sizes);
  if (native.error) progress(`native: ${native.error}`);

  progress('the JavaScript boundary, in a fresh Node process: bench/boundary.mjs');
  const boundary = measureBoundary();

  await init();
  const { ours, peers } = measureMainTable();

  machine.loadAverageAtEnd = os.loadavg()[0];
  machine.cpuShareOfTimedLoops = { median: median(cpuShares), min: Math.min(...cpuShares) };
  const { quick, sizes, reps } = options;
  const results = {
    machine,
    options: { quick, sizes, reps, fingerprintBits: FINGERPRINT_BITS, bucketSize: BUCKET_SIZE, seed: SEED },
    boundary,
    native,
    ours,
    peers,
  };
  results.targets = [
    ...boundary.targets.map(({ target, value, met }) => ({ id: `boundary: ${target}`, met, text: `${target}: ${value.toFixed(2)}` })),
    ...evaluateTargets(ours, peers, native),
  ];
  results.totalSeconds = secondsSince(startedAt);
  if (options.json) {
    console.log(JSON.stringify(results, null, 2));
  } else {
    const targets = ['Targets:', ...results.targets.map((t) => `- ${t.met ? 'MET' : 'NOT MET'}: ${t.text}`)].join('\n');
    console.log([boundary.text, renderMain(results), targets].join('\n\n'));
  }
  progress(`done in ${results.totalSeconds.toFixed(0)} s`);
}

/**
 * bench/boundary.mjs in a fresh Node process, which imports only the main
 * entry (the lean module): its table and its targets.
 */
function measureBoundary() {
  const args = [path.join(HERE, 'boundary.mjs'), ...(options.quick ? ['--quick'] : []), '--json'];
  const json = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (json.status !== 0) throw new Error(`bench/boundary.mjs failed: ${json.stderr}`);
  const figures = JSON.parse(json.stdout);
  return { ...figures, text: renderBoundary(figures) };
}

// The boundary's, the growable filters', the Redis, patch and replica benchmarks are programs of their own: run one as the user asked.
function runProgram(file) {
  const args = [
    path.join(HERE, file),
    ...(options.quick ? ['--quick'] : []),
    ...(options.json ? ['--json'] : []),
    ...(options.baseline !== undefined ? ['--baseline', options.baseline] : []),
  ];
  process.exitCode = spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const program = { boundary: 'boundary.mjs', growth: 'growth.mjs', redis: 'redis.mjs', 'redis-module': 'redis-module.mjs', patches: 'patches.mjs', replicas: 'replicas.mjs' };
const chosen = Object.keys(program).find((flag) => options[flag]);
await (chosen !== undefined ? runProgram(program[chosen]) : options.space ? mainSpace() : main());
