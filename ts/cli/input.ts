// What the command reads: the lines of a file or of stdin, in batches. A line
// is read as UTF-8 text, so it is the same item as the JavaScript string (the
// library's items.ts): a filter built here answers the library's has(string).
// A source can be read twice, because build counts the lines before it sizes
// the filter.

import * as fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { CommandError } from './errors.js';
import type { CliIo } from './io.js';
import { systemErrorText } from './output.js';

/** Lines handed to the filter at once: large enough to amortize the call, small enough to redraw progress. */
const BATCH_LINES = 16_384;
const READ_CHUNK_BYTES = 1 << 20;
const BYTE_ORDER_MARK = '\ufeff';

/** Input that can be read more than once (a file, or stdin once held in memory). */
export interface LineSource {
  name: string;
  /** Total bytes, when known before reading. */
  size: number | undefined;
  chunks(): AsyncIterable<Uint8Array | string> | Iterable<Uint8Array>;
}

export async function openSource(path: string, io: CliIo): Promise<LineSource> {
  if (path === '-') return { name: 'stdin', size: undefined, chunks: () => io.stdin };
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(path);
  } catch (error) {
    throw new CommandError(`cannot read ${path}: ${systemErrorText(error)}`);
  }
  if (stat.isDirectory()) throw new CommandError(`cannot read ${path}: it is a directory`);
  return {
    name: path,
    // Pipes and devices report 0: their size is not known in advance.
    size: stat.isFile() ? stat.size : undefined,
    chunks: () => fs.createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }),
  };
}

async function* readChunks(source: LineSource): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of source.chunks()) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  } catch (error) {
    throw new CommandError(`cannot read ${source.name}: ${systemErrorText(error)}`);
  }
}

/**
 * The non-empty lines of `source` in batches, decoded as UTF-8, without their
 * line ending (\n or \r\n) and without a leading byte order mark.
 * `onBytes` hears how many bytes have been consumed so far.
 */
export async function* readLineBatches(source: LineSource, onBytes?: (bytesDone: number) => void): AsyncGenerator<string[]> {
  // Strings rather than byte arrays: splitting them is cheaper, and the
  // filter copies ASCII strings faster than many small Uint8Arrays.
  const decoder = new StringDecoder('utf8');
  let batch: string[] = [];
  let partialLine = '';
  let bytesDone = 0;
  let atStart = true;
  const take = (text: string, final: boolean): void => {
    const lines = (partialLine + text).split('\n');
    partialLine = final ? '' : lines.pop()!;
    if (atStart && lines.length > 0) {
      atStart = false;
      if (lines[0]!.startsWith(BYTE_ORDER_MARK)) lines[0] = lines[0]!.slice(BYTE_ORDER_MARK.length);
    }
    for (let line of lines) {
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.length > 0) batch.push(line);
    }
  };
  for await (const chunk of readChunks(source)) {
    take(decoder.write(chunk), false);
    bytesDone += chunk.length;
    if (batch.length >= BATCH_LINES) {
      yield batch;
      batch = [];
    }
    onBytes?.(bytesDone);
  }
  take(decoder.end(), true);
  if (batch.length > 0) yield batch;
}
