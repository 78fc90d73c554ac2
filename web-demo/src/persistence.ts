// Saving the cuckoo filter's bytes and loading them back. The bytes are the
// library's format (FORMAT.md), so a file saved here also loads in Node and
// the CLI; a loaded filter is checked only against what this page can draw.

import { CuckooFilter } from 'cuckoo-wasm';
import { start } from './filters.js';
import { count, element } from './format.js';
import { ui } from './page.js';
import { LIMITS, type DemoParams } from './params.js';
import { currentDemo } from './state.js';

export function download(): void {
  const { filter, params } = currentDemo();
  const bytes = filter.toBytes();
  const url = URL.createObjectURL(new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }));
  const link = element('a');
  link.href = url;
  link.download = `cuckoo-m${params.bucketCount}-b${params.bucketSize}-f${params.fingerprintBits}-seed${params.seed}.cf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  // FORMAT.md: byte 4 is the version; version 2, for an m that is not a power of two, stores m in 8 more header bytes.
  const version2 = bytes[4] === 2;
  const header = version2 ? 64 : 56;
  ui.caption.textContent = `Saved ${count(bytes.length)} bytes: a ${header}-byte header${version2 ? ' (format version 2, which stores m)' : ''}, the ${count(bytes.length - header - 8)}-byte table and an 8-byte checksum (FORMAT.md). Load them back with “Load bytes…”.`;
}

export async function loadBytes(file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let filter: CuckooFilter;
  try {
    filter = CuckooFilter.fromBytes(bytes);
  } catch (error) {
    ui.caption.textContent = `Could not load ${file.name}: ${error instanceof Error ? error.message : String(error)}`;
    return;
  }
  const p = filter.params;
  const fits =
    p.bucketCount <= LIMITS.maxBucketCount &&
    p.fingerprintBits <= LIMITS.maxFingerprintBits &&
    p.maxKicks <= LIMITS.maxKicks &&
    p.seed <= BigInt(LIMITS.maxSeed);
  if (!fits) {
    filter.dispose();
    ui.caption.textContent = `${file.name} is a valid filter, but larger than this page shows (up to ${LIMITS.maxBucketCount} buckets, ${LIMITS.maxFingerprintBits}-bit fingerprints, ${LIMITS.maxKicks} kicks, 32-bit seeds).`;
    return;
  }
  const params: DemoParams = {
    bucketCount: p.bucketCount,
    bucketSize: p.bucketSize,
    fingerprintBits: p.fingerprintBits,
    maxKicks: p.maxKicks,
    seed: Number(p.seed),
    semiSort: p.semiSort,
    format: currentDemo().params.format,
  };
  start(
    params,
    filter,
    `Loaded ${count(bytes.length)} bytes from ${file.name}: ${count(filter.size)} fingerprints${filter.stashed > 0 ? ', one of them in the stash' : ''}. ` +
      'The bytes hold fingerprints, not items, so lookups work but the page cannot name the items; the Bloom filter starts empty.',
  );
}
