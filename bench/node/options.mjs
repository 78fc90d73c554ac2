// The command line of `npm run bench` (bench/node-bench.mjs); the table's
// shape is bench/support/measurement.mjs's.

import { parseCommandLine } from '../support/cli.mjs';

const USAGE =
  'usage: node bench/node-bench.mjs [--quick] [--json] | --boundary [--quick] [--json] | --space [--json] | --growth [--quick] [--json] | --redis [--quick] [--json] | --redis-module [--quick] [--json] | --patches [--quick] [--json] | --replicas [--quick] [--json] [--baseline DIR]';
const FLAGS = ['quick', 'json', 'space', 'growth', 'boundary', 'redis', 'redis-module', 'patches', 'replicas'];

/** Keys per peer has- / delete measurement. */
export const PEER_SAMPLE = 50_000;

/** The options of `argv` (without node and the script); exits after --help or an unknown argument. */
export function parseOptions(argv) {
  const flags = parseCommandLine(
    { ...Object.fromEntries(FLAGS.map((flag) => [flag, { type: 'boolean', default: false }])), baseline: { type: 'string' } },
    USAGE,
    argv,
  );
  return {
    ...flags,
    sizes: flags.quick ? [16] : [16, 22],
    /** Timed runs per (mode, size) of the main table, after one untimed warm-up run at 2^16. */
    reps: flags.quick ? { 16: 3, 22: 1 } : { 16: 5, 22: 1 },
  };
}
