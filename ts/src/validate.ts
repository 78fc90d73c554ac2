// Argument checks shared by the public classes. Each throws a TypeError for a
// wrong type and a RangeError for a value out of range, naming the argument
// (`what`) and what is allowed.

import { optionDefault, optionRule } from './facts.js';
import { randomSeed } from './loader.js';
import { describeValue } from './items.js';
import type { Runtime } from './runtime.js';

export function checkObject(value: unknown, what: string, shape: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) {
    throw new TypeError(`${what} must be an object ${shape}, got ${describeValue(value)}`);
  }
  return value as Record<string, unknown>;
}

/**
 * A number option whose range the core checks (and reports, naming the
 * option): only its type is checked here, and the TypeError quotes the core's
 * rule for it. An absent option is the core's default for it, if it has one.
 */
export function checkNumberOption(runtime: Runtime, options: Readonly<Record<string, unknown>>, option: string, context: string): number {
  const value = options[option];
  if (typeof value === 'number') return value;
  if (value === undefined) {
    const fallback = optionDefault(runtime, option);
    if (!Number.isNaN(fallback)) return fallback;
  }
  // The core's rule reads "<option> must be <requirement>".
  const rule = optionRule(runtime, option);
  const prefix = `${option} must be `;
  const requirement = rule.startsWith(prefix) ? ` (${rule.slice(prefix.length)})` : '';
  throw new TypeError(`${context}: ${option} must be a number${requirement}, got ${describeValue(value)}`);
}

export function checkInteger(value: unknown, what: string, min: number, max: number, rangeText: string): number {
  if (typeof value !== 'number') throw new TypeError(`${what} must be a number (${rangeText}), got ${describeValue(value)}`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${what} must be ${rangeText}, got ${value}`);
  }
  return value;
}

/** An optional boolean option, false when absent. */
export function checkFlag(value: unknown, what: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`${what} must be a boolean, got ${describeValue(value)}`);
  return value;
}

/**
 * A seed as the two 32-bit halves the bindings take; when absent, a random
 * one from the platform's cryptographic source, so that nobody who has not
 * seen a filter's bytes can search offline for items that collide in it.
 */
export function checkSeed(value: unknown, what: string): [low: number, high: number] {
  if (value === undefined) return randomSeed();
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${what} must be a non-negative safe integer or a bigint from 0 to 2^64 - 1, got ${value}`);
    }
    return [value % 2 ** 32, Math.floor(value / 2 ** 32)];
  }
  if (typeof value === 'bigint') {
    if (value < 0n || value >= 2n ** 64n) throw new RangeError(`${what} must be from 0 to 2^64 - 1, got ${value}n`);
    return [Number(value & 0xffffffffn), Number(value >> 32n)];
  }
  throw new TypeError(`${what} must be a number or a bigint, got ${describeValue(value)}`);
}

/**
 * A table's flags as the core's create calls take them (bindings/glue.hpp):
 * semi-sorted buckets, the keyed item hash, the multiply-shift hash of 64-bit
 * keys (both hashes at once is the core's to refuse, naming both options).
 */
export function tableFlags(semiSort: boolean, keyedHash = false, multiplyShiftHash = false): number {
  return (semiSort ? 1 : 0) | (keyedHash ? 2 : 0) | (multiplyShiftHash ? 4 : 0);
}

/** The flags of a filter's `options`, its `semiSort` already checked: keyedHash and multiplyShiftHash checked here. */
export function checkTableFlags(options: Readonly<Record<string, unknown>>, semiSort: boolean, context: string): number {
  return tableFlags(semiSort, checkFlag(options.keyedHash, `${context}: keyedHash`), checkFlag(options.multiplyShiftHash, `${context}: multiplyShiftHash`));
}

/** The options every cuckoo filter takes besides its size: maxKicks, seed and semiSort, checked. */
export interface EvictionOptions {
  maxKicks: number;
  seedLow: number;
  seedHigh: number;
  semiSort: boolean;
}

export function checkEvictionOptions(runtime: Runtime, options: Readonly<Record<string, unknown>>, context: string): EvictionOptions {
  const maxKicks = checkNumberOption(runtime, options, 'maxKicks', context);
  const [seedLow, seedHigh] = checkSeed(options.seed, `${context}: seed`);
  return { maxKicks, seedLow, seedHigh, semiSort: checkFlag(options.semiSort, `${context}: semiSort`) };
}
