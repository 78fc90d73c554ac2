// The replica benchmark's lag run: `writers` add batches of 1,000 items to one
// filter while `replicas` follow it; for every batch, the time from its
// acknowledgement (in its writer) to the moment the last of the replicas
// answers for it. Each writer and replica a process of its own (a fleet), or
// all of them in this process (what the replicas themselves take, with the
// scheduler's share of the figure out of it). On a 2-core machine the
// processes and Redis share the cores: the figures measure the scheduler too.

import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { batchItems, wallClock } from './items.mjs';
import { watchedReplica } from './watch.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function child(file, args) {
  const process = fork(path.join(here, file), args.map(String), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const messages = [];
  const waiters = [];
  process.on('message', (message) => (waiters.length > 0 ? waiters.shift()(message) : messages.push(message)));
  const exited = new Promise((resolve, reject) => process.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited with ${code}`)))));
  return {
    next: () => (messages.length > 0 ? Promise.resolve(messages.shift()) : new Promise((resolve) => waiters.push(resolve))),
    send: (message) => process.send(message),
    exited,
  };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The runs of writers and replicas as processes: what each writer acknowledged when, and what each replica saw. */
async function inProcesses({ url, name, writers, replicas, batches }) {
  const followers = Array.from({ length: replicas }, () => child('follower.mjs', [url, name, writers, batches]));
  for (const follower of followers) await follower.next();
  const adders = Array.from({ length: writers }, (_, writer) => child('writer.mjs', [url, name, writer, batches]));
  for (const adder of adders) await adder.next();
  const started = performance.now();
  for (const adder of adders) adder.send('go');
  const acknowledged = await Promise.all(adders.map(async (adder) => (await adder.next()).acknowledgedAt));
  const seconds = (performance.now() - started) / 1000;
  for (const follower of followers) follower.send('finish');
  const seen = await Promise.all(followers.map((follower) => follower.next()));
  await Promise.all([...adders, ...followers].map((process) => process.exited));
  return { acknowledged, seen, seconds };
}

/** The same in this process: each writer and replica on a connection of its own. */
async function inThisProcess({ url, name, writers, replicas, batches }) {
  const clients = [];
  const connected = async () => {
    const client = createClient({ url });
    client.on('error', () => undefined);
    clients.push(await client.connect());
    return clients[clients.length - 1];
  };
  const watchers = [];
  for (let k = 0; k < replicas; k++) watchers.push(await watchedReplica(await connected(), name, writers, batches));
  const handles = [];
  for (let writer = 0; writer < writers; writer++) handles.push(await RedisCuckooFilter.open(await connected(), name));
  const started = performance.now();
  const acknowledged = await Promise.all(
    handles.map(async (handle, writer) => {
      const at = [];
      for (let batch = 0; batch < batches; batch++) {
        await handle.addMany(batchItems(writer, batch));
        at.push(wallClock());
      }
      return at;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const seen = [];
  for (const watcher of watchers) {
    const missed = await watcher.finish();
    seen.push({ seenAt: watcher.seenAt, missed, sha256: createHash('sha256').update(watcher.replica.toBytes()).digest('hex'), reloads: watcher.replica.reloads });
    await watcher.replica.close();
  }
  for (const client of clients) await client.close();
  return { acknowledged, seen, seconds };
}

export async function lagRun({ client, url, writers, replicas, batches, processes, progress }) {
  const name = `lagged-${writers}-${processes ? 'p' : 't'}`;
  const filter = await RedisCuckooFilter.create(client, name, { capacity: Math.max(100_000, Math.ceil(1.1 * writers * batches * 1000)), fpr: 0.001, seed: 7 });
  progress(`lag: ${replicas} replicas following, ${writers} writers adding ${batches} batches of 1,000 each, ${processes ? 'each a process' : 'all in this process'}`);
  const { acknowledged, seen, seconds } = await (processes ? inProcesses : inThisProcess)({ url, name, writers, replicas, batches });
  const lags = [];
  for (let writer = 0; writer < writers; writer++) {
    for (let batch = 0; batch < batches; batch++) {
      lags.push(Math.max(...seen.map((report) => report.seenAt[writer][batch])) - acknowledged[writer][batch]);
    }
  }
  lags.sort((a, b) => a - b);
  const serverSha = createHash('sha256').update(await filter.toBytes()).digest('hex');
  await filter.drop();
  return {
    writers,
    replicas,
    processes,
    batches: writers * batches,
    writesPerSecond: (writers * batches) / seconds,
    p50: quantile(lags, 0.5),
    p99: quantile(lags, 0.99),
    max: lags[lags.length - 1],
    missed: seen.reduce((sum, report) => sum + report.missed, 0),
    sameBytes: seen.every((report) => report.sha256 === serverSha),
    reloads: seen.reduce((sum, report) => sum + report.reloads, 0),
  };
}
