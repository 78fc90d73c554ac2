// The growth mode's setup, read from and written to the address bar
// (?mode=growth&cap=…&fpr=…&g=…&seed=…), so that a link reproduces it, and
// shown in its form. Values out of range fall back to the defaults.

import { byId } from './page.js';

export interface GrowthParams {
  initialCapacity: number;
  fpr: number;
  growth: number;
  seed: number;
}

/** Teaching size: 5 buckets at first, so the first growths come within a few dozen items. */
export const DEFAULT_GROWTH_PARAMS: GrowthParams = { initialCapacity: 16, fpr: 0.01, growth: 1.2, seed: 0 };

export const GROWTH_LIMITS = {
  maxInitialCapacity: 10_000,
  // The core's range is 1e-7 to < 1; above 0.5 a "promise" teaches little.
  minFpr: 1e-7,
  maxFpr: 0.5,
  minGrowth: 1.01,
  maxGrowth: 2,
  maxSeed: 2 ** 32 - 1,
} as const;

function numberIn(text: string | null, min: number, max: number, integer: boolean): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) return undefined;
  return value >= min && value <= max ? value : undefined;
}

export function readGrowthParams(query: URLSearchParams): GrowthParams {
  const d = DEFAULT_GROWTH_PARAMS;
  const L = GROWTH_LIMITS;
  return {
    initialCapacity: numberIn(query.get('cap'), 1, L.maxInitialCapacity, true) ?? d.initialCapacity,
    fpr: numberIn(query.get('fpr'), L.minFpr, L.maxFpr, false) ?? d.fpr,
    growth: numberIn(query.get('g'), L.minGrowth, L.maxGrowth, false) ?? d.growth,
    seed: numberIn(query.get('seed'), 0, L.maxSeed, true) ?? d.seed,
  };
}

export function writeGrowthParams(params: GrowthParams): URLSearchParams {
  return new URLSearchParams({
    mode: 'growth',
    cap: String(params.initialCapacity),
    fpr: String(params.fpr),
    g: String(params.growth),
    seed: String(params.seed),
  });
}

const form = byId<HTMLFormElement>('growth-params');

function field(name: string): HTMLInputElement | HTMLSelectElement {
  return form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
}

/** A select shows any value from the address: one not among its options is added. */
function choose(select: HTMLSelectElement, value: number): void {
  const text = String(value);
  if (![...select.options].some((option) => option.value === text)) select.add(new Option(text, text));
  select.value = text;
}

export function showGrowthParams(params: GrowthParams): void {
  history.replaceState(null, '', `?${writeGrowthParams(params)}`);
  field('cap').value = String(params.initialCapacity);
  choose(field('fpr') as HTMLSelectElement, params.fpr);
  choose(field('g') as HTMLSelectElement, params.growth);
  field('seed').value = String(params.seed);
}

export function growthFormParams(): GrowthParams {
  const query = new URLSearchParams();
  for (const name of ['cap', 'fpr', 'g', 'seed']) query.set(name, field(name).value);
  return readGrowthParams(query);
}
