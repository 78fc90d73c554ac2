// The `cuckoo-wasm` command: the compiled dist/cjs/cli.js, run in a child
// process as users run it (and, for the many small cases, through its main()),
// checked against the library and against sizes derived here.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { CuckooFilter, init, ScalableCuckooFilter } from 'cuckoo-wasm';
import { main, type CliIo } from '../../dist/cjs/cli';
import { Progress } from '../../dist/cjs/cli/output';
import { changedWhileRead, chooseSizing } from '../../dist/cjs/cli/sizing';

const repoRoot = resolve(__dirname, '..', '..');
const cliPath = join(repoRoot, 'dist', 'cjs', 'cli.js');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The command in a child process, as users run it; `cwd` is the test's temporary folder. */
function cli(args: readonly string[], input?: string): Run {
  const result = spawnSync(process.execPath, [cliPath, ...args], { cwd: workDir, input, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The same code through main() in this process: a child costs ~0.2 s of Node
 * start-up, so cases that only exercise the logic run here. Paths must be absolute.
 */
async function cliInProcess(args: readonly string[], input = ''): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdin: Readable.from([Buffer.from(input)]),
    stdout: { write: (chunk) => ((stdout += String(chunk)), true) },
    stderr: { write: (chunk) => ((stderr += String(chunk)), true) },
  };
  const status = await main(args, io);
  return { status, stdout, stderr };
}

const inWorkDir = (name: string): string => join(workDir, name);

/** The shape CuckooFilter.create chooses: the command line sizes exactly as the library does. */
function expectedShape(capacity: number, fpr: number): { bucketSize: number; fingerprintBits: number; bucketCount: number } {
  using filter = CuckooFilter.create({ capacity, fpr });
  const { bucketSize, fingerprintBits, bucketCount } = filter.params;
  return { bucketSize, fingerprintBits, bucketCount };
}

const members = Array.from({ length: 1000 }, (_, i) => `member-${i}`);
const nonMembers = Array.from({ length: 10_000 }, (_, i) => `other-${i}`);
const lines = (items: readonly string[]): string => items.map((item) => `${item}\n`).join('');
const answersOf = (stdout: string): string[][] => stdout.split('\n').filter(Boolean).map((line) => line.split('\t'));

let workDir: string;
let membersFile: string;
let builtFile: string;
let buildSummary: string;

beforeAll(async () => {
  await init();
  workDir = mkdtempSync(join(tmpdir(), 'cuckoo-wasm-cli-'));
  membersFile = join(workDir, 'members.txt');
  writeFileSync(membersFile, lines(members));
  builtFile = join(workDir, 'members.cf');
  const built = cli(['build', 'members.txt', '-o', 'members.cf', '--capacity', '1000', '--fpr', '0.01', '--seed', '7']);
  expect(built).toMatchObject({ status: 0, stdout: '' });
  buildSummary = built.stderr;
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('build', () => {
  test('from a file with --capacity: writes the filter, says how it sized it, then what it wrote', () => {
    const bytes = readFileSync(builtFile);
    // f = 10 bits over 269 x 4 slots holding 1000 items (see 'info' below); the
    // bound 2b / 2^f = 8 / 1024; expected FPR 1 - (1 - 2^-f)^(2b * load).
    const load = 1000 / (269 * 4);
    const bitsPerItem = (10 / load).toFixed(2);
    const percent = Number(((1 - (1 - 2 ** -10) ** (8 * load)) * 100).toPrecision(3));
    expect(buildSummary).toBe(
      'sized for --capacity 1000: 269 buckets of 4 slots (1076), 10-bit fingerprints, FPR at most 0.781% (--fpr 0.01)\n' +
        `wrote members.cf: 1000 items, ${bytes.length} bytes, ${bitsPerItem} bits per item, expected FPR ${percent}%\n`,
    );
  });

  test('from a file without --capacity: counts its lines, then sizes exactly for them (100,000 lines: 13.76 bits per item)', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => `line-${i}`);
    writeFileSync(inWorkDir('many.txt'), lines(many));
    const run = await cliInProcess(['build', inWorkDir('many.txt'), '-o', inWorkDir('many-sized.cf')]);
    expect(run.status).toBe(0);
    // fpr 0.001: b = 4, f = 13 (8 / 2^13 <= 0.001), bound 8 / 8192 = 0.0977 %; the bucket count CuckooFilter.create gives.
    const { bucketCount } = expectedShape(100_000, 0.001);
    const tableBits = bucketCount * 4 * 13;
    // Format version 2 (the count is no power of two): 64-byte header, the table, 8-byte checksum.
    const fileBytes = 64 + Math.ceil(tableBits / 8) + 8;
    expect(run.stderr).toMatch(
      new RegExp(
        `^sized for the 100000 items counted in ${inWorkDir('many.txt').replace(/[.]/g, '\\.')}: ${bucketCount} buckets of 4 slots \\(${bucketCount * 4}\\), ` +
          `13-bit fingerprints, FPR at most 0\\.0977% \\(--fpr 0\\.001, the default\\)\n` +
          `wrote .*many-sized\\.cf: 100000 items, ${fileBytes} bytes, ${(tableBits / 100_000).toFixed(2)} bits per item, expected FPR [\\d.]+%\n$`,
      ),
    );
    expect(tableBits / 100_000).toBeLessThanOrEqual(14);
    using sized = CuckooFilter.fromBytes(readFileSync(inWorkDir('many-sized.cf')));
    expect(sized.params).toMatchObject({ bucketCount, bucketSize: 4, fingerprintBits: 13 });
    expect(sized.bitsPerItem).toBeLessThanOrEqual(14);
    expect(sized.hasMany(many).every((answer) => answer === 1)).toBe(true);
  });

  test('the default --fpr in the help is the library default', () => {
    const shown = /--fpr R +false-positive rate to aim for \(default ([\d.]+)\)/.exec(cli(['--help']).stdout);
    using growable = new ScalableCuckooFilter();
    expect(Number(shown?.[1])).toBe(growable.params.fpr);
  });

  test('from stdin gives the same bytes as from the file', () => {
    const run = cli(['build', '-', '-o', 'stdin.cf', '--capacity', '1000', '--fpr', '0.01', '--seed', '7'], lines(members));
    expect(run.status).toBe(0);
    expect(readFileSync(join(workDir, 'stdin.cf'))).toEqual(readFileSync(builtFile));
  });

  test('from stdin without --capacity: grows as the non-empty lines come, dropping \\r and a byte order mark, and says why', async () => {
    const items = members.slice(0, 700);
    const text = `\ufeff${items.join('\r\n')}\r\n\n\r\n`;
    const built = cli(['build', '-', '-o', 'crlf.cf', '--seed', '7'], text);
    expect(built.status).toBe(0);
    expect(built.stderr).toMatch(
      /^growing as the lines come \(stdin cannot be read twice to count its lines first; --capacity N sizes a filter exactly, in fewer bytes\): 100 items at first, FPR at most 0\.1% at every size \(--fpr 0\.001, the default\)\n/,
    );
    expect(built.stderr).toMatch(/\nwrote crlf\.cf: 700 items, \d+ bytes, [\d.]+ bits per item, grew to \d+ buckets, FPR at most [\d.]+%\n$/);
    const info = JSON.parse((await cliInProcess(['info', inWorkDir('crlf.cf'), '--json'])).stdout);
    expect(info).toMatchObject({ growable: true, fpr: 0.001, initialCapacity: 100, items: 700, seed: '7', full: false });
    expect(info.fprBound).toBeLessThanOrEqual(0.001);
    using loaded = ScalableCuckooFilter.fromBytes(readFileSync(inWorkDir('crlf.cf')));
    expect(loaded.size).toBe(700);
    const answers = answersOf((await cliInProcess(['query', inWorkDir('crlf.cf'), items[0]!, items[699]!, ''])).stdout);
    expect(answers).toEqual([[items[0], 'yes'], [items[699], 'yes'], ['', 'no']]);
    // A file with --growable is read once, as it comes, and gives the same filter.
    writeFileSync(inWorkDir('crlf.txt'), text);
    const fromFile = await cliInProcess(['build', inWorkDir('crlf.txt'), '-o', inWorkDir('crlf-file.cf'), '--growable', '--seed', '7']);
    expect(fromFile.stderr).toMatch(/^growing as the lines come \(as --growable asks\): 100 items at first, /);
    expect(readFileSync(inWorkDir('crlf-file.cf'))).toEqual(readFileSync(inWorkDir('crlf.cf')));
    // Counted instead, the same file gives a filter sized for its 700 items.
    expect((await cliInProcess(['build', inWorkDir('crlf.txt'), '-o', inWorkDir('crlf-sized.cf')])).status).toBe(0);
    using sized = CuckooFilter.fromBytes(readFileSync(inWorkDir('crlf-sized.cf')));
    expect([sized.size, sized.params.bucketCount]).toEqual([700, expectedShape(700, 0.001).bucketCount]);
  });

  test('--growable --capacity N: a first table of N items', async () => {
    const run = await cliInProcess(['build', membersFile, '-o', inWorkDir('first.cf'), '--growable', '--capacity', '5000']);
    expect(run.stderr).toMatch(/^growing as the lines come \(as --growable asks\): 5000 items at first, /);
    using loaded = ScalableCuckooFilter.fromBytes(readFileSync(inWorkDir('first.cf')));
    expect(loaded.params.initialCapacity).toBe(5000);
  });

  test('an input that is not a regular file cannot be counted first: it grows, and says so', () => {
    const run = spawnSync('bash', ['-c', `"${process.execPath}" "${cliPath}" build <(printf 'a\\nb\\n') -o piped.cf`], { cwd: workDir, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^growing as the lines come \(\/dev\/fd\/\d+ is not a regular file and cannot be read twice to count its lines first; /);
    using loaded = ScalableCuckooFilter.fromBytes(readFileSync(join(workDir, 'piped.cf')));
    expect([loaded.size, loaded.has('a'), loaded.has('b')]).toEqual([2, true, true]);
  });

  test('without --capacity, 100,000 lines grow the filter many times and every line is found', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => `line-${i}`);
    expect((await cliInProcess(['build', '-', '-o', inWorkDir('many.cf'), '--fpr', '0.01'], lines(many))).status).toBe(0);
    using grown = ScalableCuckooFilter.fromBytes(readFileSync(inWorkDir('many.cf')));
    expect(grown.size).toBe(100_000);
    expect(grown.bucketCount).toBeGreaterThan(100_000 / 4);
    expect(grown.hasMany(many).every((answer) => answer === 1)).toBe(true);
  });

  test('a --capacity too small fails, says how many went in, and writes nothing', () => {
    const run = cli(['build', membersFile, '-o', 'small.cf', '--capacity', '100', '--fpr', '0.01']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^cuckoo-wasm: the filter is full after adding \d+ items; raise --capacity \(it was 100\) or leave it out\n$/);
    expect(existsSync(join(workDir, 'small.cf'))).toBe(false);
  });

  test('a file that gives other lines when read again is named, rather than blaming the capacity', async () => {
    // A source read twice (counted, then added), whose second reading has a line more.
    let readings = 0;
    const source = { name: 'moving.txt', size: 6, chunks: () => [Buffer.from(readings++ === 0 ? 'a\nb\n' : 'a\nb\nc\n')] };
    const quiet = new Progress({ stdin: Readable.from([]), stdout: { write: () => true }, stderr: { write: () => true } });
    const sizing = await chooseSizing(source, { capacity: undefined, growable: false }, quiet);
    expect(sizing).toEqual({ kind: 'sized', capacity: 2, counted: true });
    expect(changedWhileRead(sizing, 'moving.txt', 2)).toBeUndefined();
    expect(changedWhileRead(sizing, 'moving.txt', 3)?.message).toBe('moving.txt changed while it was read (2 lines counted, then 3 read); build again');
    // A refused add, which a filter sized for the lines counted cannot give them.
    expect(changedWhileRead(sizing, 'moving.txt')?.message).toBe('moving.txt changed while it was read (2 lines counted, then more read); build again');
    // A size given, or a growable filter, counted nothing.
    expect(changedWhileRead({ kind: 'sized', capacity: 2, counted: false }, 'given.txt', 3)).toBeUndefined();
  });

  test('a 50 MB line is one item', async () => {
    writeFileSync(inWorkDir('long-line.txt'), `${'y'.repeat(50_000_000)}\nshort\n`);
    expect((await cliInProcess(['build', inWorkDir('long-line.txt'), '-o', inWorkDir('long.cf')])).status).toBe(0);
    expect(await cliInProcess(['query', inWorkDir('long.cf'), 'short', 'long'])).toEqual({ status: 0, stdout: 'short\tyes\nlong\tno\n', stderr: '' });
  });

  test('a line repeated beyond what two buckets hold is named, rather than blaming the capacity', async () => {
    const run = await cliInProcess(['build', '-', '-o', inWorkDir('dup.cf'), '--capacity', '1000'], lines(Array(20).fill('dup')));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^cuckoo-wasm: .*'dup' occurs more than 8 times.*remove duplicate lines.*\n$/);
  });
});

