// The main table's measurements of cuckoo-wasm in Node: its modes (how it
// adds, looks up and deletes: per call or in batches, by key type) and their
// runs, which go round-robin over the modes.

import { CuckooFilter } from 'cuckoo-wasm';
import { hexStrings, safeIntegerKeys, uint32Keys } from '../keys.mjs';
import {
  ABSENT_BASE, BUCKET_SIZE, addToFirstFailure, FINGERPRINT_BITS, SEED, SEMI_SORTED_BITS, countOnes, median, timeSection,
} from '../support/measurement.mjs';

/** CPU time the process got during timed sections, as a share of their wall time. */
export const cpuShares = [];

/** timeSection, recording the CPU share of sections long enough to tell. */
function timed(body) {
  const section = timeSection(body);
  if (section.wall > 0.005) cpuShares.push(section.cpu / section.wall);
  return section;
}

// Per-call loops, one per operation and key kind, identical but for their
// names on purpose: each call site then sees one kind of key (as a user's
// loop would), where one shared loop would make V8's inline caches
// polymorphic and slow every mode down.
function addStrings(filter, keys, limit) {
  let n = 0;
  while (n < limit && filter.add(keys[n])) n++;
  return n;
}
function hasStrings(filter, keys, count) {
  let hits = 0;
  for (let i = 0; i < count; i++) if (filter.has(keys[i])) hits++;
  return hits;
}
function deleteStrings(filter, keys, count) {
  let deleted = 0;
  for (let i = 0; i < count; i++) if (filter.delete(keys[i])) deleted++;
  return deleted;
}
function addNumbers(filter, keys, limit) {
  let n = 0;
  while (n < limit && filter.add(keys[n])) n++;
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

/** The per-call loops of each kind of key. */
const PER_CALL = {
  string: { add: addStrings, has: hasStrings, del: deleteStrings },
  number: { add: addNumbers, has: hasNumbers, del: deleteNumbers },
};

/**
 * Present keys use indices from 0, absent keys indices from 2^31: the sets
 * for 2^16 buckets are prefixes of those for 2^22, and never overlap.
 */
export function makeKeys(present, absent) {
  return {
    strings: hexStrings(0, present),
    absentStrings: hexStrings(ABSENT_BASE, absent),
    numbers: safeIntegerKeys(0, present),
    absentNumbers: safeIntegerKeys(ABSENT_BASE, absent),
    uint32: uint32Keys(0, present),
    absentUint32: uint32Keys(ABSENT_BASE, absent),
  };
}

/** The modes of the main table over `keys` (makeKeys'). */
export function makeModes(keys) {
  const calls = 'add / has / delete';
  const batches = 'addMany / hasMany / deleteMany';
  const modes = [
    { id: 'call-string', api: calls, keys: 'string', loops: PER_CALL.string, present: keys.strings, absent: keys.absentStrings },
    { id: 'call-number', api: calls, keys: 'number', loops: PER_CALL.number, present: keys.numbers, absent: keys.absentNumbers },
    { id: 'batch-string', api: batches, keys: 'string[]', present: keys.strings, absent: keys.absentStrings },
    { id: 'batch-uint32', api: batches, keys: 'Uint32Array', present: keys.uint32, absent: keys.absentUint32 },
    { id: 'batch-float64', api: batches, keys: 'Float64Array', present: keys.numbers, absent: keys.absentNumbers },
  ];
  const like = (id, extra) => ({ ...modes.find((m) => m.id === id), ...extra });
  // The paper's semi-sorted table at the same space: 13-bit fingerprints stored in 12 bits.
  const semiSort = true;
  // 2^k - 1 buckets, the other hash layout (hash id 2), beside 2^k: the same table size.
  const belowPowerOfTwo = true;
  modes.push(
    like('call-string', { id: 'semi-call-string', semiSort }),
    like('batch-uint32', { id: 'semi-batch-uint32', semiSort }),
    like('call-number', { id: 'any-count-call-number', belowPowerOfTwo }),
    like('batch-uint32', { id: 'any-count-batch-uint32', belowPowerOfTwo }),
  );
  return modes;
}

/**
 * One run of `mode`: its filter filled to the paper's first failure (the add
 * whose evictions ran out, its last homeless fingerprint then in the stash),
 * every stored and every absent key looked up, every stored key deleted; keys
 * go per call through `loops` (PER_CALL's) or in batches.
 */
function runOnce({ loops, present, absent, semiSort, belowPowerOfTwo }, log2) {
  const makeFilter = () =>
    new CuckooFilter({
      bucketCount: 2 ** log2 - (belowPowerOfTwo ? 1 : 0),
      bucketSize: BUCKET_SIZE,
      fingerprintBits: semiSort ? SEMI_SORTED_BITS : FINGERPRINT_BITS,
      semiSort: semiSort === true,
      seed: SEED,
    });
  // Untimed: how many keys reach the first failure (later adds may still find
  // room), so that the timed adds stop exactly there.
  const probe = makeFilter();
  const firstFailure = addToFirstFailure(probe, present);
  probe.dispose();
  const filter = makeFilter();
  try {
    const added = timed(() =>
      loops ? loops.add(filter, present, firstFailure) : filter.addMany(present.subarray?.(0, firstFailure) ?? present.slice(0, firstFailure)),
    );
    const n = added.value;
    // The stored prefix, untimed: slice() copies a string[].
    const stored = n === present.length ? present : present.subarray?.(0, n) ?? present.slice(0, n);
    const has = timed(() => (loops ? loops.has(filter, stored, n) : countOnes(filter.hasMany(stored))));
    const miss = timed(() => (loops ? loops.has(filter, absent, absent.length) : countOnes(filter.hasMany(absent))));
    const figures = { loadFactor: filter.loadFactor, bitsPerItem: filter.bitsPerItem, expectedFpr: filter.expectedFpr, serializedBytes: filter.toBytes().length };
    const del = timed(() => (loops ? loops.del(filter, stored, n) : filter.deleteMany(stored)));
    return {
      ...figures,
      n,
      hits: has.value,
      negatives: absent.length,
      falsePositives: miss.value,
      deleted: del.value,
      seconds: { add: added.wall, has: has.wall, miss: miss.wall, del: del.wall },
    };
  } finally {
    filter.dispose();
  }
}

/**
 * Measures every mode at 2^log2 buckets, `reps` times round-robin (mode 1,
 * 2, ..., then again), so that a burst of load from other processes spreads
 * over all modes instead of hitting one; a full collection (`gc`, untimed)
 * before each run.
 */
export function measureOurs(modes, log2, reps, warmUp, { gc, progress }) {
  if (warmUp) for (const mode of modes) runOnce(mode, log2);
  const runs = modes.map(() => []);
  for (let r = 0; r < reps; r++) {
    progress(`cuckoo-wasm 2^${log2}, run ${r + 1} of ${reps} of each mode`);
    modes.forEach((mode, m) => {
      gc();
      runs[m].push(runOnce(mode, log2));
    });
  }
  // Rates in M ops/s, each the median over runs; counts from the first run
  // (they depend only on keys and seed), the worst false negatives and failed deletes of any.
  return modes.map(({ id, api, keys, semiSort = false, belowPowerOfTwo = false }, m) => {
    const first = runs[m][0];
    const rate = (op) => median(runs[m].map((run) => (op === 'miss' ? run.negatives : run.n) / run.seconds[op])) / 1e6;
    return {
      id, api, keys, semiSort, belowPowerOfTwo, log2Buckets: log2,
      runs: runs[m].length,
      items: first.n,
      loadFactor: first.loadFactor,
      negativeLookups: first.negatives,
      falsePositives: first.falsePositives,
      measuredFpr: first.falsePositives / first.negatives,
      falseNegatives: Math.max(...runs[m].map((run) => run.n - run.hits)),
      deleteFailures: Math.max(...runs[m].map((run) => run.n - run.deleted)),
      rates: { add: rate('add'), has: rate('has'), miss: rate('miss'), del: rate('del') },
      bitsPerItem: first.bitsPerItem,
      // Stored bits per entry over the load: f, or f - 1 semi-sorted.
      bitsPerItemIdeal: (semiSort ? SEMI_SORTED_BITS - 1 : FINGERPRINT_BITS) / first.loadFactor,
      serializedBytes: first.serializedBytes,
      serializedBytesPerItem: first.serializedBytes / first.n,
      expectedFpr: first.expectedFpr,
    };
  });
}
