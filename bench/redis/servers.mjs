// The Redis servers of the Redis benchmark: each on a free loopback port in
// its own temporary folder, stopped (and the folder removed) when done; a
// 3-master cluster made with redis-cli --cluster create.

import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

function isFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free loopback port whose cluster bus port (+10000) is free too. */
export async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port: chosen } = server.address();
        server.close(() => resolve(chosen));
      });
    });
    if (port < 55000 && (await isFree(port + 10000))) return port;
  }
}

/** redis-server on a free port (or `port`) in a new temporary folder (or `dir`); no snapshots. */
export async function startServer({ args = [], dir, port } = {}) {
  const chosenPort = port ?? (await freePort());
  const folder = dir ?? mkdtempSync(join(tmpdir(), 'cuckoo-redis-bench-'));
  const child = spawn('redis-server', ['--port', String(chosenPort), '--bind', '127.0.0.1', '--dir', folder, '--save', '', '--appendonly', 'no', '--logfile', join(folder, 'redis.log'), ...args], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 15000;
  for (;;) {
    try {
      if ((await run('redis-cli', ['-p', String(chosenPort), 'ping'])).stdout.trim() === 'PONG') break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on port ${chosenPort} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const stop = async (signal = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { port: chosenPort, dir: folder, url: `redis://127.0.0.1:${chosenPort}`, pid: child.pid, stop, remove: async () => { await stop(); rmSync(folder, { recursive: true, force: true }); } };
}

/** Three masters, no replicas, ready. */
export async function startCluster() {
  const servers = [];
  for (let k = 0; k < 3; k++) {
    const dir = mkdtempSync(join(tmpdir(), 'cuckoo-redis-bench-cluster-'));
    servers.push(await startServer({ dir, args: ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf')] }));
  }
  const remove = () => Promise.all(servers.map((server) => server.remove()));
  try {
    await run('redis-cli', ['--cluster', 'create', ...servers.map((s) => `127.0.0.1:${s.port}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const server of servers) {
      for (let tries = 0; !(await run('redis-cli', ['-p', String(server.port), 'cluster', 'info'])).stdout.includes('cluster_state:ok'); tries++) {
        if (tries > 300) throw new Error('the cluster did not become ready');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { servers, rootNodes: servers.map((s) => ({ url: s.url })), remove };
}
