// Items keep coming: one at a time, N of them, or until stopped. Adds run
// fast-forwarded, a batch per animation frame scaled by the player's speed;
// the run's first growth stops it while its steps play, later ones show their
// outcome in one step and the run goes on (so that 1x takes 16 items to
// 10,000 within a minute); +1 item plays any growth in full. The growth
// mode's player lives here too: it and the run drive each other.

import { scalableShape, traceGrowingAdd } from 'cuckoo-wasm/inspect';
import { count, percent, rate } from './format.js';
import { addFrame, growthFrames, rateAgainstBound, stateFrame, type GrowthFrame, type GrowthStory } from './growth-frames.js';
import { growthTable, growthUi, splitView } from './growth-page.js';
import { showGrowthParams, type GrowthParams } from './growth-params.js';
import { GROWTH_PROBE_COUNT, measure, momentBefore, momentNow, showMoment } from './growth-readings.js';
import { BUCKET_SIZE, MAX_LOAD, nextEntryPassesMaxLoad, readGrowth, readGrowthRules } from './growth-split.js';
import { currentGrowth, newGrowthDemo, readGrowthTable } from './growth-state.js';
import { ui } from './page.js';
import { Player } from './player.js';
import { rateInterval } from './probes.js';

/** Tables of up to this many buckets are read before every add (cheap at this size). */
const SMALL_TABLE = 64;

/** "Keep adding" stops here: the pattern is plain long before, and the table stays drawable. */
export const KEEP_ADDING_LIMIT = 100_000;

export const growthPlayer = new Player<GrowthFrame>(showFrame, updateStatus);

/** Every panel from the frame: its table, caption and split, and its moment's gauges, log and charts. */
function showFrame(frame: GrowthFrame, index: number, total: number): void {
  growthTable.draw(frame.table, frame.marks);
  splitView.show(frame.marks.split);
  ui.caption.textContent = frame.caption;
  ui.stepCount.textContent = total > 1 ? `step ${index + 1} of ${total}` : '—';
  showMoment(frame.moment);
}

/** A fast-forwarded run shows its progress at most this often, each time measured anew: one moment on every panel. */
const PROGRESS_INTERVAL_MS = 200;
let progressShownAt = -Infinity;

interface Run {
  target: number;
  done: number;
  budget: number;
  growths: number;
  fromBuckets: number;
}

/** Growths of a run played step by step; the rest show their outcome in one step, without stopping the run. */
export const GROWTHS_PLAYED_PER_RUN = 1;

let run: Run | null = null;
let runFrame = 0;

/** On every change of the player, and when a run starts or ends. */
function updateStatus(): void {
  document.documentElement.dataset.busy = String(run !== null || !growthPlayer.atEnd);
  ui.play.textContent = growthPlayer.playing ? 'Pause' : 'Play';
  ui.play.setAttribute('aria-pressed', String(growthPlayer.playing));
  ui.speed.textContent = `${growthPlayer.speed}×`;
  growthUi.keep.textContent = run !== null ? 'Stop' : 'Keep adding';
  resumeRun();
}

export function startGrowthDemo(params: GrowthParams): void {
  readGrowthRules();
  stopRun();
  const d = newGrowthDemo(params);
  showGrowthParams(params);
  growthTable.setup(d.shape.fixedBits, d.shape.tailBits);
  splitView.clear();
  measure();
  const { bucketCount: m, level: L, splitBucket: s, fixedBits: r, tailBits: T } = d.shape;
  growthPlayer.load([
    stateFrame(
      readGrowthTable(),
      d.shape,
      `An empty growable filter for ${count(params.initialCapacity)} items at first: m = 2^${L} + ${s} = ${m} buckets of 4 slots. ` +
        `Each slot has ${r + T} bits, ${r} of fingerprint and ${T} of tail: enough to keep false positives under ${rate(params.fpr)} at any size. ` +
        'Press n to add items one by one, or k to keep adding.',
      momentNow(),
    ),
  ]);
}

