// The partial-key relation for the current item, in the bucket layout the
// filter uses (FORMAT.md): its hash, fingerprint and hash(fingerprint), then
// the step from i1 to i2 and the same step taking i2 back to i1. For a
// power-of-two m (hash id 1) these are XOR sums written out bit by bit; for
// any other m (hash id 2) the reflection about c, i2 = (c − i1) mod m, in
// numbers, and a line on what XOR would do to that table instead. Rows stay
// in place; only contents change.

import type { ItemLocation } from 'cuckoo-wasm/inspect';
import { binary, bucketBits, bucketDigits, element, fingerprintText, hex } from './format.js';
import { hashIdFor, type DemoParams } from './params.js';

type FactName = 'item' | 'hash' | 'fingerprint' | 'fphash';
/** Each row holds the same number in both layouts: hashmod is fingerprintHashMod, the XOR offset or c. */
type SumRow = 'i1' | 'hashmod' | 'i2' | 'back-i2' | 'back-hashmod' | 'back';
type HashId = 1 | 2;

const FACTS: Record<FactName, string> = {
  item: 'item',
  hash: 'hash',
  fingerprint: 'fingerprint f',
  fphash: 'hash(f)',
};

const SUMS: Record<HashId, Array<[title: string, rows: Array<[SumRow, string]>]>> = {
  1: [
    ['forward: i1 → i2', [['i1', 'i1'], ['hashmod', 'XOR hash(f) mod m'], ['i2', '= i2']]],
    ['back: i2 → i1', [['back-i2', 'i2'], ['back-hashmod', 'XOR hash(f) mod m'], ['back', '= i1']]],
  ],
  2: [
    ['forward: i1 → i2', [['hashmod', 'c'], ['i1', '− i1'], ['i2', '= i2, mod m']]],
    ['back: i2 → i1', [['back-hashmod', 'c'], ['back-i2', '− i2'], ['back', '= i1, mod m']]],
  ],
};

interface Row {
  row: HTMLElement;
  bits: HTMLElement;
  value: HTMLElement;
}

/** XOR in a table whose m is not a power of two: `bucket` XOR `offset` lands past the end, and folding it back leads away. */
interface XorBreak {
  bucket: number;
  offset: number;
  lands: number;
  folded: number;
  back: number;
}

function breakAt(m: number, bucket: number, offset: number): XorBreak | undefined {
  const lands = bucket ^ offset;
  if (lands < m) return undefined;
  const folded = lands % m;
  return { bucket, offset, lands, folded, back: folded ^ offset };
}

/** The item's own XOR if it breaks; else another bucket's with the same c; else one that breaks for every such m. */
function xorBreak(m: number, where: ItemLocation | null): XorBreak {
  let found = where === null ? undefined : breakAt(m, where.i1, where.fingerprintHashMod);
  for (let bucket = 0; where !== null && found === undefined && bucket < m; bucket++) {
    found = breakAt(m, bucket, where.fingerprintHashMod);
  }
  // With 2^k the highest power of two below m, bucket m − 2^k XOR 2^k is m: just past the end.
  const top = 2 ** (bucketBits(m) - 1);
  return found ?? breakAt(m, m - top, top)!;
}

/** One line on why XOR needs a power of two, with numbers from this table and, when there is one, this item. */
function whyNotXor(m: number, where: ItemLocation | null, broken: XorBreak): string {
  const { bucket, offset, lands, folded, back } = broken;
  const tail =
    `${bucket} XOR ${offset} = ${lands}, no bucket of 0–${m - 1}; folded back to ${lands} mod ${m} = ${folded}, ` +
    `the way back is ${folded} XOR ${offset} = ${back}, not ${bucket}: a fingerprint moved there would be lost.`;
  const lead = 'XOR needs a power of two:';
  if (where === null) return `${lead} in ${m} buckets, ${tail}`;
  const { i1, fingerprintHashMod: c } = where;
  if (bucket === i1 && offset === c) return `${lead} here i1 XOR c = ${tail}`;
  if (offset === c) return `${lead} here i1 XOR c = ${i1} XOR ${c} = ${i1 ^ c} fits, but from bucket ${bucket}, ${tail}`;
  return `${lead} with this c = ${c} every XOR fits, but with ${offset}, ${tail}`;
}

export class RelationView {
  readonly #layout: HTMLElement;
  readonly #facts = new Map<FactName, Row & { note: HTMLElement }>();
  readonly #sumBox: HTMLElement;
  readonly #sums = new Map<SumRow, Row>();
  readonly #check: HTMLElement;
  readonly #why: HTMLElement;
  readonly #diagram: HTMLElement;
  #params: DemoParams | undefined;
  #hashId: HashId = 1;
  /** Shown while no item is: an example whose two buckets differ (example-item.ts). */
  #example: { item: string; where: ItemLocation } | null = null;

