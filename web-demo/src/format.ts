// How numbers are written on the page: fingerprints in binary or hex at
// their full width, bucket numbers in binary at the width m − 1 needs
// (log2(m) for a power of two), so that XORs line up column by column, and
// in decimal columns as wide as m − 1, so that reflections line up too.

import type { NumberFormat } from './params.js';

export function binary(value: number, width: number): string {
  return (value >>> 0).toString(2).padStart(width, '0');
}

export function hex(value: number, bits: number): string {
  return (value >>> 0).toString(16).padStart(Math.ceil(bits / 4), '0');
}

/** A fingerprint as the table shows it. */
export function fingerprintText(value: number, bits: number, format: NumberFormat): string {
  return format === 'hex' ? hex(value, bits) : binary(value, bits);
}

/** Characters a fingerprint takes, so that cells have one fixed width. */
export function fingerprintWidth(bits: number, format: NumberFormat): number {
  return format === 'hex' ? Math.ceil(bits / 4) : bits;
}

/** Bits of the largest bucket number, m − 1 (log2(m) for a power of two), at least 1. */
export function bucketBits(bucketCount: number): number {
  return Math.max(1, (bucketCount - 1).toString(2).length);
}

/** Decimal digits of the largest bucket number, m − 1: the width of a column of bucket numbers. */
export function bucketDigits(bucketCount: number): number {
  return String(bucketCount - 1).length;
}

/** Between a number and its unit: a no-break space, so that "61.1 %" never wraps between the two. */
const UNIT_SPACE = '\u00a0';

export function percent(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return '—';
  return `${(value * 100).toFixed(digits)}${UNIT_SPACE}%`;
}

/** A rate small or large, with enough digits to compare three of them. */
export function rate(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value === 0) return `0${UNIT_SPACE}%`;
  if (value < 1e-6) return `<${UNIT_SPACE}0.0001${UNIT_SPACE}%`;
  const digits = value >= 0.1 ? 1 : value >= 0.01 ? 2 : value >= 0.001 ? 3 : 4;
  return `${(value * 100).toFixed(digits)}${UNIT_SPACE}%`;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** Creates an element with a class and optional text. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
