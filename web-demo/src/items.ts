// The items operations act on: the numbered ones the page makes up, the one
// typed in the item box, and the recent ones it suggests. The insert buttons,
// the keys and the bulk run all number items here, so the numbering never
// repeats within a filter.

import { ui } from './page.js';
import { currentDemo } from './state.js';

export function nextNumberedItem(): string {
  const d = currentDemo();
  return `item-${d.nextItem++}`;
}

/** The item box's text; empty means none, so that the buttons fall back to a numbered or the last item. */
export function typedItem(): string | undefined {
  const text = ui.item.value;
  return text.length > 0 ? text : undefined;
}

/** What a lookup or delete takes when the box is empty. */
export function lastItem(): string | undefined {
  return currentDemo().items.at(-1);
}

export function refreshKnownItems(): void {
  const recent = [...new Set(currentDemo().items.slice(-40))].reverse();
  ui.knownItems.replaceChildren(...recent.map((item) => Object.assign(document.createElement('option'), { value: item })));
}
