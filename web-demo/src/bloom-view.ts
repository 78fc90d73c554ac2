// The Bloom filter's bit array on a canvas, with the current item's k probe
// positions (from the core) marked. Which bits are set is known from the
// positions the core reported for every item added, so the page can also say
// how many items share each bit — the reason a Bloom filter cannot delete.

import { element } from './format.js';
import { onResize } from './on-resize.js';

export type ProbeMode = 'probe' | 'delete';

export class BloomBits {
  #bitCount = 0;
  /** How many distinct added items probe each bit (repeats of one item count once per add). */
  #owners = new Uint32Array(0);
  #probes: Uint32Array = new Uint32Array(0);
  #mode: ProbeMode = 'probe';
  #cell = 8;
  #perRow = 1;

  constructor(private readonly canvas: HTMLCanvasElement) {
    onResize(() => {
      this.#layout();
      this.draw();
    });
  }

  setup(bitCount: number): void {
    this.#bitCount = bitCount;
    this.#owners = new Uint32Array(bitCount);
    this.#probes = new Uint32Array(0);
    this.#layout();
    this.draw();
  }

  /** Records an added item's probe positions. */
  add(positions: Uint32Array): void {
    for (const position of new Set(positions)) this.#owners[position]!++;
  }

  /** Items other than the one probing `positions` (added `copies` times) that set each of its bits. */
  othersSharing(positions: Uint32Array, copies: number): number[] {
    return [...positions].map((p) => this.#owners[p]! - copies);
  }

  setCount(): number {
    let set = 0;
    for (const owners of this.#owners) if (owners > 0) set++;
    return set;
  }

  show(probes: Uint32Array, mode: ProbeMode): void {
    this.#probes = probes;
    this.#mode = mode;
    this.draw();
    this.canvas.dataset.probes = [...probes].join(',');
    this.canvas.dataset.mode = mode;
  }

  #layout(): void {
    const width = Math.max(200, this.canvas.parentElement?.clientWidth ?? 600);
    const bits = Math.max(1, this.#bitCount);
    // The largest square cell that fits every bit in at most ~260 px of height.
    let cell = 14;
    while (cell > 2 && Math.ceil(bits / Math.floor(width / cell)) * cell > 260) cell--;
    this.#cell = cell;
    this.#perRow = Math.max(1, Math.floor(width / cell));
    const height = Math.ceil(bits / this.#perRow) * cell;
    const ratio = devicePixelRatio || 1;
    this.canvas.width = Math.round(this.#perRow * cell * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.canvas.style.width = `${this.#perRow * cell}px`;
    this.canvas.style.height = `${height}px`;
    this.canvas.getContext('2d')!.setTransform(ratio, 0, 0, ratio, 0, 0);
  }

  draw(): void {
    const context = this.canvas.getContext('2d')!;
    const cell = this.#cell;
    const gap = cell >= 6 ? 1 : 0;
    context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    for (let bit = 0; bit < this.#bitCount; bit++) {
      context.fillStyle = this.#owners[bit]! > 0 ? '#334155' : '#e2e8f0';
      context.fillRect((bit % this.#perRow) * cell, Math.floor(bit / this.#perRow) * cell, cell - gap, cell - gap);
    }
    for (const bit of this.#probes) {
      const x = (bit % this.#perRow) * cell;
      const y = Math.floor(bit / this.#perRow) * cell;
      const shared = this.#mode === 'delete' && this.#owners[bit]! > 1;
      const color = shared ? '#dc2626' : '#f59e0b';
      if (cell >= 6) {
        context.fillStyle = color;
        context.fillRect(x, y, cell - gap, cell - gap);
        context.lineWidth = 2;
        context.strokeStyle = '#111827';
        context.strokeRect(x + 1, y + 1, cell - gap - 2, cell - gap - 2);
      } else {
        // Bits this small get a ring around them, or a probe would be invisible.
        context.beginPath();
        context.arc(x + cell / 2, y + cell / 2, 6, 0, 2 * Math.PI);
        context.lineWidth = 3;
        context.strokeStyle = color;
        context.stroke();
        context.lineWidth = 1;
        context.strokeStyle = '#111827';
        context.stroke();
      }
    }
  }
}

export function probeList(positions: Uint32Array, limit = 12): string {
  const shown = [...positions].slice(0, limit).join(', ');
  return positions.length > limit ? `${shown}, …` : shown;
}

export function summaryLine(label: string, value: string): HTMLElement {
  const line = element('div', 'summary-line');
  const text = element('span', 'summary-value', value);
  text.title = value;
  line.append(element('span', 'summary-label', label), text);
  return line;
}
