// What the paper and the ;login: article published, for the report to set our
// figures beside, and the four filters of Table 3 with their labels.

/** Table 3 of the paper: 192 MB filters, 2^25 buckets of four 12-bit entries (2^27 slots). */
export const PAPER_TABLE3 = {
  CF: { items: 127.78e6, bitsPerItem: 12.6, fpr: 0.0019, constructMops: 5.0 },
  'ss-CF': { items: 128.04e6, bitsPerItem: 12.58, fpr: 0.0009, constructMops: 3.13 },
  BF: { items: 123.89e6, bitsPerItem: 13.0, fpr: 0.0019, constructMops: 3.91 },
  'blk-BF': { items: 123.89e6, bitsPerItem: 13.0, fpr: 0.0043, constructMops: 7.64 },
};
/** The slots of the paper's Table 3 cuckoo filters, for their load α. */
export const PAPER_SLOTS = 2 ** 27;

/**
 * Bits in each Table 3 filter at 2^log2Buckets buckets: the cuckoo filter's
 * four 12-bit entries a bucket set the size, and the others get as many.
 */
export const table3BitCount = (log2Buckets) => 2 ** log2Buckets * 4 * 12;

/** The ;login: article's Table 2: mean load over 10 runs, b = 4, 2^25 buckets. */
export const LOGIN_LOADS = [
  [2, 0.1753],
  [4, 0.6767],
  [6, 0.9539],
  [8, 0.9562],
  [12, 0.9577],
  [16, 0.958],
];

/** Table 3's filters, in the order every table and chart lists them. */
export const FILTERS = ['CF', 'ss-CF', 'BF', 'blk-BF'];

/** How Table 3 names each filter, with its fingerprint size or hash count. */
export const FILTER_LABEL = {
  CF: 'CF (f=12)',
  'ss-CF': 'ss-CF (f=13)',
  BF: 'BF (k=9)',
  'blk-BF': 'blk-BF (k=9)',
};
