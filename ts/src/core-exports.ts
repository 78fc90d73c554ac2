// The plain exports of both WebAssembly modules, by the names the bindings
// give them (bindings/*_exports.cpp): every call the main entry makes, each a
// wasm function called directly, with no binding layer between.
// Internal: users see only the classes. The package has them under short
// names (bindings/export-names.json): its build renames them in the modules
// and in the compiled JavaScript alike (scripts/export-names.mjs).

/** A core object's address in wasm memory: a filter handle. */
export type Handle = number;
/** An address in wasm memory. */
export type Address = number;

/** A call on one item written to wasm memory as bytes: 1 or 0 (count: copies). */
type BytesCall = (handle: Handle, item: Address, length: number) => number;
/** A call on one number item, passed as itself (a safe integer). */
type NumberCall = (handle: Handle, item: number) => number;
type PackedCall = (handle: Handle, data: Address, offsets: Address, count: number) => number;
type PackedAnswers = (handle: Handle, data: Address, offsets: Address, count: number, out: Address) => void;
type FixedCall = (handle: Handle, data: Address, width: number, count: number) => number;
type FixedAnswers = (handle: Handle, data: Address, width: number, count: number, out: Address) => void;
type Getter = (handle: Handle) => number;

/**
 * How every create call ends its options: the kick limit, the seed's low and
 * high 32 bits, and the table's flags (validate.ts's tableFlags: 1 semi-sorted,
 * 2 the keyed item hash).
 */
export type KicksSeedSort = [maxKicks: number, seedLow: number, seedHigh: number, flags: number];
/** A table of a given shape (f, b, m), then {@link KicksSeedSort}. */
export type TableShapeArgs = [fingerprintBits: number, bucketSize: number, bucketCount: number, ...KicksSeedSort];

export interface CoreExports {
  readonly memory: WebAssembly.Memory;
  malloc(bytes: number): Address;
  free(address: Address): void;

  // CuckooFilter (bindings/cuckoo_exports.cpp). Integer options cross as
  // numbers; the core checks their range and whole-ness.
  cuckoo_create(...args: [...TableShapeArgs, outHandle: Address]): number;
  cuckoo_create_for_capacity(...args: [capacity: number, falsePositiveRate: number, ...KicksSeedSort, outHandle: Address]): number;
  cuckoo_check_header(header: Address, totalLength: number): number;
  cuckoo_clear(handle: Handle): void;
  cuckoo_size: Getter;
  cuckoo_slot_count: Getter;
  cuckoo_load_factor: Getter;
  cuckoo_stashed: Getter;
  cuckoo_byte_length: Getter;
  cuckoo_bits_per_item: Getter;
  cuckoo_expected_fpr: Getter;
  cuckoo_fpr_bound: Getter;
  cuckoo_full: Getter;
  cuckoo_fingerprint_bits: Getter;
  cuckoo_bucket_size: Getter;
  cuckoo_bucket_count: Getter;
  cuckoo_max_kicks: Getter;
  cuckoo_hash_id: Getter;
  cuckoo_seed_low: Getter;
  cuckoo_seed_high: Getter;
  cuckoo_semi_sort: Getter;
  cuckoo_add: BytesCall;
  cuckoo_add_unique: BytesCall;
  cuckoo_has: BytesCall;
  cuckoo_delete: BytesCall;
  cuckoo_count: BytesCall;
  cuckoo_add_number: NumberCall;
  cuckoo_add_unique_number: NumberCall;
  cuckoo_has_number: NumberCall;
  cuckoo_delete_number: NumberCall;
  cuckoo_count_number: NumberCall;
  cuckoo_add_packed: PackedCall;
  cuckoo_has_packed: PackedAnswers;
  cuckoo_delete_packed: PackedCall;
  cuckoo_add_fixed: FixedCall;
  cuckoo_has_fixed: FixedAnswers;
  cuckoo_delete_fixed: FixedCall;
  cuckoo_serialized_size: Getter;
  cuckoo_serialize(handle: Handle, out: Address): void;
  cuckoo_deserialize(data: Address, length: number, outHandle: Address): number;
  cuckoo_clone(handle: Handle, outHandle: Address): number;
  cuckoo_destroy(handle: Handle): void;
  /** A status: merging differing filters, or kMergeWouldOverfill. */
  cuckoo_merge(handle: Handle, other: Handle): number;

