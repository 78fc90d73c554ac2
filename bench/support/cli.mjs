// What the Node benchmark programs share around their measurements: the
// command line, progress on stderr and the machine they ran on.

import os from 'node:os';
import { parseArgs } from 'node:util';

import { now, secondsSince } from './measurement.mjs';

/**
 * The options `spec` declares (node:util's parseArgs: { name: { type } }), as
 * { name: value }; prints `usage` and exits 0 for --help, 2 for anything else.
 */
export function parseCommandLine(spec, usage, argv = process.argv.slice(2)) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...spec, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}

/** A function writing `[tag 12.3s] text` lines on stderr, in seconds from now. */
export function progressLog(tag) {
  const start = now();
  return (text) => process.stderr.write(`[${tag} ${secondsSince(start).toFixed(1)}s] ${text}\n`);
}

/** The machine and its 1-minute load average now; the caller adds loadAverageAtEnd. */
export function describeMachine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown CPU',
    cores: cpus.length,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg()[0],
  };
}
