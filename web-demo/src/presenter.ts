// Presenter mode, for a class (?present=N): the paper's sections in order
// (presenter-steps.ts), one step at a time. A step opens the view that shows
// its section, with a paragraph to say and the state it needs prepared; a
// panel at the bottom of the screen holds the script and the way on. Keys:
// PageDown or ] next, PageUp or [ back (a presentation remote's keys). The
// address keeps the step, so a link opens the class at it.

import { byId } from './page.js';
import { writeParams } from './params.js';
import { PRESENTER_STEPS, startStep } from './presenter-steps.js';

const panel = byId('presenter');
const counter = byId('presenter-step');
const section = byId('presenter-section');
const title = byId('presenter-title');
const script = byId('presenter-script');
const back = byId<HTMLButtonElement>('presenter-back');
const next = byId<HTMLButtonElement>('presenter-next');

let current = -1;

/** The step an address asks for (1-based), or undefined when it asks for none. */
export function presenterStepIn(query: URLSearchParams): number | undefined {
  const text = query.get('present');
  if (text === null) return undefined;
  const step = Number(text);
  return Number.isInteger(step) && step >= 1 && step <= PRESENTER_STEPS.length ? step : 1;
}

export function presenting(): boolean {
  return current >= 0;
}

/** Opens step `index` (0-based): its state prepared, its view on screen, its script in the panel, its number in the address. */
function show(index: number): void {
  const step = PRESENTER_STEPS[index]!;
  current = index;
  startStep(step);
  counter.textContent = `${index + 1} / ${PRESENTER_STEPS.length}`;
  section.textContent = step.section;
  title.textContent = step.title;
  script.textContent = step.script;
  back.disabled = index === 0;
  next.disabled = index === PRESENTER_STEPS.length - 1;
  panel.dataset.step = String(index + 1);
  history.replaceState(null, '', `?present=${index + 1}&${writeParams(step.params)}`);
  document.title = `${index + 1}. ${step.title} — cuckoo-wasm`;
  bringIntoView(step.view);
}

/** When the reader last scrolled or pressed a key: after that, the page no longer scrolls by itself. */
let readerMovedAt = 0;

/**
 * Scrolls `selector` to the top of the screen, below the sticky bar, once the
 * panel has its text, and again while panels above it settle (measurements
 * arriving, notes wrapping), unless the reader has moved meanwhile.
 */
function bringIntoView(selector: string): void {
  const shownAt = performance.now();
  for (const delay of [0, 300, 1000]) {
    setTimeout(() => {
      if (readerMovedAt > shownAt) return;
      requestAnimationFrame(() => document.querySelector(selector)?.scrollIntoView({ block: 'start' }));
    }, delay);
  }
}

function go(delta: number): void {
  const index = current + delta;
  if (index >= 0 && index < PRESENTER_STEPS.length) show(index);
}

/** Starts presenting at `step` (1-based), once the core is loaded. */
export function startPresenter(step: number): void {
  panel.hidden = false;
  document.documentElement.dataset.presenting = 'true';
  // The page keeps clear of the panel at its bottom, however tall it is on this screen.
  new ResizeObserver(() => document.documentElement.style.setProperty('--presenter-height', `${panel.offsetHeight}px`)).observe(panel);
  for (const event of ['wheel', 'touchstart']) addEventListener(event, () => (readerMovedAt = performance.now()), { passive: true });
  back.addEventListener('click', () => go(-1));
  next.addEventListener('click', () => go(1));
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || (event.target as HTMLElement).matches('input, select, textarea')) return;
    const delta = event.key === 'PageDown' || event.key === ']' ? 1 : event.key === 'PageUp' || event.key === '[' ? -1 : 0;
    if (delta === 0) return;
    event.preventDefault();
    go(delta);
  });
  show(step - 1);
}
