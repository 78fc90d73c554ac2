// The modes of the main table of `npm run bench`: how cuckoo-wasm adds, looks
// up and deletes (per call or in batches, by key type), and their keys.

import { hexStrings, safeIntegerKeys, uint32Keys } from '../keys.mjs';
import {
  ABSENT_BASE, SEMI_SORTED_BITS, addNumbers, addStrings, countOnes, deleteNumbers, deleteStrings, hasNumbers, hasStrings,
} from '../support/measurement.mjs';

/**
 * How each mode adds, looks up and deletes. `setup` prepares the inputs
 * (untimed); `present` narrows them to the n keys that were stored (untimed);
 * add/has/miss/del are the timed calls.
 */
export function makeModes(keys) {
  const batch = (api, keysText, present, absent, copy) => ({
    api,
    keys: keysText,
    setup: (limit, negatives) => ({ add: copy(present, limit), neg: copy(absent, negatives) }),
    present: (c, n) => {
      c.stored = n === c.add.length ? c.add : copy(c.add, n);
    },
    add: (f, c) => f.addMany(c.add),
    has: (f, c) => countOnes(f.hasMany(c.stored)),
    miss: (f, c) => countOnes(f.hasMany(c.neg)),
    del: (f, c) => f.deleteMany(c.stored),
  });
  const arrayPrefix = (array, n) => array.slice(0, n);
  const typedPrefix = (array, n) => array.subarray(0, n);
  const modes = [
    {
      id: 'call-string',
      api: 'add / has / delete',
      keys: 'string',
      setup: (limit, negatives) => ({ limit, negatives }),
      add: (f, c) => addStrings(f, keys.strings, c.limit),
      has: (f, c, n) => hasStrings(f, keys.strings, n),
      miss: (f, c) => hasStrings(f, keys.absentStrings, c.negatives),
      del: (f, c, n) => deleteStrings(f, keys.strings, n),
    },
    {
      id: 'call-number',
      api: 'add / has / delete',
      keys: 'number',
      setup: (limit, negatives) => ({ limit, negatives }),
      add: (f, c) => addNumbers(f, keys.numbers, c.limit),
      has: (f, c, n) => hasNumbers(f, keys.numbers, n),
      miss: (f, c) => hasNumbers(f, keys.absentNumbers, c.negatives),
      del: (f, c, n) => deleteNumbers(f, keys.numbers, n),
    },
    { id: 'batch-string', ...batch('addMany / hasMany / deleteMany', 'string[]', keys.strings, keys.absentStrings, arrayPrefix) },
    { id: 'batch-uint32', ...batch('addMany / hasMany / deleteMany', 'Uint32Array', keys.uint32, keys.absentUint32, typedPrefix) },
    { id: 'batch-float64', ...batch('addMany / hasMany / deleteMany', 'Float64Array', keys.numbers, keys.absentNumbers, typedPrefix) },
  ];
  // The paper's semi-sorted table at the same space: 13-bit fingerprints stored in 12 bits.
  const semiSorted = { fingerprintBits: SEMI_SORTED_BITS, semiSort: true };
  modes.push(
    { ...modes.find((m) => m.id === 'call-string'), id: 'semi-call-string', table: semiSorted },
    { ...modes.find((m) => m.id === 'batch-uint32'), id: 'semi-batch-uint32', table: semiSorted },
  );
  // 2^k - 1 buckets, the other hash layout (hash id 2), beside 2^k: the same table size.
  modes.push(
    { ...modes.find((m) => m.id === 'call-number'), id: 'any-count-call-number', belowPowerOfTwo: true },
    { ...modes.find((m) => m.id === 'batch-uint32'), id: 'any-count-batch-uint32', belowPowerOfTwo: true },
  );
  modes.keys = keys;
  return modes;
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
