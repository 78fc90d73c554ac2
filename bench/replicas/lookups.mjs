// The replica benchmark's lookups: a replica's hasMany of 1,000 keys beside
// SMISMEMBER of the same keys on a SET of the same items, on the same server
// (and RedisCuckooFilter.hasMany, for scale); a replica's has per call beside
// an in-process CuckooFilter.has of the same filter, rounds alternating.

import { CuckooFilter } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { now } from '../support/measurement.mjs';

const keysOf = (prefix, count) => Array.from({ length: count }, (_, i) => `user:${prefix}:${String(i).padStart(7, '0')}`);

/** Microseconds per call of `call`, over calls lasting about `ms` milliseconds (at least `min` calls). */
async function perCall(call, ms, min = 20) {
  let calls = 0;
  const start = now();
  while (calls < min || now() - start < ms) {
    await call(calls);
    calls++;
  }
  return ((now() - start) * 1000) / calls;
}

export async function lookupRun({ client, items, progress }) {
  const name = 'looked-up';
  const present = keysOf('a', items);
  const filter = await RedisCuckooFilter.create(client, name, { capacity: items, fpr: 0.001, seed: 11 });
  for (let start = 0; start < items; start += 10_000) {
    const slice = present.slice(start, start + 10_000);
    await filter.addMany(slice);
    await client.sendCommand(['SADD', `${name}-set`, ...slice]);
  }
  const replica = await RedisCuckooFilter.openReplica(client, name);
  await replica.sync();
  const local = CuckooFilter.fromBytes(await filter.toBytes());
  const absent = keysOf('b', items);
  const batches = Array.from({ length: 50 }, (_, b) => [...present.slice(b * 500, b * 500 + 500), ...absent.slice(b * 500, b * 500 + 500)]);
  progress('lookups: 1,000 keys per call, SMISMEMBER and RedisCuckooFilter.hasMany against the replica');
  const rounds = { smismember: [], redisHasMany: [], replicaHasMany: [] };
  for (let round = 0; round < 3; round++) {
    rounds.smismember.push(await perCall((k) => client.sendCommand(['SMISMEMBER', `${name}-set`, ...batches[k % 50]]), 1500));
    rounds.redisHasMany.push(await perCall((k) => filter.hasMany(batches[k % 50]), 1500));
    rounds.replicaHasMany.push(await perCall((k) => replica.hasMany(batches[k % 50]), 1500, 200));
  }
  progress('lookups: has per call, the replica against an in-process CuckooFilter');
  const probes = [...present.slice(0, 50_000), ...absent.slice(0, 50_000)];
  const perHas = { replica: [], local: [] };
  let answers = 0;
  for (let round = 0; round < 7; round++) {
    for (const [which, target] of [['replica', replica], ['local', local]]) {
      const start = now();
      for (let k = 0; k < probes.length; k++) if (target.has(probes[k])) answers++;
      perHas[which].push(((now() - start) * 1e6) / probes.length);
    }
  }
  await replica.close();
  local.dispose();
  await filter.drop();
  await client.del(`${name}-set`);
  const best = (values) => Math.min(...values);
  return {
    items,
    smismemberMicros: best(rounds.smismember),
    redisHasManyMicros: best(rounds.redisHasMany),
    replicaHasManyMicros: best(rounds.replicaHasMany),
    replicaHasNanos: best(perHas.replica),
    localHasNanos: best(perHas.local),
    answers,
  };
}
