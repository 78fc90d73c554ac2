// Every button, form field and key the fixed-size mode reacts to, wired in
// one place so that a key and its button run the same action (the player's
// in player-controls.ts). Nothing acts before the first
// filter exists, and keys typed into a field stay in the field.

import { bulkRunning, bulkStep, startBulk } from './bulk.js';
import { setupViews, start } from './filters.js';
import { stateFrame } from './frames.js';
import { lastItem, nextNumberedItem, typedItem } from './items.js';
import { wireLivePreview } from './live-preview.js';
import { insert, lookup, remove, walkFalsePositive } from './operations.js';
import { byId, ui } from './page.js';
import { formParams, showParamsInAddress, updateSemiSortField } from './params-form.js';
import { readParams } from './params.js';
import { download, loadBytes } from './persistence.js';
import { player } from './playback.js';
import { listenKeys, wirePlayerButtons } from './player-controls.js';
import { currentDemo, demoReady, readTable } from './state.js';

function act(action: () => void): void {
  if (!demoReady()) return;
  action();
}

function stepForward(): void {
  if (bulkRunning() && !player.playing) bulkStep();
  else player.step(1);
}

const actions = {
  insertTyped: () => act(() => insert(typedItem() ?? nextNumberedItem())),
  insertNext: () => act(() => insert(nextNumberedItem())),
  lookupTyped: () =>
    act(() => {
      const item = typedItem() ?? lastItem();
      if (item === undefined) ui.caption.textContent = 'Type an item to look up.';
      else lookup(item);
    }),
  deleteTyped: () =>
    act(() => {
      const item = typedItem() ?? lastItem();
      if (item === undefined) ui.caption.textContent = 'Nothing to delete yet: insert something first.';
      else remove(item);
    }),
  bulk: () =>
    act(() => {
      const n = Number(ui.bulkCount.value);
      startBulk(Number.isInteger(n) && n >= 1 ? Math.min(n, 100_000) : 20);
    }),
  fill: () => act(() => startBulk(Infinity)),
  falsePositive: () => act(walkFalsePositive),
  reset: () => act(() => start(currentDemo().params)),
};

export function wireControls(): void {
  const click = (id: string, handler: () => void) => byId(id).addEventListener('click', handler);
  click('insert', actions.insertTyped);
  click('insert-next', actions.insertNext);
  click('lookup', actions.lookupTyped);
  click('delete', actions.deleteTyped);
  click('bulk', actions.bulk);
  click('fill', actions.fill);
  click('reset', actions.reset);
  click('fp-find', actions.falsePositive);
  click('download', () => act(download));
  click('load-button', () => ui.load.click());
  wirePlayerButtons(player, stepForward);
  ui.load.addEventListener('change', () => {
    const file = ui.load.files?.[0];
    ui.load.value = '';
    if (file !== undefined) void loadBytes(file);
  });
  ui.form.addEventListener('submit', (event) => {
    event.preventDefault();
    act(() => start(formParams()));
  });
  ui.form.addEventListener('input', () => act(updateSemiSortField));
  wireLivePreview();
  // Links that set the page up (a[data-params], e.g. the Bloom verdict's): a new filter, not a reload.
  document.addEventListener('click', (event) => {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('a[data-params]');
    if (link === null || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    act(() => start(readParams(new URL(link.href).searchParams)));
  });
  (ui.form.elements.namedItem('fmt') as HTMLSelectElement).addEventListener('change', () =>
    act(() => {
      const d = currentDemo();
      d.params = { ...d.params, format: formParams().format };
      showParamsInAddress(d.params);
      setupViews();
      player.load([stateFrame(readTable(), `Fingerprints now shown in ${d.params.format === 'hex' ? 'hex' : 'binary'}.`)]);
    }),
  );

  listenKeys(
    player,
    stepForward,
    {
      n: actions.insertNext,
      l: actions.lookupTyped,
      d: actions.deleteTyped,
      b: actions.bulk,
      f: actions.fill,
      r: actions.reset,
      p: actions.falsePositive,
      i: () => ui.item.focus(),
    },
    (event, target) => {
      if (target !== ui.item || event.key !== 'Enter') return false;
      actions.insertTyped();
      return true;
    },
  );
}
