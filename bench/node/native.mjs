// The native C++ core's figures for `npm run bench`: build/native/bench/
// cuckoo_bench --json, and the rows the main table puts beside cuckoo-wasm's.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { BUCKET_SIZE, FINGERPRINT_BITS, SEMI_SORTED_BITS } from '../support/measurement.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const NATIVE_BENCH = path.join(ROOT, 'build/native/bench/cuckoo_bench');

/** Runs cuckoo_bench at 2^log2 buckets for each of `sizes`: { command, rows, stderr } or { error }. */
export function runNative(sizes) {
  if (!existsSync(NATIVE_BENCH)) {
    return { error: `${path.relative(ROOT, NATIVE_BENCH)} not found: run bash scripts/build` };
  }
  const args = ['--json', '--log2-buckets', sizes.join(','), '--bits', FINGERPRINT_BITS, '--bucket-size', BUCKET_SIZE, '--semi-bits', SEMI_SORTED_BITS].map(String);
  const result = spawnSync(NATIVE_BENCH, args, { encoding: 'utf8', maxBuffer: 1 << 22 });
  if (result.status !== 0) return { error: `cuckoo_bench exited with ${result.status}: ${result.stderr.trim()}` };
  return {
    command: `${path.relative(ROOT, NATIVE_BENCH)} ${args.join(' ')}`,
    rows: JSON.parse(result.stdout),
    stderr: result.stderr.trim(), // "BUG: ..." lines, if any
  };
}

/**
 * The plain f=12 row at 2^log2 buckets of api 'call' or 'batch', with the
 * generic kernel or the shape's own, or undefined.
 */
export function nativeRow(native, log2, { api, generic = false }) {
  return native.rows?.find(
    (r) => r.bucketCount === 2 ** log2 && r.api === api && r.generic === generic && !r.semiSort && r.fingerprintBits === FINGERPRINT_BITS,
  );
}

/** A native row's rates under the names cuckoo-wasm's rows use (M ops/s). */
export function nativeRates(row) {
  return row && { add: row.constructMops, has: row.positiveLookupMops, miss: row.negativeLookupMops, del: row.deleteMops };
}