/** Adds the next numbered item; returns its growth, if it grew the table. */
function addItem(): { item: string; story?: GrowthStory } {
  const d = currentGrowth();
  const from = d.shape;
  const item = `item-${d.nextItem++}`;
  // Kept to mark the slots an add changed: before an add that will grow the table, and before every add to a small one,
  // whose evictions may run out and grow it early.
  const grows = nextEntryPassesMaxLoad(from);
  const hint = grows || from.bucketCount <= SMALL_TABLE ? readGrowthTable() : undefined;
  const { growths } = traceGrowingAdd(d.filter, item);
  d.items.push(item);
  const to = scalableShape(d.filter);
  d.shape = to;
  if (growths.length === 0) return { item };
  const tableAfter = readGrowthTable();
  const reading = readGrowth(growths, tableAfter);
  const point = measure(from);
  d.points.push(point);
  d.rows.push({ index: d.rows.length + 1, items: d.items.length, item, from, to, copies: reading.copies, early: !grows });
  splitView.load({ index: d.rows.length, item, fromBuckets: from.bucketCount, toBuckets: to.bucketCount, tailBits: to.tailBits, reading });
  const after = momentNow();
  const before = momentBefore(after, from, reading.copies, point);
  return {
    item,
    story: {
      item, from, to, growth: d.params.growth, reading, hint, tableAfter, before, after,
      measured: point.measured, interval: point.interval, probes: GROWTH_PROBE_COUNT, bound: point.bound, grewAt: point.grewAt, fpr: d.params.fpr,
    },
  };
}

/** The +1 button: one add, its slots marked, or its growth step by step. */
export function addOne(): void {
  stopRun();
  const before = readGrowthTable();
  const { item, story } = addItem();
  if (story !== undefined) {
    growthPlayer.load(growthFrames(story));
    return;
  }
  measure();
  growthPlayer.load([addFrame(item, before, readGrowthTable(), currentGrowth().shape, momentNow())]);
}

export function runActive(): boolean {
  return run !== null;
}

export function startRun(target: number): void {
  stopRun();
  growthPlayer.last();
  run = { target, done: 0, budget: 1, growths: 0, fromBuckets: currentGrowth().shape.bucketCount };
  updateStatus();
}

export function stopRun(): void {
  cancelAnimationFrame(runFrame);
  runFrame = 0;
  const wasRunning = run !== null;
  run = null;
  if (wasRunning) updateStatus();
}

/** Stop pressed: the run ends, and the caption says where it got to. */
export function stopRunAndSay(): void {
  const r = run;
  stopRun();
  if (r === null) return;
  measure();
  const d = currentGrowth();
  growthPlayer.load([stateFrame(readGrowthTable(), d.shape, `Stopped. ${runSummary(r, true)} ${rateSummary()}`, momentNow())]);
}

/** Ticks wait while paused or while a growth plays; the player calls this when either ends. */
function resumeRun(): void {
  if (run !== null && growthPlayer.playing && growthPlayer.atEnd && runFrame === 0) runFrame = requestAnimationFrame(tick);
}

/** Items per animation frame at 1x: the table goes from 75 % to 90 % full in about half a second. */
function runRate(): number {
  return Math.max(1 / 8, (BUCKET_SIZE * currentGrowth().shape.bucketCount) / 180) * growthPlayer.speed;
}

function runLimit(r: Run): number {
  return Math.min(r.target, KEEP_ADDING_LIMIT - currentGrowth().items.length + r.done);
}

/** Adds up to `budget` items of the run, stopping at a growth; returns it, and whether the run is over. */
function runAdds(r: Run, budget: number): { story?: GrowthStory; over: boolean } {
  for (let n = 0; n < budget && r.done < runLimit(r); n++) {
    const { story } = addItem();
    r.done++;
    if (story !== undefined) {
      r.growths++;
      return { story, over: r.done >= runLimit(r) };
    }
  }
  return { over: r.done >= runLimit(r) };
}

