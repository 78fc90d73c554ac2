// The command line of `npm run bench` (bench/node-bench.mjs); the table's
// shape is bench/support/measurement.mjs's.

import { parseCommandLine } from '../support/cli.mjs';

const USAGE =
  'usage: node bench/node-bench.mjs [--quick] [--json] [--no-browser] | --boundary [--quick] [--json] | --space [--json] | --growth [--quick] [--json] | --redis [--quick] [--json]';
const FLAGS = ['quick', 'json', 'space', 'no-browser', 'growth', 'boundary', 'redis'];

/** Keys per peer has- / delete measurement. */
export const PEER_SAMPLE = 50_000;

/** The options of `argv` (without node and the script); exits after --help or an unknown argument. */
export function parseOptions(argv) {
  const flags = parseCommandLine(Object.fromEntries(FLAGS.map((flag) => [flag, { type: 'boolean', default: false }])), USAGE, argv);
  const { quick } = flags;
  return {
    quick,
    json: flags.json,
    space: flags.space,
    growth: flags.growth,
    boundary: flags.boundary,
    redis: flags.redis,
    browser: !flags['no-browser'],
    sizes: quick ? [16] : [16, 22],
    /** Timed runs per (mode, size) of the main table, after one untimed warm-up run at 2^16. */
    reps: quick ? { 16: 3, 22: 1 } : { 16: 5, 22: 1 },
    /**
     * Rounds of the kernel rows (every variant once per round, Node and
     * Chromium alternating), after two untimed rounds at 2^16.
     */
    kernelRounds: quick ? { 16: 3, 22: 1 } : { 16: 7, 22: 1 },
  };
}
