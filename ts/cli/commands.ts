// What each command does once its command line has parsed: build writes a
// filter file from lines, query answers items from one, info describes one.
// Each frees its filter's wasm memory however it ends, so that main can run
// many commands in one process (as the tests do).

import * as fs from 'node:fs';
import { CuckooFilter, FormatError } from '../index.js';
import { DEFAULT_FPR, expectPositionals, parseCount, parseRate, parseSeed, type ParsedArgs } from './arguments.js';
import { CommandError, UsageError } from './errors.js';
import { bufferSource, openSource, readLineBatches, type LineSource } from './input.js';
import type { CliIo } from './io.js';
import { displayItem, formatFixed, formatPercent, Progress, systemErrorText, writeAnswers, writeOutput } from './output.js';

export const commands: Record<string, (args: ParsedArgs, io: CliIo) => Promise<void>> = {
  build: buildCommand,
  query: queryCommand,
  info: infoCommand,
};

async function buildCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const [inputPath] = expectPositionals('build', args, ['input file (or - for stdin)']) as [string];
  const outputPath = args.options.get('--output');
  if (outputPath === undefined) throw new UsageError('build: missing -o <out.cf>; see cuckoo-wasm --help');
  const fprText = args.options.get('--fpr');
  const capacityText = args.options.get('--capacity');
  const seedText = args.options.get('--seed');
  const fpr = fprText === undefined ? DEFAULT_FPR : parseRate(fprText, '--fpr');
  const givenCapacity = capacityText === undefined ? undefined : parseCount(capacityText, '--capacity');
  const seed = seedText === undefined ? 0n : parseSeed(seedText, '--seed');

  const progress = new Progress(io);
  try {
    let source = await openSource(inputPath, io);
    let capacity = givenCapacity;
    if (capacity === undefined) {
      // The filter is sized before the first insert, so the lines are counted
      // first: a second pass over a file, or stdin held in memory.
      if (source.size === undefined) source = await bufferSource(source, progress);
      capacity = 0;
      for await (const batch of readLineBatches(source, (done) => progress.show('counting lines', done, source.size, capacity!))) {
        capacity += batch.length;
      }
      if (capacity === 0) throw new CommandError(`${source.name} has no items (empty lines are skipped); nothing to build`);
    }
    const filter = CuckooFilter.create({ capacity, fpr, seed, semiSort: args.flags.has('--semi-sort') });
    try {
      let added = 0;
      for await (const batch of readLineBatches(source, (done) => progress.show('adding items', done, source.size, added))) {
        const stored = filter.addMany(batch);
        added += stored;
        if (stored < batch.length) throw fullFilterError(filter, batch[stored]!, added, capacity, givenCapacity === undefined);
      }
      const bytes = filter.toBytes();
      try {
        await fs.promises.writeFile(outputPath, bytes);
      } catch (error) {
        throw new CommandError(`cannot write ${outputPath}: ${systemErrorText(error)}`);
      }
      progress.clear();
      io.stderr.write(
        `wrote ${outputPath}: ${filter.size} items, ${bytes.length} bytes, ` +
          `${formatFixed(filter.bitsPerItem, 2)} bits per item, expected FPR ${formatPercent(filter.expectedFpr)}\n`,
      );
    } finally {
      filter.dispose();
    }
  } finally {
    progress.clear();
  }
}

function fullFilterError(filter: CuckooFilter, rejected: string, added: number, capacity: number, defaulted: boolean): Error {
  const { bucketSize } = filter.params;
  // Copies of one item all land in the same two buckets, so a line repeated
  // more than 2b times fills them however large the filter is.
  if (filter.count(rejected) >= 2 * bucketSize) {
    return new CommandError(
      `the filter is full after adding ${added} items: the line '${displayItem(rejected)}' occurs more than ` +
        `${2 * bucketSize} times and a filter of bucket size ${bucketSize} cannot hold more copies of an item; ` +
        'remove duplicate lines (e.g. with sort -u)',
    );
  }
  const was = defaulted ? `${capacity}, the number of lines` : `${capacity}`;
  return new CommandError(`the filter is full after adding ${added} items; raise --capacity (it was ${was})`);
}

