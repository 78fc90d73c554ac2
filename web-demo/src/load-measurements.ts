// Filling real filters to their first failure, for the paper's Fig. 2 (load
// against fingerprint length, Sec. 4) and Sec. 5.1 (load and false positives
// against bucket size). Runs in the Web Worker: a large table takes a second.

import { CuckooFilter } from 'cuckoo-wasm';
import type { BucketSizeJob, BucketSizeRow, BucketSizeSetup, FingerprintLengthJob, LoadCurve } from './measure-jobs.js';
import { neverAddedProbes, positiveShare } from './probes.js';

export type Progress = (done: number) => void;

const BATCH = 4096;

/**
 * Adds the numbered items 1, 2, 3, … to `filter` until one add's kicks run
 * out, the paper's "full" (its fingerprint then waits in the stash, which the
 * load leaves out), and returns a copy of the filter as it is right after
 * that add. Items go in by batches; the batch in which the first failure
 * happens is replayed one add at a time on a copy made before it, so the copy
 * is the filter at that add, whatever `filter` does with the adds after it.
 */
export function atFirstFailure(filter: CuckooFilter): CuckooFilter {
  const batch = new Float64Array(BATCH);
  for (let next = 1; ; next += BATCH) {
    const before = filter.clone();
    for (let i = 0; i < BATCH; i++) batch[i] = next + i;
    filter.addMany(batch);
    if (filter.stashed === 0 && filter.size === before.size + BATCH) {
      before.dispose();
      continue;
    }
    for (let item = next; before.add(item) && before.stashed === 0; item++);
    return before;
  }
}

/** The table's load at its first failure (atFirstFailure). */
export function loadAtFirstFailure(filter: CuckooFilter): number {
  using full = atFirstFailure(filter);
  return full.loadFactor;
}

/** The curves one by one, smallest table first; `soFar` gets them after each point, so the page can draw each as it grows. */
export function fingerprintLengthCurves(job: FingerprintLengthJob, progress: Progress, soFar: (curves: LoadCurve[]) => void): LoadCurve[] {
  // Work grows with the slots filled: progress by slots, not by points.
  const total = job.bucketCounts.reduce((sum, m) => sum + m, 0) * job.fingerprintBits.length * job.trials;
  let done = 0;
  const curves: LoadCurve[] = [];
  for (const bucketCount of job.bucketCounts) {
    const curve: LoadCurve = { bucketCount, loads: [], highest: [] };
    for (const fingerprintBits of job.fingerprintBits) {
      let lowest = 1;
      let highest = 0;
      for (let trial = 0; trial < job.trials; trial++) {
        using filter = new CuckooFilter({ bucketCount, bucketSize: 4, fingerprintBits, maxKicks: job.maxKicks, seed: job.seed + trial });
        const load = loadAtFirstFailure(filter);
        lowest = Math.min(lowest, load);
        highest = Math.max(highest, load);
        done += bucketCount;
        progress(done / total);
      }
      curve.loads.push(lowest);
      curve.highest.push(highest);
      soFar([...curves, curve]);
    }
    curves.push(curve);
  }
  return curves;
}

export const BUCKET_SIZES = [1, 2, 4, 8] as const;

/** One setup's rows: its slots cut into buckets of each size, the same f. */
function rowsFor(setup: BucketSizeSetup, job: BucketSizeJob, probes: Float64Array, step: () => void): BucketSizeRow[] {
  return BUCKET_SIZES.map((bucketSize) => {
    // The same slots, so the same memory, cut into buckets of b.
    const bucketCount = Math.max(1, Math.round(setup.slotCount / bucketSize));
    const loads: number[] = [];
    let bits = 0;
    let hits = 0;
    let fprBound = 0;
    for (let trial = 0; trial < job.trials; trial++) {
      using filter = new CuckooFilter({
        bucketCount,
        bucketSize,
        fingerprintBits: setup.fingerprintBits,
        maxKicks: setup.maxKicks,
        seed: setup.seed + trial,
      });
      // Measured at the first failure: the filter is left as it was then.
      using atFailure = atFirstFailure(filter);
      loads.push(atFailure.loadFactor);
      bits += atFailure.bitsPerItem;
      hits += positiveShare(atFailure.hasMany(probes));
      fprBound = atFailure.fprBound;
      step();
    }
    const load = loads.reduce((sum, value) => sum + value, 0) / job.trials;
    return { bucketSize, bucketCount, load, lowest: Math.min(...loads), highest: Math.max(...loads), measuredFpr: hits / job.trials, fprBound, bitsPerItem: bits / job.trials };
  });
}

export function bucketSizeRows(job: BucketSizeJob, progress: Progress): BucketSizeRow[][] {
  const probes = neverAddedProbes(job.probeCount);
  const total = job.setups.length * BUCKET_SIZES.length * job.trials;
  let done = 0;
  return job.setups.map((setup) => rowsFor(setup, job, probes, () => progress(++done / total)));
}
