// The relocation chain of an insert, one line per kick as the core reported
// it, revealed step by step; and, for the current kick, its arithmetic: an
// XOR bit by bit for a power-of-two m, the reflection about c for any other.

import type { Frame, KickWalk } from './frames.js';
import { Notation } from './frames.js';
import { binary, bucketBits, bucketDigits, element } from './format.js';
import { hashIdFor, type DemoParams } from './params.js';

export class ChainView {
  #items: HTMLElement[] = [];
  #end: HTMLElement | undefined;
  #trace: KickWalk | null = null;
  #params: DemoParams | undefined;

  constructor(
    private readonly list: HTMLOListElement,
    private readonly now: HTMLElement,
  ) {}

  setup(params: DemoParams): void {
    this.#params = params;
    this.load(null);
  }

  /** Lists the kicks of `trace`, an insert's or the stash's walk after a delete (all hidden until frames reveal them); null clears the list. */
  load(trace: KickWalk | null, note = 'No kicks yet: inserts into a bucket with a free slot need none.'): void {
    const params = this.#params!;
    const n = new Notation(params);
    this.#trace = trace;
    this.#items = [];
    this.#end = undefined;
    this.list.replaceChildren();
    this.list.dataset.kickCount = String(trace?.kickCount ?? 0);
    if (trace === null || trace.kicks.length === 0) {
      this.list.append(element('li', 'chain-note', trace?.placed ? `Placed without kicks, in bucket ${trace.placed.bucket}.` : note));
      this.#showNow(-1);
      return;
    }
    const fragment = document.createDocumentFragment();
    trace.kicks.forEach((kick, k) => {
      const item = element('li', 'kick');
      item.hidden = true;
      Object.assign(item.dataset, {
        bucket: String(kick.bucket),
        slot: String(kick.slot),
        incoming: String(kick.incoming),
        evicted: String(kick.evicted),
        next: String(kick.nextBucket),
        hashMod: String(kick.evictedHashMod),
      });
      item.append(
        element('span', 'kick-n', `${k + 1}`),
        element('span', 'kick-where', `bucket ${kick.bucket}, slot ${kick.slot}`),
        element('span', 'kick-swap', `${n.fp(kick.incoming)} in, ${n.fp(kick.evicted)} out`),
        element(
          'span',
          'kick-next',
          trace.hashId === 1
            ? `→ ${kick.bucket} XOR ${kick.evictedHashMod} = ${kick.nextBucket}`
            : `→ ${n.step(2, kick.bucket, kick.evictedHashMod, kick.nextBucket)}`,
        ),
      );
      fragment.append(item);
      this.#items.push(item);
    });
    const end = element('li', 'kick-end');
    end.hidden = true;
    if (trace.placed !== null) {
      end.dataset.end = 'placed';
      end.dataset.bucket = String(trace.placed.bucket);
      end.dataset.slot = String(trace.placed.slot);
      end.textContent = `✓ ${n.fp(trace.placed.fingerprint)} placed in bucket ${trace.placed.bucket}, slot ${trace.placed.slot}`;
    } else if (trace.stashed !== null) {
      end.dataset.end = 'stashed';
      end.dataset.bucket = String(trace.stashed.bucket);
      end.textContent = `✗ max kicks (${params.maxKicks}) used up: ${n.fp(trace.stashed.fingerprint)} goes to the stash`;
    } else if (trace.undone) {
      end.dataset.end = 'undone';
      end.dataset.bucket = String(trace.undone.bucket);
      end.textContent = `✗ max kicks (${params.maxKicks}) used up with the stash taken: ${n.fp(trace.undone.fingerprint)} has nowhere to go, every kick is undone, the insert refused`;
    }
    if (trace.kickCount > trace.kicks.length) {
      end.textContent = `… ${trace.kickCount - trace.kicks.length} more kicks not recorded. ${end.textContent}`;
    }
    fragment.append(end);
    this.#end = end;
    this.list.append(fragment);
    this.list.scrollTop = 0;
  }

  show(frame: Frame): void {
    this.#items.forEach((item, k) => {
      item.hidden = k >= frame.kicksShown;
      item.classList.toggle('current', k === frame.currentKick);
    });
    if (this.#end !== undefined) this.#end.hidden = !frame.endShown;
    const focus = frame.currentKick >= 0 ? this.#items[frame.currentKick] : frame.endShown ? this.#end : undefined;
    // Scrolls the list only, never the page.
    if (focus !== undefined) {
      const top = focus.offsetTop; // the list is positioned: offsets are within it
      if (top < this.list.scrollTop || top + focus.offsetHeight > this.list.scrollTop + this.list.clientHeight) {
        this.list.scrollTop = top - this.list.clientHeight / 2;
      }
    }
    // At the end, the arithmetic of the last kick stays up.
    this.#showNow(frame.currentKick >= 0 ? frame.currentKick : frame.endShown ? frame.kicksShown - 1 : -1);
  }

  #showNow(k: number): void {
    const params = this.#params!;
    const kick = k >= 0 ? this.#trace?.kicks[k] : undefined;
    const rows = element('div', 'kick-math');
    const width = bucketBits(params.bucketCount);
    const n = new Notation(params);
    const line = (label: string, bits: string, value: string) => {
      const row = element('div', 'math-row');
      row.append(element('span', 'math-label', label), element('span', 'math-bits', bits), element('span', 'math-value', value));
      rows.append(row);
    };
    const hashId = this.#trace?.hashId ?? hashIdFor(params.bucketCount);
    if (hashId === 2) {
      // A reflection is arithmetic on numbers, not on bits: decimals only.
      const shown = (value: number | undefined) => (value === undefined ? '–'.repeat(bucketDigits(params.bucketCount)) : String(value));
      line('evicted f', kick === undefined ? '–' : n.fp(kick.evicted), kick === undefined ? '' : `(${kick.evicted})`);
      line('from bucket i', shown(kick?.bucket), '');
      line('c from hash(f)', shown(kick?.evictedHashMod), '');
      line('goes to j', shown(kick?.nextBucket), `= ${kick === undefined ? '(c − i) mod m' : n.reflection(kick.bucket, kick.evictedHashMod)}`);
    } else if (kick === undefined) {
      line('evicted f', '–', '');
      line('from bucket i', '–'.repeat(width), '');
      line('XOR hash(f) mod m', '–'.repeat(width), '');
      line('goes to j', '–'.repeat(width), '');
    } else {
      line('evicted f', n.fp(kick.evicted), `(${kick.evicted})`);
      line('from bucket i', binary(kick.bucket, width), `= ${kick.bucket}`);
      line('XOR hash(f) mod m', binary(kick.evictedHashMod, width), `= ${kick.evictedHashMod}`);
      line('goes to j', binary(kick.nextBucket, width), `= ${kick.nextBucket}`);
    }
    rows.dataset.kick = String(k);
    this.now.replaceChildren(rows);
  }
}
