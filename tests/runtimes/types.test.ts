// The installed package's types as TypeScript consumers meet them, under
// each moduleResolution that resolves packages differently (node10 reads
// "types" and the inspect/, bloom/ and patch/ stub folders, node16 and bundler the
// exports map by condition), with the library's declarations checked too
// (skipLibCheck off); then @arethetypeswrong/cli and publint on the tarball.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/pack';
import { bin, run } from './support/children';
import { newApp, tarball } from './support/consumer';
import { reportAtEnd } from './support/report';

const report = reportAtEnd('TypeScript consumers, attw and publint');
const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

const imports = `import { init, CuckooFilter, ScalableCuckooFilter, FormatError, type InitOptions, type FormatErrorCode } from 'cuckoo-wasm';
import { traceAdd, buckets, type InsertTrace } from 'cuckoo-wasm/inspect';
import { BloomFilter } from 'cuckoo-wasm/bloom';
import { checksumOf, describePatch, type PatchInfo } from 'cuckoo-wasm/patch';
`;

// Uses every entry. Each @ts-expect-error fails the check if the line it
// marks type-checks, so the package's types cannot have resolved to `any`.
const usage = `
const filter: CuckooFilter = CuckooFilter.create({ capacity: 10, fpr: 0.01 });
const added: boolean = filter.add('x');
const answers: Uint8Array = filter.hasMany(new Uint32Array([1, 2]));
const seed: bigint = filter.params.seed;
const bytes: Uint8Array = ScalableCuckooFilter.create({ initialCapacity: 10, fpr: 0.01 }).toBytes();
const code: FormatErrorCode | undefined = new Error() instanceof FormatError ? 'BAD_MAGIC' : undefined;
// @ts-expect-error a boolean is not an item
filter.add(true);
// @ts-expect-error bucketSize must be 1, 2, 4 or 8
new CuckooFilter({ bucketCount: 16, bucketSize: 3, fingerprintBits: 8 });
const trace: InsertTrace = traceAdd(filter, 'y');
const slots: Uint32Array = buckets(filter).slots;
// @ts-expect-error traceAdd takes a CuckooFilter
traceAdd({ add: () => true }, 'y');
const bloom: BloomFilter = BloomFilter.create({ capacity: 10, fpr: 0.01 });
const hashCount: number = bloom.hashCount;
// @ts-expect-error a Bloom filter cannot delete
bloom.delete('x');
// cuckoo-wasm/patch's methods, declared on the classes by the entry's types (module augmentation).
const patch: Uint8Array = filter.diff(filter.toBytes());
filter.applyPatch(patch);
const info: PatchInfo = describePatch(patch);
const version: string = checksumOf(filter);
// @ts-expect-error a patch is bytes
filter.applyPatch('patch');
const options: InitOptions = { wasmModule: undefined, locateFile: (file) => file };
// @ts-expect-error locateFile returns a string
const wrongOptions: InitOptions = { locateFile: () => 3 };
export { added, answers, seed, bytes, code, trace, slots, hashCount, info, version, options, wrongOptions };
`;

// Top-level await only where the module format has it.
const esmSource = `${imports}await init();\n${usage}`;
const cjsSource = `${imports}void init();\n${usage}`;

/**
 * A consumer project of its own in the app folder: `files` and a tsconfig
 * with `compilerOptions`; runs tsc on it.
 */
async function typeCheck(name: string, compilerOptions: object, files: Record<string, string>): Promise<void> {
  const dir = join(appDir, name);
  mkdirSync(dir);
  for (const [file, source] of Object.entries(files)) writeFileSync(join(dir, file), source);
  const tsconfig = {
    compilerOptions: {
      target: 'es2022',
      // The declarations use Symbol.dispose (the filters support `using`): a
      // consumer needs esnext.disposable, or @types/node, which declares it.
      lib: ['es2022', 'esnext.disposable', 'dom'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      // TypeScript's own lib files need no check here, and checking them is most of the time.
      skipDefaultLibCheck: true,
      ...compilerOptions,
    },
    files: Object.keys(files),
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const { ms } = await run(process.execPath, [tsc, '-p', dir], { cwd: dir });
  report(`tsc ${name}: ${ms} ms`);
}

let appDir: string;
beforeAll(() => {
  appDir = newApp('types');
});

// The checks run concurrently: each is a separate process.
test.concurrent('moduleResolution node10 (module commonjs)', async () => {
  await typeCheck('node10', { module: 'commonjs', moduleResolution: 'node10' }, { 'use.ts': cjsSource });
});

test.concurrent('moduleResolution node16 (module node16), from a .cts and a .mts file', async () => {
  await typeCheck('node16', { module: 'node16', moduleResolution: 'node16' }, { 'use.cts': cjsSource, 'use.mts': esmSource });
});

test.concurrent('moduleResolution bundler (module esnext)', async () => {
  await typeCheck('bundler', { module: 'esnext', moduleResolution: 'bundler' }, { 'use.ts': esmSource });
});

test.concurrent('@arethetypeswrong/cli: every JavaScript entry resolves with no problem', async () => {
  // The three .wasm subpaths are not JavaScript; attw would report them as untyped.
  const { stdout, ms } = await run(
    bin('attw'),
    [tarball(), '--format', 'json', '--exclude-entrypoints', './wasm/cuckoo.wasm', './wasm/cuckoo-patch.wasm', './wasm/cuckoo-full.wasm'],
    { cwd: appDir },
  );
  report(`attw: ${ms} ms`);
  const { analysis } = JSON.parse(stdout);
  expect(analysis.problems).toEqual([]);
  expect(Object.keys(analysis.entrypoints).sort()).toEqual(['.', './bloom', './inspect', './package.json', './patch', './redis']);
  // Each resolution kind found a declaration file for each entry.
  for (const subpath of ['.', './inspect', './bloom', './patch', './redis']) {
    const kinds = analysis.entrypoints[subpath].resolutions;
    expect(Object.keys(kinds).sort()).toEqual(['bundler', 'node10', 'node16-cjs', 'node16-esm']);
    for (const kind of Object.values<{ resolution?: { fileName: string } }>(kinds)) {
      expect(kind.resolution?.fileName).toMatch(/\.d\.(m?ts)$/);
    }
  }
});

test.concurrent('publint --strict: all good', async () => {
  const { stdout, ms } = await run(bin('publint'), ['--strict', tarball()], { cwd: appDir });
  report(`publint: ${ms} ms`);
  // Without errors, warnings or suggestions publint prints exactly this.
  expect(stdout).toContain('All good!');
});
