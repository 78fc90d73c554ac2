// Filling real filters to their first failure, for the paper's Fig. 2 (load
// against fingerprint length, Sec. 4) and Sec. 5.1 (load and false positives
// against bucket size). Runs in the Web Worker: a large table takes a second.

import { CuckooFilter } from 'cuckoo-wasm';
import type { BucketSizeJob, BucketSizeRow, FingerprintLengthJob, LoadCurve } from './measure-jobs.js';
import { neverAddedProbes, positiveShare } from './probes.js';

export type Progress = (done: number) => void;

const BATCH = 4096;

/**
 * Adds the numbered items 1, 2, 3, … until the filter refuses one, and returns
 * the table's load then. The first failure is the add whose kicks ran out: its
 * fingerprint waits in the stash (the load leaves it out) and the next is refused.
 */
export function fillToFirstFailure(filter: CuckooFilter): number {
  const batch = new Float64Array(BATCH);
  for (let next = 1; ; ) {
    for (let i = 0; i < BATCH; i++) batch[i] = next + i;
    const added = filter.addMany(batch);
    next += added;
    if (added < BATCH) return filter.loadFactor;
  }
}

export function fingerprintLengthCurves(job: FingerprintLengthJob, progress: Progress): LoadCurve[] {
  // Work grows with the slots filled: progress by slots, not by points.
  const total = job.bucketCounts.reduce((sum, m) => sum + m, 0) * job.fingerprintBits.length * job.trials;
  let done = 0;
  return job.bucketCounts.map((bucketCount) => ({
    bucketCount,
    loads: job.fingerprintBits.map((fingerprintBits) => {
      let lowest = 1;
      for (let trial = 0; trial < job.trials; trial++) {
        using filter = new CuckooFilter({ bucketCount, bucketSize: 4, fingerprintBits, maxKicks: job.maxKicks, seed: job.seed + trial });
        lowest = Math.min(lowest, fillToFirstFailure(filter));
        done += bucketCount;
        progress(done / total);
      }
      return lowest;
    }),
  }));
}

export const BUCKET_SIZES = [1, 2, 4, 8] as const;

export function bucketSizeRows(job: BucketSizeJob, progress: Progress): BucketSizeRow[] {
  const probes = neverAddedProbes(job.probeCount);
  let done = 0;
  return BUCKET_SIZES.map((bucketSize) => {
    // The same slots, so the same memory, cut into buckets of b.
    const bucketCount = Math.max(1, Math.round(job.slotCount / bucketSize));
    let loads = 0;
    let bits = 0;
    let hits = 0;
    let fprBound = 0;
    for (let trial = 0; trial < job.trials; trial++) {
      using filter = new CuckooFilter({
        bucketCount,
        bucketSize,
        fingerprintBits: job.fingerprintBits,
        maxKicks: job.maxKicks,
        seed: job.seed + trial,
      });
      loads += fillToFirstFailure(filter);
      bits += filter.bitsPerItem;
      hits += positiveShare(filter.hasMany(probes));
      fprBound = filter.fprBound;
      progress(++done / (BUCKET_SIZES.length * job.trials));
    }
    return { bucketSize, bucketCount, load: loads / job.trials, measuredFpr: hits / job.trials, fprBound, bitsPerItem: bits / job.trials };
  });
}
