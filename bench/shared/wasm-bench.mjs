// Measurements of cuckoo-wasm that run unchanged in Node and in a browser
// page: plain ES module, no Node or DOM imports. The caller passes the
// package's exports (`lib`), so the same code times the repository's dist/ in
// Node and the installed tarball in Chromium; times are performance.now()
// in both.
//
// kernelRound(log2), one repetition of every variant in turn, so that a caller
// alternating rounds (Node, Chromium, Node, ...) spreads noise over all:
// filters of 2^log2 buckets, f=12 b=4 with their own (specialised) kernel and
// a twin switched to the generic one, per call and in batches, plus
// semi-sorted f=13: fill to the first refused add, look up every stored key,
// as many absent keys, delete every stored key; the native bench's protocol,
// with the keys as u32 numbers (8-byte items, as its u64 keys). It runs in the
// full module (cuckoo-wasm/inspect switches kernels), which carries the
// specialised kernels; what a call of the main entry costs is
// bench/boundary.mjs's.
//
// lib = { CuckooFilter, useGenericKernel, kernelName, gc? }: the package's
// exports only.

import { uint32Keys } from '../keys.mjs';
import {
  ABSENT_BASE, BUCKET_SIZE, FINGERPRINT_BITS, MAX_NEGATIVES, SEED, SEMI_SORTED_BITS,
  addNumbers, countOnes, deleteNumbers, hasNumbers, now, secondsSince,
} from '../support/measurement.mjs';

/**
 * Lookups of a small table pass over the keys this many times, so that a
 * timed section lasts tens of milliseconds rather than a few: long enough
 * for a clock of 5 µs steps and a scheduler tick of the noisy machine.
 */
const lookupPasses = (log2) => (log2 <= 18 ? 4 : 1);

/** The variants of kernelRound, in the order they run. */
export const KERNEL_VARIANTS = [
  { id: 'specialised-call', api: 'call', generic: false, semiSort: false },
  { id: 'specialised-batch', api: 'batch', generic: false, semiSort: false },
  { id: 'generic-call', api: 'call', generic: true, semiSort: false },
  { id: 'generic-batch', api: 'batch', generic: true, semiSort: false },
  { id: 'semi-call', api: 'call', generic: false, semiSort: true },
  { id: 'semi-batch', api: 'batch', generic: false, semiSort: true },
];

export function createWasmBench(lib) {
  const { CuckooFilter, useGenericKernel, kernelName } = lib;
  const gc = lib.gc ?? (() => {});
  const keysBySize = new Map();

  function keysFor(log2) {
    let keys = keysBySize.get(log2);
    if (keys === undefined) {
      const slots = BUCKET_SIZE * 2 ** log2;
      const negatives = Math.min(slots, MAX_NEGATIVES);
      keys = { present: uint32Keys(0, slots + 1), absent: uint32Keys(ABSENT_BASE, negatives) };
      keysBySize.set(log2, keys);
    }
    return keys;
  }

  function newFilter(log2, variant) {
    const filter = new CuckooFilter({
      bucketCount: 2 ** log2,
      bucketSize: BUCKET_SIZE,
      fingerprintBits: variant.semiSort ? SEMI_SORTED_BITS : FINGERPRINT_BITS,
      semiSort: variant.semiSort,
      seed: SEED,
    });
    if (variant.generic) useGenericKernel(filter);
    return filter;
  }

  /** One filter's life: fill, look up stored and absent keys, delete; seconds of each. */
  function kernelRun(log2, variant) {
    const { present, absent } = keysFor(log2);
    const filter = newFilter(log2, variant);
    const batch = variant.api === 'batch';
    try {
      gc();
      let start = now();
      const n = batch ? filter.addMany(present) : addNumbers(filter, present, present.length);
      const add = secondsSince(start);
      const stored = present.subarray(0, n);
      const passes = lookupPasses(log2);
      gc();
      start = now();
      let hits = 0;
      for (let pass = 0; pass < passes; pass++) hits += batch ? countOnes(filter.hasMany(stored)) : hasNumbers(filter, stored, n);
      const has = secondsSince(start) / passes;
      gc();
      start = now();
      let falsePositives = 0;
      for (let pass = 0; pass < passes; pass++) {
        falsePositives += batch ? countOnes(filter.hasMany(absent)) : hasNumbers(filter, absent, absent.length);
      }
      const miss = secondsSince(start) / passes;
      const loadFactor = filter.loadFactor;
      gc();
      start = now();
      const deleted = batch ? filter.deleteMany(stored) : deleteNumbers(filter, stored, n);
      const del = secondsSince(start);
      return {
        id: variant.id,
        kernel: kernelName(filter),
        n,
        negatives: absent.length,
        loadFactor,
        falseNegatives: n - hits / passes,
        deleteFailures: n - deleted,
        falsePositives: falsePositives / passes,
        seconds: { add, has, miss, del },
      };
    } finally {
      filter.dispose();
    }
  }

  return {
    /** Generates the keys of 2^log2 buckets now, so no round pays for it. */
    prepare(log2) {
      keysFor(log2);
    },
    /** Frees the keys of 2^log2 buckets. */
    release(log2) {
      keysBySize.delete(log2);
    },
    /** One run of every kernel variant at 2^log2 buckets. */
    kernelRound(log2) {
      return KERNEL_VARIANTS.map((variant) => kernelRun(log2, variant));
    },
  };
}
