// cuckoo-wasm/inspect's facts (re-exported there): the kernel serving a
// filter, and the core's rules and sizing constants that a teaching page
// must read rather than restate (bindings/inspect_table_bindings.cpp).

import type { CuckooFilter } from './filter.js';
import { requireFull } from './full-module.js';
import { filterHandle } from './inspect-reads.js';
import { describeValue } from './items.js';
import type { ScalableCuckooFilter } from './scalable.js';

/**
 * The kernel serving the filter: the code compiled for its shape and bucket
 * layout (plain b = 4 with f = 12, semi-sorted f = 13, ...), or `'generic'`,
 * which decides the shape at run time and serves the rest.
 * @example
 * ```ts
 * kernelName(new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 12 })); // 'plain b=4 f=12, hash id 1'
 * kernelName(new CuckooFilter({ bucketCount: 1024, bucketSize: 8, fingerprintBits: 12 })); // 'generic'
 * ```
 */
export function kernelName(filter: CuckooFilter): string {
  const handle = filterHandle(filter, 'kernelName');
  return requireFull('inspect.kernelName').full.inspectKernelName(handle);
}

/**
 * Switches the filter to the generic kernel, to compare its speed with the
 * filter's own: the answers and the bytes stay exactly the same, only slower.
 * Its clones keep the generic kernel; a filter loaded from its bytes gets its own.
 * @example
 * ```ts
 * const filter = CuckooFilter.create({ capacity: 100_000, fpr: 0.001 });
 * useGenericKernel(filter);
 * kernelName(filter); // 'generic'
 * ```
 */
export function useGenericKernel(filter: CuckooFilter): void {
  const handle = filterHandle(filter, 'useGenericKernel');
  requireFull('inspect.useGenericKernel').full.inspectUseGenericKernel(handle);
}

/**
 * The load large tables of a bucket size are sized to (0.43, 0.84, 0.945 and
 * 0.975 for 1, 2, 4 and 8 slots): what they reach before their first refused
 * add, less a margin. Smaller tables are sized lower.
 * @example
 * ```ts
 * practicalMaxLoad(4); // 0.945
 * ```
 */
export function practicalMaxLoad(bucketSize: 1 | 2 | 4 | 8): number {
  const { full } = requireFull('inspect.practicalMaxLoad');
  if (![1, 2, 4, 8].includes(bucketSize)) {
    throw new RangeError(`inspect.practicalMaxLoad: bucketSize must be 1, 2, 4 or 8, got ${describeValue(bucketSize)}`);
  }
  return full.inspectPracticalMaxLoad(bucketSize);
}

/**
 * The number of hash functions k that minimises a Bloom filter's
 * false-positive rate at `bitsPerItem` bits per item: round(ln 2 · bitsPerItem), 1 to 32.
 * @example
 * ```ts
 * optimalBloomHashCount(384 / 61); // 4: a Bloom filter of a 16 x 4 x 6-bit table's memory, at 95 % load
 * ```
 */
export function optimalBloomHashCount(bitsPerItem: number): number {
  const { full } = requireFull('inspect.optimalBloomHashCount');
  if (typeof bitsPerItem !== 'number' || !(bitsPerItem > 0)) {
    throw new RangeError(`inspect.optimalBloomHashCount: bitsPerItem must be a positive number, got ${describeValue(bitsPerItem)}`);
  }
  return full.inspectOptimalBloomHashCount(bitsPerItem);
}

/**
 * The bucket layout the core gives a table of `bucketCount` buckets
 * (FORMAT.md): hash id 1, the XOR relation, for a power of two; hash id 2,
 * the reflection about c, for any other count.
 * @example
 * ```ts
 * hashIdFor(16); // 1
 * hashIdFor(10); // 2
 * ```
 */
export function hashIdFor(bucketCount: number): 1 | 2 {
  const { full } = requireFull('inspect.hashIdFor');
  if (!Number.isInteger(bucketCount) || bucketCount < 1 || bucketCount > 2 ** 32) {
    throw new RangeError(`inspect.hashIdFor: bucketCount must be an integer from 1 to 2^32, got ${describeValue(bucketCount)}`);
  }
  return full.inspectHashIdFor(bucketCount) as 1 | 2;
}

/**
 * Whether the core makes a semi-sorted table with these parameters (it needs
 * buckets of 4 and fingerprints of 5 bits or more).
 * @example
 * ```ts
 * semiSortAllowed(4, 8); // true
 * semiSortAllowed(2, 8); // false
 * ```
 */
export function semiSortAllowed(bucketSize: number, fingerprintBits: number): boolean {
  const { full } = requireFull('inspect.semiSortAllowed');
  if (!Number.isInteger(bucketSize) || bucketSize < 0 || !Number.isInteger(fingerprintBits) || fingerprintBits < 0) {
    throw new RangeError(
      `inspect.semiSortAllowed: bucketSize and fingerprintBits must be non-negative integers, got ${describeValue(bucketSize)} and ${describeValue(fingerprintBits)}`,
    );
  }
  return full.inspectSemiSortAllowed(bucketSize, fingerprintBits);
}

/** The rules a {@link ScalableCuckooFilter} grows by ({@link growableFacts}). */
export interface GrowableFacts {
  /** Slots per bucket: 4. */
  readonly bucketSize: number;
  /** The share of the slots in use past which the table grows (or when an add's evictions run out). */
  readonly maxLoad: number;
}

/**
 * The rules a {@link ScalableCuckooFilter} grows by, from the core.
 * @example
 * ```ts
 * const { maxLoad } = growableFacts(); // 0.9
 * filter.loadFactor <= maxLoad;        // true after every add that could grow
 * ```
 */
export function growableFacts(): GrowableFacts {
  const { full } = requireFull('inspect.growableFacts');
  return { bucketSize: full.scalableBucketSize, maxLoad: full.scalableMaxLoad };
}
