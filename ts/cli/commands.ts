// What each command does once its command line has parsed: build writes a
// filter file from lines, query answers items from one, info describes one.
// Each frees its filter's wasm memory however it ends, so that main can run
// many commands in one process (as the tests do).

import * as fs from 'node:fs';
import { CuckooFilter, FormatError, ScalableCuckooFilter } from '../index.node.js';
import { expectPositionals, parseCount, parseRate, parseSeed, type ParsedArgs } from './arguments.js';
import { CommandError, UsageError } from './errors.js';
import { openSource, readLineBatches, type LineSource } from './input.js';
import type { CliIo } from './io.js';
import { displayItem, formatFixed, formatPercent, Progress, systemErrorText, writeAnswers, writeOutput } from './output.js';
import { changedWhileRead, chooseSizing, createFilter, sizingReport, type Sizing } from './sizing.js';

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
  const fpr = fprText === undefined ? undefined : parseRate(fprText, '--fpr');
  const givenCapacity = capacityText === undefined ? undefined : parseCount(capacityText, '--capacity');
  // Without --seed the library draws one nobody can guess (crypto).
  const seed = seedText === undefined ? undefined : parseSeed(seedText, '--seed');

  const semiSort = args.flags.has('--semi-sort');
  const progress = new Progress(io);
  try {
    const source = await openSource(inputPath, io);
    const sizing = await chooseSizing(source, { capacity: givenCapacity, growable: args.flags.has('--growable') }, progress);
    const filter = createFilter(sizing, { fpr, seed, semiSort });
    try {
      let added = 0;
      for await (const batch of readLineBatches(source, (done) => progress.show('adding items', done, source.size, added))) {
        const stored = filter.addMany(batch);
        added += stored;
        if (stored < batch.length) throw fullFilterError(filter, batch[stored]!, added, sizing, source.name);
      }
      if (added === 0) throw new CommandError(`${source.name} has no items (empty lines are skipped); nothing to build`);
      const changed = changedWhileRead(sizing, source.name, added);
      if (changed !== undefined) throw changed;
      const bytes = filter.toBytes();
      try {
        await fs.promises.writeFile(outputPath, bytes);
      } catch (error) {
        throw new CommandError(`cannot write ${outputPath}: ${systemErrorText(error)}`);
      }
      progress.clear();
      const rate =
        filter instanceof CuckooFilter
          ? `expected FPR ${formatPercent(filter.expectedFpr)}`
          : `grew to ${filter.bucketCount} buckets, FPR at most ${formatPercent(filter.fprBound)}`;
      io.stderr.write(
        `${sizingReport(sizing, filter, source.name, fpr)}\n` +
          `wrote ${outputPath}: ${filter.size} items, ${bytes.length} bytes, ` +
          `${formatFixed(filter.bitsPerItem, 2)} bits per item, ${rate}\n`,
      );
    } finally {
      filter.dispose();
    }
  } finally {
    progress.clear();
  }
}

function fullFilterError(filter: CuckooFilter | ScalableCuckooFilter, rejected: string, added: number, sizing: Sizing, sourceName: string): Error {
  // Copies of one item all land in the same two buckets of 4 slots, so a
  // line repeated more than 8 times fills them however large the filter is.
  const copies = filter instanceof CuckooFilter ? 2 * filter.params.bucketSize : 8;
  if (filter.count(rejected) >= copies) {
    return new CommandError(
      `the filter is full after adding ${added} items: the line '${displayItem(rejected)}' occurs more than ` +
        `${copies} times and a filter cannot hold more copies of one item; remove duplicate lines (e.g. with sort -u)`,
    );
  }
  if (sizing.kind === 'growable') return new CommandError(`the filter could not grow after adding ${added} items: out of memory`);
  return (
    changedWhileRead(sizing, sourceName) ??
    new CommandError(`the filter is full after adding ${added} items; raise --capacity (it was ${sizing.capacity}) or leave it out`)
  );
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
    const info = { file: filterPath, bytes: fileBytes, ...(filter instanceof CuckooFilter ? fixedInfo(filter) : growableInfo(filter)) };
    if (args.flags.has('--json')) {
      await writeOutput(io.stdout, `${JSON.stringify(info, null, 2)}\n`);
      return;
    }
    const shown = Object.entries(info).map(([key, value]): [string, string] => [key, shownValue(key, value)]);
    const width = Math.max(...shown.map(([key]) => key.length)) + 2;
    await writeOutput(io.stdout, shown.map(([key, value]) => `${key.padEnd(width)}${value}\n`).join(''));
  } finally {
    filter.dispose();
  }
}

function fixedInfo(filter: CuckooFilter) {
  const params = filter.params;
  return {
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
    stashed: filter.stashed,
    // null when empty: JSON has no Infinity.
    bitsPerItem: Number.isFinite(filter.bitsPerItem) ? filter.bitsPerItem : null,
    expectedFpr: filter.expectedFpr,
    fprBound: filter.fprBound,
    full: filter.full,
  };
}

function growableInfo(filter: ScalableCuckooFilter) {
  const params = filter.params;
  return {
    growable: true,
    fpr: params.fpr,
    initialCapacity: params.initialCapacity,
    growth: params.growth,
    bucketCount: filter.bucketCount,
    slotBits: filter.slotBits,
    semiSort: params.semiSort,
    maxKicks: params.maxKicks,
    seed: params.seed.toString(),
    items: filter.size,
    loadFactor: filter.loadFactor,
    stashed: filter.stashed,
    bitsPerItem: Number.isFinite(filter.bitsPerItem) ? filter.bitsPerItem : null,
    fprBound: filter.fprBound,
    full: filter.full,
  };
}

/** A field of info as the text output shows it. */
function shownValue(key: string, value: unknown): string {
  switch (key) {
    case 'semiSort':
      return value === true ? 'yes (one bit less per slot)' : 'no';
    case 'growable':
      return 'yes (grows as items come; FPR kept at every size)';
    case 'loadFactor':
      return `${formatFixed(value as number, 4)} (slots in use)`;
    case 'stashed':
      return value === 0 ? '0' : `${String(value)} (in the stash, outside the table)`;
    case 'bitsPerItem':
      return value === null ? '- (empty)' : formatFixed(value as number, 2);
    case 'expectedFpr':
    case 'fprBound':
    case 'fpr':
      return `${(value as number).toPrecision(4)} (${formatPercent(value as number)})`;
    case 'full':
      return value === true ? 'yes (inserts fail until an item is deleted)' : 'no';
    default:
      return String(value);
  }
}

/** The filter in the file at `path` (fixed or growable), and the file's size in bytes. */
async function loadFilter(path: string): Promise<[filter: CuckooFilter | ScalableCuckooFilter, fileBytes: number]> {
  let bytes: Uint8Array;
  try {
    bytes = await fs.promises.readFile(path);
  } catch (error) {
    throw new CommandError(`cannot read ${path}: ${systemErrorText(error)}`);
  }
  try {
    return [fromEitherFormat(bytes), bytes.length];
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

// A fixed filter's format versions, else a growable filter's: each class
// knows its own versions, so the other's bytes are UNSUPPORTED_VERSION to it.
function fromEitherFormat(bytes: Uint8Array): CuckooFilter | ScalableCuckooFilter {
  try {
    return CuckooFilter.fromBytes(bytes);
  } catch (error) {
    if (!(error instanceof FormatError) || error.code !== 'UNSUPPORTED_VERSION') throw error;
    return ScalableCuckooFilter.fromBytes(bytes);
  }
}
