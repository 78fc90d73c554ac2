// The change log's records as a replica reads them (CHANGE-LOG.md): checked
// field by field against the filter and shard they must belong to, and their
// buckets turned from BITFIELD order into FORMAT.md's, which the core writes.

import { bucketFromBitfieldOrder, fieldWidths } from './buckets.js';
import { getBigEndian, getBigEndianBig } from './header.js';
import { bucketBitsOf, type FilterLayout } from './layout.js';

const MAGIC = [0x43, 0x4b, 0x46, 0x43]; // 'CKFC'
const RECORD_VERSION = 1;
const RECORD_HEADER_BYTES = 52;

/** A record, ready for the core (parts.ts: replaceBuckets). */
export interface ChangeRecord {
  readonly seq: number;
  readonly stash: { readonly fingerprint: number; readonly bucket: number } | null;
  readonly itemCount: number;
  readonly prngState: bigint;
  readonly buckets: Uint32Array;
  /** Bucket k's bits, in FORMAT.md's order, at byte k · stride. */
  readonly contents: Uint8Array;
  readonly stride: number;
}

/** How a shard's records are read, computed once per replica. */
export interface RecordReader {
  readonly layout: FilterLayout;
  readonly shard: number;
  readonly bucketBits: number;
  readonly stride: number;
  readonly widths: readonly number[];
  /** A plain bucket of at most 53 bits: turned around as one number (below). */
  readonly oneWord: boolean;
  /** 2^(8 · stride − bucketBits): the record's bytes of such a bucket are its value times this. */
  readonly padding: number;
  /** 2^f, and 2^(s · f) for slot s: where a slot's value goes in FORMAT.md's order. */
  readonly slotScale: number;
  readonly slotPlaces: Float64Array;
}

export function recordReader(layout: FilterLayout, shard: number): RecordReader {
  const bucketBits = bucketBitsOf(layout.params);
  const stride = Math.ceil(bucketBits / 8);
  const { fingerprintBits: f, bucketSize: b } = layout.params;
  return {
    layout,
    shard,
    bucketBits,
    stride,
    widths: fieldWidths(layout.params),
    oneWord: !layout.params.semiSort && bucketBits <= 53,
    padding: 2 ** (8 * stride - bucketBits),
    slotScale: 2 ** f,
    slotPlaces: Float64Array.from({ length: b }, (_, slot) => 2 ** (slot * f)),
  };
}

/**
 * A plain bucket of at most 53 bits at `from` of the record into `contents`
 * at `to`: its stored value has slot 0 in its most significant bits, and
 * FORMAT.md's order has slot 0 lowest. Every value is an exact number below
 * 2^53, written out by its 32-bit halves.
 */
function turnAround(reader: RecordReader, bytes: Uint8Array, from: number, contents: Uint8Array, to: number): void {
  const { stride, slotScale, slotPlaces } = reader;
  let word = 0;
  for (let j = 0; j < stride; j++) word = word * 256 + bytes[from + j]!;
  word /= reader.padding;
  let payload = 0;
  for (let slot = slotPlaces.length - 1; slot >= 0; slot--) {
    const high = Math.floor(word / slotScale);
    payload += (word - high * slotScale) * slotPlaces[slot]!;
    word = high;
  }
  const low = payload % 4294967296;
  const high = (payload - low) / 4294967296;
  for (let j = 0; j < stride; j++) contents[to + j] = j < 4 ? (low >>> (8 * j)) & 255 : (high >>> (8 * (j - 4))) & 255;
}

/** The record in `bytes`, or why it is not one of this shard's. */
export function decodeRecord(reader: RecordReader, bytes: Uint8Array): ChangeRecord | string {
  const { layout, shard, stride } = reader;
  if (bytes.length < RECORD_HEADER_BYTES) return `a record of ${bytes.length} bytes is shorter than its header`;
  if (MAGIC.some((byte, k) => bytes[k] !== byte)) return 'a log entry that is not a change record (bad magic bytes)';
  if (bytes[4] !== RECORD_VERSION || bytes[5] !== 0) return `a record of version ${bytes[4]} (flags ${bytes[5]}), this library reads version ${RECORD_VERSION}`;
  if (getBigEndian(bytes, 6, 6) !== layout.id) return 'a record of another filter (its id differs): the filter was dropped and made again';
  if (getBigEndian(bytes, 12, 2) !== shard || getBigEndian(bytes, 14, 2) !== 0) return 'a record of another shard';
  const count = getBigEndian(bytes, 48, 4);
  if (bytes.length !== RECORD_HEADER_BYTES + count * (4 + stride)) return `a record of ${count} buckets is ${bytes.length} bytes long`;
  const stashFingerprint = getBigEndian(bytes, 24, 4);
  if (stashFingerprint === 0 && getBigEndian(bytes, 28, 4) !== 0) return 'a record with a damaged stash';
  const buckets = new Uint32Array(count);
  const contents = new Uint8Array(count * stride);
  for (let k = 0, at = RECORD_HEADER_BYTES; k < count; k++, at += 4 + stride) {
    buckets[k] = ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
    if (reader.oneWord) turnAround(reader, bytes, at + 4, contents, k * stride);
    else bucketFromBitfieldOrder(reader.widths, bytes, at + 4, contents, k * stride);
  }
  return {
    seq: getBigEndian(bytes, 16, 8),
    stash: stashFingerprint === 0 ? null : { fingerprint: stashFingerprint, bucket: getBigEndian(bytes, 28, 4) },
    itemCount: getBigEndian(bytes, 32, 8),
    prngState: getBigEndianBig(bytes, 40, 8),
    buckets,
    contents,
    stride,
  };
}
