// How the benchmarks write numbers, so that one figure reads the same in
// every table, report and README block.

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
export const fixed = (v, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
export const millions = (v, digits = 2) => `${(v / 1e6).toFixed(digits)}M`;
export const rate = (v) => (v >= 10 ? v.toFixed(1) : v.toFixed(2));
export const pow2 = (e) => `2^${e}`;
export const bytes = (n) => (n >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(n % 2 ** 20 ? 1 : 0)} MiB` : `${(n / 1024).toFixed(0)} KiB`);
export const ratioText = (a, b) => `${(a / b).toFixed(2)}×`;

/** "42 s", or "18–86 s (mean 42 s)" when the runs took different times. */
export function runSeconds(t) {
  if (typeof t === 'number') return `${Math.round(t)} s`;
  return t.max - t.min < 0.15 * t.mean ? `${Math.round(t.mean)} s` : `${Math.round(t.min)}–${Math.round(t.max)} s (mean ${Math.round(t.mean)} s: the machine's load changed)`;
}
