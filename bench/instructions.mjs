#!/usr/bin/env node
// Instructions per operation of the native core, counted by valgrind's
// callgrind on build/native/bench/cuckoo_instructions: repeatable for the same
// binary and inputs whatever else the machine runs, unlike a timing.
//
//   node bench/instructions.mjs                 the default shapes, as a table
//   node bench/instructions.mjs --json
//
// A program, not a test: it prints figures. Needs valgrind (Debian: valgrind).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROGRAM = path.join(ROOT, 'build/native/bench/cuckoo_instructions');
const PHASES = [
  'insertPhase',
  'lookupPositivePhase',
  'lookupNegativePhase',
  'erasePhase',
  'insertBatchPhase',
  'lookupPositiveBatchPhase',
  'lookupNegativeBatchPhase',
  'eraseBatchPhase',
];

/**
 * The shapes measured by default: f = 12 plain and 13 semi-sorted, with a
 * power-of-two bucket count and one below it, each with its own
 * (specialised) kernel and with the generic one.
 */
const DEFAULT_SHAPES = [
  ['plain f=12 b=4', ['--bits', '12']],
  ['semi-sorted f=13 b=4', ['--bits', '13', '--semi-sort']],
].flatMap(([shape, shapeArgs]) =>
  [
    ['2^12', '4096'],
    ['2^12 - 1', '4095'],
  ].flatMap(([buckets, count]) => [
    { label: `${shape}, ${buckets} buckets, specialised`, args: ['--bucket-count', count, ...shapeArgs] },
    { label: `${shape}, ${buckets} buckets, generic`, args: ['--bucket-count', count, ...shapeArgs, '--generic'] },
  ]),
);

/** Instructions per operation of each phase for one shape; null when valgrind is missing. */
function countInstructions(args) {
  if (!existsSync(PROGRAM)) throw new Error(`${path.relative(ROOT, PROGRAM)} not found: run bash scripts/build`);
  const dir = mkdtempSync(path.join(tmpdir(), 'cuckoo-callgrind-'));
  try {
    const out = path.join(dir, 'callgrind.out');
    const run = spawnSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, PROGRAM, ...args], { encoding: 'utf8' });
    if (run.error?.code === 'ENOENT') return null;
    if (run.status !== 0) throw new Error(`cuckoo_instructions ${args.join(' ')} failed: ${run.stderr.slice(-500)}`);
    const { operations } = JSON.parse(run.stdout);
    const annotate = spawnSync('callgrind_annotate', ['--inclusive=yes', out], { encoding: 'utf8' });
    const perPhase = {};
    for (const phase of PHASES) {
      // A line such as "  1,234,567 (12.3%)  bench/instructions.cpp:(anonymous namespace)::insertPhase(...) [...]"
      const line = annotate.stdout.split('\n').find((l) => l.includes(`::${phase}(`));
      if (line === undefined) throw new Error(`callgrind_annotate lists no ${phase}`);
      perPhase[phase] = Number(line.trim().split(/\s+/)[0].replace(/,/g, '')) / operations;
    }
    return perPhase;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main() {
  const json = process.argv.includes('--json');
  const rows = DEFAULT_SHAPES.map(({ label, args }) => ({ label, perOperation: countInstructions(args) }));
  if (rows.some((row) => row.perOperation === null)) {
    console.error('instructions: valgrind not found (Debian: apt-get install valgrind)');
    process.exit(2);
  }
  if (json) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  console.log('Instructions per operation (callgrind), at half load:\n');
  console.log('| shape | insert | lookup + | lookup − | delete | batch insert | batch lookup + | batch lookup − | batch delete |');
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const { label, perOperation: p } of rows) {
    const cells = PHASES.map((phase) => p[phase].toFixed(1));
    console.log(`| ${label} | ${cells.join(' | ')} |`);
  }
  console.log('\nGeneric ÷ specialised, the same shape (instructions the specialised kernel saves):\n');
  console.log('| shape | insert | lookup + | lookup − | delete | batch insert | batch lookup + | batch lookup − | batch delete |');
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const { label, perOperation: generic } of rows.filter((row) => row.label.endsWith(', generic'))) {
    const shape = label.slice(0, -', generic'.length);
    const specialised = rows.find((row) => row.label === `${shape}, specialised`)?.perOperation;
    if (!specialised) continue;
    console.log(`| ${shape} | ${PHASES.map((phase) => (generic[phase] / specialised[phase]).toFixed(2)).join(' | ')} |`);
  }
}

main();
