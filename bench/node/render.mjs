// The tables of `npm run bench`: the boundary's
// (boundary.mjs prints it alone too) and the main table, cuckoo-wasm's modes,
// the native core and the npm peers, with the semi-sorted and 2^k − 1 ratios
// below it.

import { mops, percent, ratio } from '../support/format.mjs';
import { nativeRates, nativeRow } from './native.mjs';
import { BUCKET_SIZE, FINGERPRINT_BITS, SEED, SEMI_SORTED_BITS } from '../support/measurement.mjs';
import { PEER_SAMPLE } from './options.mjs';

function bestPeer(peers, op) {
  let best = null;
  for (const p of peers) if (p.rates[op] !== null && (best === null || p.rates[op] > best.rates[op])) best = p;
  return best;
}

const OPS = ['add', 'has', 'miss', 'del'];

/** Per operation, `row`'s rate over the fastest peer's: { ratio, peer }, or null where no peer has the operation. */
export function ratios(row, peers) {
  const out = {};
  for (const op of OPS) {
    const best = bestPeer(peers, op);
    out[op] = best ? { ratio: row.rates[op] / best.rates[op], peer: best.name } : null;
  }
  return out;
}

const rateCells = (rates) => OPS.map((op) => mops(rates[op])).join(' | ');

export function renderMain(results) {
  const { machine, native, ours, peers } = results;
  const { quick, reps, sizes } = results.options;
  const lines = [];
  lines.push('## cuckoo-wasm benchmark');
  lines.push('');
  lines.push(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.os}; Node ${machine.node}; single thread.` +
      (quick ? ' Mode: --quick (2^16 only).' : ''),
  );
  const share = machine.cpuShareOfTimedLoops;
  lines.push(
    `Contention: 1-min load average ${machine.loadAverageAtStart.toFixed(2)} at start, ${machine.loadAverageAtEnd.toFixed(2)} at end; ` +
      `cuckoo-wasm's timed loops got a median ${percent(share.median, 0)} (min ${percent(share.min, 0)}) of a CPU` +
      (share.median < 0.9 || share.min < 0.7
        ? ' (under 100%: other processes competed for the cores, so the rates below are lower than on an idle machine).'
        : ' (over 100% = GC and compiler threads).'),
  );
  lines.push(
    `Method: f=${FINGERPRINT_BITS}, b=${BUCKET_SIZE}, seed ${SEED}; distinct pre-generated keys (strings: 16 random hex chars; ` +
      'numbers: random integers < 2^53, Uint32Array: random u32); each filter filled until the first add returns false; ' +
      'has+ over every stored key, has− over never-added keys (→ FPR), then delete of every stored key. ' +
      'M ops/s = ops / elapsed process.hrtime.bigint(). ' +
      `cuckoo-wasm: one untimed warm-up run per mode, then the median of ${reps[16]} runs at 2^16` +
      (quick ? '' : `, 1 run at 2^22`) +
      ' (runs go round-robin over the modes, with a full GC before each, untimed)' +
      `. Native: cuckoo_bench --json (random u64 keys, median of 5 runs at 2^16${quick ? '' : ', 1 run at 2^22'}). ` +
      `npm peers: string keys, per call, one warm-up on a small filter, filled to cuckoo-wasm's 2^16 item count (or first failed add); ` +
      `add timed over the whole fill, has+ over all stored keys, has− and delete over ${PEER_SAMPLE / 1000}k keys; ` +
      'their bits/item are estimated from serialized JSON (length × 8 / items).',
  );
  lines.push('');
  lines.push(
    '| implementation | API / keys | buckets | items (load) | add | has+ | has− | delete | bits/item | serialized B/item | FPR | false neg. | vs best peer: add / has+ / has− / delete |',
  );
  lines.push('|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|');
  const peers16 = peers.filter((p) => p.log2Buckets === 16);
  for (const log2 of sizes) {
    for (const row of ours.filter((r) => r.log2Buckets === log2)) {
      let vs = '—';
      if (log2 === 16 && peers16.length) {
        const r = ratios(row, peers16);
        vs = OPS.map((op) => (r[op] ? ratio(r[op].ratio) : 'n/a')).join(' / ');
      }
      const name = row.semiSort ? `cuckoo-wasm semi-sorted f=${SEMI_SORTED_BITS}` : 'cuckoo-wasm';
      const buckets = row.belowPowerOfTwo ? `2^${log2} − 1 (hash id 2)` : `2^${log2}`;
      lines.push(
        `| ${name} | ${row.api}, ${row.keys} | ${buckets} | ${row.items} (${row.loadFactor.toFixed(4)}) | ${rateCells(row.rates)} | ${row.bitsPerItem.toFixed(2)} | ` +
          `${row.serializedBytesPerItem.toFixed(3)} | ${percent(row.measuredFpr)} | ${row.falseNegatives} | ${vs} |`,
      );
    }
    const nativeVariants = [
      ['insert / contains / erase, u64', { api: 'call' }],
      ['insertMany / containsMany / eraseMany, u64', { api: 'batch' }],
      ['generic kernel, insert / contains / erase, u64', { api: 'call', generic: true }],
    ];
    for (const [api, variant] of nativeVariants) {
      const n = nativeRow(native, log2, variant);
      if (!n) continue;
      lines.push(
        `| native C++ core | ${api} | 2^${log2} | ${n.items} (${n.loadFactor.toFixed(4)}) | ${rateCells(nativeRates(n))} | ${n.bitsPerItem.toFixed(2)} | — | ` +
          `${percent(n.measuredFpr)} | ${native.stderr.includes('false negatives') ? 'see stderr' : 0} | — |`,
      );
    }
    if (native.error) {
      lines.push(`| native C++ core | — | 2^${log2} | ${native.error} | | | | | | | | | |`);
    }
    for (const p of peers.filter((r) => r.log2Buckets === log2)) {
      let fn = p.falseNegatives ? `**${p.falseNegatives}** (${(100 * (p.falseNegatives / p.items)).toPrecision(2)}%)` : '0';
      if (p.deleteFailures) fn += `; ${p.deleteFailures} of ${p.deletes} deletes found nothing`;
      lines.push(
        `| ${p.name} | ${p.config}, string | 2^${log2} | ${p.items} (${(p.items / (BUCKET_SIZE * 2 ** 16)).toFixed(4)}) | ${rateCells(p.rates)} | ≈${p.jsonBitsPerItem.toFixed(1)} (JSON) | ` +
          `${p.jsonBytesPerItem.toFixed(2)} (JSON) | ${percent(p.measuredFpr)} | ${fn} | — |`,
      );
    }
  }
  lines.push('');
  lines.push(semiSortedRatios(ours));
  lines.push('');
  lines.push(anyCountRatios(ours));
  lines.push('');
  lines.push('Rates in M ops/s. The npm peers run at 2^16 only (minutes each at 2^22). Load of npm peers = items / (4 × 2^16) (the Bloom filter has no slots). "vs best peer" = cuckoo-wasm ops/s ÷ the fastest npm peer for that operation at 2^16.');
  return lines.join('\n');
}

