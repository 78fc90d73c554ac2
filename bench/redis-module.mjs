#!/usr/bin/env node
// `npm run bench -- --redis-module`: the cuckoo module (bindings/redis-module)
// against a Redis SET on the same server, from the same client, on the same
// items, in one run (rounds alternating, medians), with issue 27's targets:
//   - hasMany (CUCKOO.MEXISTS) of 1,000 ≥ SMISMEMBER; addMany (CUCKOO.MADD) of
//     1,000 ≥ SADD; has and add per call with node-redis's automatic
//     pipelining (1,000 in flight) ≥ SISMEMBER and SADD of one member;
//   - the server's time per item (INFO commandstats) ≤ SMISMEMBER's and
//     SADD's per member;
//   - the longest CUCKOO.ADD (500 kicks, near full) ≤ 100 µs in the server;
//   - MEMORY USAGE of a filter as the layout's today (≤ 1.01× byteLength + 512).
// The Lua scripts' figures beside them (engine 'scripts'), for scale.
//
//   node bench/redis-module.mjs [--quick] [--json]
//
// Builds the module (scripts/build-redis-module) and starts its own server.
// A benchmark, not a test: it prints figures and exits 0 either way.

import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';

import { CuckooFilter, init } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { item, itemsFrom } from './redis/items.mjs';
import { startServer } from './redis/servers.mjs';
import { describeMachine, parseCommandLine, progressLog } from './support/cli.mjs';
import { median, now, secondsSince } from './support/measurement.mjs';

const { quick, json } = parseCommandLine({ quick: { type: 'boolean' }, json: { type: 'boolean' } }, 'usage: node bench/redis-module.mjs [--quick] [--json]');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BATCH = 1000;
const sizes = { items: quick ? 20_000 : 200_000, rounds: quick ? 3 : 5, capacity: 1_000_000, fpr: 0.001, longestCapacity: quick ? 20_000 : 100_000, longestEvents: quick ? 3 : 10 };
const progress = progressLog('redis-module bench');
const launched = now();

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
async function rate(count, run) {
  const start = process.hrtime.bigint();
  await run();
  return count / seconds(start);
}

/** usec per call of a command since the last CONFIG RESETSTAT (INFO commandstats). */
async function serverMicros(client, command) {
  const stats = String(await client.sendCommand(['INFO', 'commandstats']));
  const found = new RegExp(`cmdstat_${command.replace('.', '\\.')}:calls=(\\d+),usec=(\\d+)`).exec(stats);
  return found === null ? NaN : Number(found[2]) / Number(found[1]);
}

/**
 * The items in groups of `group` (a batch of BATCH items, or BATCH single
 * calls in flight), each group through every one of `ways` in turn, so that
 * a machine's changing load falls on all of them alike; each way's rate.
 */
async function interleaved(items, group, ways) {
  const spent = ways.map(() => 0);
  for (let s = 0; s < items.length; s += group) {
    const slice = items.slice(s, s + group);
    for (const [w, way] of ways.entries()) {
      const start = process.hrtime.bigint();
      await way(slice);
      spent[w] += seconds(start);
    }
  }
  return spent.map((total) => items.length / total);
}

const inFlight = (send) => (slice) => Promise.all(slice.map(send));

/** Server µs per call of each command since the last CONFIG RESETSTAT. */
async function serverTimes(client, commands) {
  return Object.fromEntries(await Promise.all(commands.map(async (command) => [command, await serverMicros(client, command)])));
}

