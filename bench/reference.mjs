#!/usr/bin/env node
// The core side by side with the paper's authors' C++ (efficient/cuckoofilter),
// issue 28's ratio table: bench/reference/vs_reference.cpp compiled against a
// copy of that repository you fetched by hand into a folder outside this one
// (nothing of it is copied here), natively with g++ -O3 and with em++ -O3 to
// run under Node, both builds run, and the medians and ratios printed.
//
//   git clone https://github.com/efficient/cuckoofilter /somewhere/cuckoofilter
//   npm run bench:reference -- --ref /somewhere/cuckoofilter
//   node bench/reference.mjs --ref DIR [--runs 3] [--log2-buckets 16,22] [--native | --wasm] [--json]
//                            [--mulshift-through view|filter]
//
// A program, not a test: it prints figures and whether issue 28's targets are
// met, and exits 0 either way (2 when it cannot build or run).

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseCommandLine, progressLog } from './support/cli.mjs';
import { mops, ratioText } from './support/format.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'build/reference');
const DRIVER = path.join(ROOT, 'bench/reference/vs_reference.cpp');
const USAGE =
  'usage: node bench/reference.mjs --ref DIR [--runs 3] [--log2-buckets 16,22] [--native | --wasm] [--json] [--mulshift-through view|filter]';

const OPS = [
  ['insert', 'insert'],
  ['lookupPresent', 'lookup +'],
  ['lookupAbsent', 'lookup −'],
  ['delete', 'delete'],
];
// Issue 28's targets: the ratio ours / reference each operation must reach, per build.
const TARGETS = {
  native: { insert: 1, lookupPresent: 1, lookupAbsent: 1, delete: 1 },
  wasm: { lookupPresent: 1.3, lookupAbsent: 1.3 },
};

const args = parseCommandLine(
  {
    ref: { type: 'string' },
    runs: { type: 'string', default: '3' },
    'log2-buckets': { type: 'string', default: '16,22' },
    native: { type: 'boolean' },
    wasm: { type: 'boolean' },
    json: { type: 'boolean' },
    'mulshift-through': { type: 'string', default: 'view' },
  },
  USAGE,
);
const progress = progressLog('reference');

function fail(message) {
  console.error(`reference: ${message}`);
  process.exit(2);
}

const refDir = args.ref === undefined ? fail(`--ref is required\n${USAGE}`) : path.resolve(args.ref);
if (!existsSync(path.join(refDir, 'src/cuckoofilter.h'))) {
  fail(`${refDir}/src/cuckoofilter.h not found: clone https://github.com/efficient/cuckoofilter into a folder outside this repository and pass it`);
}
if (path.relative(ROOT, refDir).split(path.sep)[0] !== '..') fail(`${refDir} is inside the repository: keep the reference outside it`);

// The reference's hashutil.h includes <openssl/evp.h> for hashes the filter
// never calls (and relies on it for CHAR_BIT); a stand-in with <climits> alone
// replaces it, so neither build needs OpenSSL.
const stubs = path.join(OUT, 'include');
mkdirSync(path.join(stubs, 'openssl'), { recursive: true });
writeFileSync(path.join(stubs, 'openssl/evp.h'), '// Stand-in: the filter uses none of OpenSSL.\n#include <climits>\n');
// em++ must not see the host's /usr/include; the core's xxhash.h is copied beside the stub.
copyFileSync(path.join(ROOT, 'build/native/third_party/xxhash.h'), path.join(stubs, 'xxhash.h'));

const includes = ['-I', path.join(refDir, 'src'), '-I', stubs, '-I', path.join(ROOT, 'cpp/include'), '-I', path.join(ROOT, 'bench')];
// The reference's Makefile builds with -fno-strict-aliasing (its tables are read through casts).
const common = ['-O3', '-DNDEBUG', '-std=c++17', '-fno-strict-aliasing', '-w'];

