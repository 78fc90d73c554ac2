// The npm packages cuckoo-wasm is compared with, each behind the same small
// interface, and the routine that measures one of them.
//
// They are pure-JavaScript and slow (about 0.05 to 0.3 M ops/s), so they are
// filled once and most operations are measured on a bounded number of keys.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { timeSection } from './support/measurement.mjs';

const require = createRequire(import.meta.url);

function packageVersion(name) {
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
}

/**
 * Peers configured like cuckoo-wasm's f=12, b=4, 2^log2 buckets filter (or,
 * for the Bloom filter, for the same number of items at a 0.2 % rate).
 * `items` is how many items the cuckoo-wasm filter held.
 */
export function loadPeers() {
  // require('cuckoo-filter') fails (its index loads a module needing the
  // missing 'cbor-js'); the plain filter lives in src/cuckoo-filter.
  const CuckooFilterPkg = require('cuckoo-filter/src/cuckoo-filter');
  const { CuckooFilter: BfCuckooFilter, BloomFilter } = require('bloom-filters');
  const cuckooFilterVersion = packageVersion('cuckoo-filter');
  const bloomFiltersVersion = packageVersion('bloom-filters');
  return [
    {
      id: 'cuckoo-filter',
      name: `cuckoo-filter ${cuckooFilterVersion}`,
      // cfSize must be a power of two (the bucket index is hash % cfSize and
      // the alternate one XORs into it); fpSize is in BYTES: 1 byte would give
      // 2b/2^8 = 3.1 % false positives, 2 bytes (its default) 0.012 %.
      config: (log2) => `m=2^${log2}, b=4, 2-byte fp`,
      create: (log2) => new CuckooFilterPkg(2 ** log2, 4, 2),
      add: (filter, key) => filter.add(key),
      has: (filter, key) => filter.contains(key),
      remove: (filter, key) => filter.remove(key),
      json: (filter) => JSON.stringify(filter.toJSON()),
    },
    {
      id: 'bloom-filters-cuckoo',
      name: `bloom-filters ${bloomFiltersVersion} CuckooFilter`,
      // new CuckooFilter(buckets, fingerprint length, bucket size): the
      // fingerprint is that many hex digits of a 64-bit hash, so 3 = 12 bits,
      // exactly our shape. (CuckooFilter.create(n, 0.002) would round the
      // fingerprint to 2 hex digits = 8 bits, a 3 % rate.)
      config: (log2) => `m=2^${log2}, b=4, 3-hex-digit (12-bit) fp`,
      create: (log2) => new BfCuckooFilter(2 ** log2, 3, 4),
      add: (filter, key) => filter.add(key),
      has: (filter, key) => filter.has(key),
      remove: (filter, key) => filter.remove(key),
      json: (filter) => JSON.stringify(filter.saveAsJSON()),
    },
    {
      id: 'bloom-filters-bloom',
      name: `bloom-filters ${bloomFiltersVersion} BloomFilter`,
      config: (_log2, items) => `create(${items}, 0.002)`,
      create: (_log2, items) => BloomFilter.create(items, 0.002),
      add: (filter, key) => {
        filter.add(key);
        return true;
      },
      has: (filter, key) => filter.has(key),
      remove: undefined,
      json: (filter) => JSON.stringify(filter.saveAsJSON()),
    },
  ];
}

function fill(peer, filter, keys, target) {
  let n = 0;
  while (n < target && peer.add(filter, keys[n])) n++;
  return n;
}

function countHits(peer, filter, keys, count) {
  let hits = 0;
  for (let i = 0; i < count; i++) if (peer.has(filter, keys[i])) hits++;
  return hits;
}

function removeAll(peer, filter, keys, count) {
  let removed = 0;
  for (let i = 0; i < count; i++) if (peer.remove(filter, keys[i])) removed++;
  return removed;
}

/**
 * Fills a peer with up to `target` keys (stopping at the first failed add)
 * and measures it: add over the whole fill, has+ over every stored key
 * (which also counts false negatives), has- and delete over `sample` keys.
 * One untimed warm-up round on a small filter comes first.
 */
export function measurePeer(peer, log2, present, absent, target, sample) {
  // Warm-up: the same code paths on a 2^12-bucket filter, untimed.
  {
    const small = Math.min(target, 15000);
    const warm = peer.create(12, small);
    const n = fill(peer, warm, present, small);
    countHits(peer, warm, present, n);
    countHits(peer, warm, absent, Math.min(sample, 5000));
    if (peer.remove) removeAll(peer, warm, present, Math.min(n, 5000));
  }

  const filter = peer.create(log2, target);
  const { value: items, wall: addSeconds } = timeSection(() => fill(peer, filter, present, target));
  const { value: hits, wall: hasSeconds } = timeSection(() => countHits(peer, filter, present, items));
  const negatives = Math.min(sample, absent.length);
  const { value: falsePositives, wall: missSeconds } = timeSection(() => countHits(peer, filter, absent, negatives));

  const jsonLength = peer.json(filter).length;

  let deleteRate = null;
  let deleteFailures = null;
  let deletes = 0;
  if (peer.remove) {
    deletes = Math.min(sample, items);
    const { value: removed, wall } = timeSection(() => removeAll(peer, filter, present, deletes));
    deleteRate = deletes / wall / 1e6;
    deleteFailures = deletes - removed;
  }
  return {
    id: peer.id,
    name: peer.name,
    config: peer.config(log2, target),
    log2Buckets: log2,
    items,
    stoppedBy: items < target ? 'first failed add' : 'item target',
    // M ops/s, named as cuckoo-wasm's rows name them.
    rates: { add: items / addSeconds / 1e6, has: items / hasSeconds / 1e6, miss: negatives / missSeconds / 1e6, del: deleteRate },
    positiveLookups: items,
    negativeLookups: negatives,
    deletes,
    falseNegatives: items - hits,
    deleteFailures,
    falsePositives,
    measuredFpr: falsePositives / negatives,
    jsonBytes: jsonLength,
    jsonBytesPerItem: jsonLength / items,
    jsonBitsPerItem: (jsonLength * 8) / items,
  };
}
