// Number formats shared by the tables of `npm run bench`.

/** A rate in M ops/s with about three significant digits. */
export function mops(value) {
  if (value === null || value === undefined) return 'n/a';
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  if (value >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}
export const percent = (value, digits = 3) => `${(100 * value).toFixed(digits)}%`;
export const ratio = (value) => (value >= 100 ? `${value.toFixed(0)}×` : `${value.toFixed(1)}×`);
export const minutes = (s) => (s >= 90 ? `~${Math.round(s / 60)} min` : `~${Math.round(s)} s`);
