// What the gauges and the two charts show, measured on both filters: the
// cuckoo and the Bloom rates are read on the same never-added probes, so that
// they compare. An operation's readings wait for its last frame, so that the
// gauges do not run ahead of the animation.

import { tableBits, type InsertTrace } from 'cuckoo-wasm/inspect';
import { count, percent, rate } from './format.js';
import { drawFprChart, drawKickChart } from './gauges.js';
import { bloomBits, bloomGauges, gauges, ui } from './page.js';
import { neverAddedProbes, positiveShare } from './probes.js';
import { currentDemo } from './state.js';

export const PROBE_COUNT = 20_000;
const probes = neverAddedProbes(PROBE_COUNT);

export function refreshGauges(record: boolean): void {
  const d = currentDemo();
  const { filter, bloom, params } = d;
  d.gaugesPending = false;
  const load = filter.loadFactor;
  const bound = filter.fprBound;
  const expected = filter.expectedFpr;
  const measured = positiveShare(filter.hasMany(probes));
  const f = params.fingerprintBits;
  const b = params.bucketSize;
  gauges.show([
    {
      name: 'load',
      label: 'load',
      value: load,
      text: `${percent(load)} (${count(filter.size - filter.stashed)} / ${count(filter.slotCount)})${filter.stashed ? ` + ${filter.stashed} stashed` : ''}`,
      bar: load,
      mark: { at: d.maxLoad, label: `practical maximum for b = ${b}: ${percent(d.maxLoad, 0)}` },
      note: filter.full
        ? 'the last insert was refused: its kicks ran out with the stash taken, and were undone'
        : filter.stashed > 0
          ? 'slots in use / slots; one item waits in the stash, outside the table (not in the load)'
          : `slots in use / slots; the mark: inserts start to fail near ${percent(d.maxLoad, 0)} for b = ${b}`,
    },
    { name: 'bound', label: 'FPR bound', value: bound, text: rate(bound), bar: 1, note: `2b / 2^f = ${2 * b} / ${2 ** f}: the rate of a full table` },
    {
      name: 'expected',
      label: 'FPR expected',
      value: expected,
      text: rate(expected),
      bar: expected / bound,
      note: `1 − (1 − 2^−f)^(2b × load): ${2 * b} slots, each ${percent(load, 0)} full`,
    },
    {
      name: 'measured',
      label: 'FPR measured',
      value: measured,
      text: rate(measured),
      bar: measured / bound,
      note: `${count(Math.round(measured * PROBE_COUNT))} of ${count(PROBE_COUNT)} never-added items got “maybe”`,
    },
    {
      name: 'bits',
      label: 'bits per item',
      value: filter.bitsPerItem,
      text: Number.isFinite(filter.bitsPerItem) ? filter.bitsPerItem.toFixed(2) : '—',
      note:
        `${count(tableBits(filter))} table bits (${params.semiSort ? `${f - 1}, semi-sorted` : f} per slot) / ${count(filter.size)} items` +
        (filter.stashed > 0 ? `, one of them in the stash, outside the table: so fewer bits per item than per slot` : ''),
    },
  ]);
  if (record) d.fprPoints.push({ load, expected, measured });
  drawFprChart(ui.fprChart, d.fprPoints, bound);
  drawKickChart(ui.kickChart, d.kickBars, params.maxKicks);

  const bloomMeasured = positiveShare(bloom.hasMany(probes));
  bloomGauges.show([
    {
      name: 'bloom-expected',
      label: 'Bloom FPR expected',
      value: bloom.expectedFpr,
      text: rate(bloom.expectedFpr),
      bar: bloom.expectedFpr / bound,
      note: `(1 − e^(−kn/m))^k with n = ${count(bloom.size)} items`,
    },
    {
      name: 'bloom-measured',
      label: 'Bloom FPR measured',
      value: bloomMeasured,
      text: rate(bloomMeasured),
      bar: bloomMeasured / bound,
      note: `cuckoo: ${rate(measured)} measured on the same ${count(PROBE_COUNT)} items`,
    },
    {
      name: 'bloom-bits',
      label: 'Bloom bits per item',
      value: bloom.bitsPerItem,
      text: Number.isFinite(bloom.bitsPerItem) ? bloom.bitsPerItem.toFixed(2) : '—',
      note: `${count(bloomBits.setCount())} of ${count(bloom.bitCount)} bits set`,
    },
  ]);
}

/** One bar of the kick chart per item added. */
export function recordKicks(trace: InsertTrace, loadBefore: number): void {
  if (trace.added) currentDemo().kickBars.push({ load: loadBefore, kicks: trace.kickCount, stashed: trace.stashed !== null });
}

/** Shows the readings the last operation left for its last frame, before the next one starts. */
export function flushPendingGauges(): void {
  if (currentDemo().gaugesPending) refreshGauges(true);
}
