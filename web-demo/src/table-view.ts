// Draws the table. Teaching sizes get one element per slot with its
// fingerprint written out; larger tables a canvas with one small square per
// slot (slot-canvas.ts). Cells have fixed sizes, so nothing moves while frames change.

import type { BucketMark, Frame, SlotMark } from './frames.js';
import { bucketCard } from './bucket-card.js';
import { binary, bucketBits, element, fingerprintText, fingerprintWidth } from './format.js';
import { onResize } from './on-resize.js';
import type { DemoParams } from './params.js';
import { fingerprintColor, SlotCanvas } from './slot-canvas.js';

/** Above this many slots the table is drawn compactly. */
const DETAILED_SLOT_LIMIT = 1024;

const MARK_COLORS: Record<BucketMark, string> = {
  i1: '#1f6fd1',
  i2: '#c2410c',
  current: '#7c3aed',
  next: '#15803d',
};
const SLOT_COLORS: Record<SlotMark, string> = {
  chosen: '#7c3aed',
  placed: '#15803d',
  match: '#0e7490',
  removed: '#b91c1c',
};

interface Renderer {
  draw(frame: Frame): void;
  resize(): void;
}

export class TableView {
  #renderer: Renderer | undefined;
  #lastFrame: Frame | undefined;
  #params: DemoParams | undefined;

  constructor(
    private readonly container: HTMLElement,
    private readonly stashSlot: HTMLElement,
    private readonly stashNote: HTMLElement,
  ) {
    onResize(() => {
      this.#renderer?.resize();
      if (this.#lastFrame !== undefined) this.#renderer?.draw(this.#lastFrame);
    });
  }

  /** Builds the empty table for `params`. */
  setup(params: DemoParams): void {
    this.container.replaceChildren();
    const slots = params.bucketCount * params.bucketSize;
    this.container.dataset.mode = slots <= DETAILED_SLOT_LIMIT ? 'detailed' : 'compact';
    this.#renderer =
      slots <= DETAILED_SLOT_LIMIT ? new DetailedTable(this.container, params) : new CompactTable(this.container, params);
    this.#lastFrame = undefined;
    this.stashSlot.style.setProperty('--fp-chars', String(fingerprintWidth(params.fingerprintBits, params.format)));
    this.#params = params;
  }

  /**
   * Brings the buckets `frame` marks on screen, below the sticky bar: the whole
   * table when it fits, else its first marked bucket. For a phone, where the
   * operation's buttons and the table are not on one screen.
   */
  reveal(frame: Frame): void {
    const barHeight = document.querySelector<HTMLElement>('.playbar')?.offsetHeight ?? 0;
    const visible = (node: Element) => {
      const box = node.getBoundingClientRect();
      return box.top >= barHeight && box.bottom <= innerHeight;
    };
    const marked = frame.bucketMarks.map(([bucket]) => this.container.querySelector(`[data-bucket="${bucket}"]`) ?? this.container);
    if (marked.length === 0 || marked.every(visible)) return;
    const fits = this.container.getBoundingClientRect().height + barHeight <= innerHeight;
    (fits ? this.container : marked[0]!).scrollIntoView({ block: fits ? 'start' : 'nearest' });
  }

  draw(frame: Frame): void {
    this.#lastFrame = frame;
    this.#renderer?.draw(frame);
    const params = this.#params!;
    const { stash } = frame;
    this.stashSlot.textContent = stash.occupied ? fingerprintText(stash.fingerprint, params.fingerprintBits, params.format) : '·';
    this.stashSlot.classList.toggle('empty', !stash.occupied);
    this.stashSlot.classList.toggle('is-stash', frame.stashMarked);
    this.stashSlot.dataset.fp = String(stash.fingerprint);
    this.stashNote.textContent = stash.occupied
      ? `last evicted from bucket ${stash.bucket} (its other bucket: ${stash.alternateBucket}); lookups check it too`
      : 'empty';
  }
}

class DetailedTable implements Renderer {
  readonly #cells: HTMLElement[] = [];
  readonly #buckets: HTMLElement[] = [];
  readonly #values: Uint32Array;
  #marked: HTMLElement[] = [];

