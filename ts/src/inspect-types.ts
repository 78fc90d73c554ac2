// The value types of cuckoo-wasm/inspect (re-exported there): where an item
// lives, the traces of add, has and delete, and copies of a table's parts.

/** Where an item lives: its hash, fingerprint and two candidate buckets. */
export interface ItemLocation {
  /** The item's 64-bit hash with the filter's seed: XXH3-64, SipHash-1-3 for a keyedHash filter, multiply-shift for an 8-byte item of a multiplyShiftHash one. */
  readonly hash: bigint;
  /** f bits from the hash's high half, 1 to 2^f − 1 (0 marks an empty slot). */
  readonly fingerprint: number;
  /** The first candidate bucket: the hash's low 32 bits reduced to [0, m) (masked, or scaled when m is not a power of two). */
  readonly i1: number;
  /** The second candidate bucket: i1 XOR fingerprintHashMod (hash id 1), or (fingerprintHashMod − i1) mod m (hash id 2). */
  readonly i2: number;
  /** hash(fingerprint): the 32-bit mix of the fingerprint (mix32 in hashing.hpp; for a multiplyShiftHash filter, fingerprint × 0x9e3779b1 mod 2^32, whose top bits are its XOR offset). */
  readonly fingerprintHash: number;
  /**
   * fingerprintHash reduced to [0, m), what relates i1 and i2: with hash id 1
   * its low bits, the XOR offset (i2 = i1 XOR it, and i1 = i2 XOR it); with
   * hash id 2 fingerprintHash × m / 2^32, the point c the two buckets reflect
   * about (i2 = (c − i1) mod m, and i1 = (c − i2) mod m).
   */
  readonly fingerprintHashMod: number;
  /**
   * The bucket relation (FORMAT.md): 1 when the bucket count is a power of two
   * (the XOR relation), 2 for any other count (the reflection). It is the hash
   * id of a filter of the default hash; keyed and multiplyShiftHash filters
   * (hash ids 4 to 7) relate their buckets the same two ways.
   */
  readonly hashId: 1 | 2;
}

/** One eviction of an insert: `incoming` took `slot` of `bucket`, and `evicted` left for `nextBucket`. */
export interface Kick {
  readonly bucket: number;
  /** The slot chosen at random; in a semi-sorted bucket, a position in its sorted order. */
  readonly slot: number;
  /** The homeless fingerprint that moved in. */
  readonly incoming: number;
  /** The fingerprint that was there and is now homeless. */
  readonly evicted: number;
  /** The evicted fingerprint's other bucket: bucket XOR evictedHashMod, or (evictedHashMod − bucket) mod m. */
  readonly nextBucket: number;
  /** hash(evicted) reduced to [0, m), as {@link ItemLocation.fingerprintHashMod}. */
  readonly evictedHashMod: number;
}

/** What {@link traceAdd} saw. */
export interface InsertTrace extends ItemLocation {
  /** False only when the item could not be placed ({@link InsertTrace.undone}): then nothing changed. */
  readonly added: boolean;
  /** Evictions done. */
  readonly kickCount: number;
  /** The evictions in order: all of them, or the first {@link MAX_RECORDED_KICKS}. */
  readonly kicks: readonly Kick[];
  /** Where the last homeless fingerprint found an empty slot, or null. */
  readonly placed: { readonly bucket: number; readonly slot: number; readonly fingerprint: number } | null;
  /** When evictions ran out: the fingerprint that went to the stash and the bucket it was last evicted from, or null. */
  readonly stashed: { readonly bucket: number; readonly fingerprint: number } | null;
  /**
   * When evictions ran out while the stash was occupied: the fingerprint left
   * with nowhere to go and the bucket it was last evicted from, or null. Every
   * kick in {@link InsertTrace.kicks} was then undone, last first, and the add refused.
   */
  readonly undone: { readonly bucket: number; readonly fingerprint: number } | null;
}

