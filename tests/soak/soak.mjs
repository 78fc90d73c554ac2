#!/usr/bin/env node
// A long differential run of the wasm build: millions of mixed operations on
// several parameter sets, checked against an exact multiset after every step,
// and the final bytes compared with the native core replaying the same
// sequence (tests/soak/native_replay.cpp, built in build/native).
//
//   node tests/soak/soak.mjs [--ops N] [--set NAME]...     (npm run soak: 10.5 million)
//
// THE SEQUENCE (native_replay.cpp implements it too; keep both in step).
// rng = SplitMix64 whose state starts at runSeed (the generator of prng.hpp);
// draw(n) = (high 32 bits of rng.next()) mod n. key(k) for k in [0, universe):
//   number: the safe integer (k even ? 1 : -1) * k * 65537; string: `key-${k}`;
//   unicode: `ключ-${k}-🐦`.
// `present` lists the keys stored, one entry per copy; take() removes entry
// draw(present.length), moving the last entry into its place.
// Until ops >= budget (tested before every step), repeat a cycle of:
//   mixed: 2 * slots steps; p = draw(1000), then
//     p < 400  insert key(draw(U)); stored: push it                      ops += 1
//     p < 650  if present is not empty: erase take()                    ops += 1
//     p < 800  contains key(draw(U))                                    ops += 1
//     p < 880  count key(draw(U))                                       ops += 1
//     p < 940  insertUnique key(draw(U)); inserted: push it             ops += 1
//     p < 970  n = 1 + draw(16), n keys key(draw(U)): insert in order up to
//              the first failure, pushing each stored one               ops += n
//     p < 985  n = min(1 + draw(16), present.length): erase n take()s    ops += max(n, 1)
//     p < 998  n = 1 + draw(16): contains of n keys key(draw(U))        ops += n
//     p < 999  serialize and deserialize, continue with the copy        ops += 1
//     else     clear, present = []                                      ops += 1
//   fill: insert key(draw(U)) (ops += 1 each, push when stored) until one fails
//   drain: erase take() (ops += 1 each) until present is empty
// The run stops as soon as ops >= budget, in whichever phase it is.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CuckooFilter, init } from '../../dist/esm/index.node.mjs';
import { SplitMix64 } from '../../bench/support/splitmix64.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const nativeReplay = join(repoRoot, 'build', 'native', 'tests', 'soak', 'cuckoo_native_replay');

// Shares of the total budget. The `exact` sets use 32-bit fingerprints and a
// key set small enough that no two keys collide, so counts and lookups of
// absent keys must be exact, not merely bounded.
export const PARAMETER_SETS = [
  { name: 'f12-b4-m4096-strings', f: 12, b: 4, m: 4096, maxKicks: 500, seed: 42n, keys: 'string', universe: 20000, runSeed: 1n, share: 0.25 },
  { name: 'f32-b4-m256-unicode-exact', f: 32, b: 4, m: 256, maxKicks: 500, seed: 7n, keys: 'unicode', universe: 1000, runSeed: 2n, share: 0.15, exact: true },
  { name: 'f8-b2-m1024-numbers-maxseed', f: 8, b: 2, m: 1024, maxKicks: 100, seed: 2n ** 64n - 1n, keys: 'number', universe: 50000, runSeed: 3n, share: 0.15 },
  { name: 'f16-b8-m512-numbers', f: 16, b: 8, m: 512, maxKicks: 20, seed: 12345n, keys: 'number', universe: 3000, runSeed: 4n, share: 0.15 },
  { name: 'f5-b1-m2048-strings-kicks0', f: 5, b: 1, m: 2048, maxKicks: 0, seed: 1n, keys: 'string', universe: 5000, runSeed: 5n, share: 0.1 },
  { name: 'f32-b1-m1024-numbers-exact', f: 32, b: 1, m: 1024, maxKicks: 500, seed: 99n, keys: 'number', universe: 500, runSeed: 6n, share: 0.1, exact: true },
  { name: 'f2-b8-m64-unicode', f: 2, b: 8, m: 64, maxKicks: 50, seed: 5n, keys: 'unicode', universe: 300, runSeed: 7n, share: 0.1 },
  { name: 'f13-b4-m2048-semisorted-strings', f: 13, b: 4, m: 2048, semiSort: true, maxKicks: 500, seed: 3n, keys: 'string', universe: 12000, runSeed: 8n, share: 0.15 },
  { name: 'f32-b4-m128-semisorted-numbers-exact', f: 32, b: 4, m: 128, semiSort: true, maxKicks: 500, seed: 9n, keys: 'number', universe: 400, runSeed: 9n, share: 0.1, exact: true },
  { name: 'f5-b4-m256-semisorted-unicode', f: 5, b: 4, m: 256, semiSort: true, maxKicks: 30, seed: 10n, keys: 'unicode', universe: 2000, runSeed: 10n, share: 0.05 },
];

