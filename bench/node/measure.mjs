// The main table's measurements of cuckoo-wasm in Node: each mode fills a
// filter to its first refused add, looks up, deletes; repetitions go
// round-robin over the modes.

import { BUCKET_SIZE, FINGERPRINT_BITS, MAX_NEGATIVES, SEED, SEMI_SORTED_BITS, median, timeSection } from '../support/measurement.mjs';

/** CPU time the process got during timed sections, as a share of their wall time. */
export const cpuShares = [];

/** Runs fn; returns [its result, wall seconds]. Records the CPU share of the interval. */
export function timed(fn) {
  const { value, wall, cpu } = timeSection(fn);
  if (wall > 0.005) cpuShares.push(cpu / wall);
  return [value, wall];
}

/** One filter: fill to the first failed add, look up, measure, delete, dispose. */
function runOnce(CuckooFilter, mode, log2, c) {
  const filter = new CuckooFilter({
    bucketCount: 2 ** log2 - (mode.belowPowerOfTwo ? 1 : 0),
    bucketSize: BUCKET_SIZE,
    fingerprintBits: FINGERPRINT_BITS,
    seed: SEED,
    ...mode.table,
  });
  try {
    const [n, add] = timed(() => mode.add(filter, c));
    mode.present?.(c, n);
    const [hits, has] = timed(() => mode.has(filter, c, n));
    const negatives = c.negatives ?? c.neg.length;
    const [falsePositives, miss] = timed(() => mode.miss(filter, c));
    const stats = {
      size: filter.size,
      loadFactor: filter.loadFactor,
      bitsPerItem: filter.bitsPerItem,
      expectedFpr: filter.expectedFpr,
      serializedBytes: filter.toBytes().length,
    };
    const [deleted, del] = timed(() => mode.del(filter, c, n));
    return { n, hits, negatives, falsePositives, deleted, stats, add, has, miss, del };
  } finally {
    filter.dispose();
  }
}

/** Summarises the runs of one mode at one size (rates: median over runs). */
function summarise(mode, log2, runs) {
  const first = runs[0];
  const rate = (ops, field) => median(runs.map((run) => ops(run) / run[field])) / 1e6;
  return {
    id: mode.id,
    semiSort: mode.table?.semiSort === true,
    belowPowerOfTwo: mode.belowPowerOfTwo === true,
    api: mode.api,
    keys: mode.keys,
    log2Buckets: log2,
    runs: runs.length,
    items: first.n,
    loadFactor: first.stats.loadFactor,
    addMops: rate((run) => run.n, 'add'),
    hasPositiveMops: rate((run) => run.n, 'has'),
    hasNegativeMops: rate((run) => run.negatives, 'miss'),
    deleteMops: rate((run) => run.n, 'del'),
    bitsPerItem: first.stats.bitsPerItem,
    // Stored bits per entry over the load: f, or f - 1 semi-sorted.
    bitsPerItemIdeal: (mode.table?.semiSort ? SEMI_SORTED_BITS - 1 : FINGERPRINT_BITS) / first.stats.loadFactor,
    serializedBytes: first.stats.serializedBytes,
    serializedBytesPerItem: first.stats.serializedBytes / first.n,
    negativeLookups: first.negatives,
    falsePositives: first.falsePositives,
    measuredFpr: first.falsePositives / first.negatives,
    expectedFpr: first.stats.expectedFpr,
    falseNegatives: Math.max(...runs.map((run) => run.n - run.hits)),
    deleteFailures: Math.max(...runs.map((run) => run.n - run.deleted)),
  };
}

/**
 * Measures every mode at 2^log2 buckets. Repetitions go round-robin over the
 * modes (mode 1, 2, ..., 5, then again), so a burst of load from other
 * processes spreads over all modes instead of hitting one. `gc` runs a full
 * collection (untimed) before each run; `progress` reports on stderr.
 */
export function measureOurs(CuckooFilter, modes, log2, reps, warmUp, { gc, progress }) {
  const slots = BUCKET_SIZE * 2 ** log2;
  const contexts = modes.map((mode) => mode.setup(slots + 1, Math.min(slots, MAX_NEGATIVES)));
  if (warmUp) {
    modes.forEach((mode, m) => runOnce(CuckooFilter, mode, log2, contexts[m]));
  }
  const runs = modes.map(() => []);
  for (let r = 0; r < reps; r++) {
    progress(`cuckoo-wasm 2^${log2}, run ${r + 1} of ${reps} of each mode`);
    modes.forEach((mode, m) => {
      gc();
      runs[m].push(runOnce(CuckooFilter, mode, log2, contexts[m]));
    });
  }
  return modes.map((mode, m) => summarise(mode, log2, runs[m]));
}