describe('query', () => {
  test('answers yes for every built item, given on the command line', () => {
    const run = cli(['query', 'members.cf', ...members.slice(0, 50)]);
    expect(run.status).toBe(0);
    expect(answersOf(run.stdout)).toEqual(members.slice(0, 50).map((item) => [item, 'yes']));
  });

  describe('items from stdin', () => {
    const probes = [...members, ...nonMembers];
    let answers: string[][];
    beforeAll(() => {
      const run = cli(['query', 'members.cf'], lines(probes));
      expect(run).toMatchObject({ status: 0, stderr: '' });
      answers = answersOf(run.stdout);
    });

    test('one answer per line: no false negatives, and few false positives', () => {
      expect(answers.map(([item]) => item)).toEqual(probes);
      expect(answers.slice(0, members.length).every(([, answer]) => answer === 'yes')).toBe(true);
      // The filter was built for fpr 0.01, so at most 0.01 * 10,000 = 100 false
      // positives are expected; the count is binomial with a standard deviation
      // under 10, so 200 (twice the requested rate) is over 10 deviations away.
      const falsePositives = answers.slice(members.length).filter(([, answer]) => answer === 'yes').length;
      expect(falsePositives).toBeLessThan(200);
    });

    test('the file loads with CuckooFilter.fromBytes and answers the same', () => {
      using filter = CuckooFilter.fromBytes(readFileSync(builtFile));
      expect(filter.size).toBe(members.length);
      expect(Array.from(filter.hasMany(probes), (answer) => (answer === 1 ? 'yes' : 'no'))).toEqual(answers.map(([, answer]) => answer));
    });
  });
});