  constructor(container: HTMLElement, private readonly params: DemoParams) {
    const { bucketCount, bucketSize, fingerprintBits, format } = params;
    const grid = element('div', 'bucket-grid');
    grid.style.setProperty('--fp-chars', String(fingerprintWidth(fingerprintBits, format)));
    grid.style.setProperty('--slots', String(bucketSize));
    const indexBits = bucketBits(bucketCount);
    const style = { card: 'bucket', label: 'bucket-label', row: 'slots', cell: 'slot', valueKey: 'fp' };
    for (let bucket = 0; bucket < bucketCount; bucket++) {
      const { card, label, cells } = bucketCard(bucket, bucketSize, style);
      label.append(element('span', 'bucket-bin', binary(bucket, indexBits)), element('span', 'bucket-dec', String(bucket)));
      // Semi-sorted buckets can be focused: the semi-sorted panel shows how the focused one is stored.
      if (params.semiSort) {
        card.tabIndex = 0;
        card.setAttribute('aria-label', `bucket ${bucket}`);
      }
      grid.append(card);
      this.#buckets.push(card);
      this.#cells.push(...cells);
    }
    container.append(grid);
    this.#values = new Uint32Array(bucketCount * bucketSize);
  }

  resize(): void {}

  draw(frame: Frame): void {
    const { fingerprintBits, format } = this.params;
    for (let i = 0; i < this.#cells.length; i++) {
      const value = frame.slots[i]!;
      if (value === this.#values[i]) continue;
      this.#values[i] = value;
      const cell = this.#cells[i]!;
      cell.textContent = value === 0 ? '·' : fingerprintText(value, fingerprintBits, format);
      cell.classList.toggle('empty', value === 0);
      cell.dataset.fp = String(value);
    }
    for (const node of this.#marked) {
      node.classList.remove('is-i1', 'is-i2', 'is-current', 'is-next', 'is-chosen', 'is-placed', 'is-match', 'is-removed');
    }
    this.#marked = [];
    for (const [bucket, mark] of frame.bucketMarks) {
      const card = this.#buckets[bucket];
      if (card === undefined) continue;
      card.classList.add(`is-${mark}`);
      this.#marked.push(card);
    }
    for (const [index, mark] of frame.slotMarks) {
      const cell = this.#cells[index];
      if (cell === undefined) continue;
      cell.classList.add(`is-${mark}`);
      this.#marked.push(cell);
    }
  }
}

class CompactTable implements Renderer {
  readonly #canvas: SlotCanvas;

  constructor(container: HTMLElement, private readonly params: DemoParams) {
    const slots = params.bucketCount * params.bucketSize;
    this.#canvas = new SlotCanvas(container, params.bucketCount, params.bucketSize, () => ({ cell: slots <= 4096 ? 6 : 4, gap: 3 }));
  }

  resize(): void {
    this.#canvas.resize();
  }

  draw(frame: Frame): void {
    const { bucketCount, bucketSize, fingerprintBits } = this.params;
    const canvas = this.#canvas;
    const context = canvas.clear();
    for (let bucket = 0; bucket < bucketCount; bucket++) {
      for (let slot = 0; slot < bucketSize; slot++) {
        const value = frame.slots[bucket * bucketSize + slot]!;
        canvas.square(context, bucket, slot, value === 0 ? '#e5e7eb' : fingerprintColor(value, fingerprintBits));
      }
    }
    canvas.frameBuckets(context, frame.bucketMarks.map(([bucket, mark]) => [bucket, MARK_COLORS[mark]] as const), 2.5);
    for (const [index, mark] of frame.slotMarks) canvas.square(context, Math.floor(index / bucketSize), index % bucketSize, SLOT_COLORS[mark]);
  }
}