/** draw(n): the high 32 bits of the generator's next output, mod n. */
function draw(rng, n) {
  rng.next();
  return rng.hi % n;
}

export function keyOf(kind, k) {
  switch (kind) {
    case 'number':
      return (k % 2 === 0 ? 1 : -1) * k * 65537;
    case 'string':
      return `key-${k}`;
    case 'unicode':
      return `ключ-${k}-🐦`;
    default:
      throw new Error(`unknown key kind ${kind}`);
  }
}

class SoakFailure extends Error {}

/**
 * Runs one parameter set for `budget` operations in wasm (init() must have
 * resolved). Returns the operation and check counts and the final bytes' hash.
 */
export function runWasm(set, budget) {
  const keys = Array.from({ length: set.universe }, (_, k) => keyOf(set.keys, k));
  const copies = new Uint32Array(set.universe); // the exact multiset: copies of key k
  const present = [];
  const rng = new SplitMix64(set.runSeed);
  const slots = set.m * set.b;
  let filter = new CuckooFilter({
    bucketCount: set.m,
    bucketSize: set.b,
    fingerprintBits: set.f,
    maxKicks: set.maxKicks,
    seed: set.seed,
    semiSort: set.semiSort === true,
  });
  let ops = 0;
  let checks = 0;
  let refusedInserts = 0;
  let fills = 0;
  let drains = 0;

  const fail = (message) => {
    throw new SoakFailure(`${set.name}: after ${ops} operations: ${message}`);
  };
  const expect = (condition, message) => {
    checks++;
    if (!condition) fail(typeof message === 'function' ? message() : message);
  };
  const sameBytes = (a, b) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
  const batchOf = (ks) => (set.keys === 'number' && ks.length % 2 === 0 ? Float64Array.from(ks, (k) => keys[k]) : ks.map((k) => keys[k]));

  const stored = (k) => {
    copies[k]++;
    present.push(k);
  };
  const take = () => {
    const index = draw(rng, present.length);
    const k = present[index];
    present[index] = present[present.length - 1];
    present.pop();
    copies[k]--;
    return k;
  };
  const insert = (k) => {
    // An add is refused only while the stash is occupied (its walk is then
    // undone). Bytes are compared on a sample of the adds that may be
    // refused: toBytes() per add would dominate the run.
    const mayBeRefused = filter.stashed === 1;
    const before = mayBeRefused && refusedInserts++ % 16 === 0 ? Buffer.from(filter.toBytes()) : undefined;
    const added = filter.add(keys[k]);
    expect(added || mayBeRefused, () => `add(${keys[k]}) refused with the stash free`);
    expect(filter.full === !added, () => `add(${keys[k]}) returned ${added}, and full is ${filter.full}`);
    if (added) stored(k);
    else if (before !== undefined) expect(sameBytes(filter.toBytes(), before), 'a refused add changed the filter');
    return added;
  };
  const erase = (k) => expect(filter.delete(keys[k]), () => `delete(${keys[k]}) of a present key returned false`);
  const lookUp = (k, answer) => {
    expect(answer || copies[k] === 0, () => `false negative for ${keys[k]} (${copies[k]} copies)`);
    if (set.exact) expect(answer === copies[k] > 0, () => `false positive for ${keys[k]} with 32-bit fingerprints`);
  };
  const checkAllPresent = () => {
    expect(filter.size === present.length, () => `size ${filter.size}, multiset ${present.length}`);
    if (present.length === 0) return;
    const answers = filter.hasMany(present.map((k) => keys[k]));
    expect(answers.every((a) => a === 1), () => `false negative for ${keys[present[answers.indexOf(0)]]}`);
  };

  const step = () => {
    const p = draw(rng, 1000);
    if (p < 400) {
      insert(draw(rng, set.universe));
      ops += 1;
    } else if (p < 650) {
      if (present.length > 0) erase(take());
      ops += 1;
    } else if (p < 800) {
      const k = draw(rng, set.universe);
      lookUp(k, filter.has(keys[k]));
      ops += 1;
    } else if (p < 880) {
      const k = draw(rng, set.universe);
      const count = filter.count(keys[k]);
      expect(set.exact ? count === copies[k] : count >= copies[k], () => `count(${keys[k]}) = ${count} for ${copies[k]} copies`);
      ops += 1;
    } else if (p < 940) {
      const k = draw(rng, set.universe);
      const mayBeRefused = filter.stashed === 1;
      const added = filter.addUnique(keys[k]);
      expect(!added || copies[k] === 0, () => `addUnique(${keys[k]}) added with ${copies[k]} copies`);
      if (set.exact && copies[k] === 0) {
        expect(added || (mayBeRefused && filter.full), () => `addUnique(${keys[k]}) of an absent key refused with the stash free`);
      }
      if (added) stored(k);
      ops += 1;
    } else if (p < 970) {
      const n = 1 + draw(rng, 16);
      const batch = Array.from({ length: n }, () => draw(rng, set.universe));
      const added = filter.addMany(batchOf(batch));
      for (let i = 0; i < added; i++) stored(batch[i]);
      expect(added === n || filter.full, () => `addMany stored ${added} of ${n} but the filter is not full`);
      ops += n;
    } else if (p < 985) {
      const n = Math.min(1 + draw(rng, 16), present.length);
      const batch = Array.from({ length: n }, take);
      expect(filter.deleteMany(batchOf(batch)) === n, `deleteMany of ${n} present keys did not delete them all`);
      ops += Math.max(n, 1);
    } else if (p < 998) {
      const n = 1 + draw(rng, 16);
      const batch = Array.from({ length: n }, () => draw(rng, set.universe));
      const answers = filter.hasMany(batchOf(batch));
      batch.forEach((k, i) => lookUp(k, answers[i] === 1));
      ops += n;
    } else if (p < 999) {
      const bytes = filter.toBytes();
      const copy = CuckooFilter.fromBytes(bytes);
      expect(sameBytes(copy.toBytes(), Buffer.from(bytes)), 'the round trip changed the bytes');
      filter.dispose();
      filter = copy;
      ops += 1;
    } else {
      filter.clear();
      copies.fill(0);
      present.length = 0;
      expect(filter.size === 0, 'clear() left items');
      ops += 1;
    }
  };

  try {
    while (ops < budget) {
      for (let i = 0; i < 2 * slots && ops < budget; i++) {
        step();
        if (i % 1024 === 0) expect(filter.size === present.length, () => `size ${filter.size}, multiset ${present.length}`);
      }
      checkAllPresent();
      let filled = false;
      for (let attempts = 0; ops < budget; attempts++) {
        if (attempts > slots + 1) fail('filling never failed');
        ops += 1;
        if (!insert(draw(rng, set.universe))) {
          filled = true;
          break;
        }
      }
      if (filled) {
        fills++;
        expect(filter.full, 'a refused add but full is false');
        expect(filter.size <= slots + 1, () => `size ${filter.size} above ${slots} slots and the stash`);
        checkAllPresent();
      }
      while (ops < budget && present.length > 0) {
        erase(take());
        ops += 1;
      }
      if (present.length === 0) {
        drains++;
        expect(filter.size === 0 && !filter.full, () => `emptied, but size ${filter.size}, full ${filter.full}`);
      }
    }
    checkAllPresent();
    const sha256 = createHash('sha256').update(filter.toBytes()).digest('hex');
    return { ops, checks, fills, drains, items: filter.size, sha256 };
  } finally {
    filter.dispose();
  }
}

