// Draws the growable table: a strip of its m = 2^L + s buckets in their three
// parts (split this round, not yet split, the new halves), and the buckets
// themselves: one card per bucket with its slots written out while the table
// is small, a canvas with one square per slot once it is not. Buckets a growth
// has yet to make are drawn as places to come, so the table does not jump.

import { bucketCard } from './bucket-card.js';
import { count, element } from './format.js';
import type { GrowthBucketMark, GrowthMarks, GrowthSlotMark, GrowthTable } from './growth-frames.js';
import { bucketNumberBits } from 'cuckoo-wasm/inspect';
import { bucketBinary, slotChars, slotText, type LevelShape } from './growth-notation.js';
import { BUCKET_SIZE } from './growth-split.js';
import { onResize } from './on-resize.js';
import { fingerprintColor, SlotCanvas } from './slot-canvas.js';

/** Above this many buckets the table is drawn compactly. */
const DETAILED_BUCKET_LIMIT = 64;
/** The compact canvas is at most about this tall; its squares shrink to fit. */
const COMPACT_MAX_HEIGHT = 560;

const MARK_COLORS: Record<GrowthBucketMark, string> = { 'to-split': '#7c3aed', low: '#1f6fd1', high: '#c2410c' };
const SLOT_COLORS: Record<GrowthSlotMark, string> = { placed: '#15803d', 'to-low': '#1f6fd1', 'to-high': '#c2410c', copied: '#a16207' };
const LEVEL_COLORS = { split: '#ccfbf1', base: '#f1f5f9', future: '#ffffff' };

const NO_MARKS: GrowthMarks = { buckets: [], slots: [], split: -1 };

interface Renderer {
  draw(table: GrowthTable, marks: GrowthMarks): void;
  resize(): void;
}

export class GrowthTableView {
  #renderer: Renderer | undefined;
  #reserve = -1;
  #tailBits = 0;
  #fixedBits = 0;
  #last: [GrowthTable, GrowthMarks] | undefined;

  constructor(
    private readonly strip: HTMLElement,
    private readonly container: HTMLElement,
  ) {
    onResize(() => {
      this.#renderer?.resize();
      if (this.#last !== undefined) this.draw(...this.#last);
    });
  }

  /** A new filter: slots of an r-bit fingerprint and a T-bit tail. */
  setup(fixedBits: number, tailBits: number): void {
    this.#tailBits = tailBits;
    this.#fixedBits = fixedBits;
    this.#reserve = -1;
  }

  draw(table: GrowthTable, marks = NO_MARKS): void {
    this.#last = [table, marks];
    const reserve = Math.max(table.reserve, table.shape.bucketCount);
    if (reserve !== this.#reserve) {
      this.#reserve = reserve;
      this.container.replaceChildren();
      const detailed = reserve <= DETAILED_BUCKET_LIMIT;
      this.container.dataset.mode = detailed ? 'detailed' : 'compact';
      this.#renderer = detailed ? new DetailedTable(this.container, reserve, this.#tailBits) : new CompactTable(this.container, reserve, this.#fixedBits, this.#tailBits);
    }
    this.#drawStrip(table.shape, reserve);
    this.#renderer!.draw(table, marks);
    Object.assign(this.container.dataset, {
      buckets: String(table.shape.bucketCount),
      level: String(table.shape.level),
      split: String(table.shape.splitBucket),
    });
  }

  #drawStrip(shape: LevelShape, reserve: number): void {
    const { level: L, splitBucket: s, bucketCount: m } = shape;
    const half = 2 ** L;
    const parts: Array<[string, number, string]> = [
      ['split', s, s === 0 ? '' : `0–${s - 1}: split, ${L + 1} bits`],
      ['base', half - s, `${s}–${half - 1}: ${L} bits${s === 0 ? '' : ', not yet split'}`],
      ['split', m - half, m === half ? '' : `${half}–${m - 1}: new halves, ${L + 1} bits`],
      ['future', reserve - m, reserve === m ? '' : `${m}–${reserve - 1}: to come`],
    ];
    const bar = element('div', 'strip-bar');
    for (const [kind, width, title] of parts) {
      if (width <= 0) continue;
      const part = element('span', `strip-part strip-${kind}`);
      part.style.flexGrow = String(width);
      part.title = title;
      bar.append(part);
    }
    const pointer = element('span', 'strip-pointer', `s = ${s}`);
    pointer.style.left = `${(s / reserve) * 100}%`;
    bar.append(pointer);
    const sum = element(
      'p',
      'strip-sum',
      `m = 2^L + s = ${count(half)} + ${count(s)} = ${count(m)} buckets, level L = ${L}: ` +
        (s === 0 && m === half ? `every bucket number has ${L} bits.` : `buckets below s and from 2^L on have ${L + 1} bits, the others ${L}.`),
    );
    this.strip.replaceChildren(bar, sum);
  }
}

class DetailedTable implements Renderer {
  readonly #cards: HTMLElement[] = [];
  readonly #labels: HTMLElement[] = [];
  readonly #cells: HTMLElement[] = [];
  readonly #values: Float64Array;
  #marked: HTMLElement[] = [];

