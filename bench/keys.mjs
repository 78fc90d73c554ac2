// Deterministic benchmark keys, generated before any timing.
//
// Key k (k = 0, 1, 2, ...) is derived from h = fmix32(k), a bijection on 32-bit
// integers, so distinct indices below 2^32 give distinct keys. The benchmark
// takes present keys from indices [0, n) and absent keys from [2^31, 2^31 + m):
// no absent key can equal a present one, so every "yes" on an absent key is a
// false positive.

/** MurmurHash3's 32-bit finaliser: a bijection on [0, 2^32). */
export function fmix32(value) {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * `count` random-looking 16-character lowercase hex strings for indices
 * [first, first + count). Built with String.fromCharCode so each one is a
 * flat one-byte string (as strings read from JSON or the network are), not a
 * concatenation tree.
 */
export function hexStrings(first, count) {
  const out = new Array(count);
  const c = new Array(16);
  for (let i = 0; i < count; i++) {
    const high = fmix32(first + i);
    const low = fmix32(high ^ 0x9e3779b9);
    for (let j = 0; j < 8; j++) {
      c[j] = HEX[(high >>> (28 - 4 * j)) & 15];
      c[8 + j] = HEX[(low >>> (28 - 4 * j)) & 15];
    }
    out[i] = String.fromCharCode(...c);
  }
  return out;
}

/** Distinct random 32-bit integers for indices [first, first + count). */
export function uint32Keys(first, count) {
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = fmix32(first + i);
  return out;
}

/**
 * Distinct random safe integers (up to 2^53) for indices [first, first + count):
 * the 32 distinct bits of fmix32 above 21 more random bits.
 */
export function safeIntegerKeys(first, count) {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const high = fmix32(first + i);
    out[i] = high * 2 ** 21 + (fmix32(high ^ 0x7f4a7c15) & 0x1fffff);
  }
  return out;
}
