// Gives the ES module build its own extensions: dist/esm/*.js -> *.mjs and
// *.d.ts -> *.d.mts, with every relative specifier rewritten to match. The
// package root is CommonJS; with their own extension the ES modules need no
// package.json of their own saying "type": "module", which tools read as a
// package boundary.
//   node scripts/esm-extensions.mjs dist/esm
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = process.argv[2];
if (folder === undefined) throw new Error('usage: node scripts/esm-extensions.mjs <folder>');

// from './x.js', import('./x.js'), import './x.js', and the .d.ts forms
// (declare module './x.js', which augments a module: cuckoo-wasm/patch's methods).
const relativeSpecifier = /((?:from|import|declare module)\s*\(?\s*['"])(\.{1,2}\/[^'"]+?)\.js(['"])/g;

for (const name of readdirSync(folder, { recursive: true })) {
  const path = join(folder, String(name));
  const target = path.endsWith('.d.ts') ? `${path.slice(0, -'.d.ts'.length)}.d.mts` : path.endsWith('.js') ? `${path.slice(0, -3)}.mjs` : undefined;
  if (target === undefined) continue;
  writeFileSync(path, readFileSync(path, 'utf8').replace(relativeSpecifier, '$1$2.mjs$3'));
  renameSync(path, target);
}
