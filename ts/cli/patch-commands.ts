// The commands on patches (cuckoo-wasm/patch, FORMAT.md "Patches"): diff
// writes the patch between two versions of a filter file, patch applies one
// to a filter file. Each frees its filters' wasm memory however it ends.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { FormatError } from '../index.node.js';
import { applyPatch, checksumOf, describePatch, diff, type PatchableFilter } from '../patch.node.js';
import { expectPositionals, type ParsedArgs } from './arguments.js';
import { CommandError, UsageError } from './errors.js';
import { loadFilter } from './commands.js';
import type { CliIo } from './io.js';
import { systemErrorText, writeOutput } from './output.js';

export const patchCommands: Record<string, (args: ParsedArgs, io: CliIo) => Promise<void>> = {
  diff: diffCommand,
  patch: patchCommand,
};

async function diffCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const [olderPath, newerPath] = expectPositionals('diff', args, ['old filter file (.cf)', 'new filter file (.cf)']) as [string, string];
  const outputPath = args.options.get('--output');
  if (outputPath === undefined && io.stdout.isTTY === true) {
    throw new UsageError('diff: the patch is binary: redirect it (> patch.cfp) or give -o <patch.cfp>');
  }
  const [older] = await loadFilter(olderPath);
  try {
    const [newer] = await loadFilter(newerPath);
    try {
      if (older.constructor !== newer.constructor) {
        throw new CommandError(`${olderPath} and ${newerPath} are not versions of one filter: one is growable, the other is not`);
      }
      const patch = diff(newer as PatchableFilter, older);
      if (outputPath === undefined) await writeOutput(io.stdout, patch);
      else await writeFileAtomically(outputPath, patch);
      const info = describePatch(patch);
      const body = info.wholeTable ? 'the table whole' : `${info.changedSlots} changed slots`;
      io.stderr.write(`patch from version ${info.base} to ${info.result}: ${patch.length} bytes (${body}); the new filter is ${newer.toBytes().length} bytes\n`);
    } finally {
      newer.dispose();
    }
  } finally {
    older.dispose();
  }
}

async function patchCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const [filterPath, patchPath] = expectPositionals('patch', args, ['filter file (.cf)', 'patch file']) as [string, string];
  const outputPath = args.options.get('--output') ?? filterPath;
  const [filter] = await loadFilter(filterPath);
  try {
    let patch: Uint8Array;
    try {
      patch = await fs.promises.readFile(patchPath);
    } catch (error) {
      throw new CommandError(`cannot read ${patchPath}: ${systemErrorText(error)}`);
    }
    const before = checksumOf(filter);
    try {
      applyPatch(filter, patch);
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      if (error.code === 'WRONG_BASE') {
        const info = describePatch(patch);
        throw new CommandError(
          `${patchPath} does not apply to ${filterPath}: it goes from version ${info.base} of a ${info.filter} to ${info.result}, and ${filterPath} is version ${before}; nothing was written`,
        );
      }
      throw new CommandError(`${patchPath} is not a valid patch: ${error.message.replace(/^[\w.]+: /, '')} (${error.code}); nothing was written`);
    }
    await writeFileAtomically(outputPath, filter.toBytes());
    io.stderr.write(`wrote ${outputPath}: version ${before} patched to ${checksumOf(filter)}, ${filter.size} items\n`);
  } finally {
    filter.dispose();
  }
}

/** Writes `bytes` to `target` through a file beside it, renamed over it: a reader never sees half a file. */
async function writeFileAtomically(target: string, bytes: Uint8Array): Promise<void> {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    await fs.promises.writeFile(temporary, bytes);
    await fs.promises.rename(temporary, target);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw new CommandError(`cannot write ${target}: ${systemErrorText(error)}`);
  }
}
