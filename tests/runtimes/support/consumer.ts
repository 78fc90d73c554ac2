// The consumer project of the runtime suite (the packed tarball installed
// into a fresh temporary folder by global-setup.ts), and the programs the
// tests write into it: each imports the entries it is about and hands them to
// fixtures/exercise.mjs, which uses them and returns its answers.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/pack';

function fromSetup(name: string): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set: run this suite with jest -c jest.runtimes.config.cjs (its global setup installs the package)`);
  return value;
}

/** The consumer project: node_modules/cuckoo-wasm is the installed tarball. */
export const consumerDir = (): string => fromSetup('CUCKOO_RUNTIMES_CONSUMER');
/** The tarball that `npm pack` made. */
export const tarball = (): string => fromSetup('CUCKOO_RUNTIMES_TARBALL');

export const fixturesDir = join(repoRoot, 'tests', 'runtimes', 'fixtures');

/** A new folder `name` in the consumer project, holding a copy of exercise.mjs; its path. */
export function newApp(name: string): string {
  const dir = join(consumerDir(), name);
  mkdirSync(dir);
  copyFileSync(join(fixturesDir, 'exercise.mjs'), join(dir, 'exercise.mjs'));
  return dir;
}

/** The package's entries, named as exercise() takes them. */
export type Entry = 'main' | 'inspect' | 'bloom';

const specifiers: Record<Entry, string> = { main: 'cuckoo-wasm', inspect: 'cuckoo-wasm/inspect', bloom: 'cuckoo-wasm/bloom' };

/**
 * What a program imports, per entry: the main entry alone loads the lean
 * module, with /inspect or /bloom the full one.
 */
export const programsByEntry: Record<'main' | 'inspect' | 'bloom', readonly Entry[]> = {
  main: ['main'],
  inspect: ['main', 'inspect'],
  bloom: ['main', 'bloom'],
};
export const allEntries: readonly Entry[] = ['main', 'inspect', 'bloom'];

/** The init options that find the .wasm files copied next to a bundle (bundlers that leave new URL(…, import.meta.url) alone). */
export const besideTheBundle = '{ locateFile: (file) => new URL(file, import.meta.url).href }';

function esmImports(entries: readonly Entry[]): string {
  return [...entries.map((entry) => `import * as ${entry} from '${specifiers[entry]}';`), "import { exercise } from './exercise.mjs';"].join('\n');
}

const exerciseCall = (entries: readonly Entry[], initOptions: string): string => `exercise({ ${entries.join(', ')} }, ${initOptions})`;

const stackOf = 'String((error && error.stack) || error)';

/** An ES module for Node, Bun and Deno that prints the answers as JSON. */
export function esmProgram(entries: readonly Entry[]): string {
  return `${esmImports(entries)}\nconsole.log(JSON.stringify(await ${exerciseCall(entries, 'undefined')}));\n`;
}

/** A CommonJS program: the package through require(), the (import-free) exercise through import(). */
export function cjsProgram(entries: readonly Entry[]): string {
  const requires = entries.map((entry) => `const ${entry} = require('${specifiers[entry]}');`).join('\n');
  return `${requires}
import('./exercise.mjs')
  .then(({ exercise }) => ${exerciseCall(entries, 'undefined')})
  .then((answers) => console.log(JSON.stringify(answers)));
`;
}

/** A page's ES module: sets globalThis.__result to the answers (or __error), which waitForResult reads. */
export function pageProgram(entries: readonly Entry[], initOptions = 'undefined'): string {
  return `${esmImports(entries)}
${exerciseCall(entries, initOptions)}.then(
  (answers) => { globalThis.__result = answers; },
  (error) => { globalThis.__error = ${stackOf}; },
);
`;
}

/** A worker's ES module (Web Worker, worker_threads through a port): posts { answers } or { error }. */
export function workerProgram(entries: readonly Entry[], initOptions: string, post: string): string {
  return `${esmImports(entries)}
${exerciseCall(entries, initOptions)}.then(
  (answers) => ${post}({ answers }),
  (error) => ${post}({ error: ${stackOf} }),
);
`;
}
