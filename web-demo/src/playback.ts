// The one player of frames, and what it changes on the page: the frame drawn,
// the step counter, the play button and html[data-busy], which the tests wait
// on. A bulk run counts as busy too, and play resumes it: the player and the
// bulk run drive each other, so this module and bulk.ts import each other.

import { bulkRunning, resumeBulk } from './bulk.js';
import type { Frame } from './frames.js';
import { refreshGauges } from './gauge-readings.js';
import { chainView, semiBucketView, tableView, ui } from './page.js';
import { Player } from './player.js';
import { currentDemo, demoReady } from './state.js';

export const player = new Player(showFrame, updateStatus);

function showFrame(frame: Frame, index: number, total: number): void {
  tableView.draw(frame);
  chainView.show(frame);
  ui.caption.textContent = frame.caption;
  // A frame of an operation ends any preview of a typed item (live-preview.ts).
  delete ui.caption.dataset.preview;
  ui.stepCount.textContent = total > 1 ? `step ${index + 1} of ${total}` : '—';
  if (demoReady() && currentDemo().gaugesPending && index === total - 1) refreshGauges(true);
  // The core's bucket is already the one after the operation: shown once the animation gets there.
  if (index === total - 1) semiBucketView.refresh();
}

/** On every change of the player, and when a bulk run starts or ends. */
export function updateStatus(): void {
  const busy = bulkRunning() || !player.atEnd;
  document.documentElement.dataset.busy = String(busy);
  ui.play.textContent = player.playing ? 'Pause' : 'Play';
  ui.play.setAttribute('aria-pressed', String(player.playing));
  ui.speed.textContent = `${player.speed}×`;
  resumeBulk();
}
