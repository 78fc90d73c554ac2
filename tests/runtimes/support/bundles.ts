// Builds consumer apps for the browser with the four bundlers, each the way
// its users run it, and writes the pages that load them.
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/pack';
import { bin, run, type Finished } from './children';
import { consumerDir } from './consumer';

/** The installed package's .wasm files. */
export const packagedWasm = (file: 'cuckoo.wasm' | 'cuckoo-patch.wasm' | 'cuckoo-full.wasm'): string =>
  join(consumerDir(), 'node_modules', 'cuckoo-wasm', 'dist', 'wasm', file);

/** Every file under `dir`, as paths relative to it with '/'. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1).replaceAll('\\', '/'))
    .sort();
}

/**
 * esbuild's browser bundle, with exactly the flags a user types:
 * `--bundle --minify --format=esm --platform=browser`, one output file per entry.
 */
export function esbuild(appDir: string, entries: string[], outDir: string): Promise<Finished> {
  const output = entries.length === 1 ? `--outfile=${join(outDir, entries[0]!.replace(/\.mjs$/, '.js'))}` : `--outdir=${outDir}`;
  return run(bin('esbuild'), [...entries, '--bundle', '--minify', '--format=esm', '--platform=browser', output], {
    cwd: appDir,
  });
}

/**
 * esbuild leaves new URL('../wasm/cuckoo.wasm', import.meta.url) alone, so
 * its users copy the .wasm files beside the bundle and pass locateFile
 * (consumer.ts, besideTheBundle): the README's recipe.
 */
export function copyWasmBeside(outDir: string): void {
  for (const file of ['cuckoo.wasm', 'cuckoo-patch.wasm', 'cuckoo-full.wasm'] as const) copyFileSync(packagedWasm(file), join(outDir, file));
}

/** `vite build` of the app folder (its index.html is the entry), no configuration file, into appDir/dist. */
export function vite(appDir: string): Promise<Finished> {
  const viteJs = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  return run(process.execPath, [viteJs, 'build', appDir, '--outDir', join(appDir, 'dist'), '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: appDir,
  });
}

/** webpack (production, target web) or Rollup (node-resolve browser, terser): support/bundle.mjs; out/app.js. */
export function webpackOrRollup(bundler: 'webpack' | 'rollup', appDir: string, entry: string, outDir: string): Promise<Finished> {
  return run(process.execPath, [join(__dirname, 'bundle.mjs'), bundler, join(appDir, entry), outDir], { cwd: appDir });
}

/** An HTML page that runs `script`: an ES module, or a classic script (webpack's output). */
export function writePage(dir: string, script: string, kind: 'module' | 'classic' = 'module', file = 'index.html'): void {
  const type = kind === 'module' ? ' type="module"' : '';
  writeFileSync(
    join(dir, file),
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>cuckoo-wasm</title></head>
<body><script${type} src="${script}"></script></body></html>
`,
  );
}
