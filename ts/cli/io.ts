// Where the command reads and writes: passed in rather than taken from
// `process`, so that the tests can run it in their own process and hear what
// it says.

/** A stream the command writes to. */
export interface CliOutput {
  write(chunk: string | Uint8Array): boolean;
  once?(event: 'drain', listener: () => void): unknown;
  /** On stderr: draw the progress bar only on a terminal. */
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Where the command reads and writes. Tests pass their own; the command uses the process's streams. */
export interface CliIo {
  stdin: AsyncIterable<Uint8Array | string>;
  stdout: CliOutput;
  stderr: CliOutput;
  /** Milliseconds on a monotonic clock; times the progress bar. */
  now?: () => number;
}

/** The streams of the process the command runs as. */
export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    now: () => performance.now(),
  };
}
