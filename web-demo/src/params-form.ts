// The parameters as the page shows them: in the form, read back through
// readParams so that it gets the same ranges and fallbacks as a link, and in
// the address bar, so that a link reproduces what is on show. Semi-sorting is
// offered only where the core allows it.

import { ui } from './page.js';
import { readParams, semiSortAllowed, writeParams, type DemoParams } from './params.js';

/** The parameters in the address; a presenter's step (present=N) stays in it. */
export function showParamsInAddress(params: DemoParams): void {
  const present = new URLSearchParams(location.search).get('present');
  history.replaceState(null, '', `?${present === null ? '' : `present=${encodeURIComponent(present)}&`}${writeParams(params)}`);
}

export function fillForm(params: DemoParams): void {
  const fields = ui.form.elements as unknown as Record<string, HTMLInputElement | HTMLSelectElement>;
  fields.m!.value = String(params.bucketCount);
  fields.b!.value = String(params.bucketSize);
  fields.f!.value = String(params.fingerprintBits);
  fields.kicks!.value = String(params.maxKicks);
  fields.seed!.value = String(params.seed);
  (fields.semi as HTMLInputElement).checked = params.semiSort;
  fields.fmt!.value = params.format;
  updateSemiSortField();
}

export function updateSemiSortField(): void {
  const fields = ui.form.elements as unknown as Record<string, HTMLInputElement>;
  const b = Number(fields.b!.value);
  const f = Number(fields.f!.value);
  // The core takes whole numbers only; anything else in the field is no table at all.
  const allowed = Number.isInteger(f) && f >= 0 && semiSortAllowed(b, f);
  fields.semi!.disabled = !allowed;
  if (!allowed) fields.semi!.checked = false;
}

export function formParams(): DemoParams {
  const data = new FormData(ui.form);
  const query = new URLSearchParams();
  for (const key of ['m', 'b', 'f', 'kicks', 'seed', 'fmt']) query.set(key, String(data.get(key) ?? ''));
  query.set('semi', data.get('semi') === 'on' ? '1' : '0');
  return readParams(query);
}
