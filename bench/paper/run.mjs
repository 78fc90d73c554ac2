#!/usr/bin/env node
// `npm run paper`: reproduces the evaluation of the cuckoo filter paper
// (Table 3, Figures 2-8) with the native build (build/native/bench/paper_native)
// and the wasm build in Node (paper_wasm.mjs), then writes REPORT.md, one SVG
// per figure and data.json (every raw number) into the output folder.
//
//   node bench/paper/run.mjs            full sizes, about 5-10 minutes on 2 cores
//   node bench/paper/run.mjs --quick    small sizes and few runs, well under a minute
//   node bench/paper/run.mjs --out DIR  write somewhere else than results/
//
// Build first (`npm run paper` does): bash scripts/build. The experiments run
// one after another so that no two timed loops share the CPU; the untimed
// ones (Figures 2-4) use every core.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { charts } from './charts.mjs';
import { protocol } from './protocol.mjs';
import { renderReport, renderTable3 } from './report.mjs';
import { evaluateChecks, summarise } from './summary.mjs';
import { describeMachine, parseCommandLine, progressLog } from '../support/cli.mjs';
import { mean, now, secondsSince } from '../support/measurement.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const NATIVE = path.join(ROOT, 'build/native/bench/paper_native');
const WASM = path.join(HERE, 'paper_wasm.mjs');
const DEFAULT_OUT = path.join(ROOT, 'results');
const README = path.join(ROOT, 'README.md');

const USAGE = 'usage: node bench/paper/run.mjs [--quick] [--out DIR]';

/**
 * What each mode runs: protocol.json's plans. Full: sized for 2 cores and 10
 * minutes, build included. One run of Figure 2 at m = 2^20 (38 fills of 4-8 M
 * slots) takes 30 s on 2 idle cores and over 90 s on busy ones, so that size
 * runs last and repeats only while the time budget allows (at least once, at
 * most the paper's 10 times); the report states how many runs it got.
 */
const PLANS = protocol.plans;

const cli = parseCommandLine({ quick: { type: 'boolean', default: false }, out: { type: 'string' } }, USAGE);
const options = { quick: cli.quick, out: cli.out ? path.resolve(cli.out) : DEFAULT_OUT };
const plan = PLANS[options.quick ? 'quick' : 'full'];
const launched = now();
const elapsed = () => secondsSince(launched);
const progress = progressLog('paper');

// ---------------------------------------------------------------- running the experiments

const steps = [];

/** Runs one experiment program to completion; resolves with its JSON output. */
function runProgram(name, command, args) {
  progress(`${name}: ${path.relative(ROOT, command)} ${args.join(' ')}`);
  const started = now();
  return new Promise((resolve, reject) => {
    const child = spawn(command === WASM ? process.execPath : command, command === WASM ? [WASM, ...args] : args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    let errors = '';
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => {
      errors += chunk;
      for (const line of String(chunk).split('\n')) if (line.trim()) progress(`  ${line.trim()}`);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = secondsSince(started);
      if (code !== 0) {
        reject(new Error(`${name} exited with ${code}: ${errors.trim()}`));
        return;
      }
      steps.push({ name, seconds });
      progress(`${name}: done in ${seconds.toFixed(1)} s`);
      resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    });
  });
}

const list = (values) => values.join(',');
const loadArgs = (spec, firstRun = 1) => ['load', '--log2-buckets', list(spec.log2Buckets), '--runs', String(spec.runs), '--first-run', String(firstRun)];
const spaceArgs = (spec) => ['space', '--log2-slots', String(spec.log2Slots), '--runs', String(spec.runs), '--log2-negatives', String(spec.log2Negatives)];
const filtersArgs = (spec) => [
  'filters',
  '--log2-buckets', String(spec.log2Buckets),
  '--runs', String(spec.runs),
  '--log2-negatives', String(spec.log2Negatives),
  '--log2-queries', String(spec.log2Queries),
  '--log2-sample', String(spec.log2Sample),
  '--window', String(spec.window),
  '--repeats', String(spec.repeats),
];

// ---------------------------------------------------------------- native / wasm agreement

/** Compares the rows two platforms produced for the same arguments, on the fields that must match exactly. */
function compareRows(name, nativeRows, wasmRows, keyOf, valueOf) {
  const expected = new Map(nativeRows.map((r) => [keyOf(r), JSON.stringify(valueOf(r))]));
  let mismatches = 0;
  let first = '';
  for (const r of wasmRows) {
    const want = expected.get(keyOf(r));
    if (want !== JSON.stringify(valueOf(r))) {
      mismatches++;
      first ||= `${keyOf(r)}: wasm ${JSON.stringify(valueOf(r))}, native ${want}`;
    }
  }
  const pass = mismatches === 0 && wasmRows.length > 0;
  return {
    name,
    pass,
    detail: pass ? `${wasmRows.length} of ${wasmRows.length} identical` : `${mismatches} of ${wasmRows.length} differ; first: ${first}`,
  };
}