  constructor(container: HTMLElement, reserve: number, private readonly tailBits: number) {
    const grid = element('div', 'growth-grid');
    grid.style.setProperty('--slot-chars', String(slotChars(tailBits)));
    const style = { card: 'gbucket', label: 'gbucket-label', row: 'gslots', cell: 'gslot', valueKey: 'value' };
    for (let bucket = 0; bucket < reserve; bucket++) {
      const { card, label, cells } = bucketCard(bucket, BUCKET_SIZE, style);
      grid.append(card);
      this.#cards.push(card);
      this.#labels.push(label);
      this.#cells.push(...cells);
    }
    container.append(grid);
    this.#values = new Float64Array(reserve * BUCKET_SIZE).fill(-1);
  }

  resize(): void {}

  draw(table: GrowthTable, marks: GrowthMarks): void {
    const m = table.shape.bucketCount;
    this.#cards.forEach((card, bucket) => {
      const future = bucket >= m;
      const level = future ? -1 : bucketNumberBits(table.shape, bucket);
      const state = future ? 'future' : level > table.shape.level ? 'split' : 'base';
      if (card.dataset.state !== state || card.dataset.level !== String(level)) {
        card.dataset.state = state;
        card.dataset.level = String(level);
        const label = this.#labels[bucket]!;
        label.replaceChildren(element('span', 'gbucket-bin', future ? 'new' : bucketBinary(bucket, level)), element('span', 'gbucket-dec', String(bucket)));
      }
    });
    for (let i = 0; i < this.#cells.length; i++) {
      const value = i < m * BUCKET_SIZE ? table.slots[i]! : 0;
      if (value === this.#values[i]) continue;
      this.#values[i] = value;
      const cell = this.#cells[i]!;
      cell.dataset.value = String(value);
      cell.classList.toggle('empty', value === 0);
      if (value === 0) {
        cell.textContent = '·';
        continue;
      }
      const { fingerprint, tail } = slotText(value, this.tailBits);
      // The tail's last bit is the one the next split reads.
      const rest = tail.length > 1 ? tail.slice(0, -1) : '';
      const last = tail.length > 1 ? tail.slice(-1) : tail;
      cell.replaceChildren(element('span', 'gfp', fingerprint), element('span', 'gtail', rest), element('b', 'gnext', last));
      cell.classList.toggle('spent', last === '∅');
    }
    for (const node of this.#marked) node.classList.remove('is-to-split', 'is-low', 'is-high', 'is-placed', 'is-to-low', 'is-to-high', 'is-copied');
    this.#marked = [];
    for (const [bucket, mark] of marks.buckets) this.#mark(this.#cards[bucket], mark);
    for (const [index, mark] of marks.slots) this.#mark(this.#cells[index], mark);
  }

  #mark(node: HTMLElement | undefined, mark: string): void {
    if (node === undefined) return;
    node.classList.add(`is-${mark}`);
    this.#marked.push(node);
  }
}

/** The largest squares (6 px down to 1) that keep the canvas within its height. */
function cellsToFit(bucketCount: number) {
  return (width: number) => {
    let cell = 6;
    while (cell > 1 && Math.ceil(bucketCount / Math.floor(width / (BUCKET_SIZE * cell + 3))) * (cell + 3) > COMPACT_MAX_HEIGHT) cell--;
    return { cell, gap: cell > 2 ? 3 : 2 };
  };
}

class CompactTable implements Renderer {
  readonly #canvas: SlotCanvas;

  constructor(
    container: HTMLElement,
    private readonly reserve: number,
    private readonly fixedBits: number,
    private readonly tailBits: number,
  ) {
    this.#canvas = new SlotCanvas(container, reserve, BUCKET_SIZE, cellsToFit(reserve));
  }

  resize(): void {
    this.#canvas.resize();
  }

  draw(table: GrowthTable, marks: GrowthMarks): void {
    const canvas = this.#canvas;
    const context = canvas.clear();
    const cell = canvas.cell;
    const m = table.shape.bucketCount;
    for (let bucket = 0; bucket < this.reserve; bucket++) {
      const [x, y] = canvas.origin(bucket);
      const future = bucket >= m;
      // Each bucket on a ground of its level, so the split ones show as a band.
      context.fillStyle = future ? LEVEL_COLORS.future : bucketNumberBits(table.shape, bucket) > table.shape.level ? LEVEL_COLORS.split : LEVEL_COLORS.base;
      context.fillRect(x - 1, y - 1, BUCKET_SIZE * cell + 1, cell + 1);
      if (future) {
        context.strokeStyle = '#cbd5e1';
        context.lineWidth = 1;
        context.strokeRect(x - 0.5, y - 0.5, BUCKET_SIZE * cell, cell);
        continue;
      }
      for (let slot = 0; slot < BUCKET_SIZE; slot++) {
        const value = table.slots[bucket * BUCKET_SIZE + slot]!;
        if (value !== 0) canvas.square(context, bucket, slot, fingerprintColor(value >>> this.tailBits, this.fixedBits));
      }
    }
    canvas.frameBuckets(context, marks.buckets.map(([bucket, mark]) => [bucket, MARK_COLORS[mark]] as const), 2);
    for (const [index, mark] of marks.slots) canvas.square(context, Math.floor(index / BUCKET_SIZE), index % BUCKET_SIZE, SLOT_COLORS[mark]);
  }
}
