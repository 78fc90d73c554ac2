// The exports' short names (bindings/export-names.json, applied to dist/ by
// scripts/export-names.mjs): every export of both modules is one the map
// shortens or one of Emscripten's it keeps (those it lists as unused are
// gone), every name the map shortens or keeps is exported, the TypeScript
// calls each export and its compiled JavaScript names none by its readable
// name, and the full module's glue still reaches its exports.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter, init } from 'cuckoo-wasm';
import 'cuckoo-wasm/inspect';
import { handleOrZero } from '../../dist/cjs/handles';
import { requireRuntime } from '../../dist/cjs/loader';
import { repoRoot } from '../support/pack';

const { kept, unused, short } = JSON.parse(readFileSync(join(repoRoot, 'bindings', 'export-names.json'), 'utf8')) as {
  kept: string[];
  unused: string[];
  short: Record<string, string>;
};
const readableNames = Object.keys(short);
const shortNames = Object.values(short);

const dist = join(repoRoot, 'dist');
const modules = ['cuckoo.wasm', 'cuckoo-full.wasm'];
const exportsOf = (file: string): string[] =>
  WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(dist, 'wasm', file)))).map((entry) => entry.name);

/** The package's compiled TypeScript, every file of both builds. */
const javascript = ['esm', 'cjs'].flatMap((build) =>
  readdirSync(join(dist, build), { recursive: true })
    .map(String)
    .filter((name) => /\.m?js$/.test(name))
    .map((name) => ({ file: `${build}/${name}`, text: readFileSync(join(dist, build, name), 'utf8') })),
);

test('the short names are distinct identifiers, none a kept, an unused or a readable name', () => {
  expect(shortNames.every((name) => /^[A-Za-z]+$/.test(name))).toBe(true);
  const every = [...shortNames, ...kept, ...unused, ...readableNames];
  expect(new Set(every).size).toBe(every.length);
});

test.each(modules)('%s exports only short names and the kept ones of Emscripten, none it left unused', (file) => {
  const exported = exportsOf(file);
  expect(exported.filter((name) => !shortNames.includes(name) && !kept.includes(name))).toEqual([]);
});

test('every name the map lists is exported by a module', () => {
  const exported = new Set(modules.flatMap(exportsOf));
  expect([...shortNames, ...kept].filter((name) => !exported.has(name))).toEqual([]);
});

test('the TypeScript calls every export the map shortens, and its compiled JavaScript names none by its readable name', () => {
  const sources = readdirSync(join(repoRoot, 'ts', 'src'), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => readFileSync(join(repoRoot, 'ts', 'src', name), 'utf8'))
    .join('\n');
  expect(readableNames.filter((name) => !new RegExp(`\\.${name}\\b`).test(sources))).toEqual([]);
  const readable = new RegExp(`\\b(?:${readableNames.join('|')})\\b`);
  expect(javascript.filter(({ text }) => readable.test(text)).map(({ file }) => file)).toEqual([]);
});

test("the full module's glue reaches its exports by their short names: its Module._name wrappers work", async () => {
  await init();
  const runtime = requireRuntime('export-names.test');
  expect(runtime.kind).toBe('full');
  using filter = CuckooFilter.create({ capacity: 100, fpr: 0.01 });
  filter.addMany(['a', 'b', 'c']);
  const handle = (filter as unknown as Record<typeof handleOrZero, number>)[handleOrZero];
  const glue = runtime.embind as Record<string, (handle: number) => number>;
  expect(glue._cuckoo_size!(handle)).toBe(3);
  expect(glue._cuckoo_bucket_count!(handle)).toBe(filter.params.bucketCount);
});