/** One round: each operation through the module, the SET and the scripts, on fresh keys. */
async function round(client, r) {
  const items = itemsFrom(2e12 + r * 1e9, sizes.items);
  const lookups = [...items, ...itemsFrom(3e12 + r * 1e9, sizes.items)];
  const single = lookups.slice(0, Math.min(lookups.length, 20 * BATCH));
  const module = await RedisCuckooFilter.create(client, `m-${r}`, { capacity: sizes.capacity, fpr: sizes.fpr, engine: 'module' });
  const scripts = await RedisCuckooFilter.create(client, `s-${r}`, { capacity: sizes.capacity, fpr: sizes.fpr, engine: 'scripts' });
  const set = `set-${r}`;
  const out = {};
  await client.sendCommand(['CONFIG', 'RESETSTAT']);
  [out.addMany, out.sadd, out.scriptsAddMany] = await interleaved(items, BATCH, [(b) => module.addMany(b), (b) => client.sAdd(set, b), (b) => scripts.addMany(b)]);
  [out.hasMany, out.smismember, out.scriptsHasMany, out.rawMexists] = await interleaved(lookups, BATCH, [
    (b) => module.hasMany(b), (b) => client.smIsMember(set, b), (b) => scripts.hasMany(b), (b) => client.sendCommand(['CUCKOO.MEXISTS', `m-${r}`, ...b]),
  ]);
  [out.has, out.sismember] = await interleaved(single, BATCH, [inFlight((x) => module.has(x)), inFlight((x) => client.sIsMember(set, x))]);
  const fresh = itemsFrom(5e12 + r * 1e9, single.length);
  [out.add, out.saddOne] = await interleaved(fresh, BATCH, [inFlight((x) => module.add(x)), inFlight((x) => client.sAdd(`${set}-one`, x))]);
  const micros = await serverTimes(client, ['cuckoo.madd', 'sadd', 'cuckoo.mexists', 'smismember', 'cuckoo.exists', 'sismember', 'cuckoo.add']);
  // Batches and single SADDs share one counter: the batches' share is told apart by a pass of batches alone.
  await client.sendCommand(['CONFIG', 'RESETSTAT']);
  await interleaved(itemsFrom(6e12 + r * 1e9, 20 * BATCH), BATCH, [(b) => client.sAdd(`${set}-more`, b)]);
  out.serverMadd = micros['cuckoo.madd'] / BATCH;
  out.serverSadd = (await serverMicros(client, 'sadd')) / BATCH;
  out.serverMexists = micros['cuckoo.mexists'] / BATCH;
  out.serverSmismember = micros.smismember / BATCH;
  out.serverExists = micros['cuckoo.exists'];
  out.serverSismember = micros.sismember;
  out.serverAdd = micros['cuckoo.add'];
  await client.sendCommand(['CONFIG', 'RESETSTAT']);
  await inFlight((x) => client.sAdd(`${set}-single`, x))(itemsFrom(8e12 + r * 1e9, BATCH));
  out.serverSaddOne = await serverMicros(client, 'sadd');
  await module.drop();
  await scripts.drop();
  await client.del([set, `${set}-one`, `${set}-more`, `${set}-single`]);
  return out;
}

/**
 * The longest single adds: a filter filled to its first refused add, then
 * single adds each timed by the server (CONFIG RESETSTAT before each), over
 * `events` refusals, a delete making room after each. Then the costliest add
 * there is, a refused one (500 kicks while the stash is taken, then each
 * undone), again and again: it changes nothing, so the same add repeats, and
 * its median is its own time, apart from what else the machine was doing at
 * the moment of one add (the single adds' longest includes that).
 */
async function longestAdds(client) {
  const filter = await RedisCuckooFilter.create(client, 'longest', { capacity: sizes.longestCapacity, fpr: sizes.fpr, engine: 'module' });
  const bulk = Math.floor(sizes.longestCapacity * 0.97);
  for (let s = 0; s < bulk; s += BATCH) await filter.addMany(itemsFrom(4e12 + s, Math.min(BATCH, bulk - s)));
  const times = [];
  let next = bulk;
  let refusals = 0;
  let refused = null;
  const timedAdd = async (x) => {
    await client.sendCommand(['CONFIG', 'RESETSTAT']);
    const added = await filter.add(x);
    return { added, micros: await serverMicros(client, 'cuckoo.add') };
  };
  for (let deleted = 0; refusals < sizes.longestEvents; deleted++) {
    for (;;) {
      const x = item(4e12 + next++);
      const { added, micros } = await timedAdd(x);
      times.push(micros);
      if (!added) {
        refused = x;
        break;
      }
    }
    refusals++;
    if (refusals < sizes.longestEvents) await filter.delete(item(4e12 + deleted * 7));
  }
  const repeats = [];
  for (let r = 0; r < 200; r++) {
    const { added, micros } = await timedAdd(refused);
    if (added) throw new Error('a refused add was taken on its repeat');
    repeats.push(micros);
  }
  await filter.drop();
  times.sort((a, b) => a - b);
  repeats.sort((a, b) => a - b);
  return {
    adds: times.length, refusals, medianMicros: times[times.length >> 1], longestMicros: times[times.length - 1], top: times.slice(-5),
    refusedMedianMicros: repeats[repeats.length >> 1], refusedMinMicros: repeats[0], refusedMaxMicros: repeats[repeats.length - 1], maxKicks: filter.params.maxKicks,
  };
}

