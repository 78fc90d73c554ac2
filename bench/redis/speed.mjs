// The speed targets, each beside its SET counterpart on the same server in the
// same run (alternating, the median of the rounds): addMany against SADD and
// hasMany against SMISMEMBER in batches of 1,000 from one client, per-call
// has with node-redis's automatic pipelining beside SISMEMBER the same way;
// and the longest insert script, the one that ends in the stash after 500
// kicks, timed by the server.

import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { median } from '../support/measurement.mjs';
import { BATCH } from './concurrency.mjs';
import { item, itemsFrom } from './items.mjs';

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

async function timed(run) {
  const start = process.hrtime.bigint();
  await run();
  return seconds(start);
}

/** Rounds of (filter, set) measurements of `count` items; the median rate of each. */
export async function batchSpeeds({ client, count, rounds, capacity, fpr, progress }) {
  const items = itemsFrom(2e12, count);
  const lookups = [...items, ...itemsFrom(3e12, count)];
  const rates = { addMany: [], sadd: [], hasMany: [], smismember: [], has: [], sismember: [] };
  for (let round = 0; round < rounds; round++) {
    progress(`speed round ${round + 1} of ${rounds}: ${count} adds and ${2 * count} lookups each way, batches of ${BATCH}`);
    const filter = await RedisCuckooFilter.create(client, `speed-${round}`, { capacity, fpr });
    const set = `speed-set-${round}`;
    rates.addMany.push(count / (await timed(async () => { for (let s = 0; s < count; s += BATCH) await filter.addMany(items.slice(s, s + BATCH)); })));
    rates.sadd.push(count / (await timed(async () => { for (let s = 0; s < count; s += BATCH) await client.sAdd(set, items.slice(s, s + BATCH)); })));
    rates.hasMany.push(lookups.length / (await timed(async () => { for (let s = 0; s < lookups.length; s += BATCH) await filter.hasMany(lookups.slice(s, s + BATCH)); })));
    rates.smismember.push(lookups.length / (await timed(async () => { for (let s = 0; s < lookups.length; s += BATCH) await client.smIsMember(set, lookups.slice(s, s + BATCH)); })));
    // Per call: a window of BATCH calls in flight at a time, which node-redis pipelines.
    const perCall = lookups.slice(0, Math.min(lookups.length, 20 * BATCH));
    rates.has.push(perCall.length / (await timed(async () => { for (let s = 0; s < perCall.length; s += BATCH) await Promise.all(perCall.slice(s, s + BATCH).map((x) => filter.has(x))); })));
    rates.sismember.push(perCall.length / (await timed(async () => { for (let s = 0; s < perCall.length; s += BATCH) await Promise.all(perCall.slice(s, s + BATCH).map((x) => client.sIsMember(set, x))); })));
    await filter.drop();
    await client.del(set);
  }
  return Object.fromEntries(Object.entries(rates).map(([key, values]) => [key, median(values)]));
}

async function scriptMicroseconds(client) {
  const stats = String(await client.sendCommand(['INFO', 'commandstats']));
  return Number(/cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(stats)?.[1] ?? NaN);
}

/**
 * Fills a filter until an add ends in the stash (maxKicks kicks, then the
 * stash: the longest an insert script runs) and the next is refused; then
 * `events - 1` times more, each after a delete makes room. The server's time
 * for each stashing add's script, and for the other single adds.
 */
export async function longestScript({ client, capacity, fpr, events, progress }) {
  const filter = await RedisCuckooFilter.create(client, 'longest', { capacity, fpr });
  progress(`longest script: filling a filter of ${capacity} to the first refused add, ${events} times`);
  let next = 0;
  const bulk = Math.floor(capacity * 0.97);
  for (; next < bulk; next += BATCH) await filter.addMany(itemsFrom(4e12 + next, Math.min(BATCH, bulk - next)));
  const others = [];
  const stashing = [];
  for (let deleted = 0; stashing.length < events; deleted++) {
    let previous = NaN;
    for (;;) {
      await client.sendCommand(['CONFIG', 'RESETSTAT']);
      const added = await filter.add(item(4e12 + next++));
      const micros = await scriptMicroseconds(client);
      if (!added) break;
      if (!Number.isNaN(previous)) others.push(previous);
      previous = micros;
    }
    // (NaN: the delete before found no room for the stashed fingerprint, so no add got in.)
    if (!Number.isNaN(previous)) stashing.push(previous);
    // Room for the next: deleting an item re-places the stashed fingerprint.
    await filter.delete(item(4e12 + deleted * 7));
  }
  await filter.drop();
  return { stashingAddMicros: stashing, medianAddMicros: median(others), singleAdds: others.length + stashing.length, maxKicks: filter.params.maxKicks };
}

