// The presenter's steps: the paper's sections in order, each a view of the
// page, a paragraph to say over it, and the state it needs, prepared from
// scratch with explicit seeds so that every class sees the same tables. The
// figures a script quotes are the paper's; the page's own numbers are on the
// page itself.

import { traceAdd } from 'cuckoo-wasm/inspect';
import { startBulk } from './bulk.js';
import { exampleItem } from './example-item.js';
import { start } from './filters.js';
import { nextNumberedItem } from './items.js';
import { insert, remove, walkFalsePositive } from './operations.js';
import { semiBucketView, ui } from './page.js';
import { sizingCalculator } from './paper-views.js';
import { DEFAULT_PARAMS, type DemoParams } from './params.js';
import { player } from './playback.js';
import { currentDemo, readTable } from './state.js';

export interface PresenterStep {
  /** The paper's section(s). */
  section: string;
  title: string;
  /** One paragraph to say over the view. */
  script: string;
  /** The panel the step opens. */
  view: string;
  params: DemoParams;
  /** Sets the state up on a new filter of `params`. */
  prepare(): void;
}

/** Inserts `count` numbered items without playing them: the state a step starts from. */
function quietly(count: number): void {
  for (let i = 0; i < count; i++) insert(nextNumberedItem());
  player.last();
}

/** Inserts numbered items quietly up to the first that will kick, then inserts that one for the class to watch. */
function upToTheFirstKick(): void {
  const d = currentDemo();
  for (;;) {
    using probe = d.filter.clone();
    if (traceAdd(probe, `item-${d.nextItem}`).kickCount > 0) break;
    quietly(1);
  }
  insert(nextNumberedItem());
}

/** The bucket with the most fingerprints (the first of them). */
function fullestBucket(): number {
  const { slots } = readTable();
  const b = currentDemo().params.bucketSize;
  let best = 0;
  let most = -1;
  for (let bucket = 0; bucket * b < slots.length; bucket++) {
    const held = slots.subarray(bucket * b, (bucket + 1) * b).filter((fp) => fp !== 0).length;
    if (held > most) [best, most] = [bucket, held];
  }
  return best;
}

const teaching = DEFAULT_PARAMS;

