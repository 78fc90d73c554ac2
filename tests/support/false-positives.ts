// Measured false-positive rates against a bound, for the statistical tests of
// the growable filter (scalable.test.ts, merge.test.ts).
//
// n probes that were never added each answer "present" with probability at
// most p (the bound), independently enough for the count X to be binomial:
// X ~ Bin(n, p), mean np, standard deviation sqrt(np(1 - p)) <= sqrt(np).
// The test allows X <= np + 5·sqrt(np): a filter that keeps its bound passes
// with probability above 1 - 3·10^-7 (normal tail at 5 sigma; with np >= 150
// the binomial is close to normal), and since the probes and seeds are
// fixed, the outcome is the same on every run anyway.
// A filter at twice the bound has mean 2np and standard deviation sqrt(2np);
// it stays under the limit only if X falls np - 5·sqrt(np) below its mean,
// which for np >= 150 is more than (sqrt(150) - 5) / sqrt(2) = 5.1 of its
// standard deviations: a doubled rate is caught. `binomialLimit`
// refuses a limit with fewer expected positives than that needs.

/** Probes start here: far above every number item the tests add. */
export const FIRST_PROBE = 2 ** 40;

/** How many of `probes` integers from `first` on (never added) the filter reports present. */
export function falsePositives(filter: { hasMany(items: Float64Array): Uint8Array }, probes: number, first = FIRST_PROBE): number {
  const items = new Float64Array(probes);
  for (let i = 0; i < probes; i++) items[i] = first + i;
  let count = 0;
  for (const answer of filter.hasMany(items)) count += answer;
  return count;
}

/**
 * The most positives a filter may show where `expected` = n·p is allowed:
 * n·p + 5·sqrt(n·p). Throws when n·p is too small to catch a doubled rate.
 */
export function binomialLimit(expected: number): number {
  if (!(expected >= 150)) {
    throw new Error(`${expected} expected positives: too few probes to catch a doubled rate (n·p >= 150 needed)`);
  }
  return expected + 5 * Math.sqrt(expected);
}
