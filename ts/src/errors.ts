/**
 * Error types thrown by cuckoo-wasm.
 *
 * - `TypeError`: an argument has the wrong type.
 * - `RangeError`: a value is out of range (rate, capacity, bits, a non-integer
 *   number item) or a filter does not fit in memory.
 * - {@link FormatError}: bytes given to `CuckooFilter.fromBytes` are not a valid filter.
 * - {@link CuckooFilterError}: the library is used in a wrong state (before `init()`
 *   resolved, after `dispose()`), or the WebAssembly module failed to load.
 *
 * Every message names the argument and what is allowed.
 */

/** Codes of {@link FormatError}: which check of the byte format failed (see FORMAT.md). */
export type FormatErrorCode =
  | 'BAD_MAGIC'
  | 'UNSUPPORTED_VERSION'
  | 'TRUNCATED'
  | 'BAD_PARAMETERS'
  | 'CHECKSUM_MISMATCH'
  | 'INCONSISTENT';

/** Codes of {@link CuckooFilterError}. */
export type CuckooFilterErrorCode = FormatErrorCode | 'NOT_INITIALIZED' | 'DISPOSED' | 'LOAD_FAILED';

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

// cuckoo::Status values (cpp/include/cuckoo/status.hpp); the numbers are a
// contract between the core and this file.
const formatCodes: Readonly<Record<number, FormatErrorCode>> = {
  20: 'BAD_MAGIC',
  21: 'UNSUPPORTED_VERSION',
  22: 'TRUNCATED',
  23: 'BAD_PARAMETERS',
  24: 'CHECKSUM_MISMATCH',
  25: 'INCONSISTENT',
};

export const STATUS_OK = 0;

/**
 * The error for a non-zero core status. `context` names what was being done
 * ("new CuckooFilter", "CuckooFilter.fromBytes", ...) and `describe` gives
 * the core's own sentence for the status.
 */
export function errorForStatus(status: number, context: string, describe: (status: number) => string): Error {
  const formatCode = formatCodes[status];
  if (formatCode !== undefined) return new FormatError(formatCode, `${context}: ${describe(status)}`);
  // Every other status is a parameter out of range or a table that does not fit.
  return new RangeError(`${context}: ${describe(status)}`);
}
