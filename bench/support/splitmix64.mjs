// SplitMix64 (cuckoo/prng.hpp) in 32-bit halves, the one JavaScript copy:
// the paper's wasm experiments insert exactly the keys paper_native.cpp
// inserts, and the soak test (tests/soak/soak.mjs) draws what its native
// replay draws, without BigInt arithmetic in loops of tens of millions.

const GAMMA_HI = 0x9e3779b9;
const GAMMA_LO = 0x7f4a7c15;
const MIX1_HI = 0xbf58476d;
const MIX1_LO = 0x1ce4e5b9;
const MIX2_HI = 0x94d049bb;
const MIX2_LO = 0x133111eb;

// The product of two 64-bit values mod 2^64, left in productHi / productLo.
let productHi = 0;
let productLo = 0;
function multiply64(aHi, aLo, bHi, bLo) {
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const middle = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const lowProductHigh = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (middle >>> 16);
  productLo = Math.imul(aLo, bLo) >>> 0;
  productHi = (lowProductHigh + Math.imul(aHi, bLo) + Math.imul(aLo, bHi)) >>> 0;
}

/** A generator started at `state` (a number or a bigint); `next` leaves the output in `hi` and `lo`. */
export class SplitMix64 {
  constructor(state) {
    const bits = BigInt.asUintN(64, BigInt(state));
    this.stateHi = Number(bits >> 32n);
    this.stateLo = Number(bits & 0xffffffffn);
    this.hi = 0;
    this.lo = 0;
  }

  next() {
    const lo = this.stateLo + GAMMA_LO;
    this.stateLo = lo >>> 0;
    this.stateHi = (this.stateHi + GAMMA_HI + (lo > 0xffffffff ? 1 : 0)) >>> 0;
    let hi = this.stateHi;
    let low = this.stateLo;
    // z = (z ^ (z >> 30)) * MIX1
    low = (low ^ ((low >>> 30) | (hi << 2))) >>> 0;
    hi = (hi ^ (hi >>> 30)) >>> 0;
    multiply64(hi, low, MIX1_HI, MIX1_LO);
    // z = (z ^ (z >> 27)) * MIX2
    low = (productLo ^ ((productLo >>> 27) | (productHi << 5))) >>> 0;
    hi = (productHi ^ (productHi >>> 27)) >>> 0;
    multiply64(hi, low, MIX2_HI, MIX2_LO);
    // z ^ (z >> 31)
    this.lo = (productLo ^ ((productLo >>> 31) | (productHi << 1))) >>> 0;
    this.hi = (productHi ^ (productHi >>> 31)) >>> 0;
  }
}

/** The first `count` outputs of the stream at `state`, as 8-byte items. */
export function generateKeys(state, count) {
  const keys = new BigUint64Array(count);
  const words = new Uint32Array(keys.buffer);
  const stream = new SplitMix64(state);
  // Little-endian words: the low half first, as the native side stores them.
  for (let i = 0; i < count; i++) {
    stream.next();
    words[2 * i] = stream.lo;
    words[2 * i + 1] = stream.hi;
  }
  return keys;
}
