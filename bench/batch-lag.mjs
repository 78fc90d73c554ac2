#!/usr/bin/env node
// Why hasMany(Uint32Array) lagged in Chromium behind Node (issue 11): each
// hypothesis measured in both, trials alternating between a fresh Node process
// and a fresh Chromium page (the first calls after loading are the point).
//
//   node bench/batch-lag.mjs [--trials 3] [--count 1048576] [--json]
//
// - tier-up: a new user's first hasMany calls, with V8's default tiering,
//   with Liftoff off (--no-liftoff: wasm compiled by TurboFan before it runs),
//   and with each runtime given the other's wasm tiering budget;
// - memory growth: whether memory grew during a timed call, and the same
//   scenario with memory grown beforehand;
// - copies: hasMany split into writing the items, the core's lookup and the
//   answers copied out, warm, at several chunk sizes.
//
// A program, not a test: it prints figures. Needs a built dist/ (npm run build),
// Chromium at /usr/bin/chromium (or CHROMIUM_PATH) and playwright-core.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { browserUnavailable, openBenchPage, startBenchSite } from './browser/chromium.mjs';
import { median } from './support/stats.mjs';

const HERE = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(HERE), '..');

async function loadLib() {
  const { init, CuckooFilter } = await import('../dist/esm/index.js');
  // Internal: the raw module and the item writer (see bench/shared/batch-lag.mjs).
  const { requireRuntime } = await import('../dist/esm/loader.js');
  const { createBatchLag } = await import('./shared/batch-lag.mjs');
  await init();
  return createBatchLag({ CuckooFilter, requireRuntime });
}

// A child process runs one probe in a fresh Node: `--child <probe> <json args>`.
if (process.argv[2] === '--child') {
  const lag = await loadLib();
  console.log(JSON.stringify(lag[process.argv[3]](JSON.parse(process.argv[4]))));
  process.exit(0);
}

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}
const TRIALS = option('--trials', 3);
const COUNT = option('--count', 2 ** 20);
const CALLS = 8;
const JSON_OUTPUT = process.argv.includes('--json');
const progress = (text) => process.stderr.write(`[batch-lag] ${text}\n`);

function inNode(nodeFlags, probe, args) {
  const run = spawnSync(process.execPath, [...nodeFlags, HERE, '--child', probe, JSON.stringify(args)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (run.status !== 0) throw new Error(`node ${nodeFlags.join(' ')} ${probe} failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

async function inChromium(site, jsFlags, probe, args) {
  const page = await openBenchPage(site, { jsFlags });
  try {
    return await page.evaluate(([name, a]) => window.__lag[name](a), [probe, args]);
  } finally {
    await page.close();
  }
}

const CONFIGS = [
  { id: 'default', text: 'default tiering', flags: [], args: {} },
  { id: 'no-liftoff', text: '--no-liftoff (TurboFan before the first call)', flags: ['--no-liftoff'], args: {} },
  // Chromium's V8 runs a wasm function 13,000,000 budget units in Liftoff
  // before tiering it up, Node 20's 1,800,000: each runtime with the other's.
  {
    id: 'budget',
    text: "each with the other's wasm tiering budget (Node 13,000,000, Chromium 1,800,000)",
    flags: { node: ['--wasm-tiering-budget=13000000'], chromium: ['--wasm-tiering-budget=1800000'] },
    args: {},
  },
  { id: 'pre-grown', text: 'memory grown by 256 MB beforehand', flags: [], args: { preGrowBytes: 256 << 20 } },
];

async function main() {
  const unavailable = browserUnavailable();
  if (unavailable) {
    console.error(`batch-lag: ${unavailable}`);
    process.exit(2);
  }
  const site = await startBenchSite();
  const trials = Object.fromEntries(CONFIGS.map((c) => [c.id, { node: [], chromium: [] }]));
  try {
    for (let t = 0; t < TRIALS; t++) {
      for (const config of CONFIGS) {
        progress(`trial ${t + 1} of ${TRIALS}: ${config.id}`);
        const args = { count: COUNT, calls: CALLS, ...config.args };
        const flags = Array.isArray(config.flags) ? { node: config.flags, chromium: config.flags } : config.flags;
        trials[config.id].node.push(inNode(flags.node, 'newUser', args));
        trials[config.id].chromium.push(await inChromium(site, flags.chromium, 'newUser', args));
      }
    }
    progress('split, warm');
    const splitArgs = { count: 1 << 20, chunks: [1024, 8192, 65536], rounds: 7 };
    const split = { node: inNode([], 'split', splitArgs), chromium: await inChromium(site, [], 'split', splitArgs) };
    if (JSON_OUTPUT) console.log(JSON.stringify({ trials, split }, null, 2));
    else console.log(render(trials, split));
  } finally {
    await site.close();
  }
}

const f1 = (x) => x.toFixed(1);

function render(trials, split) {
  const lines = [
    `hasMany(Uint32Array of ${COUNT} keys) on CuckooFilter.create({ capacity: ${COUNT}, fpr: 0.001 }), a fresh process or page per trial, ` +
      `${TRIALS} trials alternating Node and Chromium; M items/s, medians over trials.`,
    '',
    '| configuration | runtime | addMany | hasMany call 1 | call 2 | call 3 | calls 4-8 | memory grew during a hasMany | memory at start → end (MB) |',
    '|---|---|--:|--:|--:|--:|--:|--:|---|',
  ];
  const summary = {};
  for (const config of CONFIGS) {
    for (const runtime of ['node', 'chromium']) {
      const runs = trials[config.id][runtime];
      const call = (i) => median(runs.map((r) => r.hasMany[i].mops));
      const later = median(runs.map((r) => median(r.hasMany.slice(3).map((c) => c.mops))));
      const grew = runs.reduce((sum, r) => sum + r.hasMany.filter((c) => c.grew).length, 0);
      summary[`${config.id}/${runtime}`] = { first: call(0), later };
      lines.push(
        `| ${config.text} | ${runtime === 'node' ? `Node ${process.version}` : 'Chromium'} | ${f1(median(runs.map((r) => r.addMops)))} | ` +
          `${f1(call(0))} | ${f1(call(1))} | ${f1(call(2))} | ${f1(later)} | ${grew} of ${runs.length * CALLS} | ` +
          `${f1(runs[0].memoryAtStart / 2 ** 20)} → ${f1(runs[0].memoryAtEnd / 2 ** 20)} |`,
      );
    }
  }
  lines.push('');
  for (const config of CONFIGS) {
    const n = summary[`${config.id}/node`];
    const c = summary[`${config.id}/chromium`];
    lines.push(`Chromium / Node, ${config.text}: first call ${(c.first / n.first).toFixed(2)}, calls 4-8 ${(c.later / n.later).toFixed(2)}`);
  }
  lines.push('');
  lines.push('hasMany(Uint32Array) split, warm (1,048,576 absent keys, 7 rounds; ns per item, medians):');
  lines.push('');
  lines.push('| runtime | chunk (items) | write items | core lookup | answers: slice + join | answers: set into result | whole hasMany |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|');
  for (const runtime of ['node', 'chromium']) {
    const s = split[runtime];
    for (const chunk of Object.keys(s).filter((k) => k !== 'hasMany')) {
      const r = s[chunk];
      const f2 = (v) => median(v).toFixed(2);
      lines.push(
        `| ${runtime === 'node' ? 'Node' : 'Chromium'} | ${chunk} | ${f2(r.encode)} | ${f2(r.core)} | ${f2(r.slice)} | ${f2(r.direct)} | ${f2(s.hasMany)} |`,
      );
    }
  }
  return lines.join('\n');
}

await main();