describe('build --semi-sort', () => {
  test('writes a semi-sorted filter that info reports, at any rate', () => {
    const built = cli(['build', 'members.txt', '-o', 'semi.cf', '--fpr', '0.001', '--semi-sort', '--capacity', '1000']);
    expect(built.status).toBe(0);
    using filter = CuckooFilter.fromBytes(readFileSync(join(workDir, 'semi.cf')));
    expect(filter.params).toMatchObject({ semiSort: true, bucketSize: 4, fingerprintBits: 13 });
    const info = cli(['info', 'semi.cf']);
    expect(info.stdout).toMatch(/^semiSort\s+yes \(one bit less per slot\)$/m);
    // 0.01: b = 4 and f = 10 (8 / 2^10 <= 0.01), stored in 9 bits.
    expect(cli(['build', 'members.txt', '-o', 'semi2.cf', '--fpr', '0.01', '--semi-sort', '--capacity', '1000']).status).toBe(0);
    using coarse = CuckooFilter.fromBytes(readFileSync(join(workDir, 'semi2.cf')));
    expect(coarse.params).toMatchObject({ semiSort: true, bucketSize: 4, fingerprintBits: 10 });
  });
});

describe('info', () => {
  // capacity 1000, fpr 0.01 (the sizing rule is cpp/include/cuckoo/sizing.hpp):
  // b = 4 and f = 10 (8 / 2^10 <= 0.01) at 10.76 bits per item beat b = 2 and
  // f = 9 at 11.07; 269 buckets of 4 are sized to hold 1000 (268 hold 997).
  const shape = { bucketSize: 4, fingerprintBits: 10, bucketCount: 269 };

  test('the library sizes as the worked example says', () => {
    expect(expectedShape(1000, 0.01)).toEqual(shape);
  });

  test('prints aligned name-value lines', () => {
    const run = cli(['info', 'members.cf']);
    expect(run.status).toBe(0);
    const rows = run.stdout.trimEnd().split('\n');
    const valueColumn = rows[0]!.search(/\S+$/);
    for (const row of rows) expect(row.slice(0, valueColumn).trimEnd()).toMatch(/^\w+$/);
    const values = Object.fromEntries(rows.map((row) => [row.slice(0, valueColumn).trim(), row.slice(valueColumn)]));
    expect(values).toMatchObject({
      bucketCount: '269',
      bucketSize: '4',
      fingerprintBits: '10',
      semiSort: 'no',
      maxKicks: '500',
      seed: '7',
      items: '1000',
      bytes: String(readFileSync(builtFile).length),
      loadFactor: `${(1000 / 1076).toFixed(4)} (slots in use)`,
      stashed: '0',
    });
    expect(values.bitsPerItem).toBe((10 / (1000 / 1076)).toFixed(2));
    expect(values.fprBound).toMatch(/^0\.007813 \(0\.781%\)$/); // 2b / 2^f = 8 / 1024
  });

  test('--json is machine-readable and matches the library', () => {
    const run = cli(['info', 'members.cf', '--json']);
    expect(run.status).toBe(0);
    const info = JSON.parse(run.stdout);
    using filter = CuckooFilter.fromBytes(readFileSync(builtFile));
    expect(info).toEqual({
      file: 'members.cf',
      bytes: readFileSync(builtFile).length,
      ...shape,
      semiSort: false,
      maxKicks: 500,
      seed: '7',
      items: 1000,
      slotCount: 1076,
      loadFactor: 1000 / 1076,
      stashed: 0,
      bitsPerItem: filter.bitsPerItem,
      expectedFpr: filter.expectedFpr,
      fprBound: 8 / 1024,
      full: false,
    });
  });

  test('a seed beyond 2^53 survives as a string', async () => {
    const seed = (2n ** 64n - 1n).toString();
    expect((await cliInProcess(['build', membersFile, '-o', inWorkDir('seed.cf'), '--seed', seed])).status).toBe(0);
    expect(JSON.parse((await cliInProcess(['info', inWorkDir('seed.cf'), '--json'])).stdout).seed).toBe(seed);
  });
});

