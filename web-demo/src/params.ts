// The demo's setup, read from and written to the address bar, so that a link
// reproduces it. Values out of the demo's ranges fall back to the defaults.

import { semiSortAllowed } from 'cuckoo-wasm/inspect';

export type BucketSize = 1 | 2 | 4 | 8;
export type NumberFormat = 'bin' | 'hex';

export interface DemoParams {
  bucketCount: number;
  bucketSize: BucketSize;
  fingerprintBits: number;
  maxKicks: number;
  seed: number;
  semiSort: boolean;
  format: NumberFormat;
}

/** Teaching size: 16 x 4 slots of 6 bits, so kicks start within a few dozen items. */
export const DEFAULT_PARAMS: DemoParams = {
  bucketCount: 16,
  bucketSize: 4,
  fingerprintBits: 6,
  maxKicks: 500,
  seed: 0,
  semiSort: false,
  format: 'bin',
};

export const LIMITS = {
  maxBucketCount: 4096,
  minFingerprintBits: 2,
  maxFingerprintBits: 16,
  maxKicks: 5000,
  maxSeed: 2 ** 32 - 1,
} as const;

// The core's rules for semi-sorted tables and for the bucket layout a bucket
// count gets (XOR for a power of two, hash id 1; the reflection about c for
// any other, hash id 2), read from it rather than restated here.
export { hashIdFor, semiSortAllowed } from 'cuckoo-wasm/inspect';

/** Whether `a` and `b` agree on `keys`: a view measured for `a` still holds for `b`. */
export function sameParams(a: DemoParams | undefined, b: DemoParams, keys: ReadonlyArray<keyof DemoParams>): boolean {
  return a !== undefined && keys.every((key) => a[key] === b[key]);
}

function integerIn(text: string | null, min: number, max: number): number | undefined {
  if (text === null || !/^\d+$/.test(text.trim())) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

/** Parses `m`, `b`, `f`, `kicks`, `seed`, `semi` and `fmt`; anything missing or invalid takes its default. */
export function readParams(query: URLSearchParams): DemoParams {
  const b = integerIn(query.get('b'), 1, 8);
  const params: DemoParams = {
    bucketCount: integerIn(query.get('m'), 1, LIMITS.maxBucketCount) ?? DEFAULT_PARAMS.bucketCount,
    bucketSize: b === 1 || b === 2 || b === 4 || b === 8 ? b : DEFAULT_PARAMS.bucketSize,
    fingerprintBits:
      integerIn(query.get('f'), LIMITS.minFingerprintBits, LIMITS.maxFingerprintBits) ?? DEFAULT_PARAMS.fingerprintBits,
    maxKicks: integerIn(query.get('kicks'), 0, LIMITS.maxKicks) ?? DEFAULT_PARAMS.maxKicks,
    seed: integerIn(query.get('seed'), 0, LIMITS.maxSeed) ?? DEFAULT_PARAMS.seed,
    semiSort: query.get('semi') === '1',
    format: query.get('fmt') === 'hex' ? 'hex' : 'bin',
  };
  if (!semiSortAllowed(params.bucketSize, params.fingerprintBits)) params.semiSort = false;
  return params;
}

export function writeParams(params: DemoParams): URLSearchParams {
  return new URLSearchParams({
    m: String(params.bucketCount),
    b: String(params.bucketSize),
    f: String(params.fingerprintBits),
    kicks: String(params.maxKicks),
    seed: String(params.seed),
    semi: params.semiSort ? '1' : '0',
    fmt: params.format,
  });
}
