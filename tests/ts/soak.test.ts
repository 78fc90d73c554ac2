// The soak test of tests/soak/soak.mjs at 300,000 operations (npm run soak
// runs 10.5 million): mixed operations, fills to failure and drains to empty
// in wasm against an exact multiset, with the final bytes of every parameter
// set compared with the native core replaying the same sequence. Spawned
// because the script is an ES module; it builds the native replay driver in
// build/native if needed.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..');

test('300,000 operations: no false negatives, exact counts where exact, final bytes identical to native', () => {
  const run = spawnSync(process.execPath, [join(repoRoot, 'tests', 'soak', 'soak.mjs'), '--ops', '300000'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const lines = run.stdout.trim().split('\n');
  expect(lines.length).toBeGreaterThan(5); // a line per parameter set, then the total
  for (const line of lines.slice(0, -1)) expect(line).toMatch(/: \d+ ops, .* final bytes identical to native/);
  const [, ops] = /^soak: passed: (\d+) operations/.exec(lines.at(-1)!) ?? [];
  expect(Number(ops)).toBeGreaterThanOrEqual(300_000);
}, 300_000);