describe('help and version', () => {
  test('--help prints usage to stdout', () => {
    const run = cli(['--help']);
    expect(run).toMatchObject({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Usage:\n {2}cuckoo-wasm build/);
  });

  test.each([['-h'], ['build', '--help'], ['info', 'members.cf', '-h']])('%s too', async (...args) => {
    expect(await cliInProcess(args)).toEqual({ status: 0, stdout: expect.stringMatching(/^Usage:\n/), stderr: '' });
  });

  test('--version prints the package version', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    expect(cli(['--version'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('errors: one line on stderr naming the problem, status 2 for usage and 1 for failures', () => {
  beforeAll(() => {
    mkdirSync(inWorkDir('a-directory'));
    writeFileSync(inWorkDir('empty.txt'), '\n\r\n');
    const bytes = readFileSync(builtFile);
    writeFileSync(inWorkDir('truncated.cf'), bytes.subarray(0, 100));
    const corrupted = Buffer.from(bytes);
    corrupted[200]! ^= 0x10;
    writeFileSync(inWorkDir('corrupted.cf'), corrupted);
    writeFileSync(inWorkDir('empty.cf'), new Uint8Array(0));
    // A well-formed header declaring a 2^32 x 8 x 32-bit (128 GiB) table.
    const huge = new Uint8Array(64);
    huge.set([0x43, 0x4b, 0x46, 0x57, 1, 0, 1, 32, 8, 32]);
    new DataView(huge.buffer).setUint32(12, 500, true);
    new DataView(huge.buffer).setBigUint64(48, 2n ** 37n, true);
    writeFileSync(inWorkDir('huge.cf'), huge);
  });

  function expectOneLineError(run: Run, status: number, problem: RegExp): void {
    expect(run.status).toBe(status);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^cuckoo-wasm: [^\n]+\n$/);
    expect(run.stderr).toMatch(problem);
    expect(existsSync(inWorkDir('out.cf'))).toBe(false);
  }

  // One of each kind in a real process: exit status, and no stack trace.
  test.each([
    [['frob'], 2, /^cuckoo-wasm: unknown command 'frob' \(expected build, query or info\)/],
    [['build', 'members.txt', '-o', 'out.cf', '--fpr', '0'], 1, /fpr must be greater than 0 and less than 1, got 0/],
    [['info', 'members.txt'], 1, /members\.txt is not a valid filter file: .*bad magic.*\(BAD_MAGIC\)/],
  ] as const)('command line %j', (args, status, problem) => {
    expectOneLineError(cli(args), status, problem);
  });

  const membersPath = (): string => inWorkDir('members.txt');
  const out = (): string => inWorkDir('out.cf');
  const build = (...extra: string[]): string[] => ['build', membersPath(), '-o', out(), ...extra];
  test.each([
    [/missing command/, 2, () => []],
    [/unknown option '--frob'/, 2, () => ['--frob']],
    [/unknown option '--bogus' for build/, 2, () => build('--bogus')],
    [/build: missing -o/, 2, () => ['build', membersPath()]],
    [/build: missing input file/, 2, () => ['build', '-o', out()]],
    [/unexpected argument 'extra\.txt'/, 2, () => ['build', membersPath(), 'extra.txt', '-o', out()]],
    [/option --fpr needs a value/, 2, () => build('--fpr')],
    [/^cuckoo-wasm: option --fpr needs a value\n$/, 2, () => build('--fpr=')],
    [/option -o needs a value/, 2, () => ['build', membersPath(), '-o', '']],
    [/option --output needs a value/, 2, () => ['build', membersPath(), '--output=']],
    [/--fpr must be a number .*'abc'/, 2, () => build('--fpr', 'abc')],
    [/--fpr must be a number such as 0\.001, got 'NaN'/, 2, () => build('--fpr', 'NaN')],
    [/--fpr must be a number .*'Infinity'/, 2, () => build('--fpr', 'Infinity')],
    [/--capacity must be a whole number .*'ten'/, 2, () => build('--capacity', 'ten')],
    [/--capacity must be a whole number .*'1\.5'/, 2, () => build('--capacity', '1.5')],
    [/--capacity must be a whole number .*'0x10'/, 2, () => build('--capacity', '0x10')],
    [/--seed must be an integer .*'12abc'/, 2, () => build('--seed', '12abc')],
    [/--seed must be an integer from 0 to 2\^64-1 .*'0x'/, 2, () => build('--seed', '0x')],
    [/--seed must be an integer .*'1\.5'/, 2, () => build('--seed', '1.5')],
    [/fpr must be greater than 0 and less than 1, got 1\.5/, 1, () => build('--fpr', '1.5')],
    [/fpr must be greater than 0 and less than 1, got -0\.5/, 1, () => build('--fpr', '-0.5')],
    // 1e-400 is 0 as a double.
    [/fpr must be greater than 0 and less than 1, got 0/, 1, () => build('--fpr', '1e-400')],
    [/false-positive rate is too low/, 1, () => build('--fpr', '1e-12')],
    [/capacity must be an integer from 1 .*got 0/, 1, () => build('--capacity', '0')],
    [/capacity must be an integer from 1 to 2\^53 - 1, got -5/, 1, () => build('--capacity', '-5')],
    [/capacity must be an integer .*got Infinity/, 1, () => build('--capacity', '1e400')],
    // 2^53 + 1 reads as the nearest double, 2^53.
    [/capacity must be an integer .*got 9007199254740992/, 1, () => build('--capacity', '9007199254740993')],
    [/seed must be from 0 to 2\^64 - 1/, 1, () => build('--seed', (2n ** 64n).toString())],
    [/seed must be from 0 to 2\^64 - 1, got 36893488147419103231n/, 1, () => build('--seed', '0x1ffffffffffffffff')],
    [/seed must be from 0 to 2\^64 - 1, got -1n/, 1, () => build('--seed', '-1')],
    [/unknown command '' \(expected build, query or info\)/, 2, () => ['']],
    [/cannot read .*a-directory: it is a directory/, 1, () => ['build', inWorkDir('a-directory'), '-o', out()]],
    [/empty\.txt has no items/, 1, () => ['build', inWorkDir('empty.txt'), '-o', out()]],
    [/cannot write .*no-such-dir\/out\.cf: no such file/, 1, () => ['build', membersPath(), '-o', inWorkDir('no-such-dir/out.cf')]],
    [/query: missing filter file/, 2, () => ['query']],
    [/cannot read .*missing\.cf: no such file or directory/, 1, () => ['query', inWorkDir('missing.cf'), 'x']],
    [/^cuckoo-wasm: cannot read \/.*\/a-directory: it is a directory\n$/, 1, () => ['query', inWorkDir('a-directory'), 'x']],
    [/cannot load .*huge\.cf: /, 1, () => ['query', inWorkDir('huge.cf'), 'x']],
    [/unknown option '--x' for query \(put '--' before items/, 2, () => ['query', builtFile, '--x']],
    [/info: missing filter file/, 2, () => ['info']],
    [/unexpected argument 'extra'/, 2, () => ['info', builtFile, 'extra']],
    [/option --json takes no value/, 2, () => ['info', builtFile, '--json=yes']],
    [/truncated\.cf is not a valid filter file: .*\(TRUNCATED\)/, 1, () => ['info', inWorkDir('truncated.cf')]],
    [/corrupted\.cf is not a valid filter file: .*\(CHECKSUM_MISMATCH\)/, 1, () => ['info', inWorkDir('corrupted.cf')]],
    [/empty\.cf is not a valid filter file: the data is truncated \(TRUNCATED\)/, 1, () => ['info', inWorkDir('empty.cf')]],
    [/cannot load .*huge\.cf: the table would exceed the maximum table size/, 1, () => ['info', inWorkDir('huge.cf')]],
  ] as const)('%p, status %i', async (problem, status, args) => {
    expectOneLineError(await cliInProcess(args()), status, problem);
    // The failure left the wasm module this process shares with the library usable.
    using filter = new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 12 });
    expect(filter.add('still works')).toBe(true);
    expect(filter.has('still works')).toBe(true);
  });
});

describe('progress bar (main() in-process, with a fake terminal and clock)', () => {
  const manyLines = Array.from({ length: 40 }, (_, chunk) => lines(members.slice(chunk * 25, chunk * 25 + 25)));

  async function build(isTTY: boolean, stepMs: number): Promise<string[]> {
    const writes: string[] = [];
    let clock = 0;
    const io: CliIo = {
      stdin: Readable.from(manyLines),
      stdout: { write: () => true },
      stderr: { isTTY, columns: 80, write: (chunk) => writes.push(String(chunk)) > 0 },
      now: () => (clock += stepMs),
    };
    expect(await main(['build', '-', '-o', join(workDir, 'progress.cf')], io)).toBe(0);
    return writes;
  }

  test('on a terminal, once a second has passed, drawn over one line and erased before the summary', async () => {
    const writes = await build(true, 150);
    const drawn = writes.filter((text) => /^\r\S.*\x1b\[K$/.test(text));
    expect(drawn.length).toBeGreaterThan(2);
    expect(drawn.some((text) => text.includes('adding items'))).toBe(true);
    expect(drawn.every((text) => text.length <= 80 + 4)).toBe(true);
    expect(writes.slice(-2)).toEqual(['\r\x1b[K', expect.stringMatching(/^growing as the lines come .*\nwrote .*: 1000 items/)]);
  });

  test('not drawn for a quick run, nor when stderr is not a terminal', async () => {
    expect(await build(true, 0)).toEqual([expect.stringMatching(/^growing .*\nwrote /)]);
    expect(await build(false, 150)).toEqual([expect.stringMatching(/^growing .*\nwrote /)]);
  });
});
