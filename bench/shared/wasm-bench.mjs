// The kernel rows, runnable unchanged in Node (node/wasm-child.mjs) and in a
// browser page (browser/page.html): no Node or DOM imports, and the caller
// passes the package's exports, so the same code times dist/ in Node and the
// installed tarball in Chromium. kernelRound(log2) runs every variant once
// (f=12 b=4 with its own kernel and switched to the generic one, per call and
// batched, and semi-sorted f=13), so that rounds alternating between runtimes
// spread noise over all; keys are u32 numbers (8-byte items, as
// cuckoo_bench's u64). It runs in the full module, which carries the
// specialised kernels; what a call of the main entry costs is boundary.mjs's.

import { uint32Keys } from '../keys.mjs';
import {
  ABSENT_BASE, BUCKET_SIZE, FINGERPRINT_BITS, MAX_NEGATIVES, PER_CALL, SEED, SEMI_SORTED_BITS, filterLife,
} from '../support/measurement.mjs';

/** The variants of kernelRound, in the order they run. */
export const KERNEL_VARIANTS = [
  { id: 'specialised-call', api: 'call', generic: false, semiSort: false },
  { id: 'specialised-batch', api: 'batch', generic: false, semiSort: false },
  { id: 'generic-call', api: 'call', generic: true, semiSort: false },
  { id: 'generic-batch', api: 'batch', generic: true, semiSort: false },
  { id: 'semi-call', api: 'call', generic: false, semiSort: true },
  { id: 'semi-batch', api: 'batch', generic: false, semiSort: true },
];

export function createWasmBench({ CuckooFilter, useGenericKernel, kernelName, gc }) {
  const keysBySize = new Map();
  const keysFor = (log2) => {
    if (!keysBySize.has(log2)) {
      const slots = BUCKET_SIZE * 2 ** log2;
      keysBySize.set(log2, { present: uint32Keys(0, slots + 1), absent: uint32Keys(ABSENT_BASE, Math.min(slots, MAX_NEGATIVES)) });
    }
    return keysBySize.get(log2);
  };

  function kernelRun(log2, variant) {
    const filter = new CuckooFilter({
      bucketCount: 2 ** log2,
      bucketSize: BUCKET_SIZE,
      fingerprintBits: variant.semiSort ? SEMI_SORTED_BITS : FINGERPRINT_BITS,
      semiSort: variant.semiSort,
      seed: SEED,
    });
    if (variant.generic) useGenericKernel(filter);
    const loops = variant.api === 'call' ? PER_CALL.number : undefined;
    // Lookups of a small table pass over the keys 4 times (filterLife says why).
    const life = filterLife(filter, { loops, ...keysFor(log2) }, { gc, passes: log2 <= 18 ? 4 : 1, inspect: (f) => ({ kernel: kernelName(f) }) });
    return { id: variant.id, ...life };
  }

  return {
    /** Generates the keys of 2^log2 buckets now, so no round pays for it. */
    prepare: (log2) => void keysFor(log2),
    /** Frees the keys of 2^log2 buckets. */
    release: (log2) => void keysBySize.delete(log2),
    /** One run of every kernel variant at 2^log2 buckets. */
    kernelRound: (log2) => KERNEL_VARIANTS.map((variant) => kernelRun(log2, variant)),
  };
}
