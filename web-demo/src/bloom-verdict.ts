// Who wins the side-by-side, and why, beside it: both filters full to the
// cuckoo table's practical load, with the same memory, so the same bits per
// item; their expected rates there (the core's formulas, inspect's
// cuckooRates and bloomExpectedFpr); and, when Bloom wins, from which f this
// table would beat it, with links that set it up. The paper's claim holds
// only below ε ≈ 3 %, and a teaching table of 6-bit fingerprints is far above.

import { CuckooFilter } from 'cuckoo-wasm';
import { bloomExpectedFpr, cuckooRates, optimalBloomHashCount, tableBits } from 'cuckoo-wasm/inspect';
import { count, element, rate } from './format.js';
import { LIMITS, semiSortAllowed, writeParams, type DemoParams } from './params.js';

export interface Match {
  fingerprintBits: number;
  semiSort: boolean;
  bitsPerItem: number;
  cuckoo: number;
  bloom: number;
}

/** Both filters full to `load` of this table's slots, with `fingerprintBits`: the bits each item gets and each one's expected rate. */
export function match(params: DemoParams, fingerprintBits: number, semiSort: boolean, load: number): Match {
  using filter = new CuckooFilter({ bucketCount: params.bucketCount, bucketSize: params.bucketSize, fingerprintBits, semiSort, seed: params.seed });
  const bits = tableBits(filter);
  const items = filter.slotCount * load;
  const hashCount = optimalBloomHashCount(bits / items);
  return {
    fingerprintBits,
    semiSort,
    bitsPerItem: bits / items,
    cuckoo: cuckooRates(params.bucketSize, fingerprintBits, load).expectedFpr,
    bloom: bloomExpectedFpr(bits, hashCount, items),
  };
}

/** The smallest f from which the cuckoo filter's rate stays below Bloom's, up to the page's largest f; null if none. */
export function winsFrom(params: DemoParams, semiSort: boolean, load: number): number | null {
  let from: number | null = null;
  for (let f = LIMITS.maxFingerprintBits; f >= LIMITS.minFingerprintBits; f--) {
    if (semiSort && !semiSortAllowed(params.bucketSize, f)) break;
    const m = match(params, f, semiSort, load);
    if (!(m.cuckoo < m.bloom)) break;
    from = f;
  }
  return from;
}

function setupLink(params: DemoParams, fingerprintBits: number, semiSort: boolean): HTMLAnchorElement {
  const link = element('a', 'params-link', `f = ${fingerprintBits}${semiSort ? ', semi-sorted' : ''}`);
  link.href = `?${writeParams({ ...params, fingerprintBits, semiSort })}`;
  link.dataset.params = '';
  return link;
}

/** The verdict for the table on show: who wins, by how much, and what would turn it. */
export function showBloomVerdict(node: HTMLElement, params: DemoParams, load: number): void {
  const now = match(params, params.fingerprintBits, params.semiSort, load);
  const items = count(Math.round(params.bucketCount * params.bucketSize * load));
  const budget = `Full to ${rate(load)} of the slots (${items} items), both spend ${now.bitsPerItem.toFixed(2)} bits per item`;
  const cuckooWins = now.cuckoo < now.bloom;
  node.dataset.winner = cuckooWins ? 'cuckoo' : 'bloom';
  Object.assign(node.dataset, { cuckoo: String(now.cuckoo), bloom: String(now.bloom) });
  const lead = element('b', '', cuckooWins ? 'Here the cuckoo filter wins. ' : 'Here the Bloom filter wins, and that is right. ');
  const parts: Array<Node | string> = [lead];
  if (cuckooWins) {
    parts.push(
      `${budget}; the cuckoo filter expects ${rate(now.cuckoo)} false positives, the Bloom filter ${rate(now.bloom)}. ` +
        'That is the paper’s claim: below a rate of about 3 %, a cuckoo filter needs fewer bits (Sec. 5, Fig. 4).',
    );
  } else {
    parts.push(
      `${budget}; at that budget a Bloom filter expects ${rate(now.bloom)} false positives, while the cuckoo filter's ` +
        `${2 * params.bucketSize} compared slots, each matching a stranger 1 time in 2^${params.fingerprintBits}, give ${rate(now.cuckoo)}. ` +
        'The paper claims fewer bits only below a rate of about 3 % (Sec. 5, Fig. 4); this teaching table, made to show kicks, is far above it.',
    );
    const plain = winsFrom(params, false, load);
    const semi = semiSortAllowed(params.bucketSize, LIMITS.maxFingerprintBits) ? winsFrom(params, true, load) : null;
    const offers = [plain === null ? null : setupLink(params, plain, false), semi === null ? null : setupLink(params, semi, true)].filter((link) => link !== null);
    node.dataset.winsFrom = `${plain ?? ''},${semi ?? ''}`;
    if (offers.length > 0) {
      parts.push(' With this table the cuckoo filter wins from ', offers[0]!);
      if (offers.length > 1) parts.push(', or from ', offers[1]!);
      parts.push(' on.');
    }
  }
  node.replaceChildren(...parts);
}