function run(command, commandArgs, env = process.env) {
  try {
    return execFileSync(command, commandArgs, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
  } catch (error) {
    return fail(`${path.basename(command)} failed (${error.status ?? error.code}): see above`);
  }
}

/** Native: the driver against the core's library as `bash scripts/build` built it (CMake Release, -O3). */
function buildNative() {
  const library = path.join(ROOT, 'build/native/cpp/libcuckoo.a');
  if (!existsSync(library)) fail('build/native/cpp/libcuckoo.a not found: run bash scripts/build');
  const program = path.join(OUT, 'vs_reference');
  run('g++', [...common, ...includes, DRIVER, library, '-o', program]);
  return [program];
}

/** WebAssembly: the driver and the core's sources, all at em++ -O3 (the core with the full module's kernels). */
function buildWasm() {
  const sources = readdirSync(path.join(ROOT, 'cpp/src'))
    .filter((name) => name.endsWith('.cpp'))
    .map((name) => path.join(ROOT, 'cpp/src', name));
  const program = path.join(OUT, 'vs_reference.cjs');
  const env = { ...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') };
  // SINGLE_FILE: Emscripten 3.1.6's loader would fetch() a separate .wasm, which Node cannot for a path.
  const settings = ['-sALLOW_MEMORY_GROWTH=1', '-sMAXIMUM_MEMORY=4GB', '-sENVIRONMENT=node', '-sEXIT_RUNTIME=1', '-sSINGLE_FILE=1'];
  run('em++', [...common, ...includes, '-I', path.join(ROOT, 'cpp/src'), ...settings, DRIVER, ...sources, '-o', program], env);
  // Every function compiled by V8's optimizing tier from the start, as both
  // would be once warm, instead of timing Liftoff's baseline code first.
  return [process.execPath, '--no-liftoff', program];
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// The core's two sides: the default item hash (XXH3, hash id 1) through the
// filter's own calls, and multiplyShiftHash (hash id 8, filters of 64-bit
// keys) through the typed entry, KeyFilterView (or the filter's own calls).
const OURS = [
  ['ours', 'ours'],
  ['oursMultiplyShift', `ours, multiplyShiftHash${args['mulshift-through'] === 'filter' ? '' : ', KeyFilterView'}`],
];

/** One build's rows: per shape, the median rate of each side and the median of the runs' ratios to the reference. */
function summarize(build, rows) {
  return rows.map((row) => {
    const side = (runs) => Object.fromEntries(OPS.map(([op]) => [op, median(runs.map((r) => r[op]))]));
    const ratiosOf = (runs) => Object.fromEntries(OPS.map(([op]) => [op, median(runs.map((r, i) => r[op] / row.reference[i][op]))]));
    return {
      build,
      shape: `${row.semiSorted ? 'semi-sorted f=13' : 'plain f=12'}, 2^${row.log2Buckets}`,
      items: Object.fromEntries(['reference', ...OURS.map(([who]) => who)].map((who) => [who, row[who][0].stored])),
      reference: side(row.reference),
      ...Object.fromEntries(OURS.map(([who]) => [who, side(row[who])])),
      ratios: Object.fromEntries(OURS.map(([who]) => [who, ratiosOf(row[who])])),
    };
  });
}

function render(summaries, runs) {
  const lines = [
    `## The core against the paper's code (efficient/cuckoofilter), median of ${runs} runs`,
    '',
    'M operations/s by CPU time; ratio = ours / reference, the median of each run\'s ratio. Same random 64-bit keys, b = 4, filled to the first failure (the insert that fills the stash).',
    '',
    `| build | shape | filter | items | ${OPS.map(([, label]) => label).join(' | ')} |`,
    `|---|---|---|--:|${OPS.map(() => '--:').join('|')}|`,
  ];
  for (const s of summaries) {
    for (const [who, label] of [['reference', 'reference'], ...OURS]) {
      lines.push(`| ${s.build} | ${s.shape} | ${label} | ${s.items[who]} | ${OPS.map(([op]) => mops(s[who][op])).join(' | ')} |`);
    }
    for (const [who, label] of OURS) {
      const cells = OPS.map(([op]) => {
        const target = TARGETS[s.build][op];
        const ratio = s.ratios[who][op];
        const mark = target === undefined ? '' : ratio >= target ? ' ✓' : ` ✗ (target ${target}×)`;
        // A ratio just short of its target is printed with the digit that shows it short (0.998×, not 1.00×).
        const text = target !== undefined && ratio < target && Number(ratio.toFixed(2)) >= target ? `${ratio.toFixed(3)}×` : ratioText(ratio, 1);
        return `**${text}**${mark}`;
      });
      lines.push(`| ${s.build} | ${s.shape} | **ratio**, ${label} | | ${cells.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

const builds = args.native || args.wasm ? [args.native && 'native', args.wasm && 'wasm'].filter(Boolean) : ['native', 'wasm'];
if (!['view', 'filter'].includes(args['mulshift-through'])) fail(`--mulshift-through must be view or filter\n${USAGE}`);
const driverArgs = ['--runs', args.runs, '--log2-buckets', args['log2-buckets'], '--mulshift-through', args['mulshift-through']];
mkdirSync(OUT, { recursive: true });
const summaries = [];
for (const build of builds) {
  progress(`building the ${build} driver`);
  const [command, ...prefix] = build === 'native' ? buildNative() : buildWasm();
  progress(`running the ${build} driver (${args.runs} runs at 2^${args['log2-buckets']} buckets)`);
  summaries.push(...summarize(build, JSON.parse(run(command, [...prefix, ...driverArgs]))));
}
console.log(args.json ? JSON.stringify(summaries, null, 2) : render(summaries, args.runs));
