// The main table's measurements of cuckoo-wasm in Node: its modes (how it
// adds, looks up and deletes: per call or in batches, by key type) and their
// runs, which go round-robin over the modes.

import { hexStrings, safeIntegerKeys, uint32Keys } from '../keys.mjs';
import {
  ABSENT_BASE, BUCKET_SIZE, FINGERPRINT_BITS, PER_CALL, SEED, SEMI_SORTED_BITS, filterLife, summariseRuns, timeSection,
} from '../support/measurement.mjs';

/** CPU time the process got during timed sections, as a share of their wall time. */
export const cpuShares = [];

/** timeSection, recording the CPU share of sections long enough to tell. */
function timed(body) {
  const section = timeSection(body);
  if (section.wall > 0.005) cpuShares.push(section.cpu / section.wall);
  return section;
}

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

/** One run of `mode`: its filter's life with the figures the table adds. */
function runOnce(CuckooFilter, mode, log2) {
  const filter = new CuckooFilter({
    bucketCount: 2 ** log2 - (mode.belowPowerOfTwo ? 1 : 0),
    bucketSize: BUCKET_SIZE,
    fingerprintBits: mode.semiSort ? SEMI_SORTED_BITS : FINGERPRINT_BITS,
    semiSort: mode.semiSort === true,
    seed: SEED,
  });
  const inspect = (f) => ({ bitsPerItem: f.bitsPerItem, expectedFpr: f.expectedFpr, serializedBytes: f.toBytes().length });
  return filterLife(filter, mode, { time: timed, inspect });
}

/**
 * Measures every mode at 2^log2 buckets, `reps` times round-robin (mode 1,
 * 2, ..., then again), so that a burst of load from other processes spreads
 * over all modes instead of hitting one; a full collection (`gc`, untimed)
 * before each run.
 */
export function measureOurs(CuckooFilter, modes, log2, reps, warmUp, { gc, progress }) {
  if (warmUp) for (const mode of modes) runOnce(CuckooFilter, mode, log2);
  const runs = modes.map(() => []);
  for (let r = 0; r < reps; r++) {
    progress(`cuckoo-wasm 2^${log2}, run ${r + 1} of ${reps} of each mode`);
    modes.forEach((mode, m) => {
      gc();
      runs[m].push(runOnce(CuckooFilter, mode, log2));
    });
  }
  return modes.map(({ id, api, keys, semiSort = false, belowPowerOfTwo = false }, m) => {
    const first = runs[m][0];
    return {
      id, api, keys, semiSort, belowPowerOfTwo, log2Buckets: log2,
      ...summariseRuns(runs[m]),
      bitsPerItem: first.bitsPerItem,
      // Stored bits per entry over the load: f, or f - 1 semi-sorted.
      bitsPerItemIdeal: (semiSort ? SEMI_SORTED_BITS - 1 : FINGERPRINT_BITS) / first.loadFactor,
      serializedBytes: first.serializedBytes,
      serializedBytesPerItem: first.serializedBytes / first.n,
      expectedFpr: first.expectedFpr,
    };
  });
}
