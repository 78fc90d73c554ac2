// The project's targets for `npm run bench`, judged from this run's main
// table (issue 11's, on the kernel rows, are gone: bench/README.md).

import { mops, percent, ratio } from '../support/format.mjs';
import { nativeRates, nativeRow } from './native.mjs';
import { plainTwin, rateRatios, ratios } from './render.mjs';

// A target on a row's lookups: has+ and has− both at least `floor` M ops/s at 2^16.
function lookupFloor(id, what, label, row, floor, extra = '') {
  const low = Math.min(row.rates.has, row.rates.miss);
  return {
    id,
    met: low >= floor,
    text:
      `${what} ≥ ${floor} M ops/s at 2^16: ${label}has+ ${mops(row.rates.has)}, has− ${mops(row.rates.miss)}` +
      (low >= floor ? '' : ` (${percent(1 - low / floor, 0)} short)`) +
      extra,
  };
}

export function evaluateTargets(ours, peers, native) {
  const targets = [];
  const at16 = (id) => ours.find((r) => r.id === id && r.log2Buckets === 16);
  const peers16 = peers.filter((p) => p.log2Buckets === 16);

  const call = at16('call-string');
  targets.push(lookupFloor('has-call-string', 'per-call has() on 16-char strings', '', call, 5));
  const f64 = at16('batch-float64');
  targets.push(
    lookupFloor('hasMany-numeric', 'hasMany on numeric keys', 'Uint32Array ', at16('batch-uint32'), 30,
      `; Float64Array has+ ${mops(f64.rates.has)}, has− ${mops(f64.rates.miss)}`),
  );

  if (peers16.length) {
    const names = { add: 'add', has: 'has+', miss: 'has−', del: 'delete' };
    const worst = (row) => {
      const r = ratios(row, peers16);
      let low = null;
      for (const [field, v] of Object.entries(r)) if (v && (low === null || v.ratio < low.ratio)) low = { ...v, op: names[field] };
      return low;
    };
    const callWorst = worst(call);
    const all = ours.filter((r) => r.log2Buckets === 16).map((r) => ({ row: r, low: worst(r) }));
    const allWorst = all.reduce((a, b) => (b.low.ratio < a.low.ratio ? b : a));
    targets.push({
      id: 'vs-peers',
      met: allWorst.low.ratio >= 30,
      text:
        `≥ 30× the best npm peer on every operation at 2^16: lowest like-for-like (per-call strings) ${ratio(callWorst.ratio)} ` +
        `(${callWorst.op} vs ${callWorst.peer}); lowest over all modes ${ratio(allWorst.low.ratio)} ` +
        `(${allWorst.row.id}, ${allWorst.low.op} vs ${allWorst.low.peer})`,
    });
  }

  const anyCount = ours.filter((r) => r.belowPowerOfTwo).map((row) => ({ row, r: rateRatios(row, plainTwin(ours, row)) }));
  const anyCountWorst = Math.min(...anyCount.flatMap(({ r }) => Object.values(r)));
  targets.push({
    id: 'any-count',
    met: anyCountWorst >= 0.9,
    text:
      `2^k − 1 buckets (hash id 2) within 10% of 2^k (hash id 1) for every operation, per call and batched: ` +
      `slowest ratio ${anyCountWorst.toFixed(2)}`,
  });

  let worstBits = null;
  for (const r of ours) {
    for (const [what, value] of [
      ['bitsPerItem', r.bitsPerItem],
      ['serialized', (8 * r.serializedBytes) / r.items],
    ]) {
      const off = Math.abs(value / r.bitsPerItemIdeal - 1);
      if (worstBits === null || off > worstBits.off) worstBits = { off, what, row: r, value };
    }
  }
  targets.push({
    id: 'bits-per-item',
    met: worstBits.off <= 0.02,
    text:
      `bits per item within 2% of f/load, for filter.bitsPerItem and toBytes() × 8 / items: worst ${percent(worstBits.off, 2)} off ` +
      `(${worstBits.what} ${worstBits.value.toFixed(3)} vs 12/${worstBits.row.loadFactor.toFixed(4)} = ${worstBits.row.bitsPerItemIdeal.toFixed(3)} at 2^${worstBits.row.log2Buckets})`,
  });
  // Issue 28's: what a batch of numbers from JavaScript keeps of the native
  // batch's rate where the table is out of cache (2^22), lookups present and absent.
  const batch22 = ours.find((r) => r.id === 'batch-uint32' && r.log2Buckets === 22);
  const native22 = nativeRates(nativeRow(native, 22, { api: 'batch' }));
  if (batch22 && native22) {
    const slowdown = Math.max(native22.has / batch22.rates.has, native22.miss / batch22.rates.miss);
    targets.push({
      id: 'hasMany-vs-native-2^22',
      met: slowdown <= 1.5,
      text:
        `hasMany(Uint32Array) at 2^22 within 1.5× of the native batch: native has+ ${mops(native22.has)}, has− ${mops(native22.miss)}; ` +
        `hasMany has+ ${mops(batch22.rates.has)}, has− ${mops(batch22.rates.miss)} (native ${slowdown.toFixed(2)}× as fast at worst)`,
    });
  }
  return targets;
}
