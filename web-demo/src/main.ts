// The teaching demo: a real cuckoo filter (and a Bloom filter of the same
// memory) from cuckoo-wasm, its operations traced by cuckoo-wasm/inspect and
// animated step by step. The page keeps no copy of the algorithm: tables,
// kicks, buckets and rates all come from the core.
//
// This entry only starts the page; each concern is a module of its own
// (state, filters, operations, bulk, controls, ...), so that a change to one
// does not mean reading all of them. Controls are wired before the wasm loads
// and do nothing until the first filter exists.

import { init } from 'cuckoo-wasm';
import { wireControls } from './controls.js';
import { start } from './filters.js';
import { count } from './format.js';
import { PROBE_COUNT } from './gauge-readings.js';
import { byId, ui } from './page.js';
import { readParams } from './params.js';

async function main(): Promise<void> {
  wireControls();
  // On a phone the parameters start folded, so the table is on the first screen.
  if (matchMedia('(max-width: 600px)').matches) byId<HTMLDetailsElement>('params-panel').open = false;
  await init();
  byId('probe-count').textContent = count(PROBE_COUNT);
  start(readParams(new URLSearchParams(location.search)));
  document.documentElement.dataset.ready = 'true';
}

main().catch((error: unknown) => {
  ui.caption.textContent = `The demo could not start: ${error instanceof Error ? error.message : String(error)}`;
  document.documentElement.dataset.ready = 'failed';
});

