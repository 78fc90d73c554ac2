// The sizing calculator beside the space view: n items and a rate ε in; out,
// for a plain cuckoo filter, a semi-sorted one and a Bloom filter, what the
// core's own sizing chooses (inspect's sizeFor and bloomSizeFor, the choice
// CuckooFilter.create and BloomFilter.create make, computed without making a
// table): shape, memory, bits per item, and the rate expected at n items with
// the bound. The space view's curves are redrawn for n, the choice marked.

import { bloomSizeFor, sizeFor, type BloomSizing, type CuckooSizing } from 'cuckoo-wasm/inspect';
import { count, element, rate } from './format.js';
import { byId } from './page.js';
import type { SpaceChoice, SpaceView } from './space-view.js';

export const DEFAULT_SIZING = { capacity: 1_000_000, fpr: 0.001 };
/** Up to what the sizing itself accepts; a number above 2^53 is not exact in JavaScript. */
const MAX_ITEMS = Number.MAX_SAFE_INTEGER;
const DEBOUNCE_MS = 250;

/** Bytes in the largest unit that keeps a number of at least 1: 1.72 MB. */
export function bytes(bits: number): string {
  const value = bits / 8;
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let unit = 0;
  let scaled = value;
  while (scaled >= 1000 && unit < units.length - 1) {
    scaled /= 1000;
    unit++;
  }
  return `${unit === 0 ? count(Math.ceil(scaled)) : scaled.toPrecision(3)}\u00a0${units[unit]}`;
}

type Sized<T> = { ok: true; value: T } | { ok: false; error: string };

function attempt<T>(size: () => T): Sized<T> {
  try {
    return { ok: true, value: size() };
  } catch (error) {
    // The core's own words, without the function's name in front.
    return { ok: false, error: (error instanceof Error ? error.message : String(error)).replace(/^inspect\.\w+: /, '') };
  }
}

export class SizingCalculator {
  readonly #form = byId<HTMLFormElement>('sizing-form');
  readonly #items = byId<HTMLInputElement>('sizing-n');
  readonly #rate = byId<HTMLInputElement>('sizing-fpr');
  readonly #rows = byId('sizing-rows');
  readonly #note = byId('sizing-note');
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly space: SpaceView) {
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.calculate();
    });
    this.#form.addEventListener('input', () => {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.calculate(), DEBOUNCE_MS);
    });
  }

  /** Fills the form with n and ε (a fraction) and sizes them. */
  set(capacity: number, fpr: number): void {
    this.#items.value = String(capacity);
    this.#rate.value = String(Number((fpr * 100).toPrecision(6)));
    this.calculate();
  }

  /** Reads the form, sizes n at ε, shows the three choices and marks them on the space view. */
  calculate(): void {
    const capacity = Number(this.#items.value);
    const fpr = Number(this.#rate.value) / 100;
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_ITEMS) {
      return this.#refuse(`n must be a whole number of items from 1 to ${count(MAX_ITEMS)}.`);
    }
    if (!(fpr > 0 && fpr < 1) || this.#rate.value.trim() === '') return this.#refuse('ε must be a percentage above 0 and below 100.');
    const plain = attempt(() => sizeFor({ capacity, fpr }));
    const semiSorted = attempt(() => sizeFor({ capacity, fpr, semiSort: true }));
    const bloom = attempt(() => bloomSizeFor({ capacity, fpr }));
    this.#rows.replaceChildren(this.#cuckooRow('cuckoo', plain), this.#cuckooRow('semi-sorted', semiSorted), this.#bloomRow(bloom));
    Object.assign(this.#form.dataset, { capacity: String(capacity), fpr: String(fpr) });
    const choice: SpaceChoice = { fpr, bits: {} };
    if (plain.ok) choice.bits.plain = plain.value.bitsPerItem;
    if (semiSorted.ok) choice.bits.semiSorted = semiSorted.value.bitsPerItem;
    if (bloom.ok) choice.bits.bloom = bloom.value.bitsPerItem;
    this.#note.textContent = this.#verdict(plain, semiSorted, bloom);
    if (plain.ok || bloom.ok) this.space.start(capacity);
    this.space.mark(choice);
  }

  #refuse(message: string): void {
    this.#note.textContent = message;
    this.#rows.replaceChildren();
    this.space.mark(undefined);
  }

  #row(name: string, cells: string[], data: Record<string, string>): HTMLTableRowElement {
    const tr = element('tr');
    Object.assign(tr.dataset, { kind: name, ...data });
    tr.append(element('th', '', name), ...cells.map((text) => element('td', '', text)));
    return tr;
  }

  #cuckooRow(name: string, sized: Sized<CuckooSizing>): HTMLTableRowElement {
    if (!sized.ok) return this.#refusedRow(name, sized.error);
    const s = sized.value;
    return this.#row(
      name,
      [`b = ${s.bucketSize}, f = ${s.fingerprintBits}`, `${count(s.bucketCount)} buckets`, bytes(s.tableBits), s.bitsPerItem.toFixed(2), rate(s.expectedFpr), rate(s.fprBound)],
      { b: String(s.bucketSize), f: String(s.fingerprintBits), buckets: String(s.bucketCount), bits: String(s.tableBits), bitsPerItem: String(s.bitsPerItem), expected: String(s.expectedFpr), bound: String(s.fprBound) },
    );
  }

  #bloomRow(sized: Sized<BloomSizing>): HTMLTableRowElement {
    if (!sized.ok) return this.#refusedRow('Bloom', sized.error);
    const s = sized.value;
    return this.#row(
      'Bloom',
      [`k = ${s.hashCount}`, `${count(s.bitCount)} bits`, bytes(s.bitCount), s.bitsPerItem.toFixed(2), rate(s.expectedFpr), '—'],
      { k: String(s.hashCount), bits: String(s.bitCount), bitsPerItem: String(s.bitsPerItem), expected: String(s.expectedFpr) },
    );
  }

  #refusedRow(name: string, error: string): HTMLTableRowElement {
    const tr = this.#row(name, [], { refused: error });
    const cell = element('td', 'refused', error);
    cell.colSpan = 6;
    tr.append(cell);
    return tr;
  }

  /** Which takes the least memory, in words, from the rows. */
  #verdict(plain: Sized<CuckooSizing>, semiSorted: Sized<CuckooSizing>, bloom: Sized<BloomSizing>): string {
    const options = [
      ['a cuckoo filter', plain],
      ['a semi-sorted cuckoo filter', semiSorted],
      ['a Bloom filter', bloom],
    ] as const;
    const sized = options.flatMap(([name, s]) => (s.ok ? [{ name, bits: s.value.bitsPerItem }] : []));
    if (sized.length === 0) return 'The core refuses all three: see each row.';
    const best = sized.reduce((a, b) => (b.bits < a.bits ? b : a));
    const others = sized.filter((s) => s !== best).map((s) => `${s.name} ${s.bits.toFixed(2)}`);
    return `Fewest bits: ${best.name}, ${best.bits.toFixed(2)} per item${others.length > 0 ? ` (${others.join(', ')})` : ''}. Marked on the chart below.`;
  }
}
