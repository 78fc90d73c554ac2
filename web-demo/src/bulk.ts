// Inserting many numbered items fast-forwarded: a batch of inserts per
// animation frame, scaled by the player's speed, with the table redrawn from a
// mirror kept in step with the traces, until the target or the first failure,
// whose chain is then animated. The run is this module's own state; the
// others only ask whether one is running.

import { stash, traceAdd, type InsertTrace } from 'cuckoo-wasm/inspect';
import { addToBloom, resetBloomDeleteNote, showBloomSummary } from './bloom-side.js';
import { count, percent } from './format.js';
import { applyKick, insertFrames, stateFrame, type Frame } from './frames.js';
import { flushPendingGauges, recordKicks, refreshGauges } from './gauge-readings.js';
import { nextNumberedItem, refreshKnownItems } from './items.js';
import { chainView, relationView, tableView, ui } from './page.js';
import { player, updateStatus } from './playback.js';
import { currentDemo, readTable } from './state.js';

interface Bulk {
  target: number;
  done: number;
  budget: number;
  /** The table as the core has it, kept in step by applying each trace. */
  mirror: Uint32Array;
  longest: { kicks: number; load: number };
}

let bulk: Bulk | null = null;
let bulkFrame = 0;

export function bulkRunning(): boolean {
  return bulk !== null;
}

/** Ticks stop while the player is paused; play calls this to start them again. */
export function resumeBulk(): void {
  if (bulk !== null && player.playing && bulkFrame === 0) bulkFrame = requestAnimationFrame(bulkTick);
}

/** Items per animation frame at 1x: a table fills in about three seconds. */
function bulkRate(): number {
  const d = currentDemo();
  return (d.filter.slotCount / 180) * player.speed;
}

export function startBulk(target: number): void {
  stopBulk();
  flushPendingGauges();
  player.last();
  bulk = { target, done: 0, budget: 1, mirror: readTable().slots, longest: { kicks: 0, load: 0 } };
  resetBloomDeleteNote();
  updateStatus();
}

export function stopBulk(): void {
  if (bulkFrame !== 0) cancelAnimationFrame(bulkFrame);
  bulkFrame = 0;
  if (bulk !== null) {
    bulk = null;
    updateStatus();
  }
}

/** Inserts up to `budget` items of the bulk; returns the frames of the last insert if the bulk ended. */
function bulkInsert(budget: number): Frame[] | undefined {
  const d = currentDemo();
  const run = bulk!;
  for (let n = 0; n < budget && run.done < run.target; n++) {
    const item = nextNumberedItem();
    const loadBefore = d.filter.loadFactor;
    const stashBefore = readStashOnly();
    const trace = traceAdd(d.filter, item);
    run.done++;
    recordKicks(trace, loadBefore);
    if (trace.added) {
      d.items.push(item);
      addToBloom(item);
    }
    if (trace.kickCount > run.longest.kicks) run.longest = { kicks: trace.kickCount, load: loadBefore };
    const ended = !trace.added || trace.stashed !== null || run.done === run.target;
    if (ended) {
      const after = readTable();
      const frames = insertFrames(item, trace, { slots: run.mirror, stash: stashBefore }, after, d.params);
      relationView.show(trace, item);
      chainView.load(trace);
      showBloomSummary({ item, i1: trace.i1, i2: trace.i2 });
      const last = frames.at(-1)!;
      const summary = bulkSummary(run, trace, item, loadBefore);
      frames[frames.length - 1] = { ...last, caption: `${summary} ${last.caption}` };
      return frames;
    }
    for (const kick of trace.kicks) applyKick(run.mirror, d.params, kick.bucket, kick.slot, kick.incoming);
    if (trace.placed !== null) applyKick(run.mirror, d.params, trace.placed.bucket, trace.placed.slot, trace.placed.fingerprint);
  }
  return undefined;
}

function readStashOnly() {
  return stash(currentDemo().filter);
}

function bulkSummary(run: Bulk, trace: InsertTrace, item: string, loadBefore: number): string {
  const d = currentDemo();
  if (!trace.added) return `Refused at insert ${run.done} of this run (“${item}”), at load ${percent(loadBefore)}.`;
  if (trace.stashed !== null) {
    return `First failure at insert ${run.done} of this run (“${item}”), at load ${percent(loadBefore)}: ${trace.kickCount} kicks and no free slot.`;
  }
  return `Inserted ${count(run.done)} items; load ${percent(d.filter.loadFactor)}; the longest chain took ${run.longest.kicks} kicks (at load ${percent(run.longest.load)}). The last insert:`;
}

function bulkTick(): void {
  bulkFrame = 0;
  const run = bulk;
  if (run === null || !player.playing) return;
  run.budget += bulkRate();
  const budget = Math.floor(run.budget);
  run.budget -= budget;
  const frames = bulkInsert(budget);
  if (frames !== undefined) {
    finishBulk(frames);
    return;
  }
  if (budget > 0) {
    const d = currentDemo();
    run.mirror = readTable().slots;
    refreshGauges(true);
    refreshKnownItems();
    tableView.draw(stateFrame({ slots: run.mirror, stash: readStashOnly() }, ''));
    ui.caption.textContent = `Inserting numbered items, fast-forwarded: ${count(run.done)} ${run.target === Infinity ? "so far, until the first failure" : `of ${count(run.target)}`}, load ${percent(d.filter.loadFactor)}. Watch the kick chart: chains grow as the table fills. Space pauses.`;
  }
  bulkFrame = requestAnimationFrame(bulkTick);
}

function finishBulk(frames: Frame[]): void {
  bulk = null;
  bulkFrame = 0;
  refreshGauges(true);
  refreshKnownItems();
  // Shown at its end; Home replays the last insert's chain.
  player.load(frames, true);
}

/** One insert of a paused bulk run. */
export function bulkStep(): void {
  const run = bulk;
  if (run === null) return;
  const frames = bulkInsert(1);
  if (frames !== undefined) return finishBulk(frames);
  run.mirror = readTable().slots;
  refreshGauges(true);
  tableView.draw(stateFrame({ slots: run.mirror, stash: readStashOnly() }, ''));
  ui.caption.textContent = `Paused after ${count(run.done)} items, load ${percent(currentDemo().filter.loadFactor)}. → inserts one more, Space resumes.`;
}
