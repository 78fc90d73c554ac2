// Filters made without a seed get one from the platform's cryptographic
// source (issue 26), so nobody can search offline for keys that collide in a
// filter whose bytes they have not seen; a given seed keeps a filter
// reproducible, and mergeable with others made with it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CuckooFilter, CuckooFilterError, init, ScalableCuckooFilter } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';

beforeAll(() => init());

const MADE = 300;

test.each([
  ['CuckooFilter.create', () => CuckooFilter.create({ capacity: 100, fpr: 0.01 })],
  ['new CuckooFilter', () => new CuckooFilter({ bucketCount: 16, bucketSize: 4, fingerprintBits: 8 })],
  ['ScalableCuckooFilter.create', () => ScalableCuckooFilter.create({ initialCapacity: 10, fpr: 0.01 })],
  ['BloomFilter.create', () => BloomFilter.create({ capacity: 100, fpr: 0.01 })],
] as const)(`%s without a seed: no two of ${MADE} filters share one`, (_, make) => {
  const seeds = new Set<bigint>();
  for (let i = 0; i < MADE; i++) {
    const filter = make();
    seeds.add('params' in filter ? filter.params.seed : filter.seed);
    filter.dispose();
  }
  expect(seeds.size).toBe(MADE);
  // 64 random bits: the top 32 are not all zero in 300 draws but with odds 300 / 2^32.
  expect([...seeds].some((seed) => seed >= 2n ** 32n)).toBe(true);
});

test('a given seed gives the same bytes; filters made apart merge only when they share one', () => {
  const items = Array.from({ length: 500 }, (_, i) => `item-${i}`);
  using a = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 7 });
  using b = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 7 });
  a.addMany(items);
  b.addMany(items);
  expect(a.toBytes()).toEqual(b.toBytes());

  using unseededA = CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  using unseededB = CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  let caught: unknown;
  try {
    unseededA.merge(unseededB);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CuckooFilterError);
  expect((caught as CuckooFilterError).code).toBe('INCOMPATIBLE');
  expect((caught as Error).message).toMatch(/seed/);
  // A filter made with another's seed merges with it.
  using sameSeed = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: unseededA.params.seed });
  sameSeed.add('x');
  expect(unseededA.merge(sameSeed)).toBe(true);
  expect(unseededA.has('x')).toBe(true);
});

test('the CLI draws a seed unless given --seed, and with one builds the same bytes twice', () => {
  const cli = join(resolve(__dirname, '..', '..'), 'dist', 'cjs', 'cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'cuckoo-seeds-'));
  try {
    writeFileSync(join(dir, 'items.txt'), Array.from({ length: 200 }, (_, i) => `line-${i}`).join('\n'));
    const build = (out: string, ...extra: string[]) => {
      const run = spawnSync(process.execPath, [cli, 'build', 'items.txt', '-o', out, '--capacity', '200', ...extra], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
      return readFileSync(join(dir, out));
    };
    expect(build('a.cf')).not.toEqual(build('b.cf'));
    expect(build('c.cf', '--seed', '0')).toEqual(build('d.cf', '--seed', '0'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