/** What {@link traceHas} saw. */
export interface LookupTrace extends ItemLocation {
  /** The filter's answer, `has(item)`. */
  readonly found: boolean;
  /** Slots of bucket i1 that hold the fingerprint. */
  readonly slotsInI1: readonly number[];
  /** Slots of bucket i2 that hold the fingerprint (the same as slotsInI1 when i1 = i2). */
  readonly slotsInI2: readonly number[];
  /** True when the stash holds the fingerprint for one of the item's buckets. */
  readonly inStash: boolean;
}

/** What {@link traceDelete} saw. */
export interface DeleteTrace extends ItemLocation {
  /** The filter's answer, `delete(item)`. */
  readonly deleted: boolean;
  /** Where the removed copy was: a bucket, the stash, or nowhere (not deleted). */
  readonly from: 'bucket' | 'stash' | null;
  /** The bucket and slot the copy was removed from (null unless from a bucket). */
  readonly bucket: number | null;
  readonly slot: number | null;
  /** True when the stash was occupied and the freed slot sent its fingerprint on a walk: {@link stashReplacement}. */
  readonly stashReinserted: boolean;
  /**
   * When the stash was occupied and the delete freed a slot, the walk that
   * re-placed the stashed fingerprint, kick by kick as an add's: it ends in a
   * slot, or (rarely) with another fingerprint back in the stash. Null otherwise.
   */
  readonly stashReplacement: StashReplacement | null;
}

/** The walk of a stashed fingerprint after a delete freed a slot ({@link DeleteTrace.stashReplacement}). */
export interface StashReplacement {
  /** Evictions done. */
  readonly kickCount: number;
  /** The evictions in order: all of them, or the first {@link MAX_RECORDED_KICKS}. */
  readonly kicks: readonly Kick[];
  /** Where the last homeless fingerprint went. */
  readonly end: 'placed' | 'stashed';
  /** The bucket it went to (placed), or was last evicted from (stashed). */
  readonly bucket: number;
  /** Its slot when placed; null when stashed. */
  readonly slot: number | null;
  readonly fingerprint: number;
}

/** The victim stash: the one fingerprint left homeless when evictions ran out. */
export interface StashView {
  readonly occupied: boolean;
  /** 0 when empty. */
  readonly fingerprint: number;
  /** The bucket it was last evicted from, and that bucket's alternate for it. */
  readonly bucket: number;
  readonly alternateBucket: number;
}

/**
 * A semi-sorted bucket as the table stores it (paper Section 5.2): its four
 * fingerprints sorted, their high nibbles as one 12-bit rank among the 3,876
 * sorted multisets of four nibbles, and each one's f − 4 low bits as they are.
 */
export interface SemiSortedBucketView {
  readonly bucket: number;
  /** The four fingerprints, ascending; 0 is an empty slot and sorts first. */
  readonly fingerprints: readonly number[];
  /** Their high nibbles (the top 4 of f bits), ascending: the multiset the rank encodes. */
  readonly highNibbles: readonly number[];
  /** The 12-bit rank stored in place of the 16 bits of nibbles: 0 to 3,875. */
  readonly rank: number;
  /** How many sorted multisets of four nibbles there are: C(19, 4) = 3,876 < 2^12. */
  readonly rankCount: number;
  /** Each fingerprint's low f − 4 bits, stored as they are. */
  readonly lowBits: readonly number[];
  /** f − 4. */
  readonly lowBitsPerSlot: number;
  /** Bits the bucket takes: 12 + 4(f − 4) = 4f − 4. */
  readonly storedBits: number;
  /** Bits four plain slots of f bits take: 4f, one per entry more. */
  readonly plainBits: number;
}

/** A copy of buckets [firstBucket, firstBucket + bucketCount) and of the stash. */
export interface TableView {
  readonly firstBucket: number;
  readonly bucketCount: number;
  readonly bucketSize: number;
  /** Slot s of bucket firstBucket + i is slots[i * bucketSize + s]; 0 = empty. */
  readonly slots: Uint32Array;
  readonly stash: StashView;
}
