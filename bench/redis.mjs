#!/usr/bin/env node
// `npm run bench -- --redis`: cuckoo-wasm/redis against a Redis SET on the same
// server, in one run, on servers it starts itself (redis-server on loopback
// ports in temporary folders, and a 3-master cluster), printing every target
// of issue 20 and whether it is met:
//   concurrency (8 processes × 10^5 adds, standalone and a 3-shard filter on
//   the cluster: no false negative, the exact size, the false-positive rate
//   within binomial limits), interchange both ways (10^6 lookups), memory
//   beside a SET, speed beside SADD / SMISMEMBER / SISMEMBER, the longest
//   insert script, and a SIGKILL with a restart on the AOF.
//
//   node bench/redis.mjs           the sizes (a few minutes)
//   node bench/redis.mjs --quick   a tenth of them (under a minute)
//   node bench/redis.mjs --json    the raw results
//
// A benchmark, not a test: it prints figures and exits 0 either way. Build
// first (bash scripts/build); needs redis-server and redis-cli.

import os from 'node:os';
import { createClient, createCluster } from 'redis';

import { CuckooFilter, init } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { concurrencyRun, probesOf } from './redis/concurrency.mjs';
import { measureCosts } from './redis/costs.mjs';
import { faultRun } from './redis/faults.mjs';
import { itemsFrom } from './redis/items.mjs';
import { renderReport } from './redis/report.mjs';
import { startCluster, startServer } from './redis/servers.mjs';
import { batchSpeeds, longestScript } from './redis/speed.mjs';
import { describeMachine, parseCommandLine, progressLog } from './support/cli.mjs';
import { now, secondsSince } from './support/measurement.mjs';

const { quick, json } = parseCommandLine({ quick: { type: 'boolean' }, json: { type: 'boolean' } }, 'usage: node bench/redis.mjs [--quick] [--json]');
const scale = quick ? 10 : 1;
const sizes = {
  processes: 8,
  perProcess: 100_000 / scale,
  capacity: 1_000_000 / scale,
  fpr: 0.001,
  lookups: 1_000_000 / scale,
  speedItems: 200_000 / scale,
  speedRounds: 3,
  faultItems: 100_000 / scale,
};

const launched = now();
const progress = progressLog('redis bench');

/** MEMORY USAGE (exact: SAMPLES 0) of keys, each asked of the client that serves it. */
async function memoryOf(nodes, pattern) {
  let bytes = 0;
  let keys = 0;
  for (const node of nodes) {
    for (const key of await node.keys(pattern)) {
      bytes += Number(await node.sendCommand(['MEMORY', 'USAGE', key, 'SAMPLES', '0']));
      keys++;
    }
  }
  return { bytes, keys };
}

async function interchange(client, filter, lookups) {
  const total = sizes.processes * sizes.perProcess;
  const probes = [...itemsFrom(0, lookups / 2), ...(probesOf(lookups / 2))];
  progress(`interchange: ${lookups} lookups, Redis → bytes → CuckooFilter`);
  const exported = CuckooFilter.fromBytes(await filter.toBytes());
  let outMismatches = 0;
  for (let start = 0; start < lookups; start += 10_000) {
    const slice = probes.slice(start, start + 10_000);
    const [remote, local] = [await filter.hasMany(slice), exported.hasMany(slice)];
    for (let k = 0; k < slice.length; k++) if (remote[k] !== local[k]) outMismatches++;
  }
  exported.dispose();
  progress(`interchange: ${lookups} lookups, CuckooFilter → bytes → Redis`);
  const local = CuckooFilter.create({ capacity: sizes.capacity, fpr: sizes.fpr, seed: 77 });
  for (let start = 0; start < total; start += 100_000) local.addMany(itemsFrom(start, Math.min(100_000, total - start)));
  const imported = await RedisCuckooFilter.fromBytes(client, 'imported', local.toBytes());
  let inMismatches = 0;
  for (let start = 0; start < lookups; start += 10_000) {
    const slice = probes.slice(start, start + 10_000);
    const [remote, mine] = [await imported.hasMany(slice), local.hasMany(slice)];
    for (let k = 0; k < slice.length; k++) if (remote[k] !== mine[k]) inMismatches++;
  }
  local.dispose();
  await imported.drop();
  return { lookups, outMismatches, inMismatches };
}

async function main() {
  await init();
  const machine = describeMachine();
  const server = await startServer();
  const client = createClient({ url: server.url });
  client.on('error', () => undefined);
  await client.connect();
  machine.redis = String(await client.sendCommand(['INFO', 'server'])).match(/redis_version:(\S+)/)?.[1];
  const probes = probesOf(sizes.lookups);
  const results = { machine, sizes, quick };
  try {
    const standalone = await concurrencyRun({
      client, target: server.url, name: 'events', capacity: sizes.capacity, fpr: sizes.fpr, shards: 1,
      processes: sizes.processes, perProcess: sizes.perProcess, probes, withSet: true, progress,
    });
    results.interchange = await interchange(client, standalone.filter, sizes.lookups);
    const inProcess = CuckooFilter.create({ capacity: sizes.capacity, fpr: sizes.fpr });
    const chunks = await memoryOf([client], '{events:*');
    results.memory = {
      items: standalone.size,
      inProcessByteLength: inProcess.byteLength,
      filter: { bytes: (await memoryOf([client], 'events')).bytes + chunks.bytes, keys: 1 + chunks.keys },
      set: await memoryOf([client], 'events-set'),
    };
    inProcess.dispose();
    delete standalone.filter;
    results.standalone = standalone;
    results.speed = await batchSpeeds({ client, count: sizes.speedItems, rounds: sizes.speedRounds, capacity: sizes.capacity, fpr: sizes.fpr, progress });
    progress('where the time goes: bare commands, and BITFIELD inside a script');
    results.costs = await measureCosts(client);
    results.longest = await longestScript({ client, capacity: sizes.capacity / 10, fpr: sizes.fpr, events: 5, progress });
    results.faults = await faultRun({ total: sizes.faultItems, killAfter: sizes.faultItems / 5, progress });
  } finally {
    await client.close();
    await server.remove();
  }
  progress('a 3-master cluster');
  const cluster = await startCluster();
  const clusterClient = createCluster({ rootNodes: cluster.rootNodes });
  clusterClient.on('error', () => undefined);
  await clusterClient.connect();
  try {
    const sharded = await concurrencyRun({
      client: clusterClient, target: `cluster:${cluster.rootNodes.map((node) => node.url).join(',')}`, name: 'events', capacity: sizes.capacity,
      fpr: sizes.fpr, shards: 3, processes: sizes.processes, perProcess: sizes.perProcess, probes, withSet: false, progress,
    });
    const nodes = await Promise.all(cluster.servers.map(async (node) => createClient({ url: node.url }).connect()));
    results.memory.sharded = await memoryOf(nodes, '*events*');
    await Promise.all(nodes.map((node) => node.close()));
    delete sharded.filter;
    results.cluster = sharded;
  } finally {
    await clusterClient.close();
    await cluster.remove();
  }
  results.machine.loadAverageAtEnd = os.loadavg()[0];
  results.seconds = secondsSince(launched);
  console.log(json ? JSON.stringify(results, null, 2) : renderReport(results));
}

await main();
