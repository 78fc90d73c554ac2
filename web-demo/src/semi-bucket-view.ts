// Paper Sec. 5.2 on one bucket: how a semi-sorted filter stores the bucket
// under the pointer (or focused, or chosen by number). Its four fingerprints
// sorted, their high nibbles as a sorted multiset, that multiset's 12-bit rank
// among the 3,876 there are, the low bits kept as they are, the bits saved,
// and the decode a lookup does. Every number is the core's semiSortedBucket.

import type { CuckooFilter } from 'cuckoo-wasm';
import { semiSortedBucket, type SemiSortedBucketView } from 'cuckoo-wasm/inspect';
import { binary, count, element } from './format.js';
import type { DemoParams } from './params.js';

/** Bits of the rank that stands for the four high nibbles (2^12 = 4,096 ≥ 3,876). */
const RANK_BITS = 12;

export class SemiBucketView {
  #filter: CuckooFilter | undefined;
  #params: DemoParams | undefined;
  #bucket = 0;

  constructor(
    private readonly panel: HTMLElement,
    private readonly picker: HTMLInputElement,
    private readonly view: HTMLElement,
    table: HTMLElement,
  ) {
    // Delegated: the table's buckets are rebuilt with every new filter.
    const fromEvent = (event: Event) => {
      const card = (event.target as HTMLElement).closest<HTMLElement>('.bucket');
      if (card?.dataset.bucket !== undefined) this.show(Number(card.dataset.bucket));
    };
    table.addEventListener('mouseover', fromEvent);
    table.addEventListener('focusin', fromEvent);
    picker.addEventListener('input', () => {
      const bucket = Number(picker.value);
      if (Number.isInteger(bucket) && bucket >= 0 && bucket < (this.#params?.bucketCount ?? 0)) this.show(bucket);
    });
  }

  /** Shown only for a semi-sorted filter. */
  setup(params: DemoParams, filter: CuckooFilter): void {
    this.#params = params;
    this.#filter = filter;
    this.panel.hidden = !params.semiSort;
    this.picker.max = String(params.bucketCount - 1);
    if (params.semiSort) this.show(Math.min(this.#bucket, params.bucketCount - 1));
  }

  /** The bucket shown may have changed: an operation ended. */
  refresh(): void {
    if (this.#params?.semiSort) this.show(this.#bucket);
  }

  show(bucket: number): void {
    const params = this.#params;
    if (params === undefined || !params.semiSort || this.#filter === undefined) return;
    this.#bucket = bucket;
    this.picker.value = String(bucket);
    this.#draw(semiSortedBucket(this.#filter, bucket), params.fingerprintBits);
  }

  #draw(stored: SemiSortedBucketView, f: number): void {
    const low = stored.lowBitsPerSlot;
    const rows: Array<[label: string, value: Node | string]> = [];
    const fingerprints = element('span', 'semi-fps');
    for (const fp of stored.fingerprints) {
      const split = element('span', 'semi-fp');
      split.append(element('b', 'semi-high', binary(fp >>> low, 4)), element('span', 'semi-low', binary(fp & (2 ** low - 1), low)));
      fingerprints.append(split);
    }
    rows.push([`bucket ${stored.bucket}, sorted (0 = empty)`, fingerprints]);
    rows.push(['high nibbles, a sorted multiset', `{ ${stored.highNibbles.join(', ')} }: the order in the bucket carries nothing, so only the multiset is kept`]);
    rows.push(['its rank', `${count(stored.rank)} of the ${count(stored.rankCount)} multisets = ${binary(stored.rank, RANK_BITS)}: ${RANK_BITS} bits instead of 4 × 4 = 16`]);
    rows.push([`low bits, ${low} each`, stored.lowBits.map((bits) => binary(bits, low)).join(' ') + ' (stored as they are)']);
    rows.push([
      'the bucket takes',
      `${RANK_BITS} + 4 × ${low} = ${stored.storedBits} bits instead of 4 × ${f} = ${stored.plainBits}: ${stored.plainBits - stored.storedBits} saved, one per entry`,
    ]);
    rows.push([
      'a lookup decodes',
      `rank ${count(stored.rank)} → nibbles (${stored.highNibbles.join(', ')}) from a table of ${count(stored.rankCount)}; nibble × 2^${low} + low bits → ${stored.fingerprints.join(', ')}; then it compares the item's fingerprint with all four`,
    ]);
    this.view.replaceChildren(
      ...rows.map(([label, value]) => {
        const row = element('div', 'semi-row');
        row.append(element('span', 'semi-label', label), typeof value === 'string' ? element('span', 'semi-value', value) : value);
        return row;
      }),
    );
    Object.assign(this.view.dataset, {
      bucket: String(stored.bucket),
      fingerprints: stored.fingerprints.join(','),
      nibbles: stored.highNibbles.join(','),
      rank: String(stored.rank),
      low: stored.lowBits.join(','),
      stored: String(stored.storedBits),
      plain: String(stored.plainBits),
    });
  }
}