/** The row of the power-of-two plain table with the same API, keys and size as `row`. */
export function plainTwin(ours, row) {
  return ours.find(
    (r) => !r.semiSort && !r.belowPowerOfTwo && r.log2Buckets === row.log2Buckets && r.api === row.api && r.keys === row.keys,
  );
}

/** Rates of `row` over its plain power-of-two twin's. */
export const rateRatios = (row, twin) => Object.fromEntries(OPS.map((op) => [op, row.rates[op] / twin.rates[op]]));

/** 2^k - 1 bucket rows (hash id 2) as a fraction of the 2^k rows with the same API and keys. */
function anyCountRatios(ours) {
  const parts = [];
  for (const row of ours.filter((r) => r.belowPowerOfTwo)) {
    const r = rateRatios(row, plainTwin(ours, row));
    parts.push(
      `2^${row.log2Buckets} ${row.api}, ${row.keys}: add ${r.add.toFixed(2)}, has+ ${r.has.toFixed(2)}, ` +
        `has− ${r.miss.toFixed(2)}, delete ${r.del.toFixed(2)}`,
    );
  }
  return `2^k − 1 buckets (hash id 2) ÷ 2^k buckets (hash id 1), same run: ${parts.join('; ') || 'n/a'}.`;
}

/** Semi-sorted rows as a fraction of the plain rows with the same API and keys. */
function semiSortedRatios(ours) {
  const parts = [];
  for (const semi of ours.filter((r) => r.semiSort)) {
    const plain = plainTwin(ours, semi);
    if (!plain) continue;
    const r = rateRatios(semi, plain);
    parts.push(
      `2^${semi.log2Buckets} ${semi.api}, ${semi.keys}: add ${r.add.toFixed(2)}, has+ ${r.has.toFixed(2)}, ` +
        `has− ${r.miss.toFixed(2)}, delete ${r.del.toFixed(2)}; FPR ${(semi.measuredFpr / plain.measuredFpr).toFixed(2)}, ` +
        `bits/item ${(semi.bitsPerItem / plain.bitsPerItem).toFixed(3)}`,
    );
  }
  return `Semi-sorted (f=${SEMI_SORTED_BITS}) ÷ plain (f=${FINGERPRINT_BITS}), same space: ${parts.join('; ') || 'n/a'}.`;
}

/** bench/boundary.mjs's figures: its table and its targets. */
export function renderBoundary({ items, rounds, nsPerItem, targets }) {
  const lines = [`## The JavaScript boundary (${items.toLocaleString('en')} items, best of ${rounds} rounds, CPU time, cuckoo-wasm)`, '', '| per item | ns |', '|---|--:|'];
  for (const [name, ns] of Object.entries(nsPerItem)) lines.push(`| ${name} | ${ns.toFixed(1)} |`);
  lines.push('', '| target | measured | met |', '|---|--:|---|');
  for (const { target, value, met, unit } of targets) lines.push(`| ${target} | ${value.toFixed(unit === 'x' ? 2 : 1)}${unit === 'x' ? 'x' : ' ns'} | ${met ? 'yes' : 'no'} |`);
  return lines.join('\n');
}
