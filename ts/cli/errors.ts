// The command's two kinds of expected failure and how each ends: a bad
// command line exits 2 and failed work exits 1, each with one message line;
// anything else is a bug and prints its stack.

import { CuckooFilterError } from '../index.node.js';
import type { CliOutput } from './io.js';

/** A bad command line: exit status 2. */
export class UsageError extends Error {}
/** Expected failure of the work itself: exit status 1, message only. */
export class CommandError extends Error {}

/** Writes the `cuckoo-wasm: ` line for `error` and returns the exit status. */
export function reportError(error: unknown, stderr: CliOutput): number {
  const line = (message: string): void => {
    stderr.write(`cuckoo-wasm: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  };
  if (error instanceof UsageError) {
    line(error.message);
    return 2;
  }
  // The library's RangeError and CuckooFilterError messages already name the
  // value and what is allowed: they are the explanation. Anything else is a bug.
  if (error instanceof CommandError || error instanceof RangeError || error instanceof CuckooFilterError) {
    line(error.message);
    return 1;
  }
  stderr.write(`cuckoo-wasm: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}
