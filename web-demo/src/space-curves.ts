// Bits per item against the false-positive rate (paper Sec. 5.2, Table 2 and
// Fig. 4), from the core's own sizing: what CuckooFilter.create and
// BloomFilter.create choose for `capacity` items at each rate (inspect's
// sizeFor and bloomSizeFor, which make no table), the table's bits over the
// capacity; and where a cuckoo filter takes fewer bits than a Bloom filter.
// Runs in the Web Worker.

import { bloomSizeFor, sizeFor } from 'cuckoo-wasm/inspect';
import type { Progress } from './load-measurements.js';
import type { SpaceJob, SpaceResult } from './measure-jobs.js';

type Kind = 'plain' | 'semiSorted' | 'bloom';

/** NaN where the core refuses the rate (fingerprints over 32 bits, a table too large). */
function bitsPerItem(kind: Kind, capacity: number, fpr: number): number {
  try {
    return kind === 'bloom' ? bloomSizeFor({ capacity, fpr }).bitsPerItem : sizeFor({ capacity, fpr, semiSort: kind === 'semiSorted' }).bitsPerItem;
  } catch {
    return Number.NaN;
  }
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

interface Checked {
  fpr: number;
  lost: boolean;
}

/**
 * Every sampled rate, and the rate just below each step of the staircase (a
 * loss there can be narrower than the samples' spacing), each with whether
 * `kind` takes at least a Bloom filter's bits there; highest rate first.
 */
function checkedRates(kind: Kind, job: SpaceJob, curve: number[]): Checked[] {
  const loses = (fpr: number) => !(bitsPerItem(kind, job.capacity, fpr) < bitsPerItem('bloom', job.capacity, fpr));
  const checked = job.rates.map((fpr) => ({ fpr, lost: loses(fpr) }));
  for (let i = 0; i + 1 < job.rates.length; i++) {
    if (curve[i] === curve[i + 1] || Number.isNaN(curve[i + 1]!)) continue;
    const fpr = justBelowJump(kind, job.capacity, job.rates[i]!, job.rates[i + 1]!);
    checked.push({ fpr, lost: loses(fpr) });
  }
  return checked.sort((a, b) => b.fpr - a.fpr);
}

/**
 * The largest rate below which `kind` always takes fewer bits than a Bloom
 * filter, the last loss bisected; null when it loses at the lowest rate too.
 */
function crossover(kind: Kind, job: SpaceJob, checked: Checked[]): number | null {
  let last = -1;
  checked.forEach((point, i) => {
    if (point.lost) last = i;
  });
  if (last === -1) return job.rates[0]!;
  if (last === checked.length - 1) return null;
  let above = Math.log(checked[last]!.fpr);
  let below = Math.log(checked[last + 1]!.fpr);
  const loses = (fpr: number) => !(bitsPerItem(kind, job.capacity, fpr) < bitsPerItem('bloom', job.capacity, fpr));
  for (let step = 0; step < 40; step++) {
    const middle = (above + below) / 2;
    if (loses(Math.exp(middle))) above = middle;
    else below = middle;
  }
  return Math.exp(below);
}

export function spaceCurves(job: SpaceJob, progress: Progress): SpaceResult {
  const curves: Record<Kind, number[]> = { plain: [], semiSorted: [], bloom: [] };
  const plainShape: SpaceResult['plainShape'] = [];
  job.rates.forEach((fpr, i) => {
    for (const kind of ['plain', 'semiSorted', 'bloom'] as const) curves[kind].push(bitsPerItem(kind, job.capacity, fpr));
    let shape = { bucketSize: 0, fingerprintBits: 0 };
    try {
      shape = sizeFor({ capacity: job.capacity, fpr });
    } catch {
      // Refused: no shape, as no bits.
    }
    plainShape.push({ bucketSize: shape.bucketSize, fingerprintBits: shape.fingerprintBits });
    progress((0.5 * (i + 1)) / job.rates.length);
  });
  const edges = (kind: 'plain' | 'semiSorted') => {
    const checked = checkedRates(kind, job, curves[kind]);
    // The largest rate at which it wins at all: above the crossover, it wins only where ε falls just after a step.
    const firstWin = checked.find((point) => !point.lost)?.fpr ?? null;
    return { crossover: crossover(kind, job, checked), firstWin };
  };
  const plain = edges('plain');
  progress(0.8);
  const semiSorted = edges('semiSorted');
  progress(1);
  return {
    capacity: job.capacity,
    rates: job.rates,
    ...curves,
    plainShape,
    crossover: { plain: plain.crossover, semiSorted: semiSorted.crossover },
    firstWin: { plain: plain.firstWin, semiSorted: semiSorted.firstWin },
  };
}
