// Draws the table. Teaching sizes get one element per slot with its
// fingerprint written out; larger tables a canvas with one small square per
// slot. Cells have fixed sizes, so nothing moves while frames change.

import type { BucketMark, Frame, SlotMark } from './frames.js';
import { binary, bucketBits, element, fingerprintText, fingerprintWidth } from './format.js';
import type { DemoParams } from './params.js';

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
    let pending = false;
    addEventListener('resize', () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        this.#renderer?.resize();
        if (this.#lastFrame !== undefined) this.#renderer?.draw(this.#lastFrame);
      });
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
      ? `last evicted from bucket ${stash.bucket} (its other bucket: ${stash.alternateBucket}) — the filter is full`
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
    const empty = '·';
    for (let bucket = 0; bucket < bucketCount; bucket++) {
      const card = element('div', 'bucket');
      card.dataset.bucket = String(bucket);
      const label = element('span', 'bucket-label');
      label.append(element('span', 'bucket-bin', binary(bucket, indexBits)), element('span', 'bucket-dec', String(bucket)));
      const row = element('span', 'slots');
      for (let slot = 0; slot < bucketSize; slot++) {
        const cell = element('span', 'slot empty', empty);
        cell.dataset.slot = String(slot);
        cell.dataset.fp = '0';
        row.append(cell);
        this.#cells.push(cell);
      }
      card.append(label, row);
      grid.append(card);
      this.#buckets.push(card);
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

// Slot colours: a fingerprint's hue, so equal fingerprints look alike.
function fingerprintColor(value: number, bits: number): string {
  const hue = Math.round(((value * 0.6180339887) % 1) * 360);
  const light = 38 + Math.round((value / 2 ** bits) * 20);
  return `hsl(${hue} 55% ${light}%)`;
}

class CompactTable implements Renderer {
  readonly #canvas: HTMLCanvasElement;
  #cell = 4;
  #perRow = 1;
  #bucketWidth = 1;
  #rowHeight = 1;

  constructor(private readonly container: HTMLElement, private readonly params: DemoParams) {
    this.#canvas = element('canvas', 'compact-table');
    this.#canvas.setAttribute('aria-label', `${params.bucketCount} buckets of ${params.bucketSize} slots, one square per slot`);
    container.append(this.#canvas);
    this.resize();
  }

  resize(): void {
    const { bucketCount, bucketSize } = this.params;
    const width = Math.max(200, this.container.clientWidth);
    const slots = bucketCount * bucketSize;
    this.#cell = slots <= 4096 ? 6 : 4;
    this.#bucketWidth = bucketSize * this.#cell + 3;
    this.#perRow = Math.max(1, Math.floor(width / this.#bucketWidth));
    this.#rowHeight = this.#cell + 3;
    const rows = Math.ceil(bucketCount / this.#perRow);
    const ratio = devicePixelRatio || 1;
    this.#canvas.width = Math.round(width * ratio);
    this.#canvas.height = Math.round(rows * this.#rowHeight * ratio);
    this.#canvas.style.width = `${width}px`;
    this.#canvas.style.height = `${rows * this.#rowHeight}px`;
    this.#canvas.getContext('2d')!.setTransform(ratio, 0, 0, ratio, 0, 0);
  }

  #origin(bucket: number): [number, number] {
    return [(bucket % this.#perRow) * this.#bucketWidth + 1, Math.floor(bucket / this.#perRow) * this.#rowHeight + 1];
  }

  draw(frame: Frame): void {
    const { bucketCount, bucketSize, fingerprintBits } = this.params;
    const context = this.#canvas.getContext('2d')!;
    context.clearRect(0, 0, this.#canvas.width, this.#canvas.height);
    const cell = this.#cell;
    for (let bucket = 0; bucket < bucketCount; bucket++) {
      const [x, y] = this.#origin(bucket);
      for (let slot = 0; slot < bucketSize; slot++) {
        const value = frame.slots[bucket * bucketSize + slot]!;
        context.fillStyle = value === 0 ? '#e5e7eb' : fingerprintColor(value, fingerprintBits);
        context.fillRect(x + slot * cell, y, cell - 1, cell - 1);
      }
    }
    // Marked buckets get a frame wider than the gaps, so they stand out among thousands.
    context.lineWidth = 2.5;
    for (const [bucket, mark] of frame.bucketMarks) {
      const [x, y] = this.#origin(bucket);
      context.strokeStyle = MARK_COLORS[mark];
      context.strokeRect(x - 2.5, y - 2.5, bucketSize * cell + 4, cell + 4);
    }
    for (const [index, mark] of frame.slotMarks) {
      const [x, y] = this.#origin(Math.floor(index / bucketSize));
      context.fillStyle = SLOT_COLORS[mark];
      context.fillRect(x + (index % bucketSize) * cell, y, cell - 1, cell - 1);
    }
  }
}
