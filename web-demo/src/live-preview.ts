// The item box, live: while an item is typed, its fingerprint, its two
// buckets and the relation between them are shown (the core's `locate`, which
// changes nothing), and the two buckets are marked on the table. Only when
// nothing is animating, and never over an operation started since the key
// was typed: a preview must not hide what an insert or lookup shows.

import { locate } from 'cuckoo-wasm/inspect';
import { bulkRunning } from './bulk.js';
import { previewFrame } from './frames.js';
import { relationView, tableView, ui } from './page.js';
import { player } from './playback.js';
import { currentDemo, demoReady, readTable } from './state.js';

/** Light debounce: a preview per pause in typing, not per key. */
const DEBOUNCE_MS = 120;

let timer: ReturnType<typeof setTimeout> | undefined;

function quiet(): boolean {
  return demoReady() && !bulkRunning() && player.atEnd;
}

function showPreview(item: string): void {
  const d = currentDemo();
  const where = locate(d.filter, item);
  relationView.show(where, item);
  const frame = previewFrame(item, where, readTable(), d.params);
  tableView.draw(frame);
  ui.caption.textContent = frame.caption;
  ui.caption.dataset.preview = item;
}

/** Back to what the player shows: the last operation's end. */
function endPreview(): void {
  if (ui.caption.dataset.preview === undefined) return;
  relationView.show(null, '');
  player.redraw();
}

export function wireLivePreview(): void {
  ui.item.addEventListener('input', () => {
    clearTimeout(timer);
    const item = ui.item.value;
    if (item.length === 0) {
      if (quiet()) endPreview();
      return;
    }
    const loads = player.loads;
    timer = setTimeout(() => {
      if (quiet() && player.loads === loads) showPreview(item);
    }, DEBOUNCE_MS);
  });
}