/** Builds the native replay driver in build/native (configured as scripts/lib.sh does) if needed. */
export function buildNativeReplay() {
  const run = (args) => {
    const result = spawnSync('cmake', args, { cwd: repoRoot, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`cmake ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  };
  if (!existsSync(join(repoRoot, 'build', 'native', 'CMakeCache.txt'))) {
    run(['-S', '.', '-B', 'build/native', '-DCMAKE_BUILD_TYPE=Release']);
  }
  run(['--build', 'build/native', '--target', 'cuckoo_native_replay']);
}

export function runNative(set, budget) {
  const args = [set.f, set.b, set.m, set.maxKicks, set.seed, set.semiSort ? 1 : 0, set.keys, set.universe, budget, set.runSeed].map(String);
  const result = spawnSync(nativeReplay, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new SoakFailure(`${set.name}: native replay failed: ${result.stderr || result.error}`);
  const match = /^ops=(\d+) items=(\d+) sha256=([0-9a-f]{64})$/m.exec(result.stdout);
  if (match === null) throw new SoakFailure(`${set.name}: unexpected native replay output: ${result.stdout}`);
  return { ops: Number(match[1]), items: Number(match[2]), sha256: match[3] };
}

async function main(argv) {
  let total = 10_500_000;
  const only = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--ops') total = Number(argv[++i]);
    else if (argv[i] === '--set') only.push(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}; usage: soak.mjs [--ops N] [--set NAME]...`);
  }
  if (!Number.isSafeInteger(total) || total < 1) throw new Error('--ops must be a positive integer');
  const sets = only.length === 0 ? PARAMETER_SETS : PARAMETER_SETS.filter((set) => only.includes(set.name));
  if (sets.length !== Math.max(only.length, sets.length) || sets.length === 0) throw new Error(`unknown --set among ${only}`);
  const shares = sets.reduce((sum, set) => sum + set.share, 0);

  await init();
  buildNativeReplay();
  let allOps = 0;
  let allChecks = 0;
  const started = performance.now();
  for (const set of sets) {
    const budget = Math.ceil((total * set.share) / shares);
    const t0 = performance.now();
    const wasm = runWasm(set, budget);
    const seconds = (performance.now() - t0) / 1000;
    const native = runNative(set, budget);
    const same = native.sha256 === wasm.sha256 && native.ops === wasm.ops && native.items === wasm.items;
    console.log(
      `soak: ${set.name}: ${wasm.ops} ops, ${wasm.checks} checks, ${wasm.fills} fills to failure, ${wasm.drains} drains to empty, ` +
        `${wasm.items} items at the end, ${seconds.toFixed(1)} s; final bytes ${same ? 'identical to native' : 'DIFFER from native'} (sha256 ${wasm.sha256.slice(0, 16)})`,
    );
    if (!same) {
      throw new SoakFailure(`${set.name}: wasm ${JSON.stringify({ ...wasm, checks: undefined })} vs native ${JSON.stringify(native)}`);
    }
    allOps += wasm.ops;
    allChecks += wasm.checks;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`soak: passed: ${allOps} operations, ${allChecks} checks, ${sets.length} parameter sets, ${seconds.toFixed(1)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`soak: FAILED: ${error instanceof SoakFailure ? error.message : error.stack}`);
    process.exitCode = 1;
  });
}