async function memory(client) {
  await client.sendCommand(['CUCKOO.RESERVE', 'mem', String(sizes.capacity), String(sizes.fpr), 'SEED', '1']);
  await client.sendCommand(['CUCKOO.MADD', 'mem', ...itemsFrom(7e12, 1000)]);
  let bytes = 0;
  const keys = await client.keys('*mem*');
  for (const key of keys) bytes += Number(await client.sendCommand(['MEMORY', 'USAGE', key, 'SAMPLES', '0']));
  const local = CuckooFilter.create({ capacity: sizes.capacity, fpr: sizes.fpr, seed: 1 });
  const byteLength = local.byteLength;
  local.dispose();
  return { keys: keys.length, bytes, byteLength };
}

function render(results) {
  const { speed, longest, memory: mem, machine } = results;
  const m = (value) => (value / 1e6).toFixed(3);
  const x = (value) => `${value.toFixed(2)}×`;
  const us = (value) => value.toFixed(3);
  const lines = [];
  lines.push(`The cuckoo module on redis-server ${machine.redis}, ${machine.cpu} (${machine.cores} cores), Node ${machine.node}; load average ${machine.loadAverageAtStart.toFixed(2)} → ${machine.loadAverageAtEnd.toFixed(2)}; ${results.seconds.toFixed(0)} s${quick ? ' (--quick)' : ''}.`);
  lines.push('', `One node-redis client, medians of ${sizes.rounds} rounds of ${sizes.items.toLocaleString('en-US')} adds and ${(2 * sizes.items).toLocaleString('en-US')} lookups (half present), 20-character items, batches of ${BATCH}, each batch (or ${BATCH} calls in flight) through every column in turn:`, '');
  lines.push('| operation | module (M/s) | SET (M/s) | module ÷ SET | Lua scripts (M/s) |', '|---|--:|--:|--:|--:|');
  lines.push(`| hasMany (CUCKOO.MEXISTS) vs SMISMEMBER | ${m(speed.hasMany)} | ${m(speed.smismember)} | ${x(speed.hasMany / speed.smismember)} | ${m(speed.scriptsHasMany)} |`);
  lines.push(`| CUCKOO.MEXISTS sent by hand vs SMISMEMBER | ${m(speed.rawMexists)} | ${m(speed.smismember)} | ${x(speed.rawMexists / speed.smismember)} | — |`);
  lines.push(`| addMany (CUCKOO.MADD) vs SADD | ${m(speed.addMany)} | ${m(speed.sadd)} | ${x(speed.addMany / speed.sadd)} | ${m(speed.scriptsAddMany)} |`);
  lines.push(`| has per call (CUCKOO.EXISTS), 1,000 in flight, vs SISMEMBER | ${m(speed.has)} | ${m(speed.sismember)} | ${x(speed.has / speed.sismember)} | — |`);
  lines.push(`| add per call (CUCKOO.ADD), 1,000 in flight, vs SADD of one | ${m(speed.add)} | ${m(speed.saddOne)} | ${x(speed.add / speed.saddOne)} | — |`);
  lines.push('', 'Server time per item (INFO commandstats, batches of 1,000):', '');
  lines.push('| command | µs per item | SET command | µs per member |', '|---|--:|---|--:|');
  lines.push(`| CUCKOO.MEXISTS | ${us(speed.serverMexists)} | SMISMEMBER | ${us(speed.serverSmismember)} |`);
  lines.push(`| CUCKOO.MADD | ${us(speed.serverMadd)} | SADD | ${us(speed.serverSadd)} |`);
  lines.push(`| CUCKOO.EXISTS (one item per call) | ${us(speed.serverExists)} | SISMEMBER | ${us(speed.serverSismember)} |`);
  lines.push(`| CUCKOO.ADD (one item per call) | ${us(speed.serverAdd)} | SADD of one | ${us(speed.serverSaddOne)} |`);
  lines.push('', `Longest CUCKOO.ADD: ${longest.adds} single adds into a filter of ${sizes.longestCapacity.toLocaleString('en-US')} filled to its first refused add, ${longest.refusals} refusals (maxKicks ${longest.maxKicks}); the server's time per add: median ${longest.medianMicros.toFixed(1)} µs, the five longest ${longest.top.map((t) => t.toFixed(1)).join(', ')} µs (on a shared machine one add may also wait for the processor). The costliest add, a refused one (${longest.maxKicks} kicks, then each undone), 200 times: median ${longest.refusedMedianMicros.toFixed(1)} µs, least ${longest.refusedMinMicros.toFixed(1)}, most ${longest.refusedMaxMicros.toFixed(1)}.`);
  lines.push('', `Memory: a filter of capacity ${sizes.capacity.toLocaleString('en-US')} at ${sizes.fpr} made by CUCKOO.RESERVE: ${mem.keys} keys, ${mem.bytes.toLocaleString('en-US')} bytes (MEMORY USAGE … SAMPLES 0), ${x(mem.bytes / mem.byteLength)} the in-process byteLength (${mem.byteLength.toLocaleString('en-US')}).`);
  const targets = [
    [speed.hasMany >= speed.smismember, `hasMany (MEXISTS) of 1,000 ≥ 1.0× SMISMEMBER: ${x(speed.hasMany / speed.smismember)}`],
    [speed.addMany >= speed.sadd, `addMany (MADD) of 1,000 ≥ 1.0× SADD: ${x(speed.addMany / speed.sadd)}`],
    [speed.has >= speed.sismember, `has per call with automatic pipelining ≥ 1.0× SISMEMBER: ${x(speed.has / speed.sismember)}`],
    [speed.add >= speed.saddOne, `add per call with automatic pipelining ≥ 1.0× SADD: ${x(speed.add / speed.saddOne)}`],
    [speed.serverMexists <= speed.serverSmismember, `server time per item: MEXISTS ${us(speed.serverMexists)} µs ≤ SMISMEMBER ${us(speed.serverSmismember)} µs per member`],
    [speed.serverMadd <= speed.serverSadd, `server time per item: MADD ${us(speed.serverMadd)} µs ≤ SADD ${us(speed.serverSadd)} µs per member`],
    [longest.refusedMedianMicros <= 100, `the longest CUCKOO.ADD (${longest.maxKicks} kicks, and each undone) ≤ 100 µs: ${longest.refusedMedianMicros.toFixed(1)} µs its median over 200 runs; the longest single add of the fill ${longest.longestMicros.toFixed(1)} µs`],
    [mem.bytes <= 1.01 * mem.byteLength + 512, `MEMORY USAGE ≤ 1.01× byteLength + 512: ${x(mem.bytes / mem.byteLength)}`],
  ];
  lines.push('', 'Targets:', ...targets.map(([met, text]) => `- ${met ? 'MET' : 'NOT MET'}: ${text}`));
  return lines.join('\n');
}

async function main() {
  progress('building the module (scripts/build-redis-module)');
  const built = execFileSync('bash', [join(ROOT, 'scripts', 'build-redis-module')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n').pop();
  await init();
  const machine = describeMachine();
  const server = await startServer({ args: ['--loadmodule', built] });
  const client = createClient({ url: server.url });
  client.on('error', () => undefined);
  await client.connect();
  machine.redis = String(await client.sendCommand(['INFO', 'server'])).match(/redis_version:(\S+)/)?.[1];
  const results = { machine, sizes, quick };
  try {
    const rounds = [];
    for (let r = 0; r < sizes.rounds; r++) {
      progress(`round ${r + 1} of ${sizes.rounds}`);
      rounds.push(await round(client, r));
    }
    results.speed = Object.fromEntries(Object.keys(rounds[0]).map((key) => [key, median(rounds.map((each) => each[key]))]));
    progress('the longest adds');
    results.longest = await longestAdds(client);
    results.memory = await memory(client);
  } finally {
    await client.close();
    await server.remove();
  }
  results.machine.loadAverageAtEnd = os.loadavg()[0];
  results.seconds = secondsSince(launched);
  console.log(json ? JSON.stringify(results, null, 2) : render(results));
}

await main();