// ---------------------------------------------------------------- the machine

function firstLine(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.split('\n')[0].trim() : null;
}

function cmakeCacheValue(buildDir, name) {
  try {
    const cache = readFileSync(path.join(ROOT, buildDir, 'CMakeCache.txt'), 'utf8');
    return cache.match(new RegExp(`^${name}:[A-Z]+=(.*)$`, 'm'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** describeMachine() with the L3 cache, the memory and both compilers. */
function describeMachineAndCompilers() {
  let l3 = null;
  try {
    const size = readFileSync('/sys/devices/system/cpu/cpu0/cache/index3/size', 'utf8').trim();
    const kib = Number.parseInt(size, 10);
    l3 = size.endsWith('K') && kib >= 1024 ? `${Math.round(kib / 1024)} MiB` : size;
  } catch {
    // No sysfs cache description (not Linux): the report says "unknown".
  }
  const nativeCompiler = cmakeCacheValue('build/native', 'CMAKE_CXX_COMPILER') ?? 'c++';
  const wasmCompiler = cmakeCacheValue('build/wasm', 'CMAKE_CXX_COMPILER') ?? 'em++';
  return {
    ...describeMachine(),
    l3,
    memoryGiB: os.totalmem() / 2 ** 30,
    nativeCompiler: firstLine(nativeCompiler, ['--version']) ?? nativeCompiler,
    wasmCompiler: (firstLine(wasmCompiler, ['--version']) ?? wasmCompiler).replace(/\s*\(Emscripten gcc\/clang-like replacement[^)]*\)/, '').replace(/\s*\(\)$/, ''),
  };
}

// ---------------------------------------------------------------- the README block

const README_START = '<!-- paper-table3:start (written by bench/paper/run.mjs) -->';
const README_END = '<!-- paper-table3:end -->';

/** Rewrites the Table 3 block of the README, when the README has one, from this run's results. */
function updateReadme(table) {
  if (!existsSync(README)) return false;
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start < 0 || end < start) return false;
  writeFileSync(README, `${text.slice(0, start + README_START.length)}\n${table}\n${text.slice(end)}`);
  return true;
}

// ---------------------------------------------------------------- main

async function main() {
  for (const file of [NATIVE, path.join(ROOT, 'dist/esm/index.node.mjs')]) {
    if (!existsSync(file)) {
      console.error(`run.mjs: ${path.relative(ROOT, file)} not found: build first (bash scripts/build, or npm run paper)`);
      process.exit(1);
    }
  }
  const machine = describeMachineAndCompilers();
  const startedAt = new Date().toISOString();
  progress(`${options.quick ? 'quick' : 'full'} run on ${machine.cpu}, ${machine.cores} cores, load average ${machine.loadAverageAtStart.toFixed(2)}`);

  const native = { load: [] };
  const wasm = {};
  const crossChecks = [];

  const nativeKeys = await runProgram('keys (native)', NATIVE, ['keys', '--count', '8']);
  const wasmKeys = await runProgram('keys (wasm)', WASM, ['keys', '--count', '8']);
  crossChecks.push(
    compareRows('wasm generates the native key streams', ['present', 'absent', 'choices'].map((s) => ({ s, v: nativeKeys[s] })),
      ['present', 'absent', 'choices'].map((s) => ({ s, v: wasmKeys[s] })), (r) => r.s, (r) => r.v),
  );

  // The timed experiments first, while the machine state is what the report describes.
  native.filters = await runProgram('Table 3, Figures 5-8 (native)', NATIVE, filtersArgs(plan.filters));
  wasm.filters = await runProgram('Table 3, Figures 5-8 (wasm)', WASM, [...filtersArgs(plan.filters), '--log2-per-call', String(plan.filters.log2PerCall)]);
  crossChecks.push(
    compareRows('wasm Table 3: same items, false positives and Figure 5 answers as native', native.filters.results, wasm.filters.results,
      (r) => `${r.name} run ${r.run}`, (r) => [r.items, r.falsePositives, r.mixes.map((m) => m.hits)]),
  );

  const loadSpecs = [];
  for (const spec of plan.load) {
    native.load.push(await runProgram(`Figure 2 at m = ${spec.log2Buckets.map((l) => `2^${l}`).join(', ')} (native)`, NATIVE, loadArgs(spec)));
    loadSpecs.push(spec);
  }
  wasm.load = await runProgram('Figure 2 agreement (wasm)', WASM, loadArgs(plan.loadCheck));
  const loadKey = (r) => `m=2^${r.log2Buckets} b=${r.bucketSize} f=${r.fingerprintBits} run ${r.run}`;
  crossChecks.push(
    compareRows(`wasm Figure 2 (m = ${plan.loadCheck.log2Buckets.map((l) => `2^${l}`).join(', ')}, ${plan.loadCheck.runs} run(s)): same load factors as native`,
      native.load.flatMap((l) => l.rows), wasm.load.rows, loadKey, (r) => r.items),
  );

  native.space = await runProgram('Figures 3-4 (native)', NATIVE, spaceArgs(plan.space));
  const spaceCheckNative = await runProgram('Figures 3-4 agreement (native)', NATIVE, spaceArgs(plan.spaceCheck));
  wasm.space = await runProgram('Figures 3-4 agreement (wasm)', WASM, spaceArgs(plan.spaceCheck));
  crossChecks.push(
    compareRows(`wasm Figures 3-4 (2^${plan.spaceCheck.log2Slots} slots): same items and false positives as native`, spaceCheckNative.rows, wasm.space.rows,
      (r) => `${r.series} ${r.fingerprintBits ?? r.bitsPerItemTarget} run ${r.run}`, (r) => [r.items, r.tableBits, r.falsePositives]),
  );

  // Last: Figure 2 at the large size, one run at a time while the budget lasts.
  const estimates = {};
  const budgeted = plan.loadWithinBudget;
  if (budgeted) {
    const durations = [];
    for (let run = 1; run <= budgeted.maxRuns; run++) {
      // The last two runs predict the next (the machine's load changes), with room for a slower one.
      if (run > 1 && elapsed() + 1.5 * Math.max(...durations.slice(-2)) > budgeted.budgetSeconds) {
        progress(`Figure 2 at m = 2^${budgeted.log2Buckets.join(', 2^')}: stopping after ${run - 1} run(s), another would pass the ${budgeted.budgetSeconds} s budget`);
        break;
      }
      const spec = { log2Buckets: budgeted.log2Buckets, runs: 1 };
      native.load.push(await runProgram(`Figure 2 at m = 2^${budgeted.log2Buckets.join(', 2^')}, run ${run} (native)`, NATIVE, loadArgs(spec, run)));
      durations.push(steps.at(-1).seconds);
    }
    loadSpecs.push({ log2Buckets: budgeted.log2Buckets, runs: durations.length });
    estimates.loadRunSeconds = {
      mean: mean(durations),
      min: Math.min(...durations),
      max: Math.max(...durations),
    };
  }

  machine.loadAverageAtEnd = os.loadavg()[0];
  const data = {
    command: `node bench/paper/run.mjs${options.quick ? ' --quick' : ''}${options.out === DEFAULT_OUT ? '' : ' --out …'}`,
    mode: options.quick ? 'quick' : 'full',
    startedAt,
    finishedAt: new Date().toISOString(),
    totalSeconds: elapsed(),
    machine,
    plan,
    loadSpecs,
    estimates,
    steps,
    crossChecks,
    native,
    wasm,
    wasmChecks: { spaceNative: spaceCheckNative },
  };
  const summary = summarise(data);
  const checks = evaluateChecks(data, summary);
  data.checks = checks;
  data.summary = summary;

  mkdirSync(options.out, { recursive: true });
  const svgs = charts(data, summary);
  for (const [name, svg] of Object.entries(svgs)) writeFileSync(path.join(options.out, name), svg);
  writeFileSync(path.join(options.out, 'REPORT.md'), renderReport(data, summary, checks, svgs));
  writeFileSync(path.join(options.out, 'data.json'), `${JSON.stringify(data, null, 1)}\n`);
  if (!options.quick && options.out === DEFAULT_OUT && updateReadme(renderTable3(data, summary))) progress('README.md: Table 3 block updated');

  for (const c of checks) progress(`${c.pass ? 'pass' : 'FAIL'}: ${c.name} — ${c.detail}`);
  progress(`wrote ${path.relative(process.cwd(), options.out) || '.'}/REPORT.md, data.json and ${Object.keys(svgs).length} charts in ${elapsed().toFixed(0)} s`);
  if (checks.some((c) => !c.pass)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`run.mjs: ${error.message}`);
  process.exit(1);
});
