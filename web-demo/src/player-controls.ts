// The player's buttons and keys, and the page's key handling, shared by both
// modes so that they answer the same keys the same way: Space, the arrows,
// Home, End, + and − drive the player; other keys are each mode's own. Keys
// typed into a field stay in the field (Esc leaves it).

import { byId } from './page.js';
import type { Player } from './player.js';

/** What the controls do to a player, of any kind of frame. */
type AnyPlayer = Pick<Player<never>, 'togglePlay' | 'step' | 'first' | 'last' | 'faster'>;

/** Wires the player's buttons (one bar, shared by both modes) to `player`. */
export function wirePlayerButtons(player: AnyPlayer, stepForward: () => void): void {
  const click = (id: string, handler: () => void) => byId(id).addEventListener('click', handler);
  click('play', () => player.togglePlay());
  click('step', stepForward);
  click('back', () => player.step(-1));
  click('first', () => player.first());
  click('last', () => player.last());
  click('faster', () => player.faster(1));
  click('slower', () => player.faster(-1));
}

/**
 * Runs the player's keys and `keys` on keydown outside form fields; in a
 * field, `inField` sees the key first (true: handled).
 */
export function listenKeys(player: AnyPlayer, stepForward: () => void, keys: Record<string, () => void>, inField?: (event: KeyboardEvent, target: HTMLElement) => boolean): void {
  const handlers: Record<string, () => void> = {
    ' ': () => player.togglePlay(),
    ArrowRight: stepForward,
    ArrowLeft: () => player.step(-1),
    Home: () => player.first(),
    End: () => player.last(),
    '+': () => player.faster(1),
    '=': () => player.faster(1),
    '-': () => player.faster(-1),
    ...keys,
  };
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target as HTMLElement;
    if (target.matches('input, select, textarea')) {
      if (inField?.(event, target)) event.preventDefault();
      else if (event.key === 'Escape') target.blur();
      return;
    }
    const handler = handlers[event.key];
    if (handler === undefined) return;
    event.preventDefault();
    handler();
  });
  // Space on a focused button would also click it when released.
  document.addEventListener('keyup', (event) => {
    if (event.key === ' ' && (event.target as HTMLElement).matches('button')) event.preventDefault();
  });
}
