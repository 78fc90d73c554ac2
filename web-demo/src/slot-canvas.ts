// A canvas with one small square per slot, buckets side by side in rows as
// wide as its container: how both modes draw tables too large to write out.
// It knows the geometry (where a bucket's squares are); what colour each
// square gets is its users' business.

import { element } from './format.js';

/** How big a slot's square is and the gap around a bucket, for a container `width` pixels wide. */
export type CellSize = (width: number) => { cell: number; gap: number };

export class SlotCanvas {
  readonly canvas: HTMLCanvasElement;
  #cell = 4;
  #perRow = 1;
  #bucketWidth = 1;
  #rowHeight = 1;

  constructor(
    private readonly container: HTMLElement,
    private readonly bucketCount: number,
    private readonly bucketSize: number,
    private readonly cellSize: CellSize,
  ) {
    this.canvas = element('canvas', 'compact-table');
    this.canvas.setAttribute('aria-label', `${bucketCount} buckets of ${bucketSize} slots, one square per slot`);
    container.append(this.canvas);
    this.resize();
  }

  get cell(): number {
    return this.#cell;
  }

  resize(): void {
    const width = Math.max(200, this.container.clientWidth);
    const { cell, gap } = this.cellSize(width);
    this.#cell = cell;
    this.#bucketWidth = this.bucketSize * cell + gap;
    this.#perRow = Math.max(1, Math.floor(width / this.#bucketWidth));
    this.#rowHeight = cell + gap;
    const rows = Math.ceil(this.bucketCount / this.#perRow);
    const ratio = devicePixelRatio || 1;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(rows * this.#rowHeight * ratio);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${rows * this.#rowHeight}px`;
    this.canvas.getContext('2d')!.setTransform(ratio, 0, 0, ratio, 0, 0);
  }

  /** The top left corner of a bucket's first square. */
  origin(bucket: number): [number, number] {
    return [(bucket % this.#perRow) * this.#bucketWidth + 1, Math.floor(bucket / this.#perRow) * this.#rowHeight + 1];
  }

  /** The context, cleared. */
  clear(): CanvasRenderingContext2D {
    const context = this.canvas.getContext('2d')!;
    context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    return context;
  }

  /** Fills the square of slot `slot` of `bucket`. */
  square(context: CanvasRenderingContext2D, bucket: number, slot: number, color: string): void {
    const [x, y] = this.origin(bucket);
    const size = Math.max(1, this.#cell - 1);
    context.fillStyle = color;
    context.fillRect(x + slot * this.#cell, y, size, size);
  }

  /** Frames marked buckets, the frame wider than the gaps so that they stand out among thousands. */
  frameBuckets(context: CanvasRenderingContext2D, buckets: Iterable<readonly [bucket: number, color: string]>, lineWidth: number): void {
    context.lineWidth = lineWidth;
    for (const [bucket, color] of buckets) {
      const [x, y] = this.origin(bucket);
      context.strokeStyle = color;
      context.strokeRect(x - lineWidth, y - lineWidth, this.bucketSize * this.#cell + 2 * lineWidth - 1, this.#cell + 2 * lineWidth - 1);
    }
  }
}

// Slot colours: a fingerprint's hue, so equal fingerprints look alike.
export function fingerprintColor(value: number, bits: number): string {
  const hue = Math.round(((value * 0.6180339887) % 1) * 360);
  const light = 38 + Math.round((value / 2 ** bits) * 20);
  return `hsl(${hue} 55% ${light}%)`;
}
