/**
 * cuckoo-wasm/inspect: a look inside a {@link CuckooFilter}, for teaching,
 * debugging and tests. Every number comes from the core: where an item lives
 * (its hash, fingerprint and two buckets), step-by-step traces of add, has
 * and delete, and copies of the table's slots and stash.
 *
 * Partial-key cuckoo hashing in one line: i2 = i1 XOR (hash(fingerprint) mod m),
 * and since XOR undoes itself, i1 = i2 XOR (hash(fingerprint) mod m) too. That
 * needs m to be a power of two; for any other bucket count the filter uses
 * i2 = (c − i1) mod m with c = hash(fingerprint) scaled to [0, m), a
 * reflection, which undoes itself just as well ({@link ItemLocation.hashId}).
 *
 * @example
 * ```ts
 * import { init, CuckooFilter } from 'cuckoo-wasm';
 * import { traceAdd, buckets } from 'cuckoo-wasm/inspect';
 * await init();
 * using filter = new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 6 });
 * const trace = traceAdd(filter, 'apple');
 * trace.i2 === (trace.i1 ^ trace.fingerprintHashMod); // true
 * buckets(filter).slots; // Uint32Array(64): 0 = empty, else a fingerprint
 * ```
 *
 * {@link sizeFor} and {@link bloomSizeFor} tell what the core's sizing
 * chooses for a capacity and a rate without making a table.
 *
 * For a {@link ScalableCuckooFilter}, {@link scalableShape} and
 * {@link scalableBuckets} show how its table grows: its shape (linear hashing:
 * m = 2^L + s buckets, split one at a time) and its slots; {@link traceGrowingAdd}
 * reports each split of an add that grows it.
 * @packageDocumentation
 */

export { MAX_SLOTS_PER_READ } from './inspect-reads.js';
export type {
  DeleteTrace,
  InsertTrace,
  ItemLocation,
  Kick,
  LookupTrace,
  SemiSortedBucketView,
  StashReplacement,
  StashView,
  TableView,
} from './inspect-types.js';
export { MAX_RECORDED_KICKS, locate, traceAdd, traceDelete, traceHas } from './inspect-traces.js';
export { alternateBucket, buckets, fingerprintHash, semiSortedBucket, stash, tableBits } from './inspect-table.js';
export {
  growableFacts,
  hashIdFor,
  kernelName,
  optimalBloomHashCount,
  practicalMaxLoad,
  semiSortAllowed,
  useGenericKernel,
  type GrowableFacts,
} from './inspect-facts.js';
export { bloomExpectedFpr, bloomSizeFor, cuckooRates, sizeFor, type BloomSizing, type CuckooSizing } from './inspect-sizing.js';
export { bucketNumberBits, scalableBuckets, scalableShape, type ScalableShape, type ScalableTableView } from './inspect-scalable.js';
export { traceGrowingAdd, type GrowthTrace, type GrowthStep, type SplitStep, type SplitMove } from './inspect-growth.js';
