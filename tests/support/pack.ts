// Packs the package as `npm pack` does and installs the tarball into a fresh,
// empty project, the way a user gets it. Shared by the package and browser tests.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..');

export interface InstalledPackage {
  /** The consumer project: node_modules/cuckoo-wasm is the installed package. */
  consumerDir: string;
  tarball: string;
  /** Deletes the temporary folder holding the tarball and the consumer project. */
  remove(): void;
}

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * `npm pack` of the repository (dist/ must be built: the prepack build is
 * skipped here because `npm test` has just built it) installed into an empty
 * project in a new temporary folder.
 */
export function packAndInstall(): InstalledPackage {
  const workDir = mkdtempSync(join(tmpdir(), 'cuckoo-wasm-pack-'));
  npm(['pack', '--ignore-scripts', '--pack-destination', workDir, '--loglevel=error'], repoRoot);
  const tarballName = readdirSync(workDir).find((name) => name.endsWith('.tgz'));
  if (tarballName === undefined) throw new Error(`npm pack wrote no tarball into ${workDir}`);
  const consumerDir = join(workDir, 'consumer');
  execFileSync('mkdir', [consumerDir]);
  writeFileSync(join(consumerDir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
  const tarball = join(workDir, tarballName);
  npm(['install', tarball, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], consumerDir);
  return { consumerDir, tarball, remove: () => rmSync(workDir, { recursive: true, force: true }) };
}
