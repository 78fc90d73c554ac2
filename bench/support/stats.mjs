// The statistics the JavaScript benchmarks share (node-bench.mjs, the paper
// scripts): means and medians of repeated measurements, and the count of
// "yes" answers in a batch lookup's result.

export const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** The middle value; for an even count, the mean of the two middle ones. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The middle value; for an even count, the upper of the two middle ones, as
 * paper_native.cpp picks (v[size / 2] of the sorted passes), so that both
 * builds report the same pass.
 */
export function upperMedian(values) {
  return [...values].sort((a, b) => a - b)[values.length >> 1];
}

/** How many answers of hasMany (one 0 or 1 per key) are 1. */
export function countOnes(answers) {
  let ones = 0;
  for (let i = 0; i < answers.length; i++) ones += answers[i];
  return ones;
}
