/**
 * Error types thrown by cuckoo-wasm.
 *
 * - `TypeError`: an argument has the wrong type.
 * - `RangeError`: a value is out of range (rate, capacity, bits, a non-integer
 *   number item) or a filter does not fit in memory.
 * - {@link FormatError}: bytes given to `CuckooFilter.fromBytes` are not a valid filter.
 * - {@link CuckooFilterError}: the library is used in a wrong state (before `init()`
 *   resolved, after `dispose()`), filters that differ are merged (`INCOMPATIBLE`),
 *   or the WebAssembly module failed to load.
 *
 * Every message names the argument and what is allowed.
 */

import { statusErrorCode, statusFormatCode, statusOptions, statusText } from './facts.js';
import type { Runtime } from './runtime.js';

/**
 * The codes of {@link FormatError}, as the bindings name the core's
 * byte-format statuses (bindings/facts_exports.cpp); a test checks that the
 * two lists agree.
 */
export const FORMAT_ERROR_CODES = [
  'BAD_MAGIC',
  'UNSUPPORTED_VERSION',
  'TRUNCATED',
  'BAD_PARAMETERS',
  'CHECKSUM_MISMATCH',
  'INCONSISTENT',
] as const;

/**
 * Codes of {@link FormatError}: which check of the byte format failed (see
 * FORMAT.md), or `WRONG_BASE`: a patch (cuckoo-wasm/patch) made from another
 * version of the filter than the one it is applied to.
 */
export type FormatErrorCode = (typeof FORMAT_ERROR_CODES)[number] | 'WRONG_BASE';

/**
 * Codes of {@link CuckooFilterError}. `EXISTS` and `NOT_FOUND`: a filter
 * name in Redis already taken, or naming no filter (cuckoo-wasm/redis).
 */
export type CuckooFilterErrorCode =
  | FormatErrorCode
  | 'NOT_INITIALIZED'
  | 'DISPOSED'
  | 'LOAD_FAILED'
  | 'INCOMPATIBLE'
  | 'EXISTS'
  | 'NOT_FOUND';

/**
 * Base class of the library's own errors; `code` says what went wrong.
 *
 * @example
 * ```ts
 * try {
 *   filter.has('x');
 * } catch (error) {
 *   if (error instanceof CuckooFilterError && error.code === 'DISPOSED') {
 *     // the filter was disposed: create a new one
 *   }
 * }
 * ```
 */
export class CuckooFilterError extends Error {
  /** A stable, machine-readable reason. */
  readonly code: CuckooFilterErrorCode;

  constructor(code: CuckooFilterErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CuckooFilterError';
    this.code = code;
  }
}

/**
 * Thrown by `CuckooFilter.fromBytes` when the bytes are not a valid filter;
 * `code` names the failed check.
 *
 * @example
 * ```ts
 * try {
 *   CuckooFilter.fromBytes(bytes);
 * } catch (error) {
 *   if (error instanceof FormatError) console.error(error.code); // e.g. 'CHECKSUM_MISMATCH'
 * }
 * ```
 */
export class FormatError extends CuckooFilterError {
  declare readonly code: FormatErrorCode;

  constructor(code: FormatErrorCode, message: string) {
    super(code, message);
    this.name = 'FormatError';
  }
}

/**
 * The error for a failed core status: a FormatError for a byte-format
 * status, a CuckooFilterError for filters that cannot be merged, else a
 * RangeError (a parameter out of range, or a table that does not fit). `context` names what was being done ("new CuckooFilter", ...);
 * the message is the core's own sentence, followed by the values of the
 * options it is about, when `options` holds them.
 */
export function errorForStatus(
  runtime: Runtime,
  status: number,
  context: string,
  options?: Readonly<Record<string, unknown>>,
): Error {
  const message = `${context}: ${statusText(runtime, status)}${gotValues(statusOptions(runtime, status), options)}`;
  const formatCode = statusFormatCode(runtime, status);
  if (formatCode !== '') return new FormatError(formatCode as FormatErrorCode, message);
  const errorCode = statusErrorCode(runtime, status);
  if (errorCode !== '') return new CuckooFilterError(errorCode as CuckooFilterErrorCode, message);
  return new RangeError(message);
}

function gotValues(names: string, options: Readonly<Record<string, unknown>> | undefined): string {
  if (names === '' || options === undefined) return '';
  const keys = names.split(',');
  if (keys.length === 1) return `, got ${String(options[keys[0]!])}`;
  return `, got ${keys.map((key) => `${key} ${String(options[key])}`).join(' and ')}`;
}