export const PRESENTER_STEPS: readonly PresenterStep[] = [
  {
    section: 'Sec. 1–2',
    title: 'A set in a few bits, and a Bloom filter beside it',
    script:
      'A filter answers “is x in the set?” with no false negatives and a few false positives, in a few bits per item. A Bloom filter sets k bits per item and cannot forget one: its bits are shared. A cuckoo filter keeps a short fingerprint of each item in one of two buckets, so it can delete. Here both hold the same 24 items in the same 384 bits; the boxed note says who wins at this size, and why a teaching table of 6-bit fingerprints is not where the paper’s title applies.',
    view: '.bloom-panel',
    params: teaching,
    prepare: () => quietly(24),
  },
  {
    section: 'Sec. 3.1',
    title: 'Two buckets from one hash (partial-key cuckoo hashing)',
    script:
      'The item is hashed once: the hash gives the fingerprint f and the first bucket i1; the second is i1 XOR hash(f). XOR undoes itself, so from either bucket and the fingerprint alone the filter finds the other one: it can move a fingerprint without the item, which it no longer has. The example in the item box shows both sums, forward and back.',
    view: '.relation-panel',
    params: teaching,
    prepare: () => {
      quietly(8);
      ui.item.value = exampleItem(currentDemo().filter);
      ui.item.dispatchEvent(new Event('input'));
    },
  },
  {
    section: 'Sec. 3.1, Algorithm 1',
    title: 'Kicks',
    script:
      'When both buckets are full, the new fingerprint takes a random slot of one of them, and the fingerprint it evicts moves to its own other bucket, found by the same XOR. That may evict another, and so on, until a slot is free; after 500 kicks the last homeless fingerprint waits in the stash. Watch the chain: each line is one kick, with its arithmetic above.',
    view: '.kicks-panel',
    params: teaching,
    prepare: upToTheFirstKick,
  },
  {
    section: 'Sec. 3.2, eq. (5)',
    title: 'A lookup, and a false positive',
    script:
      'A lookup reads two buckets and compares 2b slots with the item’s fingerprint. An item never added matches a filled slot with a chance of 1 in 2^f, so a false “maybe” has a chance of at most 2b / 2^f: 8 / 64 here. The page looked up items never added until one got a “maybe”, and plays that lookup slot by slot.',
    view: '#fp-panel',
    params: teaching,
    prepare: () => {
      quietly(48);
      walkFalsePositive();
    },
  },
  {
    section: 'Sec. 3.3',
    title: 'Delete',
    script:
      'To delete, the filter removes one copy of the fingerprint from one of the item’s two buckets. Two items with the same fingerprint and a shared bucket can be stored in both of them, so removing either copy is right. A Bloom filter cannot do this: the red box shows which of the item’s bits other items set too.',
    view: '.bloom-panel',
    params: teaching,
    prepare: () => {
      quietly(30);
      remove('item-7');
    },
  },
  {
    section: 'Sec. 4, eq. (3), Fig. 2',
    title: 'How long a fingerprint?',
    script:
      'With f bits an item has at most 2^f possible second buckets, so items crowd into the same pairs: 2b + 1 items with one fingerprint and one pair of buckets can never all be placed, and eq. (3) expects such groups unless f grows like log(n) / b. With b = 4 a few bits are enough: the curves, measured as the page opened, level off within a few bits, as the paper’s do at 95 %. Beside them, nine real items that no kick can place.',
    view: '#fplen-panel',
    params: teaching,
    prepare: () => {},
  },
  {
    section: 'Sec. 5.1',
    title: 'Bucket size',
    script:
      'Larger buckets fill fuller before the first failure: about 50, 84, 95 and 98 % for 1, 2, 4 and 8 slots. But a lookup compares 2b fingerprints, so keeping a rate costs log2(2b) more bits (eq. 6). The bars are measured at 65,536 slots, the dashes are the paper’s; the purple dots are this page’s small table, which fills fuller. Below, eq. (6) with these loads says which b takes the fewest bits at 1 % and at 0.1 %, as the paper’s Fig. 3 compares them.',
    view: '#bsize-panel',
    params: teaching,
    prepare: () => {},
  },
  {
    section: 'Sec. 5.2',
    title: 'Semi-sorting',
    script:
      'The order of fingerprints in a bucket carries no information. Sorted, the top 4 bits of four fingerprints form one of only 3,876 multisets, which a 12-bit rank names instead of 16 bits: one bit saved per entry, for the same false-positive rate. This table is semi-sorted with 8-bit fingerprints; the panel shows its fullest bucket as stored.',
    view: '#semi-panel',
    params: { ...teaching, fingerprintBits: 8, semiSort: true },
    prepare: () => {
      quietly(48);
      semiBucketView.show(fullestBucket());
    },
  },
  {
    section: 'Sec. 5.2, Table 2, Fig. 4',
    title: 'Space against a Bloom filter',
    script:
      'Bits per item against the rate ε. A Bloom filter needs 1.44 log2(1/ε); a cuckoo filter about (log2(1/ε) + 3) / α, semi-sorted one bit less. The paper: semi-sorted cuckoo filters take fewer bits below about 3 %. The core’s staircase crosses lower, because f must be a whole number of bits: the text under the chart works out where and why. The calculator sizes a million items at 0.1 %.',
    view: '#space-panel',
    params: teaching,
    prepare: () => sizingCalculator()?.set(1_000_000, 0.001),
  },
  {
    section: 'Sec. 7.1, Table 3',
    title: 'At capacity',
    script:
      'Filled until an insert’s 500 kicks run out, the table is nearly full, and the measured false-positive rate sits just under the bound 2b / 2^f, as the expected rate says. The stash holds the one fingerprint left over, and lookups check it too; an insert whose kicks run out while it is taken is undone and refused. The paper’s Table 3: 12.6 bits per item for 0.19 %, against 13 bits for a Bloom filter’s 0.19 %.',
    view: '.gauges-panel',
    params: teaching,
    prepare: () => startBulk(Infinity),
  },
];

export function startStep(step: PresenterStep): void {
  start(step.params);
  step.prepare();
}