/** What a run did; `stopped`: ended by Stop rather than by its target or the limit. */
function runSummary(r: Run, stopped = false): string {
  const d = currentGrowth();
  const capped = !stopped && r.done < r.target ? ` Stopped at ${count(KEEP_ADDING_LIMIT)} items: the pattern is set; the core grows on to 2^30 buckets.` : '';
  return (
    `Added ${count(r.done)} items: ${count(r.growths)} ${r.growths === 1 ? 'growth' : 'growths'}, ${count(r.fromBuckets)} → ${count(d.shape.bucketCount)} buckets, ` +
    `load ${percent(d.filter.loadFactor)}.${capped}`
  );
}

function rateSummary(): string {
  const { filter, params, reading } = currentGrowth();
  const interval = rateInterval(Math.round(reading.measured * GROWTH_PROBE_COUNT), GROWTH_PROBE_COUNT);
  const rates = rateAgainstBound({ measured: reading.measured, interval, probes: GROWTH_PROBE_COUNT, bound: filter.fprBound, grewAt: undefined, fpr: params.fpr });
  return `False positives: ${rates} Every added item looked up again: ${count(reading.found)} of ${count(reading.items)} found.`;
}

function showProgress(r: Run, paused: boolean): void {
  const now = performance.now();
  if (!paused && now - progressShownAt < PROGRESS_INTERVAL_MS) return;
  progressShownAt = now;
  const d = currentGrowth();
  measure();
  growthTable.draw({ slots: readGrowthTable(), shape: d.shape, reserve: d.shape.bucketCount });
  splitView.show(-1);
  showMoment(momentNow());
  const of = r.target === Infinity ? 'until stopped' : `of ${count(r.target)}`;
  ui.caption.textContent = paused
    ? `Paused after ${count(r.done)} items, load ${percent(d.filter.loadFactor)}. → adds one more, Space resumes.`
    : `Adding numbered items, fast-forwarded: ${count(r.done)} ${of}, load ${percent(d.filter.loadFactor)}. ` +
      `The table grows each time the load passes ${percent(MAX_LOAD, 0)}; Space pauses.`;
}

/** Shows what `runAdds` did: a growth's steps (the run waits for them), the end of the run, or progress. */
function afterAdds(r: Run, story: GrowthStory | undefined, over: boolean, paused: boolean): void {
  if (over) {
    run = null;
    runFrame = 0;
    if (story === undefined) measure();
    const frames =
      story !== undefined ? growthFrames(story) : [stateFrame(readGrowthTable(), currentGrowth().shape, rateSummary(), momentNow())];
    const last = frames.at(-1)!;
    frames[frames.length - 1] = { ...last, caption: `${runSummary(r)} ${last.caption}` };
    growthPlayer.load(frames, story === undefined);
    return;
  }
  if (story !== undefined) {
    const frames = growthFrames(story);
    if (r.growths <= GROWTHS_PLAYED_PER_RUN) {
      growthPlayer.load(frames);
      return;
    }
    // Its outcome in one step; the player is at its end at once, so the run goes on.
    const last = frames.at(-1)!;
    growthPlayer.load([{ ...last, caption: `Growth ${currentGrowth().rows.length}, its steps skipped while adding (+1 item plays one step by step). ${last.caption}` }]);
    return;
  }
  showProgress(r, paused);
}

function tick(): void {
  runFrame = 0;
  const r = run;
  if (r === null || !growthPlayer.playing || !growthPlayer.atEnd) return;
  r.budget += runRate();
  const budget = Math.floor(r.budget);
  r.budget -= budget;
  const { story, over } = runAdds(r, budget);
  afterAdds(r, story, over, false);
  if (run !== null && story === undefined) runFrame = requestAnimationFrame(tick);
}

/** → while a run is paused: one more add. */
export function runStep(): void {
  const r = run;
  if (r === null) return;
  const { story, over } = runAdds(r, 1);
  afterAdds(r, story, over, true);
}
