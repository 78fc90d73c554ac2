// Reads the curves of Figures 3 and 4, bits per item against measured
// false-positive rate (summary.space): the bits needed at a given rate, where
// two curves cross, and which bucket size is the most compact where.

/** Bits per item at false-positive rate `eps`, interpolated in log(ε) between measured points. */
export function bitsAt(points, eps) {
  const sorted = points.filter((p) => p.fpr > 0).sort((a, b) => a.fpr - b.fpr);
  const x = Math.log(eps);
  for (let i = 0; i + 1 < sorted.length; i++) {
    const [a, b] = [sorted[i], sorted[i + 1]];
    if (eps >= a.fpr && eps <= b.fpr) {
      const t = (x - Math.log(a.fpr)) / (Math.log(b.fpr) - Math.log(a.fpr));
      return a.bitsPerItem + t * (b.bitsPerItem - a.bitsPerItem);
    }
  }
  return NaN;
}

/** Where two measured bits-per-item curves cross: the largest ε below which `a` needs fewer bits than `b`. */
export function crossover(a, b) {
  let found = null;
  for (let e = -5; e <= -0.7; e += 0.01) {
    const eps = 10 ** e;
    const d = bitsAt(a, eps) - bitsAt(b, eps);
    if (Number.isFinite(d) && d <= 0) found = { eps, bits: bitsAt(a, eps) };
  }
  return found;
}

/** Which bucket size needs the fewest bits, as ranges of ε from high to low rates: "b = 2 from 10% to 0.21%, ...". */
export function bestBucketRanges(space) {
  const ranges = [];
  for (let e = -1; e >= -5; e -= 0.02) {
    const eps = 10 ** e;
    const candidates = [2, 4, 8].map((b) => [b, bitsAt(space[`b=${b}`] ?? [], eps)]).filter(([, v]) => Number.isFinite(v));
    if (candidates.length < 3) continue;
    const [best] = candidates.reduce((a, c) => (c[1] < a[1] ? c : a));
    if (ranges.length && ranges.at(-1).b === best) ranges.at(-1).to = eps;
    else ranges.push({ b: best, from: eps, to: eps });
  }
  const label = (v) => `${Number((100 * v).toPrecision(2))}%`;
  return ranges.length ? `${ranges.map((r) => `b = ${r.b} from ${label(r.from)} to ${label(r.to)}`).join(', ')} (where all three were measured)` : 'not measurable here';
}
