// The command line of `npm run bench` (bench/node-bench.mjs); the table's
// shape is bench/support/measurement.mjs's.

export const USAGE =
  'usage: node bench/node-bench.mjs [--quick] [--json] [--no-browser] | --boundary [--quick] [--json] | --space [--json] | --growth [--quick] [--json] | --redis [--quick] [--json]';
const FLAGS = ['--quick', '--json', '--space', '--no-browser', '--growth', '--boundary', '--redis'];

/** Keys per peer has- / delete measurement. */
export const PEER_SAMPLE = 50_000;

/**
 * Parses `argv` (without node and the script); returns the options, or
 * { exit, message } for --help and for an unknown argument.
 */
export function parseOptions(argv) {
  if (argv.includes('--help') || argv.includes('-h')) return { exit: 0, message: USAGE };
  const unknown = argv.find((arg) => !FLAGS.includes(arg));
  if (unknown !== undefined) return { exit: 2, message: `node-bench: unknown argument ${unknown}\n${USAGE}` };
  const quick = argv.includes('--quick');
  return {
    quick,
    json: argv.includes('--json'),
    space: argv.includes('--space'),
    growth: argv.includes('--growth'),
    boundary: argv.includes('--boundary'),
    redis: argv.includes('--redis'),
    browser: !argv.includes('--no-browser'),
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