  constructor(container: HTMLElement) {
    this.#layout = element('p', 'relation-layout');
    const facts = element('div', 'relation-facts');
    for (const name of Object.keys(FACTS) as FactName[]) {
      const row = element('div', `relation-row row-${name}`);
      row.dataset.row = name;
      const bits = element('span', 'relation-bits');
      const value = element('span', 'relation-value');
      const note = element('span', 'relation-note');
      row.append(element('span', 'relation-label', FACTS[name]), bits, value, note);
      facts.append(row);
      this.#facts.set(name, { row, bits, value, note });
    }
    this.#sumBox = element('div', 'relation-sums');
    this.#check = element('p', 'relation-check');
    this.#why = element('p', 'relation-why');
    this.#diagram = element('div', 'relation-diagram');
    container.append(this.#layout, facts, this.#sumBox, this.#check, this.#why, this.#diagram);
  }

  #sum(title: string, rows: Array<[SumRow, string]>): HTMLElement {
    const block = element('div', 'relation-sum');
    block.append(element('div', 'sum-title', title));
    for (const [name, label] of rows) {
      const row = element('div', `sum-row row-${name}`);
      row.dataset.row = name;
      const bits = element('span', 'relation-bits');
      const value = element('span', 'relation-value');
      row.append(element('span', 'sum-label', label), bits, value);
      block.append(row);
      this.#sums.set(name, { row, bits, value });
    }
    return block;
  }

