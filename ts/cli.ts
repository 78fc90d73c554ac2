#!/usr/bin/env node
// The `cuckoo-wasm` command: build, query and inspect filter files from a shell,
// and make and apply patches between their versions.
//
// This entry is what package.json's bin and the tests load (dist/cjs/cli.js);
// its parts are in cli/, apart from the library's sources, so that none of
// them can reach the browser build.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { optionSpecs, parseArgs, USAGE } from './cli/arguments.js';
import { commands } from './cli/commands.js';
import { patchCommands } from './cli/patch-commands.js';
import { reportError, UsageError } from './cli/errors.js';
import { processIo, type CliIo } from './cli/io.js';
import { init } from './index.node.js';

export type { CliIo, CliOutput } from './cli/io.js';

/**
 * Runs the command line `argv` (without the node and script paths) and
 * resolves to the exit status: 0 on success, 1 when the work fails, 2 for a
 * bad command line. Errors are reported as one `cuckoo-wasm: ` line on
 * `io.stderr`; it never calls `process.exit`.
 *
 * @example
 * ```ts
 * process.exitCode = await main(['info', 'words.cf', '--json']);
 * ```
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined) throw new UsageError('missing command (build, query, info, diff or patch); see cuckoo-wasm --help');
    if (command === '--help' || command === '-h' || command === 'help') {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (command === '--version' || command === '-v') {
      io.stdout.write(`${readVersion()}\n`);
      return 0;
    }
    const run = commands[command] ?? patchCommands[command];
    if (run === undefined) {
      if (command.startsWith('-')) throw new UsageError(`unknown option '${command}'; see cuckoo-wasm --help`);
      throw new UsageError(`unknown command '${command}' (expected build, query, info, diff or patch); see cuckoo-wasm --help`);
    }
    const args = parseArgs(command, rest, optionSpecs[command]!);
    if (args.help) {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    await init();
    await run(args, io);
    return 0;
  } catch (error) {
    return reportError(error, io.stderr);
  }
}

function readVersion(): string {
  // The compiled file is dist/cjs/cli.js, two folders below the package root.
  const packageJson = path.join(__dirname, '..', '..', 'package.json');
  return (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

// Runs only as the command itself, so importing this module has no side effects.
if (require.main === module) {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // The reader went away (`cuckoo-wasm query ... | head`): stop quietly.
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  void main(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  });
}
