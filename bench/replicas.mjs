#!/usr/bin/env node
// `npm run bench -- --replicas`: FilterReplica (cuckoo-wasm/redis) against
// issue 31's targets, in one run, on servers it starts itself (redis-server
// on a loopback port, and a 3-master cluster):
//   - lookups: a replica's hasMany of 1,000 keys at least 20 times as fast as
//     SMISMEMBER of the same keys on the same server; its has per call within
//     1.2 times an in-process CuckooFilter.has;
//   - lag: 4 replicas following while 2 writers add batches of 1,000, each a
//     process and then all in this one: p99 from a batch's acknowledgement to
//     the last replica answering for it at most 5 ms; p50 and p99 with 8
//     writers too; after the writers stop and sync(), every replica's bytes
//     equal the server's and no acknowledged item is missing;
//   - the same on a 3-master cluster with a 3-shard filter (2 writers, 2
//     replicas, in this process);
//   - writes: addMany with the change log at most 1.3 times the release
//     before change logs (given --baseline DIR, a built checkout of it), and
//     beside logLength 0.
// Faults (SIGKILL with AOF, a trimmed log) are tests: tests/redis/replica*.test.ts.
//
//   node bench/replicas.mjs [--quick] [--baseline DIR] [--json]
//
// A benchmark, not a test: it prints figures and exits 0 either way.

import os from 'node:os';
import { createClient, createCluster } from 'redis';
import { init } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { startCluster, startServer } from './redis/servers.mjs';
import { lagRun } from './replicas/lag.mjs';
import { lookupRun } from './replicas/lookups.mjs';
import { writeRun } from './replicas/writes.mjs';
import { describeMachine, parseCommandLine, progressLog } from './support/cli.mjs';
import { fixed } from './support/format.mjs';

const { quick, json, baseline } = parseCommandLine(
  { quick: { type: 'boolean' }, json: { type: 'boolean' }, baseline: { type: 'string' } },
  'usage: node bench/replicas.mjs [--quick] [--baseline DIR] [--json]',
);
const sizes = { lookupItems: quick ? 50_000 : 200_000, lagBatches: quick ? 20 : 100, writeItems: quick ? 50_000 : 200_000, clusterBatches: quick ? 10 : 40 };
const progress = progressLog('replicas bench');

async function clusterRun() {
  progress('a 3-master cluster: a 3-shard filter, 2 writers, 2 replicas');
  const cluster = await startCluster();
  const clients = [];
  try {
    for (let k = 0; k < 3; k++) {
      const client = createCluster({ rootNodes: cluster.rootNodes });
      client.on('error', () => undefined);
      clients.push(await client.connect());
    }
    const filter = await RedisCuckooFilter.create(clients[0], 'spread', { capacity: 200_000, fpr: 0.001, shards: 3 });
    const replicas = [await RedisCuckooFilter.openReplica(clients[0], 'spread'), await RedisCuckooFilter.openReplica(clients[0], 'spread')];
    const acknowledged = [];
    let missed = 0;
    let checks = 0;
    let writing = true;
    const writer = async (client, prefix) => {
      const handle = await RedisCuckooFilter.open(client, 'spread');
      for (let batch = 0; batch < sizes.clusterBatches; batch++) {
        const items = Array.from({ length: 1000 }, (_, i) => `${prefix}-${batch}-${i}`);
        await handle.addMany(items);
        acknowledged.push(...items);
      }
    };
    const checking = (async () => {
      while (writing) {
        const seen = acknowledged.slice();
        for (const replica of replicas) {
          await replica.sync();
          missed += replica.hasMany(seen).filter((answer) => answer === 0).length;
        }
        checks++;
      }
    })();
    await Promise.all([writer(clients[1], 'a'), writer(clients[2], 'b')]);
    writing = false;
    await checking;
    let sameBytes = true;
    for (const replica of replicas) {
      await replica.sync();
      missed += replica.hasMany(acknowledged).filter((answer) => answer === 0).length;
      for (let shard = 0; shard < 3; shard++) sameBytes &&= Buffer.from(replica.toBytes(shard)).equals(Buffer.from(await filter.toBytes(shard)));
      await replica.close();
    }
    await filter.drop();
    return { items: acknowledged.length, checks, missed, sameBytes };
  } finally {
    for (const client of clients) await client.close();
    await cluster.remove();
  }
}

