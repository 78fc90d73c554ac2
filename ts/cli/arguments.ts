// The command line: the usage text, the options each command takes, and their
// parsing, side by side so that an option is documented where it is declared.

import { UsageError } from './errors.js';

/** The library's default rate, which build takes without --fpr, for the texts (cli.test.ts checks that they agree). */
export const DEFAULT_FPR = 0.001;

export const USAGE = `Usage:
  cuckoo-wasm build <file|-> -o <out.cf> [--fpr R] [--capacity N] [--growable] [--seed S] [--semi-sort]
  cuckoo-wasm query <file.cf> [item...]
  cuckoo-wasm info <file.cf> [--json]
  cuckoo-wasm --help | --version

build   Makes a cuckoo filter from a text file (or stdin with -), one item per
        line, read as UTF-8 (the same item as the JavaScript string); a trailing
        \\r is dropped, empty lines are skipped, and a duplicate line is stored
        again. A file's lines are counted first and the filter is sized
        exactly for them; stdin, which cannot be read twice, gets a filter
        that grows as the lines come (one pass, never held in memory, FPR R
        at every size, more bytes). build says what it chose and why.
          -o, --output <out.cf>  where to write the filter (required)
          --fpr R                false-positive rate to aim for (default ${DEFAULT_FPR})
          --capacity N           size for N items rather than counting; with
                                 --growable, the items the first table holds
          --growable             grow as lines come even from a file (one pass)
          --seed S               hash seed, 0 to 2^64-1, decimal or 0x hex
                                 (default: random, so nobody can aim items
                                 at one bucket); with a seed the same input
                                 gives the same bytes, and filters built
                                 apart can be merged
          --semi-sort            semi-sorted buckets: one bit less per item
query   Prints "<item>\\tyes" (possibly present) or "<item>\\tno" (certainly
        absent) per item: the command-line items, or else one per line of stdin.
info    Prints the filter's parameters and statistics; --json for JSON.

Exit status: 0 on success, 1 when the work fails (unreadable or invalid file,
a value out of range, a full filter), 2 for a bad command line.`;

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string>;
  flags: Set<string>;
  help: boolean;
}

interface OptionSpec {
  /** Option names (and aliases) that take a value, mapped to their canonical name. */
  valued: Record<string, string>;
  /** Options without a value. */
  flags: readonly string[];
}

export const optionSpecs: Record<string, OptionSpec> = {
  build: {
    valued: { '-o': '--output', '--output': '--output', '--fpr': '--fpr', '--capacity': '--capacity', '--seed': '--seed' },
    flags: ['--semi-sort', '--growable'],
  },
  query: { valued: {}, flags: [] },
  info: { valued: {}, flags: ['--json'] },
};

export function parseArgs(command: string, args: readonly string[], spec: OptionSpec): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [], options: new Map(), flags: new Set(), help: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      parsed.positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      parsed.positionals.push(arg);
      continue;
    }
    if (arg === '--help' || arg === '-h') {
      parsed.help = true;
      continue;
    }
    const equals = arg.indexOf('=');
    const name = arg.startsWith('--') && equals > 0 ? arg.slice(0, equals) : arg;
    const canonical = spec.valued[name];
    if (canonical !== undefined) {
      const value = name !== arg ? arg.slice(equals + 1) : args[++i];
      if (value === undefined || value === '') throw new UsageError(`option ${name} needs a value`);
      parsed.options.set(canonical, value);
    } else if (spec.flags.includes(name)) {
      if (name !== arg) throw new UsageError(`option ${name} takes no value`);
      parsed.flags.add(name);
    } else {
      const hint = command === 'query' ? " (put '--' before items that start with '-')" : '';
      throw new UsageError(`unknown option '${name}' for ${command}${hint}; see cuckoo-wasm --help`);
    }
  }
  return parsed;
}

export function expectPositionals(command: string, args: ParsedArgs, names: readonly string[]): string[] {
  if (args.positionals.length < names.length) {
    throw new UsageError(`${command}: missing ${names[args.positionals.length]}; see cuckoo-wasm --help`);
  }
  if (args.positionals.length > names.length) {
    throw new UsageError(`${command}: unexpected argument '${args.positionals[names.length]}'; see cuckoo-wasm --help`);
  }
  return args.positionals;
}

// Only the shape is checked here; whether the value is in range is the
// library's call, and its RangeError says so.
export function parseRate(value: string, option: string): number {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value)) {
    throw new UsageError(`${option} must be a number such as 0.001, got '${value}'`);
  }
  return Number(value);
}

export function parseCount(value: string, option: string): number {
  if (!/^[+-]?\d+(e\+?\d+)?$/i.test(value)) {
    throw new UsageError(`${option} must be a whole number such as 100000 or 1e6, got '${value}'`);
  }
  return Number(value);
}

export function parseSeed(value: string, option: string): bigint {
  if (!/^(-?\d+|0x[0-9a-f]+)$/i.test(value)) {
    throw new UsageError(`${option} must be an integer from 0 to 2^64-1 (decimal or 0x hex), got '${value}'`);
  }
  return BigInt(value);
}
