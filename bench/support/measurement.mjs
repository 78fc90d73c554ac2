// What every JavaScript benchmark measures with: the table shape of the
// timed comparisons, the clock, the per-call loops and the statistics.

export const FINGERPRINT_BITS = 12;
/** Semi-sorted rows use one bit more: the same space as FINGERPRINT_BITS plain. */
export const SEMI_SORTED_BITS = FINGERPRINT_BITS + 1;
export const BUCKET_SIZE = 4;
export const SEED = 1;
/** Absent keys looked up per filter (capped at the slot count). */
export const MAX_NEGATIVES = 1 << 22;
/** Absent keys come from indices at and above this one, present keys from 0 (bench/keys.mjs). */
export const ABSENT_BASE = 2 ** 31;

/** Milliseconds on a monotonic clock. */
export const now = () => performance.now();
/** Seconds from `start`, a reading of now(), to this moment. */
export const secondsSince = (start) => (performance.now() - start) / 1000;

/**
 * Runs body(); returns { value, wall, cpu }: its result, and the seconds it
 * took by the wall clock and in CPU time given to this process. On a shared
 * machine the scheduler hands the core to other processes mid-loop: the
 * wall-clock rate then drops with the CPU share, the CPU-time rate stays near
 * the undisturbed one.
 */
export function timeSection(body) {
  const cpuStart = process.cpuUsage();
  const start = now();
  const value = body();
  const wall = secondsSince(start);
  const used = process.cpuUsage(cpuStart);
  return { value, wall, cpu: (used.user + used.system) / 1e6 };
}

/** How many answers of hasMany (one 0 or 1 per key) are 1. */
export function countOnes(answers) {
  let ones = 0;
  for (let i = 0; i < answers.length; i++) ones += answers[i];
  return ones;
}

export const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** The middle value; for an even count, the mean of the two middle ones. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The middle value; for an even count, the upper of the two middle ones, as
 * paper_native.cpp picks (v[size / 2] of the sorted passes), so that both
 * builds report the same pass.
 */
export const upperMedian = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/**
 * Adds `keys` one by one to a cuckoo filter up to the paper's first failure:
 * the add whose evictions ran out, its last homeless fingerprint then in the
 * stash (later adds may still find room, but the paper's filter is full
 * there). Returns how many were added. One call per key and a `stashed`
 * read each: for untimed fills, or to find how far timed adds should go.
 */
export function addToFirstFailure(filter, keys) {
  let added = 0;
  while (added < keys.length && filter.stashed === 0 && filter.add(keys[added])) added++;
  return added;
}
