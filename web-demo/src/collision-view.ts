// Paper Sec. 4's failure made visible: with a short fingerprint, numbered
// items are located (the core's `locate`) until 2b + 1 share the chosen
// item's fingerprint and pair of buckets; then all of them are added to an
// empty filter of this table's m. The first 2b fill the two buckets, and the
// last can only kick equal fingerprints back and forth between them until
// its kicks run out and it goes to the stash. Found in a worker.

import { bucketCard } from './bucket-card.js';
import { count, element, fingerprintText } from './format.js';
import type { CollisionJob, CollisionResult } from './measure-jobs.js';
import { MeasureControl } from './measure-control.js';
import { byId } from './page.js';
import { sameParams, type DemoParams } from './params.js';

/** Numbered items looked at, at most: enough for f ≤ 6 in the largest table the page draws. */
export const COLLISION_SEARCH_LIMIT = 3_000_000;

export class CollisionView {
  readonly #panel = byId('collision-panel');
  readonly #item = byId<HTMLInputElement>('collision-item');
  readonly #bits = byId<HTMLSelectElement>('collision-f');
  readonly #buckets = byId('collision-buckets');
  readonly #group = byId<HTMLOListElement>('collision-group');
  readonly #control = new MeasureControl<CollisionJob>(this.#panel, byId('collision-progress'), byId('collision-status'));
  #params: DemoParams | undefined;

  constructor() {
    byId<HTMLFormElement>('collision-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.find();
    });
  }

  /** A new table: found again for its m, seed and max kicks, by itself (it takes a moment, in the worker). */
  setup(params: DemoParams): void {
    const old = this.#params;
    this.#params = params;
    if (sameParams(old, params, ['bucketCount', 'seed', 'maxKicks'])) return;
    this.find();
  }

  find(): void {
    const { bucketCount, seed, maxKicks } = this.#params!;
    // Empty: the worker takes an example whose two buckets differ in this table.
    const item = this.#item.value.length > 0 ? this.#item.value : null;
    const fingerprintBits = Number(this.#bits.value);
    const job: CollisionJob = { kind: 'collision', item, bucketCount, fingerprintBits, seed, maxKicks, searchLimit: COLLISION_SEARCH_LIMIT };
    this.#buckets.replaceChildren();
    this.#group.replaceChildren();
    const whose = item === null ? 'an example item' : `“${item}”`;
    this.#control.run(job, `Locating numbered items in this table's ${count(bucketCount)} buckets until enough share ${whose}'s fingerprint and buckets…`, (result) => {
      if (item === null) this.#item.placeholder = result.chosen.item;
      return this.#show(result, fingerprintBits, maxKicks);
    });
  }

  #show(result: CollisionResult, bits: number, maxKicks: number): string {
    const { chosen, group, needed, outcomes } = result;
    const fp = (value: number) => fingerprintText(value, bits, 'bin');
    this.#panel.dataset.fingerprint = String(chosen.fingerprint);
    this.#buckets.replaceChildren(
      ...result.buckets.map(({ bucket, slots }) => {
        const { card, label, cells } = bucketCard(bucket, slots.length, { card: 'bucket', label: 'bucket-label', row: 'slots', cell: 'slot', valueKey: 'fp' });
        label.textContent = `bucket ${bucket}`;
        slots.forEach((value, s) => {
          const cell = cells[s]!;
          cell.textContent = value === 0 ? '·' : fp(value);
          cell.classList.toggle('empty', value === 0);
          cell.dataset.fp = String(value);
        });
        return card;
      }),
      Object.assign(element('div', 'collision-stash', `stash: ${result.stash === 0 ? '·' : fp(result.stash)}`), { title: 'the victim stash' }),
    );
    this.#group.replaceChildren(
      ...group.map((where, k) => {
        const outcome = outcomes[k]!;
        const li = element('li', outcome.stashed ? 'stashed' : '');
        Object.assign(li.dataset, { item: where.item, fp: String(where.fingerprint), i1: String(where.i1), i2: String(where.i2) });
        li.dataset.outcome = outcome.stashed ? 'stash' : `${outcome.bucket}:${outcome.slot}`;
        const went = outcome.stashed
          ? `${count(outcome.kickCount)} kicks, then the stash`
          : `bucket ${outcome.bucket}, slot ${outcome.slot}${outcome.kickCount > 0 ? ` after ${outcome.kickCount} kicks` : ''}`;
        li.append(element('span', 'group-item', `“${where.item}”`), element('span', 'group-where', `f ${fp(where.fingerprint)}, i1 ${where.i1}, i2 ${where.i2}`), element('span', 'group-went', `→ ${went}`));
        return li;
      }),
    );
    const oneBucket = chosen.i1 === chosen.i2;
    const pair = oneBucket ? `one bucket, ${chosen.i1} (here i1 = i2: hash(f) leads back to the same bucket)` : `buckets ${chosen.i1} and ${chosen.i2}`;
    if (group.length < needed) {
      return `Only ${group.length} of ${needed} found among ${count(result.searched)} numbered items: try a shorter f.`;
    }
    const last = outcomes.at(-1)!;
    const slots = needed - 1;
    const bounce = oneBucket
      ? `evicts a copy of the same fingerprint, whose other bucket is this same full bucket, so it lands right back`
      : `evicts a copy of the same fingerprint, whose other bucket is the other full one`;
    const after =
      result.nextRefused && result.other?.added === true
        ? `One more copy of “${chosen.item}” is now refused: its kicks run out too, and with the stash taken the add is undone. Other items still go in (“${result.other.item}” did). `
        : result.nextRefused
          ? `One more copy of “${chosen.item}” is now refused. `
          : '';
    return (
      `“${chosen.item}” has fingerprint ${fp(chosen.fingerprint)} and ${pair}; ${slots} of the first ${count(result.searched)} numbered items share both. ` +
      `Added in turn to an empty filter, the first ${slots} fill the ${slots} slots; the last ` +
      (last.stashed ? `${bounce}, ${count(last.kickCount)} times (max kicks ${count(maxKicks)}), and ends in the stash. ` : `found room (it should not have). `) +
      `${after}No eviction can help, only a longer fingerprint (eq. 3).`
    );
  }
}
