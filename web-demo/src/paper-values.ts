// The paper's own numbers, as it states them, for the views that draw them
// beside what the core measures (Fan et al., CoNEXT 2014). Each is quoted
// where it appears: these are the paper's, not the core's, and where the two
// differ the page says why.

export const PAPER = {
  /** Sec. 4 and Fig. 2: b = 4 tables fill to about 95 %… */
  fig2PlateauLoad: 0.95,
  /** …once fingerprints exceed six bits, for tables of up to 2^30 buckets. */
  fig2EnoughBits: 6,
  /** Sec. 5.1: the load with two hash functions and buckets of b slots. */
  bucketSizeLoads: { 1: 0.5, 2: 0.84, 4: 0.95, 8: 0.98 } as Record<1 | 2 | 4 | 8, number>,
  /** Table 2: the load its space formulas use, for both cuckoo filters. */
  table2Load: 0.955,
  /** Fig. 4's mark: below this rate the semi-sorted filter takes fewer bits than Bloom, at these bits per item. */
  fig4Crossover: { fpr: 0.03, bits: 7.2 },
} as const;

/**
 * Table 2's bits per item at a rate ε: (log2(1/ε) + 3) / α for a cuckoo
 * filter, (log2(1/ε) + 2) / α semi-sorted, 1.44 log2(1/ε) for a Bloom filter.
 * Smooth: f as if it could be a fraction of a bit.
 */
export function table2Bits(kind: 'plain' | 'semiSorted' | 'bloom', fpr: number): number {
  const bits = Math.log2(1 / fpr);
  if (kind === 'bloom') return bits / Math.LN2;
  return (bits + (kind === 'plain' ? 3 : 2)) / PAPER.table2Load;
}

/** Where Table 2's cuckoo formula meets its Bloom formula: (L + c) / α = L / ln 2, so L = c / (α / ln 2 − 1). */
export function table2Crossover(kind: 'plain' | 'semiSorted'): number {
  const extra = kind === 'plain' ? 3 : 2;
  return 2 ** -(extra / (PAPER.table2Load / Math.LN2 - 1));
}
