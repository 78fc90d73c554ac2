// Real Redis servers for the tests: started on free loopback ports, each in a
// temporary folder, and stopped (with their folders removed) by the tests
// that start them. A 3-master cluster is made with `redis-cli --cluster create`.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient, createCluster } from 'redis';
import { init } from 'cuckoo-wasm';

const run = promisify(execFile);

/**
 * Which engine the suite exercises: with CUCKOO_REDIS_ENGINE=module (the
 * second run of scripts/test) every server starts with the cuckoo module, so
 * that every RedisCuckooFilter uses it; else none does, and the scripts serve.
 */
export const SUITE_ENGINE: 'module' | 'scripts' = process.env.CUCKOO_REDIS_ENGINE === 'module' ? 'module' : 'scripts';
/** The module file: CUCKOO_REDIS_MODULE, or where `npm run build:redis-module` builds it. */
export const MODULE_FILE = process.env.CUCKOO_REDIS_MODULE ?? join(__dirname, '..', '..', '..', 'build', 'native', 'bindings', 'redis-module', 'cuckoo-redis.so');

function moduleArgs(module: boolean): string[] {
  if (!module) return [];
  if (!existsSync(MODULE_FILE)) throw new Error(`the cuckoo module is not built at ${MODULE_FILE}: run npm run build:redis-module`);
  return ['--loadmodule', MODULE_FILE];
}

export interface RedisServer {
  readonly port: number;
  readonly dir: string;
  readonly url: string;
  readonly process: ChildProcess;
  /** Stops the server (SIGTERM, or `signal`) and waits for it to exit; the folder stays until `remove`. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stops the server and deletes its folder. */
  remove(): Promise<void>;
}

/** A loopback port nothing listens on, whose cluster bus port (+10000) is free too. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    if (port > 0 && port < 55000 && (await isFree(port + 10000))) return port;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function waitForPing(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
    try {
      const { stdout } = await run('redis-cli', ['-p', String(port), 'ping']);
      if (stdout.trim() === 'PONG') return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer PING`);
}

/**
 * Starts redis-server on a free port in a new temporary folder (or `dir`,
 * to restart one on its files), with no snapshots unless `options` ask for
 * persistence; with the cuckoo module when `module` (by default, when the
 * suite runs on the module).
 */
export async function startServer(options: { args?: string[]; dir?: string; port?: number; module?: boolean } = {}): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'cuckoo-redis-'));
  const child = spawn(
    'redis-server',
    [
      '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--logfile', join(dir, 'redis.log'),
      ...moduleArgs(options.module ?? SUITE_ENGINE === 'module'),
      ...(options.args ?? []),
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPing(port, child);
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    port,
    dir,
    url: `redis://127.0.0.1:${port}`,
    process: child,
    stop,
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisClusterServers {
  readonly servers: readonly RedisServer[];
  readonly rootNodes: { url: string }[];
  remove(): Promise<void>;
}

/** Three masters, no replicas, made into a cluster by redis-cli, and ready (cluster_state:ok on every node). */
export async function startCluster(): Promise<RedisClusterServers> {
  const servers: RedisServer[] = [];
  for (let k = 0; k < 3; k++) {
    const dir = mkdtempSync(join(tmpdir(), 'cuckoo-redis-cluster-'));
    servers.push(await startServer({ dir, args: ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf')] }));
  }
  const remove = async (): Promise<void> => {
    await Promise.all(servers.map((server) => server.remove()));
  };
  try {
    await run('redis-cli', ['--cluster', 'create', ...servers.map((server) => `127.0.0.1:${server.port}`), '--cluster-replicas', '0', '--cluster-yes']);
    const deadline = Date.now() + 30000;
    for (const server of servers) {
      for (;;) {
        const { stdout } = await run('redis-cli', ['-p', String(server.port), 'cluster', 'info']);
        if (stdout.includes('cluster_state:ok')) break;
        if (Date.now() > deadline) throw new Error(`the cluster did not become ready: ${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { servers, rootNodes: servers.map((server) => ({ url: server.url })), remove };
}

/** A connected node-redis client of `server`. */
export async function connect(server: { url: string }) {
  const client = createClient({ url: server.url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** A connected node-redis cluster client. */
export async function connectCluster(cluster: RedisClusterServers) {
  const client = createCluster({ rootNodes: cluster.rootNodes });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

export type Client = Awaited<ReturnType<typeof connect>>;
export type Cluster = Awaited<ReturnType<typeof connectCluster>>;

/**
 * The usual set-up of a file's tests: init() and one redis-server with a
 * client connected before them, both gone after them. Read `redis` and
 * `server` from the object it returns, inside the tests.
 */
export function serverForFile(): { readonly server: RedisServer; readonly redis: Client } {
  const live = {} as { server: RedisServer; redis: Client };
  beforeAll(async () => {
    await init();
    live.server = await startServer();
    live.redis = await connect(live.server);
  });
  afterAll(async () => {
    await live.redis?.quit();
    await live.server?.remove();
  });
  return live;
}

/**
 * The same for a file's cluster tests: init(), a 3-master cluster and two
 * cluster clients of it before the tests, all gone after them.
 */
export function clusterForFile(): { readonly servers: RedisClusterServers; readonly cluster: Cluster; readonly another: Cluster } {
  const live = {} as { servers: RedisClusterServers; cluster: Cluster; another: Cluster };
  beforeAll(async () => {
    await init();
    live.servers = await startCluster();
    live.cluster = await connectCluster(live.servers);
    live.another = await connectCluster(live.servers);
  });
  afterAll(async () => {
    await live.cluster?.close();
    await live.another?.close();
    await live.servers?.remove();
  });
  return live;
}
