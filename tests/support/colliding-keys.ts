// Keys aimed at one pair of buckets, as an attacker who knows a filter's seed
// finds them (issue 26): candidates hashed until enough share a fingerprint
// and a first bucket. Through parts' batch locate, which hashes a batch in
// one call into the full module (cuckoo-wasm/inspect loads it).
import { LOCATION_WORDS, locateItems } from '../../dist/cjs/parts';

const BATCH = 1 << 20;

/** What locating needs of a table: its bucket count, fingerprint width and seed. */
export interface LocatedShape {
  readonly bucketCount: number;
  readonly fingerprintBits: number;
  readonly seed: bigint;
}

/**
 * `count` integers from 1 on whose fingerprint, in a table of this shape, is
 * `fingerprint` and whose first bucket is one of `buckets`.
 */
export function aimedIntegers(shape: LocatedShape, fingerprint: number, buckets: readonly number[], count: number): number[] {
  const found: number[] = [];
  const candidates = new Float64Array(BATCH);
  for (let base = 1; found.length < count; base += BATCH) {
    for (let i = 0; i < BATCH; i++) candidates[i] = base + i;
    const located = locateItems(shape, candidates, 'aimedIntegers');
    for (let i = 0; i < BATCH && found.length < count; i++) {
      const at = i * LOCATION_WORDS;
      if (located[at] === fingerprint && buckets.includes(located[at + 1]!)) found.push(base + i);
    }
  }
  return found;
}

/** `count` keys, 0 first, sharing the fingerprint and pair of buckets of 0 in a table of this shape. */
export function collidingIntegers(shape: LocatedShape, count: number): number[] {
  const [fingerprint, first, second] = locateItems(shape, new Float64Array([0]), 'collidingIntegers');
  return [0, ...aimedIntegers(shape, fingerprint!, [first!, second!], count - 1)];
}
