// Builds a consumer app with webpack or Rollup through their Node APIs (this
// repository has neither CLI), run by the tests as a child process:
//   node tests/runtimes/support/bundle.mjs webpack|rollup <entry.mjs> <outDir>
// The bundlers come from this repository's node_modules; 'cuckoo-wasm'
// resolves from the entry's folder, the consumer project with the installed tarball.
import { basename, resolve } from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import webpack from 'webpack';

/** webpack 5, production mode, target web: new URL('…', import.meta.url) becomes an emitted asset. */
function bundleWithWebpack(entry, outDir) {
  const compiler = webpack({
    mode: 'production',
    target: 'web',
    context: resolve(entry, '..'),
    entry: `./${basename(entry)}`,
    output: { path: outDir, filename: 'app.js', clean: true },
    // No webpack-cli here: the config is all there is.
    infrastructureLogging: { level: 'warn' },
  });
  return new Promise((done, fail) => {
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error) return fail(error);
      if (stats.hasErrors() || stats.hasWarnings()) {
        return fail(new Error(stats.toString({ all: false, errors: true, warnings: true })));
      }
      done(stats.toJson({ all: false, assets: true }).assets.map((asset) => asset.name));
    });
  });
}

/** Rollup with node-resolve (browser: true) and terser, as an ES module. */
async function bundleWithRollup(entry, outDir) {
  const warnings = [];
  const build = await rollup({
    input: entry,
    plugins: [nodeResolve({ browser: true }), terser()],
    onwarn: (warning) => warnings.push(warning.message),
  });
  const { output } = await build.write({ dir: outDir, format: 'es', entryFileNames: 'app.js' });
  await build.close();
  if (warnings.length > 0) throw new Error(`rollup warned:\n${warnings.join('\n')}`);
  return output.map((chunk) => chunk.fileName);
}

const [bundler, entry, outDir] = process.argv.slice(2);
const bundlers = { webpack: bundleWithWebpack, rollup: bundleWithRollup };
if (bundlers[bundler] === undefined || entry === undefined || outDir === undefined) {
  console.error('usage: bundle.mjs webpack|rollup <entry> <outDir>');
  process.exit(2);
}
const files = await bundlers[bundler](resolve(entry), resolve(outDir));
console.log(JSON.stringify(files));
