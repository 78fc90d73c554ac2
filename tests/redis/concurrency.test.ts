// Several processes share one filter: each adds its own items at once (no
// item lost, the count exact), while another process keeps looking up items
// added earlier and never misses one, though the adds move fingerprints
// between buckets all the while (the reads of a shard are atomic). Then the
// false-positive rate is within the binomial limits of the filter's load.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { init } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { connect, connectCluster, startCluster, startServer, type RedisServer } from './support/servers';

const WORKER = join(__dirname, 'support', 'worker.cjs');

interface Running {
  /** The first line of JSON the worker printed (its result, or that it is ready). */
  readonly firstLine: Promise<Record<string, number | boolean>>;
  /** The last line, once the worker has exited. */
  readonly done: Promise<Record<string, number>>;
  stop(): void;
}

function runWorker(target: string, name: string, operation: 'add' | 'watch', first: number, count: number): Running {
  const child = spawn(process.execPath, [WORKER, target, name, operation, String(first), String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let firstLine!: (line: Record<string, number | boolean>) => void;
  const firstPromise = new Promise<Record<string, number | boolean>>((resolve) => (firstLine = resolve));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (lines.length === 0) firstLine(JSON.parse(line));
    lines.push(line);
  });
  const done = new Promise<Record<string, number>>((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(lines[lines.length - 1]!)) : reject(new Error(`worker exited with ${code}`))));
  });
  return { firstLine: firstPromise, done, stop: () => child.stdin!.end('stop\n') };
}

/** Binomial limits on the positives among n probes, each positive with probability p: n·p ± 5·sqrt(n·p·(1 − p)). */
function binomialRange(n: number, p: number): [number, number] {
  const mean = n * p;
  const spread = 5 * Math.sqrt(mean * (1 - p));
  if (mean < 150) throw new Error(`${mean} expected positives: too few probes for a meaningful limit`);
  return [mean - spread, mean + spread];
}

/** The false-positive rate of a filter holding `size` items: each of the 2b slots an item probes holds a matching fingerprint with probability load / (2^f − 1). */
function expectedRate(params: { bucketCount: number; bucketSize: number; fingerprintBits: number; semiSort: boolean }, size: number): number {
  const slots = params.bucketCount * (params.semiSort ? 4 : params.bucketSize);
  const perSlot = size / slots / (2 ** params.fingerprintBits - 1);
  return 1 - (1 - perSlot) ** (2 * (params.semiSort ? 4 : params.bucketSize));
}

async function sharedFilter(target: string, filter: RedisCuckooFilter, writers: number, perWriter: number, watched: number): Promise<void> {
  // Items 0 .. watched - 1 first; then the writers add theirs while a watcher keeps looking the first ones up.
  expect(await filter.addMany(new Float64Array(watched).map((_, i) => i))).toBe(watched);
  const watcher = runWorker(target, filter.name, 'watch', 0, watched);
  expect(await watcher.firstLine).toEqual({ ready: true });
  const adders = Array.from({ length: writers }, (_, w) => runWorker(target, filter.name, 'add', 1e9 + w * perWriter, perWriter));
  const added = await Promise.all(adders.map((adder) => adder.done));
  watcher.stop();
  const watch = await watcher.done;
  expect(added).toEqual(Array.from({ length: writers }, () => ({ added: perWriter })));
  expect(watch.rounds).toBeGreaterThan(0);
  expect(watch.missing).toBe(0);
  const total = watched + writers * perWriter;
  expect(await filter.size()).toBe(total);
  const everyItem = new Float64Array([...Array.from({ length: watched }, (_, i) => i), ...Array.from({ length: writers * perWriter }, (_, i) => 1e9 + i)]);
  expect((await filter.hasMany(everyItem)).every((answer) => answer === 1)).toBe(true);
  const probes = new Float64Array(200_000).map((_, i) => 2 ** 45 + i);
  const positives = (await filter.hasMany(probes)).reduce((sum, answer) => sum + answer, 0);
  // A sharded filter's shards are equal in shape; its load is the mean of theirs.
  const [low, high] = binomialRange(probes.length, expectedRate(filter.params, total / filter.params.shards));
  expect(positives).toBeGreaterThan(low);
  expect(positives).toBeLessThan(high);
}

beforeAll(() => init());

test('four processes add at once to one filter on one server, a fifth watches: nothing lost', async () => {
  const server: RedisServer = await startServer();
  const redis = await connect(server);
  try {
    // 80,000 items fill the table to 0.94, so the adds kick fingerprints about; a
    // table of this size is two chunks of nearly equal size, so that many of
    // the moves cross from one chunk to the other, which only MULTI/EXEC reads
    // see atomically.
    const filter = await RedisCuckooFilter.create(redis, 'shared', { capacity: 80_000, fpr: 0.01, seed: 21 });
    await sharedFilter(server.url, filter, 4, 15_000, 20_000);
  } finally {
    await redis.quit();
    await server.remove();
  }
});

test('the same on a 3-master cluster, with a filter of 3 shards', async () => {
  const cluster = await startCluster();
  const redis = await connectCluster(cluster);
  try {
    const filter = await RedisCuckooFilter.create(redis, 'shared', { capacity: 100_000, fpr: 0.01, seed: 22, shards: 3 });
    await sharedFilter(`cluster:${cluster.rootNodes.map((node) => node.url).join(',')}`, filter, 4, 20_000, 20_000);
  } finally {
    await redis.close();
    await cluster.remove();
  }
});
