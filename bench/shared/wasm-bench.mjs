// Measurements of cuckoo-wasm that run unchanged in Node and in a browser
// page: plain ES module, no Node or DOM imports. The caller passes the
// package's exports (`lib`), so the same code times the repository's dist/ in
// Node and the installed tarball in Chromium; times are performance.now()
// in both.
//
// Two kinds of round, each one repetition of every variant in turn, so that a
// caller alternating rounds (Node, Chromium, Node, ...) spreads noise over all:
// - kernelRound(log2): filters of 2^log2 buckets, f=12 b=4 with their own
//   (specialised) kernel and a twin switched to the generic one, per call and
//   in batches, plus semi-sorted f=13: fill to the first refused add, look up
//   every stored key, as many absent keys, delete every stored key; the
//   native bench's protocol, with the keys as u32 numbers (8-byte items, as
//   its u64 keys).
// - costRound(): where the time of one has() goes, for a number and a string
//   item, and where the time of a hasMany(Uint32Array) goes.
//
// lib = { CuckooFilter, useGenericKernel, kernelName, requireRuntime, gc? }.
// requireRuntime is internal (dist/esm/loader.js): the cost split needs the
// raw embind module and the item writer, which no public API exposes; a bench
// may reach inside, a user should not.

import { hexStrings, uint32Keys } from '../keys.mjs';

export const FINGERPRINT_BITS = 12;
export const SEMI_SORTED_BITS = FINGERPRINT_BITS + 1;
export const BUCKET_SIZE = 4;
const SEED = 1;
const ABSENT_BASE = 2 ** 31;
const MAX_NEGATIVES = 1 << 22;
/** The table the cost split uses: 2^16 buckets, a few hundred KB, in cache. */
const COST_LOG2 = 16;
/** Passes over the keys per timed section of the cost split: tens of milliseconds each. */
const COST_PASSES = 4;
/**
 * Lookups of a small table pass over the keys this many times, so that a
 * timed section lasts tens of milliseconds rather than a few: long enough
 * for a clock of 5 µs steps and a scheduler tick of the noisy machine.
 */
const lookupPasses = (log2) => (log2 <= 18 ? 4 : 1);
/** Items written beforehand for the raw call: a ring of this many, tens of KB, in cache as has()'s one buffer is. */
const RING = 4096;

/** The variants of kernelRound, in the order they run. */
export const KERNEL_VARIANTS = [
  { id: 'specialised-call', api: 'call', generic: false, semiSort: false },
  { id: 'specialised-batch', api: 'batch', generic: false, semiSort: false },
  { id: 'generic-call', api: 'call', generic: true, semiSort: false },
  { id: 'generic-batch', api: 'batch', generic: true, semiSort: false },
  { id: 'semi-call', api: 'call', generic: false, semiSort: true },
  { id: 'semi-batch', api: 'batch', generic: false, semiSort: true },
];

const elapsed = (start) => (performance.now() - start) / 1000;

function countOnes(answers) {
  let ones = 0;
  for (let i = 0; i < answers.length; i++) ones += answers[i];
  return ones;
}

