// The partial-key relation for the current item: its hash, fingerprint and
// hash(fingerprint), then two XOR sums written out bit by bit — i1 to i2, and
// the same XOR taking i2 back to i1. Rows stay in place; only contents change.

import type { ItemLocation } from 'cuckoo-wasm/inspect';
import { binary, bucketBits, element, fingerprintText, hex } from './format.js';
import type { DemoParams } from './params.js';

type FactName = 'item' | 'hash' | 'fingerprint' | 'fphash';
type SumRow = 'i1' | 'hashmod' | 'i2' | 'back-i2' | 'back-hashmod' | 'back';

const FACTS: Record<FactName, string> = {
  item: 'item',
  hash: 'hash',
  fingerprint: 'fingerprint f',
  fphash: 'hash(f)',
};

interface Row {
  row: HTMLElement;
  bits: HTMLElement;
  value: HTMLElement;
}

export class RelationView {
  readonly #facts = new Map<FactName, Row & { note: HTMLElement }>();
  readonly #sums = new Map<SumRow, Row>();
  readonly #check: HTMLElement;
  readonly #diagram: HTMLElement;
  #params: DemoParams | undefined;

  constructor(container: HTMLElement) {
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
    const sums = element('div', 'relation-sums');
    sums.append(
      this.#sum('forward: i1 → i2', [['i1', 'i1'], ['hashmod', 'XOR hash(f) mod m'], ['i2', '= i2']]),
      this.#sum('back: i2 → i1', [['back-i2', 'i2'], ['back-hashmod', 'XOR hash(f) mod m'], ['back', '= i1']]),
    );
    this.#check = element('p', 'relation-check');
    this.#diagram = element('div', 'relation-diagram');
    container.append(facts, sums, this.#check, this.#diagram);
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

  setup(params: DemoParams): void {
    this.#params = params;
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
    const width = bucketBits(params.bucketCount);
    const f = params.fingerprintBits;
    if (where === null) {
      this.#fact('item', '—', '', 'insert, look up or delete an item to see its numbers');
      this.#fact('hash', '—', '', '');
      this.#fact('fingerprint', '—', '', '');
      this.#fact('fphash', '—', '', '');
      for (const name of this.#sums.keys()) this.#sumRow(name, undefined, width);
      this.#check.textContent = '';
      this.#diagram.replaceChildren(element('span', 'diagram-hint', 'The two candidate buckets of an item appear here.'));
      return;
    }
    const high = Number(where.hash >> 32n);
    const low = Number(where.hash & 0xffffffffn);
    const shown = item.length > 28 ? `${item.slice(0, 27)}…` : item;
    this.#fact('item', `“${shown}”`, '', `${new TextEncoder().encode(item).length} bytes, hashed by XXH3-64 with seed ${params.seed}`);
    const hash = element('span', 'hash-hex');
    hash.append(element('span', 'hash-high', hex(high, 32)), ' ', element('span', 'hash-low', hex(low, 32)));
    this.#fact('hash', hash, '', `high half → f, low ${width} bits → i1`);
    this.#fact(
      'fingerprint',
      this.#bits(where.fingerprint, f),
      `= ${where.fingerprint}`,
      `1 + high × (2^${f} − 1) / 2^32${params.format === 'hex' ? ` (hex ${fingerprintText(where.fingerprint, f, 'hex')})` : ''}`,
      where.fingerprint,
    );
    this.#fact('fphash', hex(where.fingerprintHash, 32), '', `mix32(f); mod m keeps its low ${width} bits`, where.fingerprintHash);

    const mask = where.fingerprintHashMod;
    const back = where.i2 ^ mask;
    this.#sumRow('i1', where.i1, width);
    this.#sumRow('hashmod', mask, width);
    this.#sumRow('i2', where.i2, width, mask);
    this.#sumRow('back-i2', where.i2, width);
    this.#sumRow('back-hashmod', mask, width);
    this.#sumRow('back', back, width, mask);
    this.#check.textContent =
      back === where.i1
        ? `✓ The same XOR leads back: from either bucket and f alone, the filter finds the other.${where.i1 === where.i2 ? ' (Here hash(f) mod m is 0: one bucket.)' : ''}`
        : '✗ The way back does not reach i1.';

    const box = (label: string, bucket: number, cls: string) => {
      const node = element('span', `diagram-box ${cls}`);
      node.append(element('b', '', `${label} = ${bucket}`), element('small', '', binary(bucket, width)));
      return node;
    };
    const text = binary(mask, width);
    const arrows = element('span', 'diagram-arrows');
    arrows.append(element('span', 'arrow right', `XOR ${text} ⟶`), element('span', 'arrow left', `⟵ XOR ${text}`));
    this.#diagram.replaceChildren(box('i1', where.i1, 'i1'), arrows, box('i2', where.i2, 'i2'));
    this.#diagram.dataset.i1 = String(where.i1);
    this.#diagram.dataset.i2 = String(where.i2);
  }
}