async function main() {
  await init();
  const results = { machine: describeMachine(), sizes };
  const server = await startServer();
  const client = createClient({ url: server.url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    results.machine.redis = String(await client.sendCommand(['INFO', 'server'])).match(/redis_version:(\S+)/)?.[1];
    results.lookups = await lookupRun({ client, items: sizes.lookupItems, progress });
    results.lag = [];
    for (const processes of [true, false]) {
      for (const writers of [2, 8]) results.lag.push(await lagRun({ client, url: server.url, writers, replicas: 4, batches: sizes.lagBatches, processes, progress }));
    }
    results.writes = await writeRun({ client, items: sizes.writeItems, baseline, progress });
  } finally {
    await client.close();
    await server.remove();
  }
  results.cluster = await clusterRun();
  results.machine.loadAverageAtEnd = os.loadavg()[0];
  console.log(json ? JSON.stringify(results, null, 2) : render(results));
}

function render({ machine, lookups, lag, writes, cluster }) {
  const met = (ok) => (ok ? 'yes' : 'no');
  const lines = [
    `Replicas of a Redis filter: Redis ${machine.redis} on loopback, ${machine.cpu}, ${machine.cores} cores, load ${fixed(machine.loadAverageAtStart, 1)} to ${fixed(machine.loadAverageAtEnd, 1)}, Node ${machine.node}`,
    '',
    `Lookups (${lookups.items} items; best of rounds alternating):`,
    '',
    '| per call | µs |',
    '|---|--:|',
    `| SMISMEMBER of 1,000 keys on a SET of the items | ${fixed(lookups.smismemberMicros, 1)} |`,
    `| RedisCuckooFilter.hasMany of the same 1,000 keys | ${fixed(lookups.redisHasManyMicros, 1)} |`,
    `| FilterReplica.hasMany of the same 1,000 keys | ${fixed(lookups.replicaHasManyMicros, 1)} |`,
    `| FilterReplica.has (per key, ns) | ${fixed(lookups.replicaHasNanos, 1)} |`,
    `| CuckooFilter.has in-process (per key, ns) | ${fixed(lookups.localHasNanos, 1)} |`,
    '',
    'Lag: from a batch of 1,000 acknowledged (in its writer) to the last of 4 replicas answering for it, each writer and replica a process, or all in one (on 2 cores the processes also measure the scheduler; a negative lag is a replica answering before the writer heard back):',
    '',
    '| writers and replicas | writers | batches | batches/s | p50 ms | p99 ms | max ms | missed after sync | bytes equal | reloads |',
    '|---|--:|--:|--:|--:|--:|--:|--:|---|--:|',
    ...lag.map((run) => `| ${run.processes ? 'a process each' : 'one process'} | ${run.writers} | ${run.batches} | ${fixed(run.writesPerSecond, 0)} | ${fixed(run.p50, 2)} | ${fixed(run.p99, 2)} | ${fixed(run.max, 1)} | ${run.missed} | ${met(run.sameBytes)} | ${run.reloads} |`),
    '',
    'Writes: addMany of batches of 1,000, batch k of each filter in turn:',
    '',
    '| filter | ms | items |',
    '|---|--:|--:|',
    ...writes.map((write) => `| ${write.label} | ${fixed(write.ms, 0)} | ${write.items} |`),
    '',
    `3-master cluster, 3-shard filter, 2 writers and 2 replicas: ${cluster.items} items, ${cluster.checks} checks while writing, ${cluster.missed} missed, bytes equal per shard: ${met(cluster.sameBytes)}`,
    '',
    '| target | measured | met |',
    '|---|--:|---|',
    `| replica hasMany of 1,000 keys at least 20× SMISMEMBER | ${fixed(lookups.smismemberMicros / lookups.replicaHasManyMicros, 1)}× | ${met(lookups.smismemberMicros / lookups.replicaHasManyMicros >= 20)} |`,
    `| replica has within 1.2× CuckooFilter.has | ${fixed(lookups.replicaHasNanos / lookups.localHasNanos, 2)}× | ${met(lookups.replicaHasNanos / lookups.localHasNanos <= 1.2)} |`,
    `| lag p99 with 2 writers at most 5 ms (processes; one process) | ${fixed(lag[0].p99, 2)} ms; ${fixed(lag[2].p99, 2)} ms | ${met(lag[0].p99 <= 5)}; ${met(lag[2].p99 <= 5)} |`,
    `| every replica's bytes equal the server's, none missing (standalone, cluster) | ${lag.every((run) => run.sameBytes && run.missed === 0) && cluster.sameBytes && cluster.missed === 0 ? 'all' : 'not all'} | ${met(lag.every((run) => run.sameBytes && run.missed === 0) && cluster.sameBytes && cluster.missed === 0)} |`,
  ];
  const before = writes.find((write) => write.label.startsWith('the release before'));
  if (before !== undefined) lines.push(`| writes with the log at most 1.3× the release before change logs | ${fixed(writes[0].ms / before.ms, 2)}× | ${met(writes[0].ms / before.ms <= 1.3)} |`);
  else lines.push(`| writes with the log at most 1.3× the release before change logs (no --baseline; against logLength 0) | ${fixed(writes[0].ms / writes[1].ms, 2)}× | — |`);
  return lines.join('\n');
}

await main();
