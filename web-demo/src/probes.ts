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
