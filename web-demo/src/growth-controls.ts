// Every button, form field and key of the growth mode, wired in one place so
// that a key and its button run the same action (the player's in
// player-controls.ts). Nothing acts before the first filter exists.

import { byId } from './page.js';
import { listenKeys, wirePlayerButtons } from './player-controls.js';
import { growthUi } from './growth-page.js';
import { growthFormParams } from './growth-params.js';
import { addOne, growthPlayer, KEEP_ADDING_LIMIT, runActive, runStep, startGrowthDemo, startRun, stopRunAndSay } from './growth-run.js';
import { currentGrowth, growthReady } from './growth-state.js';

function act(action: () => void): void {
  if (growthReady()) action();
}

function stepForward(): void {
  if (runActive() && !growthPlayer.playing && growthPlayer.atEnd) runStep();
  else growthPlayer.step(1);
}

const actions = {
  addOne: () => act(addOne),
  addN: () =>
    act(() => {
      const n = Number(growthUi.count.value);
      startRun(Number.isInteger(n) && n >= 1 ? Math.min(n, KEEP_ADDING_LIMIT) : 100);
    }),
  keepAdding: () => act(() => (runActive() ? stopRunAndSay() : startRun(Infinity))),
  reset: () => act(() => startGrowthDemo(currentGrowth().params)),
};

const buttons: Record<string, () => void> = {
  'growth-add-one': actions.addOne,
  'growth-add-n': actions.addN,
  'growth-keep': actions.keepAdding,
  'growth-reset': actions.reset,
};

export function wireGrowthControls(): void {
  for (const [id, action] of Object.entries(buttons)) byId(id).addEventListener('click', action);
  wirePlayerButtons(growthPlayer, stepForward);
  byId<HTMLFormElement>('growth-params').addEventListener('submit', (event) => {
    event.preventDefault();
    act(() => startGrowthDemo(growthFormParams()));
  });
  listenKeys(growthPlayer, stepForward, { n: actions.addOne, b: actions.addN, k: actions.keepAdding, r: actions.reset });
}
