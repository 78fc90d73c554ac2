// The command line's patches: `cuckoo-wasm diff OLD NEW > PATCH` and
// `cuckoo-wasm patch FILTER PATCH`, run in a child process as users run them
// (the compiled dist/cjs/cli.js), checked against the library.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { CuckooFilter, init, ScalableCuckooFilter } from 'cuckoo-wasm';
import { checksumOf, describePatch } from 'cuckoo-wasm/patch';
import { main, type CliIo } from '../../dist/cjs/cli';

const cliPath = join(resolve(__dirname, '..', '..'), 'dist', 'cjs', 'cli.js');

interface Run {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

function cli(args: readonly string[]): Run {
  const result = spawnSync(process.execPath, [cliPath, ...args], { cwd: workDir });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.toString() };
}

let workDir: string;
const file = (name: string): string => join(workDir, name);
let older: Uint8Array;
let newer: Uint8Array;

beforeAll(async () => {
  await init();
  workDir = mkdtempSync(join(tmpdir(), 'cuckoo-wasm-cli-patch-'));
  using filter = CuckooFilter.create({ capacity: 5000, fpr: 0.001, seed: 3 });
  filter.addMany(Array.from({ length: 4000 }, (_, i) => `word-${i}`));
  older = filter.toBytes();
  filter.deleteMany(['word-1', 'word-2']);
  filter.addMany(['new-1', 'new-2', 'new-3']);
  newer = filter.toBytes();
  writeFileSync(file('v1.cf'), older);
  writeFileSync(file('v2.cf'), newer);
});

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

test('diff writes the patch to stdout, patch applies it to the file in place', () => {
  const made = cli(['diff', 'v1.cf', 'v2.cf']);
  expect(made.status).toBe(0);
  const info = describePatch(made.stdout);
  expect(info).toMatchObject({ base: checksumOf(older), result: checksumOf(newer), wholeTable: false });
  expect(made.stderr).toBe(
    `patch from version ${info.base} to ${info.result}: ${made.stdout.length} bytes (${info.changedSlots} changed slots); the new filter is ${newer.length} bytes\n`,
  );
  writeFileSync(file('v1-v2.cfp'), made.stdout);
  writeFileSync(file('page.cf'), older);
  const applied = cli(['patch', 'page.cf', 'v1-v2.cfp']);
  expect(applied).toMatchObject({ status: 0, stderr: `wrote page.cf: version ${info.base} patched to ${info.result}, 4001 items\n` });
  expect(readFileSync(file('page.cf'))).toEqual(Buffer.from(newer));
});

test('patch -o writes elsewhere; a patch for another version is refused and nothing is written', () => {
  expect(cli(['diff', 'v1.cf', 'v2.cf', '-o', 'p.cfp']).status).toBe(0);
  expect(cli(['patch', 'v1.cf', 'p.cfp', '-o', 'out.cf']).status).toBe(0);
  expect(readFileSync(file('out.cf'))).toEqual(Buffer.from(newer));
  expect(readFileSync(file('v1.cf'))).toEqual(Buffer.from(older));
  const refused = cli(['patch', 'v2.cf', 'p.cfp']);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toBe(
    `cuckoo-wasm: p.cfp does not apply to v2.cf: it goes from version ${checksumOf(older)} of a CuckooFilter to ${checksumOf(newer)}, ` +
      `and v2.cf is version ${checksumOf(newer)}; nothing was written\n`,
  );
  expect(readFileSync(file('v2.cf'))).toEqual(Buffer.from(newer));
});

test('damaged patches, unrelated filters and bad command lines are refused with what is wrong', () => {
  const patch = readFileSync(file('p.cfp'));
  writeFileSync(file('damaged.cfp'), patch.subarray(0, patch.length - 3));
  expect(cli(['patch', 'v1.cf', 'damaged.cfp'])).toMatchObject({
    status: 1,
    stderr: 'cuckoo-wasm: damaged.cfp is not a valid patch: checksum mismatch: the data is corrupted (CHECKSUM_MISMATCH); nothing was written\n',
  });
  expect(readFileSync(file('v1.cf'))).toEqual(Buffer.from(older));
  using other = CuckooFilter.create({ capacity: 5000, fpr: 0.001, seed: 4 });
  writeFileSync(file('other.cf'), other.toBytes());
  const unrelated = cli(['diff', 'v1.cf', 'other.cf', '-o', 'x.cfp']);
  expect(unrelated.status).toBe(1);
  expect(unrelated.stderr).toMatch(/^cuckoo-wasm: CuckooFilter\.diff: there is no patch between these filters: their parameters or seed differ/);
  using growable = ScalableCuckooFilter.create({ initialCapacity: 100, fpr: 0.01 });
  writeFileSync(file('growable.cf'), growable.toBytes());
  expect(cli(['diff', 'v1.cf', 'growable.cf', '-o', 'x.cfp']).stderr).toBe(
    'cuckoo-wasm: v1.cf and growable.cf are not versions of one filter: one is growable, the other is not\n',
  );
  expect(cli(['patch', 'v1.cf', 'missing.cfp']).stderr).toMatch(/^cuckoo-wasm: cannot read missing\.cfp: /);
  expect(cli(['diff', 'v1.cf'])).toMatchObject({ status: 2, stderr: 'cuckoo-wasm: diff: missing new filter file (.cf); see cuckoo-wasm --help\n' });
  expect(cli(['patch', 'v1.cf', 'p.cfp', '--json']).status).toBe(2);
});

test('diff refuses to write the binary patch to a terminal', async () => {
  let stderr = '';
  const io: CliIo = {
    stdin: Readable.from([]),
    stdout: { write: () => true, isTTY: true },
    stderr: { write: (chunk) => ((stderr += String(chunk)), true) },
  };
  expect(await main(['diff', file('v1.cf'), file('v2.cf')], io)).toBe(2);
  expect(stderr).toBe('cuckoo-wasm: diff: the patch is binary: redirect it (> patch.cfp) or give -o <patch.cfp>\n');
});