  /** The sums and labels of one layout. */
  #build(hashId: HashId): void {
    const m = this.#params!.bucketCount;
    this.#hashId = hashId;
    this.#sums.clear();
    this.#sumBox.replaceChildren(...SUMS[hashId].map(([title, rows]) => this.#sum(title, rows)));
    this.#sumBox.dataset.hashId = String(hashId);
    this.#sumBox.style.setProperty('--digits', String(bucketDigits(m)));
    this.#layout.dataset.hashId = String(hashId);
    this.#layout.replaceChildren(
      element('b', '', `hash id ${hashId}`),
      hashId === 1
        ? ` (xxh3-64-v1): m = ${m} = 2^${Math.log2(m)} is a power of two, so XOR relates the buckets.`
        : ` (xxh3-64-range-v1): m = ${m} is not a power of two, so the buckets reflect about c.`,
    );
    this.#why.hidden = hashId === 1;
  }

  /** A new table; `example` is shown until an item is, and whenever none is. */
  setup(params: DemoParams, example: { item: string; where: ItemLocation } | null = null): void {
    this.#params = params;
    this.#example = example;
    this.#build(hashIdFor(params.bucketCount));
    this.show(null, '');
  }

  #fact(name: FactName, bits: Node | string, value: string, note: string, dataValue?: number): void {
    const fact = this.#facts.get(name)!;
    fact.bits.replaceChildren(bits);
    fact.value.textContent = value;
    fact.note.textContent = note;
    fact.note.title = note;
    if (dataValue === undefined) delete fact.row.dataset.value;
    else fact.row.dataset.value = String(dataValue);
  }

  #sumRow(name: SumRow, value: number | undefined, width: number, flips = 0): void {
    const sum = this.#sums.get(name)!;
    if (value === undefined) {
      sum.bits.replaceChildren(element('span', 'bits blank', '·'.repeat(width)));
      sum.value.textContent = '';
      delete sum.row.dataset.value;
      return;
    }
    sum.bits.replaceChildren(this.#bits(value, width, flips));
    sum.value.textContent = String(value);
    sum.row.dataset.value = String(value);
  }

  /** A row of the reflection: the number in decimal, and how a result wrapped round, if it did. */
  #numberRow(name: SumRow, value: number, working = ''): void {
    const sum = this.#sums.get(name)!;
    sum.bits.replaceChildren(element('span', 'number', String(value)));
    sum.value.textContent = working;
    sum.row.dataset.value = String(value);
  }

  /** Bits as spans; those set in `flips` are marked: the bits the XOR changes. */
  #bits(value: number, width: number, flips = 0): HTMLElement {
    const text = binary(value, width);
    const span = element('span', 'bits');
    span.dataset.bits = text;
    for (let i = 0; i < text.length; i++) {
      const bit = element('span', 'bit', text[i]);
      if ((flips >>> (width - 1 - i)) & 1) bit.classList.add('flip');
      span.append(bit);
    }
    return span;
  }

  show(where: ItemLocation | null, item: string): void {
    const params = this.#params;
    if (params === undefined) return;
    const example = where === null ? this.#example : null;
    if (example !== null) {
      where = example.where;
      item = example.item;
    }
    this.#layout.parentElement!.dataset.example = example === null ? '' : example.item;
    // The trace has the last word on the layout.
    if (where !== null && where.hashId !== this.#hashId) this.#build(where.hashId);
    const m = params.bucketCount;
    const hashId = this.#hashId;
    const width = bucketBits(m);
    const f = params.fingerprintBits;
    if (hashId === 2) this.#showWhy(where);
    if (where === null) {
      this.#fact('item', '—', '', 'insert, look up or delete an item to see its numbers');
      this.#fact('hash', '—', '', '');
      this.#fact('fingerprint', '—', '', '');
      this.#fact('fphash', '—', '', '');
      for (const name of this.#sums.keys()) this.#sumRow(name, undefined, hashId === 1 ? width : bucketDigits(m));
      this.#check.textContent = '';
      this.#diagram.replaceChildren(element('span', 'diagram-hint', 'The two candidate buckets of an item appear here.'));
      return;
    }
    const high = Number(where.hash >> 32n);
    const low = Number(where.hash & 0xffffffffn);
    const c = where.fingerprintHashMod;
    const shown = item.length > 28 ? `${item.slice(0, 27)}…` : item;
    const bytes = `${new TextEncoder().encode(item).length} bytes, hashed by XXH3-64 with seed ${params.seed}`;
    this.#fact('item', `“${shown}”`, '', example === null ? bytes : 'an example: type an item to see its own');
    const hash = element('span', 'hash-hex');
    hash.append(element('span', 'hash-high', hex(high, 32)), ' ', element('span', 'hash-low', hex(low, 32)));
    this.#fact('hash', hash, '', hashId === 1 ? `high half → f, low ${width} bits → i1` : 'high half → f, low half × m / 2^32 → i1');
    this.#fact(
      'fingerprint',
      this.#bits(where.fingerprint, f),
      `= ${where.fingerprint}`,
      `1 + high × (2^${f} − 1) / 2^32${params.format === 'hex' ? ` (hex ${fingerprintText(where.fingerprint, f, 'hex')})` : ''}`,
      where.fingerprint,
    );
    this.#fact(
      'fphash',
      hex(where.fingerprintHash, 32),
      '',
      hashId === 1 ? `mix32(f); mod m keeps its low ${width} bits` : `mix32(f); × m / 2^32 → c = ${c}`,
      where.fingerprintHash,
    );

    let back: number;
    if (hashId === 1) {
      back = where.i2 ^ c;
      this.#sumRow('i1', where.i1, width);
      this.#sumRow('hashmod', c, width);
      this.#sumRow('i2', where.i2, width, c);
      this.#sumRow('back-i2', where.i2, width);
      this.#sumRow('back-hashmod', c, width);
      this.#sumRow('back', back, width, c);
      this.#check.textContent =
        back === where.i1
          ? `✓ The same XOR leads back: from either bucket and f alone, the filter finds the other.${where.i1 === where.i2 ? ' (Here hash(f) mod m is 0: one bucket.)' : ''}`
          : '✗ The way back does not reach i1.';
    } else {
      back = (c - where.i2 + m) % m;
      // Below zero, the difference wraps round the table: that is the mod m.
      const wrap = (from: number) => (c < from ? `(−${from - c} + ${m})` : '');
      this.#numberRow('hashmod', c);
      this.#numberRow('i1', where.i1);
      this.#numberRow('i2', where.i2, wrap(where.i1));
      this.#numberRow('back-hashmod', c);
      this.#numberRow('back-i2', where.i2);
      this.#numberRow('back', back, wrap(where.i2));
      this.#check.textContent =
        back === where.i1
          ? `✓ The same step leads back: either way, i1 + i2 = ${where.i1 + where.i2} ≡ ${c} = c (mod ${m}), so from either bucket and f alone, the filter finds the other.${where.i1 === where.i2 ? ' (Here 2 × i1 ≡ c: one bucket.)' : ''}`
          : '✗ The way back does not reach i1.';
    }

    const box = (label: string, bucket: number, cls: string) => {
      const node = element('span', `diagram-box ${cls}`);
      node.append(element('b', '', `${label} = ${bucket}`));
      if (hashId === 1) node.append(element('small', '', binary(bucket, width)));
      return node;
    };
    const step = hashId === 1 ? `XOR ${binary(c, width)}` : `(${c} − i) mod ${m}`;
    const arrows = element('span', 'diagram-arrows');
    arrows.append(element('span', 'arrow right', `${step} ⟶`), element('span', 'arrow left', `⟵ ${step}`));
    this.#diagram.replaceChildren(box('i1', where.i1, 'i1'), arrows, box('i2', where.i2, 'i2'));
    this.#diagram.dataset.i1 = String(where.i1);
    this.#diagram.dataset.i2 = String(where.i2);
  }

  #showWhy(where: ItemLocation | null): void {
    const m = this.#params!.bucketCount;
    const broken = xorBreak(m, where);
    this.#why.textContent = whyNotXor(m, where, broken);
    for (const [key, value] of Object.entries(broken)) this.#why.dataset[key] = String(value);
  }
}
