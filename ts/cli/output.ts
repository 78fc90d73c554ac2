// What the command writes: answers and reports on stdout (waiting for the
// reader when the pipe is full, so that a large query never piles up in
// memory), the progress line on stderr, and the number formats they share.

import { CommandError } from './errors.js';
import type { CliIo, CliOutput } from './io.js';

const PROGRESS_DELAY_MS = 1000;
const PROGRESS_INTERVAL_MS = 100;
const PROGRESS_BAR_WIDTH = 24;

export function writeAnswers(stdout: CliOutput, items: readonly string[], answers: Uint8Array): Promise<void> {
  return writeOutput(stdout, items.map((item, k) => `${item}\t${answers[k] ? 'yes' : 'no'}\n`).join(''));
}

export async function writeOutput(stream: CliOutput, chunk: string | Uint8Array): Promise<void> {
  if (!stream.write(chunk) && stream.once !== undefined) {
    await new Promise<void>((resolve) => stream.once!('drain', resolve));
  }
}

/**
 * A progress line on stderr for long builds: only on a terminal, and only
 * once the work has taken a second, so that quick runs and logs stay clean.
 */
export class Progress {
  readonly #stderr: CliOutput;
  readonly #now: () => number;
  readonly #enabled: boolean;
  readonly #start: number;
  #lastDraw = -Infinity;
  #drawn = false;

  constructor(io: CliIo) {
    this.#stderr = io.stderr;
    this.#now = io.now ?? (() => performance.now());
    this.#enabled = io.stderr.isTTY === true;
    this.#start = this.#now();
  }

  /** Redraws with `done` of `total` bytes (total unknown: a counter only) and `items` so far. */
  show(label: string, done: number, total: number | undefined, items: number | undefined): void {
    if (!this.#enabled) return;
    const now = this.#now();
    if (now - this.#start < PROGRESS_DELAY_MS || now - this.#lastDraw < PROGRESS_INTERVAL_MS) return;
    this.#lastDraw = now;
    let text = label;
    if (total !== undefined && total > 0) {
      const fraction = Math.min(1, done / total);
      const filled = Math.round(fraction * PROGRESS_BAR_WIDTH);
      text += ` [${'#'.repeat(filled)}${'-'.repeat(PROGRESS_BAR_WIDTH - filled)}] ${Math.floor(fraction * 100)}%`;
    } else {
      text += ` ${formatBytes(done)}`;
    }
    if (items !== undefined) text += ` ${items} items`;
    // A line that wraps could not be overwritten with \r.
    const columns = this.#stderr.columns || 80; // 0 when the terminal does not say
    this.#stderr.write(`\r${text.slice(0, Math.max(columns - 1, 1))}\x1b[K`);
    this.#drawn = true;
  }

  /** Erases the line, if one was drawn. */
  clear(): void {
    if (!this.#drawn) return;
    this.#stderr.write('\r\x1b[K');
    this.#drawn = false;
  }
}

export function formatFixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : String(value);
}

export function formatPercent(rate: number): string {
  return `${Number((rate * 100).toPrecision(3))}%`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1 << 20) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
}

export function displayItem(item: string): string {
  return item.length > 40 ? `${item.slice(0, 40)}...` : item;
}

/** "no such file or directory" rather than "ENOENT: no such file or directory, open 'x'". */
export function systemErrorText(error: unknown): string {
  if (error instanceof CommandError) return error.message;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const known: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'it is a directory',
    ENOTDIR: 'a part of the path is not a directory',
    ENOSPC: 'no space left on the device',
    EROFS: 'the file system is read-only',
  };
  if (typeof code === 'string' && known[code] !== undefined) return known[code]!;
  return typeof message === 'string' ? message : String(error);
}
