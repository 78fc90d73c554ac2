// Bits per item against the false-positive rate (paper Sec. 5.2, Table 2 and
// Fig. 4), from the core's own sizing: CuckooFilter.create and
// BloomFilter.create for `capacity` items at each rate, the table's bits over
// the capacity. Runs in the Web Worker: it allocates a few hundred tables.

import { CuckooFilter } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';
import { tableBits } from 'cuckoo-wasm/inspect';
import type { Progress } from './load-measurements.js';
import type { SpaceJob, SpaceResult } from './measure-jobs.js';

type Kind = 'plain' | 'semiSorted' | 'bloom';

function bitsPerItem(kind: Kind, capacity: number, fpr: number): number {
  if (kind === 'bloom') {
    using bloom = BloomFilter.create({ capacity, fpr });
    return bloom.bitCount / capacity;
  }
  using filter = CuckooFilter.create({ capacity, fpr, semiSort: kind === 'semiSorted' });
  return tableBits(filter) / capacity;
}

/** Where a staircase jumps between two rates: the rate just below the jump, where it is highest against a smooth curve. */
function justBelowJump(kind: Kind, capacity: number, high: number, low: number): number {
  const top = bitsPerItem(kind, capacity, high);
  let above = Math.log(high);
  let below = Math.log(low);
  while (above - below > 1e-9) {
    const middle = (above + below) / 2;
    if (bitsPerItem(kind, capacity, Math.exp(middle)) === top) above = middle;
    else below = middle;
  }
  return Math.exp(below);
}

/**
 * The largest rate below which `kind` always takes fewer bits than a Bloom
 * filter. A cuckoo filter is a staircase and a Bloom filter a smooth curve, so
 * besides the samples, the rate just below each step is checked (a loss there
 * can be narrower than the samples' spacing); the last loss is then bisected.
 * Null when it loses at the lowest rate too.
 */
function crossover(kind: Kind, job: SpaceJob, curve: number[]): number | null {
  const loses = (fpr: number) => bitsPerItem(kind, job.capacity, fpr) >= bitsPerItem('bloom', job.capacity, fpr);
  const checked = job.rates.map((fpr) => ({ fpr, lost: loses(fpr) }));
  for (let i = 0; i + 1 < job.rates.length; i++) {
    if (curve[i] === curve[i + 1]) continue;
    const fpr = justBelowJump(kind, job.capacity, job.rates[i]!, job.rates[i + 1]!);
    checked.push({ fpr, lost: loses(fpr) });
  }
  checked.sort((a, b) => b.fpr - a.fpr);
  let last = -1;
  checked.forEach((point, i) => {
    if (point.lost) last = i;
  });
  if (last === -1) return job.rates[0]!;
  if (last === checked.length - 1) return null;
  let above = Math.log(checked[last]!.fpr);
  let below = Math.log(checked[last + 1]!.fpr);
  for (let step = 0; step < 40; step++) {
    const middle = (above + below) / 2;
    if (loses(Math.exp(middle))) above = middle;
    else below = middle;
  }
  return Math.exp(below);
}

export function spaceCurves(job: SpaceJob, progress: Progress): SpaceResult {
  const plain: number[] = [];
  const semiSorted: number[] = [];
  const bloom: number[] = [];
  const plainShape: SpaceResult['plainShape'] = [];
  job.rates.forEach((fpr, i) => {
    plain.push(bitsPerItem('plain', job.capacity, fpr));
    semiSorted.push(bitsPerItem('semiSorted', job.capacity, fpr));
    bloom.push(bitsPerItem('bloom', job.capacity, fpr));
    using shape = CuckooFilter.create({ capacity: job.capacity, fpr });
    plainShape.push({ bucketSize: shape.params.bucketSize, fingerprintBits: shape.params.fingerprintBits });
    progress((0.9 * (i + 1)) / job.rates.length);
  });
  const result = {
    rates: job.rates,
    plain,
    semiSorted,
    bloom,
    plainShape,
    crossover: { plain: crossover('plain', job, plain), semiSorted: crossover('semiSorted', job, semiSorted) },
  };
  progress(1);
  return result;
}
