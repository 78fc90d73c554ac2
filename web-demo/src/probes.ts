// Items never added, for measuring false positives: the page adds strings and
// the measurements numbered items from 1, and these are 8-byte integers from
// 2^40 on, whose encodings neither can have. Also used in a Web Worker, so
// this module touches no page.

export function neverAddedProbes(count: number): Float64Array {
  return Float64Array.from({ length: count }, (_, i) => 2 ** 40 + i);
}

/** The share of 1s among a batch lookup's answers: the measured false-positive rate. */
export function positiveShare(answers: Uint8Array): number {
  let hits = 0;
  for (const answer of answers) hits += answer;
  return hits / answers.length;
}

/**
 * The 95 % interval of a rate measured as `hits` of `probes` (Wilson's score
 * interval): where the rate of the filter itself lies, given that sampling.
 */
export function rateInterval(hits: number, probes: number): [low: number, high: number] {
  const z = 1.96;
  const share = hits / probes;
  const spread = z * Math.sqrt((share * (1 - share)) / probes + (z * z) / (4 * probes * probes));
  const scale = 1 + (z * z) / probes;
  const center = share + (z * z) / (2 * probes);
  return [Math.max(0, (center - spread) / scale), Math.min(1, (center + spread) / scale)];
}
