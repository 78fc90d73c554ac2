// The growth mode's numbers: the table's shape and fill, what an item costs,
// and the false-positive rate three ways (the promise made at creation, the
// bound at this size, the rate measured on never-added items), with every
// added item looked up again; and the log of growths, one row each.

import { count, element, percent, rate } from './format.js';
import { rateInterval } from './probes.js';
import type { GaugeList } from './gauges.js';
import { BUCKET_SIZE, MAX_LOAD } from './growth-split.js';
import type { GrowthRow, RatePoint } from './growth-state.js';
import type { ScalableShape } from 'cuckoo-wasm/inspect';

export interface GaugeReading {
  shape: ScalableShape;
  items: number;
  bitsPerItem: number;
  bound: number;
  fpr: number;
  measured: number;
  probes: number;
  found: number;
  /** Items when the rate and the lookups were last measured. */
  measuredAt: number;
}

export function showGrowthGauges(gauges: GaugeList, r: GaugeReading): void {
  const { shape, items } = r;
  const L = shape.level;
  const slots = BUCKET_SIZE * shape.bucketCount;
  const load = shape.entryCount / slots;
  const copies = shape.entryCount - items;
  const W = shape.fixedBits + shape.tailBits;
  gauges.show([
    {
      name: 'buckets',
      label: 'buckets m',
      value: shape.bucketCount,
      text: `${count(shape.bucketCount)} = 2^${L} + ${count(shape.splitBucket)}`,
      note: `${count(slots)} slots, 4 per bucket`,
    },
    {
      name: 'level',
      label: 'level L',
      value: L,
      text: String(L),
      note: `doubled ${L - shape.initialLevel} ${L - shape.initialLevel === 1 ? 'time' : 'times'} since it was made (L = ${shape.initialLevel})`,
    },
    {
      name: 'split',
      label: 'split pointer s',
      value: shape.splitBucket,
      text: count(shape.splitBucket),
      note: `the next bucket to split; ${count(2 ** L - shape.splitBucket)} left in this round`,
    },
    {
      name: 'items',
      label: 'items',
      value: items,
      text: count(items),
      note: `${count(shape.entryCount)} entries: ${count(copies)} ${copies === 1 ? 'is a copy' : 'are copies'} of spent tails`,
    },
    {
      name: 'load',
      label: 'load',
      value: load,
      text: percent(load),
      bar: load,
      mark: { at: MAX_LOAD, label: `grows past ${percent(MAX_LOAD, 0)}` },
      note: `entries / slots; the table grows when it passes ${percent(MAX_LOAD, 0)}`,
    },
    {
      name: 'slot-bits',
      label: 'slot bits W',
      value: W,
      text: `${W} = ${shape.fixedBits} + ${shape.tailBits}`,
      note: `r = ${shape.fixedBits} fingerprint bits + T = ${shape.tailBits} tail bits, fixed at creation for the promise`,
    },
    {
      name: 'bits',
      label: 'bits per item',
      value: r.bitsPerItem,
      text: Number.isFinite(r.bitsPerItem) ? r.bitsPerItem.toFixed(2) : '—',
      note: `the table's bits / items ≈ W / load = ${W} / ${load.toFixed(2)}`,
    },
    { name: 'promise', label: 'FPR promise', value: r.fpr, text: rate(r.fpr), bar: 1, note: 'asked for at creation: kept at every size' },
    {
      name: 'bound',
      label: 'FPR bound',
      value: r.bound,
      text: rate(r.bound),
      bar: r.bound / r.fpr,
      note: `8 slots × 0.9 × 2 (rounds + 1) / 2^W, ${L - shape.initialLevel} rounds: rises a step per doubling`,
    },
    {
      name: 'measured',
      label: 'FPR measured',
      value: r.measured,
      text: rate(r.measured),
      bar: r.measured / r.fpr,
      note: (() => {
        const hits = Math.round(r.measured * r.probes);
        const [low, high] = rateInterval(hits, r.probes);
        return `${count(hits)} of ${count(r.probes)} never-added items got “maybe” (at ${count(r.measuredAt)} items); 95\u00a0% interval ${rate(low)}–${rate(high)}`;
      })(),
    },
    {
      name: 'found',
      label: 'items found',
      value: r.found,
      text: `${count(r.found)} of ${count(r.measuredAt)}`,
      note: r.found === r.measuredAt ? 'every added item, looked up again: no false negatives' : 'some added items are not found!',
    },
  ]);
}

function cell(text: string, className?: string): HTMLTableCellElement {
  return element('td', className, text);
}

/** The log of growths, newest first, each with the rate measured after it. */
export function showGrowthLog(body: HTMLTableSectionElement, rows: readonly GrowthRow[], points: readonly RatePoint[]): void {
  const fragment = document.createDocumentFragment();
  for (const row of [...rows].reverse()) {
    const after = points.find((p) => p.buckets === row.to.bucketCount && p.items === row.items);
    const tr = element('tr');
    Object.assign(tr.dataset, {
      index: String(row.index),
      items: String(row.items),
      from: String(row.from.bucketCount),
      to: String(row.to.bucketCount),
      level: String(row.to.level),
      split: String(row.to.splitBucket),
      copies: String(row.copies),
      early: String(row.early),
      measured: String(after?.measured ?? ''),
      low: String(after?.interval[0] ?? ''),
      high: String(after?.interval[1] ?? ''),
      bound: String(after?.bound ?? ''),
      grewAt: String(after?.grewAt ?? ''),
    });
    tr.append(
      cell(String(row.index)),
      cell(count(row.items)),
      cell(`${count(row.from.bucketCount)} → ${count(row.to.bucketCount)}${row.early ? '*' : ''}`),
      cell(`${row.to.level}, ${count(row.to.splitBucket)}`),
      cell(count(row.copies)),
      cell(after === undefined ? '—' : rate(after.measured)),
      cell(after === undefined ? '—' : rate(after.bound)),
      cell(after === undefined ? '—' : after.bitsPerItem.toFixed(1)),
    );
    if (row.early) tr.title = 'early: an add’s evictions ran out before the load reached 90 %';
    fragment.append(tr);
  }
  body.replaceChildren(fragment);
  body.dataset.rows = String(rows.length);
}
