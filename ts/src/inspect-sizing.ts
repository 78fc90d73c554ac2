// cuckoo-wasm/inspect's sizing (re-exported there): what the core chooses
// for a capacity and a rate without making a table, for a cuckoo filter
// (CuckooFilter.create's choice) and a standard Bloom filter
// (BloomFilter.create's), and the rates of a table of any shape at any load.
// Nothing is allocated, so a billion items cost no memory to size
// (bindings/inspect_table_bindings.cpp).

import { checkStatus } from './handles.js';
import { requireFull } from './full-module.js';
import { describeValue } from './items.js';
import { checkFlag, checkInteger, checkNumberOption, checkObject } from './validate.js';

/** What {@link sizeFor} reports: the shape CuckooFilter.create would make, and that table holding `capacity` items. */
export interface CuckooSizing {
  readonly capacity: number;
  readonly fpr: number;
  readonly semiSort: boolean;
  readonly bucketCount: number;
  readonly bucketSize: 1 | 2 | 4 | 8;
  readonly fingerprintBits: number;
  /** The table's bits (m·b·f, or m·(4f − 4) semi-sorted): its memory, without padding. */
  readonly tableBits: number;
  /** tableBits / capacity. */
  readonly bitsPerItem: number;
  /** capacity / slots: the load at capacity. */
  readonly loadFactor: number;
  /** 2b / 2^f, the paper's eq. (5) bound. */
  readonly fprBound: number;
  /** The rate expected holding `capacity` items, 1 − (1 − 2^−f)^(2b · load). */
  readonly expectedFpr: number;
}

/** What {@link bloomSizeFor} reports: the filter BloomFilter.create would make, holding `capacity` items. */
export interface BloomSizing {
  readonly capacity: number;
  readonly fpr: number;
  readonly bitCount: number;
  readonly hashCount: number;
  /** bitCount / capacity. */
  readonly bitsPerItem: number;
  /** The rate expected holding `capacity` items, (1 − e^(−kn/m))^k. */
  readonly expectedFpr: number;
}

function capacityAndRate(options: unknown, what: string, shape: string) {
  const { runtime, full } = requireFull(what);
  const o = checkObject(options, `${what}: options`, shape);
  const capacity = checkInteger(o.capacity, `${what}: capacity`, 1, Number.MAX_SAFE_INTEGER, 'an integer from 1 to 2^53 - 1');
  const fpr = checkNumberOption(runtime, o, 'fpr', what);
  return { runtime, full, o, capacity, fpr };
}

/**
 * The filter CuckooFilter.create would make for `capacity` items at `fpr`
 * (the same core sizing, paper Sec. 5), without making it: its shape, its
 * memory and its rates once it holds `capacity` items.
 *
 * @throws TypeError / RangeError for bad options, or when the rate would
 *   need fingerprints over 32 bits or the table more than 2^32 buckets (as create).
 * @example
 * ```ts
 * const s = sizeFor({ capacity: 1_000_000, fpr: 0.001 });
 * s.fingerprintBits; // 13
 * s.bitsPerItem;     // 13.76
 * sizeFor({ capacity: 1e9, fpr: 1e-4, semiSort: true }).tableBits / 8; // bytes, with nothing allocated
 * ```
 */
export function sizeFor(options: { capacity: number; fpr: number; semiSort?: boolean }): CuckooSizing {
  const what = 'inspect.sizeFor';
  const { runtime, full, o, capacity, fpr } = capacityAndRate(options, what, '{ capacity, fpr, semiSort? }');
  const semiSort = checkFlag(o.semiSort, `${what}: semiSort`);
  const sized = full.inspectCuckooSizing(capacity, fpr, semiSort);
  checkStatus(runtime, sized.status, what, o);
  const slots = sized.bucketCount * sized.bucketSize;
  return Object.freeze({
    capacity,
    fpr,
    semiSort,
    bucketCount: sized.bucketCount,
    bucketSize: sized.bucketSize as 1 | 2 | 4 | 8,
    fingerprintBits: sized.fingerprintBits,
    tableBits: sized.tableBits,
    bitsPerItem: sized.tableBits / capacity,
    loadFactor: capacity / slots,
    fprBound: sized.rates.fprBound,
    expectedFpr: sized.rates.expectedFpr,
  });
}

/**
 * The standard Bloom filter BloomFilter.create would make for `capacity`
 * items at `fpr`, without making it.
 *
 * @throws TypeError / RangeError for bad options, or when the rate would
 *   need more than 32 hash functions or 2^32 bits (as create).
 * @example
 * ```ts
 * const b = bloomSizeFor({ capacity: 1_000_000, fpr: 0.001 });
 * b.bitCount;    // 14377588
 * b.hashCount;   // 10
 * ```
 */
export function bloomSizeFor(options: { capacity: number; fpr: number }): BloomSizing {
  const what = 'inspect.bloomSizeFor';
  const { runtime, full, o, capacity, fpr } = capacityAndRate(options, what, '{ capacity, fpr }');
  const sized = full.inspectBloomSizing(capacity, fpr);
  checkStatus(runtime, sized.status, what, o);
  return Object.freeze({
    capacity,
    fpr,
    bitCount: sized.bitCount,
    hashCount: sized.hashCount,
    bitsPerItem: sized.bitCount / capacity,
    expectedFpr: sized.expectedFpr,
  });
}

function checkPositive(value: unknown, what: string): number {
  if (typeof value !== 'number' || !(value >= 0) || value === Infinity) {
    throw new RangeError(`${what} must be a finite number of at least 0, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * The false-positive rates of a table of buckets of `bucketSize` slots with
 * `fingerprintBits`-bit fingerprints at `loadFactor`, as a filter's
 * `fprBound` and `expectedFpr` report them: for a table not made, or at a
 * load it does not have.
 * @example
 * ```ts
 * cuckooRates(4, 6, 0.945); // { fprBound: 0.125, expectedFpr: 0.1122… }
 * ```
 */
export function cuckooRates(bucketSize: number, fingerprintBits: number, loadFactor: number): { fprBound: number; expectedFpr: number } {
  const what = 'inspect.cuckooRates';
  const { full } = requireFull(what);
  checkInteger(bucketSize, `${what}: bucketSize`, 1, 8, 'an integer from 1 to 8');
  checkInteger(fingerprintBits, `${what}: fingerprintBits`, 1, 32, 'an integer from 1 to 32');
  if (checkPositive(loadFactor, `${what}: loadFactor`) > 1) throw new RangeError(`${what}: loadFactor must be at most 1, got ${loadFactor}`);
  const { fprBound, expectedFpr } = full.inspectCuckooRates(bucketSize, fingerprintBits, loadFactor);
  return { fprBound, expectedFpr };
}

/**
 * The rate a standard Bloom filter of `bitCount` bits and `hashCount` hash
 * functions is expected to reach holding `items` items, as its
 * `expectedFpr` reports it.
 * @example
 * ```ts
 * bloomExpectedFpr(384, 4, 60); // 0.0466…: the bits of a 16 × 4 × 6-bit table, holding 60 items
 * ```
 */
export function bloomExpectedFpr(bitCount: number, hashCount: number, items: number): number {
  const what = 'inspect.bloomExpectedFpr';
  const { full } = requireFull(what);
  checkInteger(bitCount, `${what}: bitCount`, 1, 2 ** 32, 'an integer from 1 to 2^32');
  checkInteger(hashCount, `${what}: hashCount`, 1, 32, 'an integer from 1 to 32');
  return full.inspectBloomRate(bitCount, hashCount, checkPositive(items, `${what}: items`));
}
