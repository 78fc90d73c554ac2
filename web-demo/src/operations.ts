// One insert, lookup or delete, done by the core on both filters and traced,
// then turned into the frames the player animates. Each first ends a bulk run
// and shows the gauges the previous operation left pending, so that every
// operation's reading is recorded before the next one changes the filter.

import { traceAdd, traceDelete, traceHas } from 'cuckoo-wasm/inspect';
import { addToBloom, explainBloomDelete, showBloomSummary } from './bloom-side.js';
import { stopBulk } from './bulk.js';
import { deleteFrames, stashWalk } from './delete-frames.js';
import { insertFrames, lookupFrames, type Frame } from './frames.js';
import { flushPendingGauges, recordKicks } from './gauge-readings.js';
import { refreshKnownItems } from './items.js';
import { falsePositiveFrames, findFalsePositive, showFalsePositive } from './false-positive.js';
import { chainView, relationView, tableView, ui } from './page.js';
import { player } from './playback.js';
import { currentDemo, readTable } from './state.js';

/** Plays an operation's steps; on a phone, its buckets are brought on screen first, below the bar with the caption. */
function play(frames: Frame[]): void {
  if (matchMedia('(max-width: 600px)').matches) tableView.reveal(frames[0]!);
  player.load(frames);
}

export function insert(item: string): void {
  stopBulk();
  flushPendingGauges();
  const d = currentDemo();
  const loadBefore = d.filter.loadFactor;
  const before = readTable();
  const trace = traceAdd(d.filter, item);
  const after = readTable();
  recordKicks(trace, loadBefore);
  if (trace.added) {
    d.items.push(item);
    addToBloom(item);
    refreshKnownItems();
  }
  relationView.show(trace, item);
  chainView.load(trace);
  showBloomSummary({ item, i1: trace.i1, i2: trace.i2 });
  // A refused insert changes no slot, but the load gauge tells of the refusal.
  d.gaugesPending = true;
  play(insertFrames(item, trace, before, after, d.params));
}

export function lookup(item: string): void {
  stopBulk();
  flushPendingGauges();
  const d = currentDemo();
  const trace = traceHas(d.filter, item);
  relationView.show(trace, item);
  chainView.load(null, 'Lookups only read the two buckets (and the stash): they never kick.');
  showBloomSummary({ item, i1: trace.i1, i2: trace.i2 });
  play(lookupFrames(item, trace, readTable(), d.params, d.bloom.has(item)));
}

export function remove(item: string): void {
  stopBulk();
  flushPendingGauges();
  const d = currentDemo();
  const before = readTable();
  const trace = traceDelete(d.filter, item);
  const after = readTable();
  if (trace.deleted) {
    const index = d.items.lastIndexOf(item);
    if (index >= 0) d.items.splice(index, 1);
    refreshKnownItems();
  }
  relationView.show(trace, item);
  // A delete kicks nothing, but the room it makes lets the stashed fingerprint walk again: its kicks are the chain.
  chainView.load(stashWalk(trace), 'Deletes remove one copy of the fingerprint from one of the two buckets: no kicks.');
  const positions = showBloomSummary({ item, i1: trace.i1, i2: trace.i2 }, 'delete');
  explainBloomDelete(item, trace.deleted, positions);
  d.gaugesPending = trace.deleted;
  play(deleteFrames(item, trace, before, after, d.params));
}

/** Looks up items never added until one gets a “maybe”, and plays its lookup slot by slot (false-positive.ts). */
export function walkFalsePositive(): void {
  stopBulk();
  flushPendingGauges();
  const d = currentDemo();
  const table = readTable();
  const found = findFalsePositive(d, table);
  showFalsePositive(ui.fpList, ui.fpStatus, found, d);
  if (found === undefined) return;
  relationView.show(found.trace, found.item);
  chainView.load(null, 'Lookups only read the two buckets (and the stash): they never kick.');
  showBloomSummary({ item: found.item, i1: found.trace.i1, i2: found.trace.i2 });
  play(falsePositiveFrames(found, table, d.params));
}
