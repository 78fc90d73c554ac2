// The Bloom filter of the same memory beside the cuckoo filter: it gets every
// item the cuckoo filter stores, and next to each cuckoo operation the page
// says what the Bloom filter reads and, on a delete, why it cannot forget.

import { probeList, summaryLine } from './bloom-view.js';
import { count } from './format.js';
import { bloomBits, ui } from './page.js';
import { currentDemo } from './state.js';

export function addToBloom(item: string): void {
  const d = currentDemo();
  d.bloom.add(item);
  d.bloomCopies.set(item, (d.bloomCopies.get(item) ?? 0) + 1);
  bloomBits.add(d.bloom.probePositions(item));
}

export function showBloomSummary(where: { item: string; i1: number; i2: number } | null, mode: 'probe' | 'delete' = 'probe'): Uint32Array {
  const d = currentDemo();
  const { bloom, filter } = d;
  const bits = bloom.bitCount;
  const perSlot = d.params.semiSort ? `${d.params.fingerprintBits - 1} bits (semi-sorted)` : `${d.params.fingerprintBits} bits`;
  const lines = [
    summaryLine('memory', `${count(bits)} bits = the cuckoo table's ${count(filter.slotCount)} slots × ${perSlot}`),
    summaryLine('hash functions', `k = ${bloom.hashCount}, best for ${count(Math.round(filter.slotCount * d.maxLoad))} items`),
  ];
  let positions: Uint32Array = new Uint32Array(0);
  if (where === null) {
    lines.push(summaryLine('cuckoo reads', '2 buckets per item'), summaryLine('Bloom reads', `${bloom.hashCount} bits per item, anywhere in the array`));
  } else {
    positions = bloom.probePositions(where.item);
    const allSet = bloom.has(where.item);
    const buckets = where.i1 === where.i2 ? `bucket ${where.i1} (i1 = i2)` : `buckets ${where.i1} and ${where.i2}`;
    lines.push(
      summaryLine('cuckoo reads', `2 places: ${buckets}`),
      summaryLine(`Bloom reads`, `${positions.length} places: bits ${probeList(positions)} ${allSet ? '— all set: “maybe”' : '— one is 0: “no”'}`),
    );
  }
  ui.bloomSummary.replaceChildren(...lines);
  ui.bloomSummary.dataset.k = String(bloom.hashCount);
  bloomBits.show(positions, mode);
  return positions;
}

export function explainBloomDelete(item: string, deleted: boolean, positions: Uint32Array): void {
  const d = currentDemo();
  const copies = d.bloomCopies.get(item) ?? 0;
  if (copies === 0) {
    ui.bloomDelete.textContent = deleted
      ? `The Bloom filter never got “${item}”, so it has nothing to remove either way.`
      : `Nothing to delete: “${item}” was not added.`;
    return;
  }
  const others = bloomBits.othersSharing(positions, copies);
  const shared = [...positions].filter((_, i) => others[i]! > 0);
  const lead = deleted ? `The cuckoo filter removed “${item}”'s fingerprint. ` : '';
  ui.bloomDelete.textContent =
    shared.length > 0
      ? `${lead}The Bloom filter cannot: clearing its ${positions.length} bits would also clear bit${shared.length > 1 ? 's' : ''} ${probeList(Uint32Array.from(shared), 6)}, ` +
        `which other items set too (up to ${Math.max(...others)} of them on one bit). Those items would then answer “no” — false negatives. ` +
        `So it keeps every bit, and still says “maybe” for “${item}”.`
      : `${lead}None of its ${positions.length} bits is shared right now, but the Bloom filter keeps no counts and cannot know that, ` +
        `so it can never clear a bit: it still says “maybe” for “${item}”.`;
}

/** Back to the invitation shown until the next delete explains itself. */
export function resetBloomDeleteNote(): void {
  ui.bloomDelete.textContent = 'Delete an item to see why the Bloom filter cannot.';
}
