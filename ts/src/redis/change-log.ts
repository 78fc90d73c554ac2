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
  /** A plain bucket of at most 53 bits: turned around as one number. */
  readonly oneWord: boolean;
}

export function recordReader(layout: FilterLayout, shard: number): RecordReader {
  const bucketBits = bucketBitsOf(layout.params);
  return {
    layout,
    shard,
    bucketBits,
    stride: Math.ceil(bucketBits / 8),
    widths: fieldWidths(layout.params),
    oneWord: !layout.params.semiSort && bucketBits <= 53,
  };
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
  const padding = 2 ** (8 * stride - reader.bucketBits);
  const { fingerprintBits: f, bucketSize: b } = layout.params;
  for (let k = 0, at = RECORD_HEADER_BYTES; k < count; k++, at += 4 + stride) {
    buckets[k] = getBigEndian(bytes, at, 4);
    if (!reader.oneWord) {
      bucketFromBitfieldOrder(reader.widths, bytes, at + 4, contents, k * stride);
      continue;
    }
    // Slot 0 is the most significant bits of the stored word, and the lowest of FORMAT.md's.
    let word = getBigEndian(bytes, at + 4, stride) / padding;
    let payload = 0;
    for (let slot = b - 1; slot >= 0; slot--) {
      const high = Math.floor(word / 2 ** f);
      payload += (word - high * 2 ** f) * 2 ** (slot * f);
      word = high;
    }
    for (let byte = 0; byte < stride; byte++) {
      contents[k * stride + byte] = payload % 256;
      payload = Math.floor(payload / 256);
    }
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
