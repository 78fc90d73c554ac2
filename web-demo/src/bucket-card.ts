// A bucket as both modes write out small tables: a card with a label and a
// row of empty slot cells, which the views then fill and mark.

import { element } from './format.js';

export interface BucketCard {
  card: HTMLElement;
  label: HTMLElement;
  cells: HTMLElement[];
}

/** Class names of the card, its label, its row of slots and a slot; `valueKey` names the data attribute a cell's value goes in. */
export interface CardStyle {
  card: string;
  label: string;
  row: string;
  cell: string;
  valueKey: string;
}

export function bucketCard(bucket: number, slots: number, style: CardStyle): BucketCard {
  const card = element('div', style.card);
  card.dataset.bucket = String(bucket);
  const label = element('span', style.label);
  const row = element('span', style.row);
  const cells = Array.from({ length: slots }, (_, slot) => {
    const cell = element('span', `${style.cell} empty`, '·');
    cell.dataset.slot = String(slot);
    cell.dataset[style.valueKey] = '0';
    return cell;
  });
  row.append(...cells);
  card.append(label, row);
  return { card, label, cells };
}
