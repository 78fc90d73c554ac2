// The kernel rows of `npm run bench`: the shared
// measurement module (bench/shared/wasm-bench.mjs) run in a fresh Node process
// and, when the browser column is on, in a Chromium page, round by round
// alternating between the two (and which goes first), so that both see the
// same minutes of a noisy machine; then medians, and the ratios cuckoo_bench
// prints for the native core.

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { summariseRuns } from '../support/measurement.mjs';
import { KERNEL_VARIANTS } from '../shared/wasm-bench.mjs';

const OPS = ['add', 'has', 'miss', 'del'];

/**
 * runtimes: [{ name, call(method, arg) }], each a createWasmBench session
 * (called directly in Node, through page.evaluate in Chromium).
 * Returns { [name]: { kernels: { [log2]: rows } } }.
 */
export async function measureKernels(runtimes, { sizes, kernelRounds, progress }) {
  const raw = Object.fromEntries(runtimes.map((r) => [r.name, { kernels: {} }]));
  const inTurn = async (round, method, arg, record) => {
    const order = round % 2 === 0 ? runtimes : [...runtimes].reverse();
    for (const runtime of order) record(runtime.name, await runtime.call(method, arg));
  };
  for (const log2 of sizes) {
    const names = runtimes.map((r) => r.name).join(' and ');
    progress(`kernel rows 2^${log2}: generating keys in ${names}`);
    for (const runtime of runtimes) await runtime.call('prepare', log2);
    if (log2 === sizes[0]) {
      // Two rounds: V8 tiers wasm up function by function and JavaScript
      // call sites settle over the first calls (bench/README.md).
      for (let round = 0; round < 2; round++) {
        progress(`kernel rows 2^${log2}: untimed warm-up round ${round + 1} of 2`);
        await inTurn(round, 'kernelRound', log2, () => {});
      }
    }
    for (let round = 0; round < kernelRounds[log2]; round++) {
      progress(`kernel rows 2^${log2}: round ${round + 1} of ${kernelRounds[log2]} (${names})`);
      await inTurn(round, 'kernelRound', log2, (name, rows) => (raw[name].kernels[log2] ??= []).push(rows));
    }
    for (const runtime of runtimes) await runtime.call('release', log2);
  }
  return Object.fromEntries(
    runtimes.map(({ name }) => [
      name,
      {
        kernels: Object.fromEntries(Object.entries(raw[name].kernels).map(([log2, rounds]) => [log2, summariseKernels(rounds)])),
      },
    ]),
  );
}

/** One row per variant, its runs summarised. */
const summariseKernels = (rounds) =>
  KERNEL_VARIANTS.map((variant, v) => ({ ...variant, kernel: rounds[0][v].kernel, ...summariseRuns(rounds.map((round) => round[v])) }));

const divide = (a, b) => Object.fromEntries(OPS.map((op) => [op, a[op] / b[op]]));

/**
 * The ratios cuckoo_bench prints, from rates by variant id ({ add, has, miss,
 * del } each): specialised / generic per call, batch / generic per call, and
 * semi-sorted f=13 / plain f=12 lookups, per call and batched. Missing
 * variants give undefined ratios.
 */
export function kernelRatios(rates) {
  const r = (a, b) => (rates[a] && rates[b] ? divide(rates[a], rates[b]) : undefined);
  return {
    specialisedOverGeneric: r('specialised-call', 'generic-call'),
    batchOverGenericCall: r('specialised-batch', 'generic-call'),
    semiOverPlainCall: r('semi-call', 'specialised-call'),
    semiOverPlainBatch: r('semi-batch', 'specialised-batch'),
    // No native counterpart (cuckoo_bench has no generic batch row).
    genericBatchOverGenericCall: r('generic-batch', 'generic-call'),
  };
}

/** Rates by variant id of one runtime's kernel rows at one size. */
export function ratesById(rows) {
  return Object.fromEntries((rows ?? []).map((row) => [row.id, row.rates]));
}

/**
 * A fresh Node process running the shared module (wasm-child.mjs), as a
 * runtime for measureKernels: { name: 'node', call(method, arg), close() }.
 */
export async function startNodeRuntime() {
  const child = fork(fileURLToPath(new URL('./wasm-child.mjs', import.meta.url)), [], { execArgv: ['--expose-gc'] });
  const pending = new Map();
  let nextId = 0;
  let failure;
  const ready = new Promise((resolve, reject) => {
    child.on('message', (message) => {
      if (message.ready) return resolve();
      const { settle, fail } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) fail(new Error(`node child: ${message.error}`));
      else settle(message.result);
    });
    child.on('exit', (code) => {
      failure = new Error(`the node bench child exited with ${code}`);
      reject(failure);
      for (const { fail } of pending.values()) fail(failure);
    });
  });
  await ready;
  return {
    name: 'node',
    version: process.version,
    call: (method, arg) =>
      failure
        ? Promise.reject(failure)
        : new Promise((settle, fail) => {
            const id = nextId++;
            pending.set(id, { settle, fail });
            child.send({ id, method, arg });
          }),
    close: () => {
      child.removeAllListeners('exit');
      child.kill();
    },
  };
}
