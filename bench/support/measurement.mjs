// What every JavaScript benchmark measures with: the table shape of the
// timed comparisons, the clock, the per-call loops and the statistics. Plain
// ES module with no Node imports: the browser column loads it too.

export const FINGERPRINT_BITS = 12;
/** Semi-sorted rows use one bit more: the same space as FINGERPRINT_BITS plain. */
export const SEMI_SORTED_BITS = FINGERPRINT_BITS + 1;
export const BUCKET_SIZE = 4;
export const SEED = 1;
/** Absent keys looked up per filter (capped at the slot count). */
export const MAX_NEGATIVES = 1 << 22;
/** Absent keys come from indices at and above this one, present keys from 0 (bench/keys.mjs). */
export const ABSENT_BASE = 2 ** 31;

/** Milliseconds on a monotonic clock, in Node and in a page alike. */
export const now = () => performance.now();
/** Seconds from `start`, a reading of now(), to this moment. */
export const secondsSince = (start) => (performance.now() - start) / 1000;

/**
 * Runs body(); returns { value, wall, cpu }: its result, and the seconds it
 * took by the wall clock and in CPU time given to this process (the wall
 * time where there is no process, in a page). On a shared machine the
 * scheduler hands the core to other processes mid-loop: the wall-clock rate
 * then drops with the CPU share, the CPU-time rate stays near the undisturbed one.
 */
export function timeSection(body) {
  const cpuStart = globalThis.process?.cpuUsage();
  const start = now();
  const value = body();
  const wall = secondsSince(start);
  const used = cpuStart && process.cpuUsage(cpuStart);
  return { value, wall, cpu: used ? (used.user + used.system) / 1e6 : wall };
}

// Per-call loops, one per operation and key kind, identical but for their
// names on purpose: each call site then sees one kind of key (as a user's
// loop would), where one shared loop would make V8's inline caches
// polymorphic and slow every mode down.
export function addStrings(filter, keys, limit) {
  let n = 0;
  while (n < limit && filter.add(keys[n])) n++;
  return n;
}
export function hasStrings(filter, keys, count) {
  let hits = 0;
  for (let i = 0; i < count; i++) if (filter.has(keys[i])) hits++;
  return hits;
}
export function deleteStrings(filter, keys, count) {
  let deleted = 0;
  for (let i = 0; i < count; i++) if (filter.delete(keys[i])) deleted++;
  return deleted;
}
export function addNumbers(filter, keys, limit) {
  let n = 0;
  while (n < limit && filter.add(keys[n])) n++;
  return n;
}
export function hasNumbers(filter, keys, count) {
  let hits = 0;
  for (let i = 0; i < count; i++) if (filter.has(keys[i])) hits++;
  return hits;
}
export function deleteNumbers(filter, keys, count) {
  let deleted = 0;
  for (let i = 0; i < count; i++) if (filter.delete(keys[i])) deleted++;
  return deleted;
}

/** The per-call loops of each kind of key. */
export const PER_CALL = {
  string: { add: addStrings, has: hasStrings, del: deleteStrings },
  number: { add: addNumbers, has: hasNumbers, del: deleteNumbers },
};

/**
 * One filter's life, as every timed table of `npm run bench` measures it:
 * fill to the first refused add, look up every stored key and every absent
 * key (each lookup `passes` times: a small table's lookups would otherwise
 * last a few ms, too short for a clock of 5 µs steps on a noisy machine),
 * delete every stored key. Keys go per call through `loops` (PER_CALL's) or
 * in batches when `loops` is undefined. `gc` runs before each section,
 * untimed; `time` times one (timeSection's signature); `inspect(filter)`
 * adds figures read before the deletes. Disposes of the filter.
 */
export function filterLife(filter, { loops, present, absent }, { gc = () => {}, passes = 1, time = timeSection, inspect = () => ({}) } = {}) {
  const section = (body) => {
    gc();
    return time(() => {
      let value = 0;
      for (let pass = 0; pass < passes; pass++) value += body();
      return value;
    });
  };
  try {
    gc();
    const added = time(() => (loops ? loops.add(filter, present, present.length) : filter.addMany(present)));
    const n = added.value;
    // The stored prefix, untimed: slice() copies a string[].
    const stored = n === present.length ? present : present.subarray?.(0, n) ?? present.slice(0, n);
    const has = section(() => (loops ? loops.has(filter, stored, n) : countOnes(filter.hasMany(stored))));
    const miss = section(() => (loops ? loops.has(filter, absent, absent.length) : countOnes(filter.hasMany(absent))));
    const figures = { loadFactor: filter.loadFactor, ...inspect(filter) };
    const del = time(() => (loops ? loops.del(filter, stored, n) : filter.deleteMany(stored)));
    return {
      ...figures,
      n,
      hits: has.value / passes,
      negatives: absent.length,
      falsePositives: miss.value / passes,
      deleted: del.value,
      seconds: { add: added.wall, has: has.wall / passes, miss: miss.wall / passes, del: del.wall },
    };
  } finally {
    filter.dispose();
  }
}

/**
 * The runs of one table summarised: rates in M ops/s, each the median over
 * runs; counts from the first run (they depend only on keys and seed), the
 * worst false negatives and failed deletes of any.
 */
export function summariseRuns(runs) {
  const first = runs[0];
  const rate = (op) => median(runs.map((run) => (op === 'miss' ? run.negatives : run.n) / run.seconds[op])) / 1e6;
  return {
    runs: runs.length,
    items: first.n,
    loadFactor: first.loadFactor,
    negativeLookups: first.negatives,
    falsePositives: first.falsePositives,
    measuredFpr: first.falsePositives / first.negatives,
    falseNegatives: Math.max(...runs.map((run) => run.n - run.hits)),
    deleteFailures: Math.max(...runs.map((run) => run.n - run.deleted)),
    rates: { add: rate('add'), has: rate('has'), miss: rate('miss'), del: rate('del') },
  };
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
