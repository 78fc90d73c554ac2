// Child processes for the runtime tests: commands run to the end (bundlers,
// tsc, Bun, Deno), long-lived servers (workerd) stopped by the test that
// started them, and free loopback ports for the latter.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../../support/pack';

/** A tool installed in this repository's node_modules/.bin. */
export const bin = (name: string): string => join(repoRoot, 'node_modules', '.bin', name);

export interface Finished {
  stdout: string;
  stderr: string;
  ms: number;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Stops a hung command (a safety net for the suite, not a measurement): 120 s unless given. */
  timeoutMs?: number;
}

/**
 * Runs `command` to the end without blocking the test's event loop; rejects
 * with its exit status, stdout and stderr when it fails.
 */
export function run(command: string, args: string[], options: RunOptions): Promise<Finished> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error) {
          const status = error.killed ? `killed (${String(error.signal)})` : `exit ${String(error.code)}`;
          reject(new Error(`${command} ${args.join(' ')}: ${status}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
        } else {
          resolve({ stdout, stderr, ms: Date.now() - started });
        }
      },
    );
  });
}

/** A port on 127.0.0.1 that was free a moment ago: the system picks it, for a server that cannot take port 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') return reject(new Error('no port from the system'));
      probe.close(() => resolve(address.port));
    });
  });
}

export interface Server {
  /** Everything the process printed so far. */
  output(): string;
  /** True once the process has exited. */
  exited(): boolean;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s) and waits until it has exited. */
  stop(): Promise<void>;
}

/** Starts a long-lived process (a server), its output collected. */
export function startServer(command: string, args: string[], cwd: string): Server {
  const child: ChildProcess = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exit = new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });
  return {
    output: () => output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(killer);
    },
  };
}

/**
 * Fetches `url` until it answers (any HTTP status): a server that has just
 * been started is not listening at once. Fails after `deadlineMs`, with the
 * server's output.
 */
export async function firstAnswer(url: string, server: Server, deadlineMs = 30_000): Promise<Response> {
  const started = Date.now();
  for (;;) {
    try {
      return await fetch(url);
    } catch {
      // not listening yet
    }
    if (server.exited()) throw new Error(`the server exited before answering ${url}:\n${server.output()}`);
    if (Date.now() - started > deadlineMs) {
      throw new Error(`${url} did not answer within ${deadlineMs} ms; the server printed:\n${server.output()}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}
