// The teaching demo: a real cuckoo filter (and a Bloom filter of the same
// memory) from cuckoo-wasm, its operations traced by cuckoo-wasm/inspect and
// animated step by step; and, in its growth mode (?mode=growth), a growable
// filter splitting its buckets as items keep coming. The page keeps no copy
// of the algorithm: tables, kicks, buckets and rates all come from the core.
//
// This entry only starts the page; each concern is a module of its own
// (state, filters, operations, bulk, controls, ...; growth-* for the growth
// mode), so that a change to one does not mean reading all of them. Controls
// are wired before the wasm loads and do nothing until the first filter exists.
// The mode is html[data-mode], set by index.html before the first paint.

import { init } from 'cuckoo-wasm';
import { wireControls } from './controls.js';
import { start } from './filters.js';
import { count } from './format.js';
import { PROBE_COUNT } from './gauge-readings.js';
import { wireGrowthControls } from './growth-controls.js';
import { readGrowthParams } from './growth-params.js';
import { startGrowthDemo } from './growth-run.js';
import { byId, ui } from './page.js';
import { startPaperViews } from './paper-views.js';
import { readParams } from './params.js';
import { presenterStepIn, startPresenter } from './presenter.js';

const growth = document.documentElement.dataset.mode === 'growth';

async function main(): Promise<void> {
  const presenting = !growth && new URLSearchParams(location.search).has('present');
  document.querySelector(`[data-mode-link="${growth ? 'growth' : presenting ? 'present' : 'fixed'}"]`)?.setAttribute('aria-current', 'page');
  if (growth) wireGrowthControls();
  else wireControls();
  // On a phone the parameters start folded, so the table is on the first screen.
  if (matchMedia('(max-width: 600px)').matches) byId<HTMLDetailsElement>(growth ? 'growth-params-panel' : 'params-panel').open = false;
  // What scrolls to a bucket stops below the sticky bar (style.css), however tall the bar is on this screen.
  const bar = document.querySelector<HTMLElement>('.playbar')!;
  new ResizeObserver(() => document.documentElement.style.setProperty('--playbar-height', `${bar.offsetHeight}px`)).observe(bar);
  await init();
  const query = new URLSearchParams(location.search);
  if (growth) {
    document.title = 'A cuckoo filter that grows — cuckoo-wasm';
    startGrowthDemo(readGrowthParams(query));
  } else {
    byId('probe-count').textContent = count(PROBE_COUNT);
    startPaperViews();
    const step = presenterStepIn(query);
    if (step === undefined) start(readParams(query));
    else startPresenter(step);
  }
  document.documentElement.dataset.ready = 'true';
}

main().catch((error: unknown) => {
  ui.caption.textContent = `The demo could not start: ${error instanceof Error ? error.message : String(error)}`;
  document.documentElement.dataset.ready = 'failed';
});