// Per-call loops, one per operation and key kind, so each call site sees one
// kind of item (as a user's loop would).
function addNumbers(filter, keys) {
  let n = 0;
  while (n < keys.length && filter.add(keys[n])) n++;
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
function addStrings(filter, keys) {
  let n = 0;
  while (n < keys.length && filter.add(keys[n])) n++;
  return n;
}
function hasStrings(filter, keys, count) {
  let hits = 0;
  for (let i = 0; i < count; i++) if (filter.has(keys[i])) hits++;
  return hits;
}

export function createWasmBench(lib) {
  const { CuckooFilter, useGenericKernel, kernelName, requireRuntime } = lib;
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
      let start = performance.now();
      const n = batch ? filter.addMany(present) : addNumbers(filter, present);
      const add = elapsed(start);
      const stored = present.subarray(0, n);
      const passes = lookupPasses(log2);
      gc();
      start = performance.now();
      let hits = 0;
      for (let pass = 0; pass < passes; pass++) hits += batch ? countOnes(filter.hasMany(stored)) : hasNumbers(filter, stored, n);
      const has = elapsed(start) / passes;
      gc();
      start = performance.now();
      let falsePositives = 0;
      for (let pass = 0; pass < passes; pass++) {
        falsePositives += batch ? countOnes(filter.hasMany(absent)) : hasNumbers(filter, absent, absent.length);
      }
      const miss = elapsed(start) / passes;
      const loadFactor = filter.loadFactor;
      gc();
      start = performance.now();
      const deleted = batch ? filter.deleteMany(stored) : deleteNumbers(filter, stored, n);
      const del = elapsed(start);
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

  const costKeys = {};
  function costKeysOf(kind) {
    if (costKeys[kind] === undefined) {
      const count = BUCKET_SIZE * 2 ** COST_LOG2 + 1;
      costKeys[kind] = kind === 'string' ? hexStrings(0, count) : uint32Keys(0, count);
    }
    return costKeys[kind];
  }

  /**
   * Nanoseconds per item of each part of has(item), on a filled 2^16-bucket
   * filter, over every stored key:
   * - boundary: an embind call that does almost nothing (inspectMix32), the
   *   floor of any call into the module;
   * - call: module.cuckooContainsItem(handle, address, length) on items written
   *   beforehand, each at its own address: the embind call and the core's lookup;
   * - encode: writer.writeSingle(item), the item's bytes into wasm memory;
   * - has: filter.has(item), everything a user pays.
   */
  function costOf(kind) {
    const keys = costKeysOf(kind);
    const { module, writer } = requireRuntime('bench');
    const filter = newFilter(COST_LOG2, KERNEL_VARIANTS[0]);
    try {
      const n = kind === 'string' ? addStrings(filter, keys) : addNumbers(filter, keys);
      const handle = filter.live('bench');
      const label = 'bench: item';
      const stride = kind === 'string' ? 16 : 8;
      const block = module._malloc(RING * stride) >>> 0;
      // Every key here is a 16-character ASCII hex string or a u32: 16 bytes
      // of text, or 8 bytes of little-endian int64 with a zero high word.
      if (kind === 'string') {
        const heap = module.HEAPU8;
        for (let i = 0; i < RING; i++) for (let j = 0; j < 16; j++) heap[block + 16 * i + j] = keys[i].charCodeAt(j);
      } else {
        const words = module.HEAPU32;
        for (let i = 0; i < RING; i++) {
          words[(block >>> 2) + 2 * i] = keys[i];
          words[(block >>> 2) + 2 * i + 1] = 0;
        }
      }
      try {
        gc();
        let start = performance.now();
        let sink = 0;
        for (let pass = 0; pass < COST_PASSES; pass++) for (let i = 0; i < n; i++) sink += module.inspectMix32(i);
        const boundary = elapsed(start);
        gc();
        start = performance.now();
        let hits = 0;
        for (let pass = 0; pass < COST_PASSES; pass++) {
          for (let i = 0; i < n; i++) if (module.cuckooContainsItem(handle, block + stride * (i & (RING - 1)), stride)) hits++;
        }
        const call = elapsed(start);
        gc();
        start = performance.now();
        for (let pass = 0; pass < COST_PASSES; pass++) for (let i = 0; i < n; i++) sink += writer.writeSingle(keys[i], label);
        const encode = elapsed(start);
        gc();
        start = performance.now();
        let found = 0;
        for (let pass = 0; pass < COST_PASSES; pass++) found += kind === 'string' ? hasStrings(filter, keys, n) : hasNumbers(filter, keys, n);
        const has = elapsed(start);
        if (hits !== n * COST_PASSES || found !== n * COST_PASSES || sink === 0.5) throw new Error(`bench: ${kind} items went missing`);
        const ns = (seconds) => (seconds / (n * COST_PASSES)) * 1e9;
        return { n, boundaryNs: ns(boundary), callNs: ns(call), encodeNs: ns(encode), hasNs: ns(has) };
      } finally {
        module._free(block);
      }
    } finally {
      filter.dispose();
    }
  }

  /**
   * Nanoseconds per item of each part of hasMany(Uint32Array) on a filled
   * 2^16-bucket filter: writing the chunk's items (writeNumericRun),
   * the core's batch lookup (containsFixed on the written chunk), and the
   * whole hasMany; what is left is answers copied out and joined.
   */
  function batchCost() {
    const keys = costKeysOf('number');
    const { module, writer } = requireRuntime('bench');
    const filter = newFilter(COST_LOG2, KERNEL_VARIANTS[0]);
    try {
      const n = filter.addMany(keys);
      const stored = keys.subarray(0, n);
      const handle = filter.live('bench');
      const chunk = 8192;
      gc();
      let start = performance.now();
      for (let pass = 0; pass < COST_PASSES; pass++) {
        for (let s = 0; s < n; s += chunk) writer.writeNumericRun(stored, s, Math.min(chunk, n - s));
      }
      const encode = elapsed(start);
      // All items written at once, each chunk then looked up where it lies.
      writer.writeNumericRun(stored, 0, n);
      const data = writer.data.address;
      const out = writer.answers.reserve(chunk);
      gc();
      start = performance.now();
      for (let pass = 0; pass < COST_PASSES; pass++) {
        for (let s = 0; s < n; s += chunk) module.cuckooContainsFixed(handle, data + 8 * s, 8, Math.min(chunk, n - s), out);
      }
      const core = elapsed(start);
      writer.trim();
      gc();
      start = performance.now();
      let hits = 0;
      for (let pass = 0; pass < COST_PASSES; pass++) hits += countOnes(filter.hasMany(stored));
      const whole = elapsed(start);
      if (hits !== n * COST_PASSES) throw new Error('bench: hasMany missed stored items');
      const ns = (seconds) => (seconds / (n * COST_PASSES)) * 1e9;
      return { n, encodeNs: ns(encode), coreNs: ns(core), hasManyNs: ns(whole) };
    } finally {
      filter.dispose();
    }
  }

  return {
    /** Generates the keys of 2^log2 buckets now, so no round pays for it. */
    prepare(log2) {
      keysFor(log2);
      costKeysOf('number');
      costKeysOf('string');
    },
    /** Frees the keys of 2^log2 buckets. */
    release(log2) {
      keysBySize.delete(log2);
    },
    /** One run of every kernel variant at 2^log2 buckets. */
    kernelRound(log2) {
      return KERNEL_VARIANTS.map((variant) => kernelRun(log2, variant));
    },
    /** One run of the per-call and batch cost split. */
    costRound() {
      return { number: costOf('number'), string: costOf('string'), batch: batchCost() };
    },
  };
}