async function queryCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  if (args.positionals.length === 0) throw new UsageError('query: missing filter file (.cf); see cuckoo-wasm --help');
  const [filterPath, ...items] = args.positionals as [string, ...string[]];
  const [filter] = await loadFilter(filterPath);
  try {
    if (items.length > 0) {
      await writeAnswers(io.stdout, items, filter.hasMany(items));
      return;
    }
    const stdin: LineSource = { name: 'stdin', size: undefined, chunks: () => io.stdin };
    for await (const batch of readLineBatches(stdin)) await writeAnswers(io.stdout, batch, filter.hasMany(batch));
  } finally {
    filter.dispose();
  }
}

async function infoCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const [filterPath] = expectPositionals('info', args, ['filter file (.cf)']) as [string];
  const [filter, fileBytes] = await loadFilter(filterPath);
  try {
    const params = filter.params;
    const bitsPerItem = filter.bitsPerItem;
    const info = {
      file: filterPath,
      bytes: fileBytes,
      bucketCount: params.bucketCount,
      bucketSize: params.bucketSize,
      fingerprintBits: params.fingerprintBits,
      semiSort: params.semiSort,
      maxKicks: params.maxKicks,
      // A string: seeds go up to 2^64 - 1, beyond what a JSON number keeps exactly.
      seed: params.seed.toString(),
      items: filter.size,
      slotCount: filter.slotCount,
      loadFactor: filter.loadFactor,
      // null when empty: JSON has no Infinity.
      bitsPerItem: Number.isFinite(bitsPerItem) ? bitsPerItem : null,
      expectedFpr: filter.expectedFpr,
      fprBound: filter.fprBound,
      full: filter.full,
    };
    if (args.flags.has('--json')) {
      await writeOutput(io.stdout, `${JSON.stringify(info, null, 2)}\n`);
      return;
    }
    const shown: Record<keyof typeof info, string> = {
      ...info,
      bytes: String(info.bytes),
      bucketCount: String(info.bucketCount),
      bucketSize: String(info.bucketSize),
      fingerprintBits: String(info.fingerprintBits),
      semiSort: info.semiSort ? 'yes (4f - 4 bits per bucket)' : 'no',
      maxKicks: String(info.maxKicks),
      items: String(info.items),
      slotCount: String(info.slotCount),
      loadFactor: formatFixed(info.loadFactor, 4),
      bitsPerItem: info.bitsPerItem === null ? '- (empty)' : formatFixed(info.bitsPerItem, 2),
      expectedFpr: `${info.expectedFpr.toPrecision(4)} (${formatPercent(info.expectedFpr)})`,
      fprBound: `${info.fprBound.toPrecision(4)} (${formatPercent(info.fprBound)})`,
      full: info.full ? 'yes (inserts fail until an item is deleted)' : 'no',
    };
    const width = Math.max(...Object.keys(shown).map((key) => key.length)) + 2;
    const lines = Object.entries(shown).map(([key, value]) => `${key.padEnd(width)}${value}\n`);
    await writeOutput(io.stdout, lines.join(''));
  } finally {
    filter.dispose();
  }
}

/** The filter in the file at `path`, and the file's size in bytes. */
async function loadFilter(path: string): Promise<[filter: CuckooFilter, fileBytes: number]> {
  let bytes: Uint8Array;
  try {
    bytes = await fs.promises.readFile(path);
  } catch (error) {
    throw new CommandError(`cannot read ${path}: ${systemErrorText(error)}`);
  }
  try {
    return [CuckooFilter.fromBytes(bytes), bytes.length];
  } catch (error) {
    if (error instanceof FormatError) {
      // Drop the "CuckooFilter.fromBytes: " context: here the file is the context.
      const reason = error.message.replace(/^[\w.]+: /, '');
      throw new CommandError(`${path} is not a valid filter file: ${reason} (${error.code})`);
    }
    if (error instanceof RangeError) {
      // A valid header whose table does not fit in wasm memory: name the file, not the library call.
      throw new CommandError(`cannot load ${path}: ${error.message.replace(/^[\w.]+: /, '')}`);
    }
    throw error;
  }
}
