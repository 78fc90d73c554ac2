// The last growth, split by split: each bucket split and where each of its
// entries went (the low half, the high half, or both when its tail was spent),
// in a list of fixed height that follows the animation.

import { count, element } from './format.js';
import { bucketBinary, slotWord } from './growth-notation.js';
import type { GrowthReading, Move, SplitRecord } from './growth-split.js';

/** Splits listed at most; a large growth's others are counted. */
const LISTED_SPLITS = 200;

export interface ShownGrowth {
  index: number;
  item: string;
  fromBuckets: number;
  toBuckets: number;
  tailBits: number;
  reading: GrowthReading;
}

function moveChip(move: Move, split: SplitRecord, tailBits: number): HTMLElement {
  const chip = element('span', `move move-${move.route}`);
  Object.assign(chip.dataset, { before: String(move.before), route: move.route, after: String(move.after), waited: String(move.waited) });
  if (move.waited) chip.classList.add('move-waited');
  const to = move.route === 'both' ? `${split.bucket} + ${split.sibling}` : String(move.route === 'low' ? split.bucket : split.sibling);
  chip.textContent = `${slotWord(move.before, tailBits)} → ${to}`;
  chip.title =
    move.route === 'both'
      ? 'no tail bit left: copied to both halves'
      : `tail bit ${move.route === 'low' ? 0 : 1}: now ${slotWord(move.after, tailBits)} in bucket ${move.route === 'low' ? split.bucket : split.sibling}`;
  return chip;
}

function splitItem(split: SplitRecord, growth: ShownGrowth): HTMLLIElement {
  const { bucket, sibling, level } = split;
  const item = element('li', 'split');
  Object.assign(item.dataset, { bucket: String(bucket), sibling: String(sibling), level: String(level) });
  const name = (b: number, bits: number) => (bits === 0 ? String(b) : `${b} (${bucketBinary(b, bits)})`);
  item.append(element('span', 'split-head', `${name(bucket, level)} → ${name(bucket, level + 1)} + ${name(sibling, level + 1)}`));
  const moves = element('span', 'split-moves');
  for (const move of split.moves) moves.append(moveChip(move, split, growth.tailBits));
  if (split.moves.length === 0) moves.append(element('span', 'split-empty', 'empty'));
  item.append(moves);
  return item;
}

export class SplitView {
  #items: HTMLLIElement[] = [];
  #current = -1;

  constructor(
    private readonly summary: HTMLElement,
    private readonly list: HTMLOListElement,
  ) {}

  clear(): void {
    this.summary.textContent = 'No growth yet: the table grows when more than 90 % of its slots hold entries.';
    this.list.replaceChildren();
    this.list.dataset.splits = '0';
    this.#items = [];
    this.#current = -1;
  }

  load(growth: ShownGrowth): void {
    const { splits, copies, early } = growth.reading;
    this.summary.textContent =
      `Growth ${growth.index}, at “${growth.item}”: ${count(growth.fromBuckets)} → ${count(growth.toBuckets)} buckets, ` +
      `${count(splits.length)} ${splits.length === 1 ? 'split' : 'splits'}` +
      `, ${count(copies)} ${copies === 1 ? 'entry' : 'entries'} copied.` +
      (early ? ' An add’s evictions ran out: the entry that waited went along and was put back after.' : '');
    this.list.dataset.splits = String(splits.length);
    this.#items = splits.slice(0, LISTED_SPLITS).map((split) => splitItem(split, growth));
    this.list.replaceChildren(...this.#items);
    if (splits.length > LISTED_SPLITS) this.list.append(element('li', 'split-more', `… and ${count(splits.length - LISTED_SPLITS)} more splits`));
    this.#current = -1;
  }

  /** Highlights split k (-1: none) and scrolls the list, not the page, to it. */
  show(k: number): void {
    if (k === this.#current) return;
    this.#items[this.#current]?.classList.remove('current');
    this.#current = k;
    const item = this.#items[k];
    if (item === undefined) return;
    item.classList.add('current');
    this.list.scrollTop = item.offsetTop - this.list.offsetTop - 4;
  }
}