  // ScalableCuckooFilter (bindings/scalable_exports.cpp).
  scalable_create(
    ...args: [initialCapacity: number, falsePositiveRate: number, growth: number, ...KicksSeedSort, outHandle: Address]
  ): number;
  scalable_clear(handle: Handle): number;
  scalable_size: Getter;
  scalable_load_factor: Getter;
  scalable_stashed: Getter;
  scalable_byte_length: Getter;
  scalable_bits_per_item: Getter;
  scalable_fpr_bound: Getter;
  scalable_full: Getter;
  scalable_bucket_count: Getter;
  scalable_fingerprint_bits: Getter;
  scalable_tail_bits: Getter;
  scalable_initial_capacity: Getter;
  scalable_fpr: Getter;
  scalable_growth: Getter;
  scalable_max_kicks: Getter;
  scalable_seed_low: Getter;
  scalable_seed_high: Getter;
  scalable_semi_sort: Getter;
  scalable_add: BytesCall;
  scalable_add_unique: BytesCall;
  scalable_has: BytesCall;
  scalable_delete: BytesCall;
  scalable_count: BytesCall;
  scalable_add_number: NumberCall;
  scalable_add_unique_number: NumberCall;
  scalable_has_number: NumberCall;
  scalable_delete_number: NumberCall;
  scalable_count_number: NumberCall;
  scalable_add_packed: PackedCall;
  scalable_has_packed: PackedAnswers;
  scalable_delete_packed: PackedCall;
  scalable_add_fixed: FixedCall;
  scalable_has_fixed: FixedAnswers;
  scalable_delete_fixed: FixedCall;
  scalable_serialized_size: Getter;
  scalable_serialize(handle: Handle, out: Address): void;
  scalable_deserialize(data: Address, length: number, outHandle: Address): number;
  scalable_clone(handle: Handle, outHandle: Address): number;
  scalable_destroy(handle: Handle): void;
  scalable_merge(handle: Handle, other: Handle): number;

  // The core's facts (bindings/facts_exports.cpp): texts are addresses of
  // NUL-terminated ASCII.
  status_text(status: number): Address;
  status_format_code(status: number): Address;
  status_error_code(status: number): Address;
  status_options(status: number): Address;
  option_rule(option: Address): Address;
  option_default(option: Address): number;
  status_ok(): number;
  status_merge_would_overfill(): number;
  serialized_header_bytes(): number;
}

/**
 * The item calls of one filter class: what CuckooFilter and
 * ScalableCuckooFilter share, each class naming its own exports
 * (filter.ts, scalable.ts).
 */
export interface ItemCalls {
  readonly add: BytesCall;
  readonly addUnique: BytesCall;
  readonly has: BytesCall;
  readonly delete: BytesCall;
  readonly count: BytesCall;
  readonly addNumber: NumberCall;
  readonly addUniqueNumber: NumberCall;
  readonly hasNumber: NumberCall;
  readonly deleteNumber: NumberCall;
  readonly countNumber: NumberCall;
  readonly addPacked: PackedCall;
  readonly hasPacked: PackedAnswers;
  readonly deletePacked: PackedCall;
  readonly addFixed: FixedCall;
  readonly hasFixed: FixedAnswers;
  readonly deleteFixed: FixedCall;
  readonly serializedSize: Getter;
  readonly serialize: (handle: Handle, out: Address) => void;
  readonly deserialize: (data: Address, length: number, outHandle: Address) => number;
  readonly clone: (handle: Handle, outHandle: Address) => number;
  readonly destroy: (handle: Handle) => void;
  readonly merge: (handle: Handle, other: Handle) => number;
}
