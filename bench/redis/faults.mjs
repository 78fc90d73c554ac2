// The fault target: a server with appendonly yes and appendfsync always
// killed with SIGKILL while three writers add batches, restarted on its files;
// the same client and filter handle go on. Counts what was acknowledged, what
// failed, and whether every acknowledged add is found after the restart.

import { createClient } from 'redis';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { itemsFrom } from './items.mjs';
import { startServer } from './servers.mjs';

const DURABLE = ['--appendonly', 'yes', '--appendfsync', 'always'];

export async function faultRun({ total, killAfter, progress }) {
  let server = await startServer({ args: DURABLE });
  const { port, dir } = server;
  const client = createClient({ url: server.url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const filter = await RedisCuckooFilter.create(client, 'durable', { capacity: 2 * total, fpr: 0.001 });
    const items = itemsFrom(5e12, total);
    const acknowledged = [];
    let failedCalls = 0;
    let next = 0;
    let killedAt = null;
    let recoveredAt = null;
    const writer = async () => {
      while (next < total) {
        const start = next;
        next += 100;
        const batch = items.slice(start, start + 100);
        try {
          const added = await filter.addMany(batch);
          acknowledged.push(...batch.slice(0, added));
          if (killedAt !== null && recoveredAt === null) recoveredAt = process.hrtime.bigint();
        } catch {
          failedCalls++;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const writers = [writer(), writer(), writer()];
    while (acknowledged.length < killAfter) await new Promise((resolve) => setTimeout(resolve, 5));
    progress(`faults: SIGKILL after ${acknowledged.length} acknowledged adds, then a restart on the AOF`);
    killedAt = process.hrtime.bigint();
    await server.stop('SIGKILL');
    const acknowledgedBeforeKill = acknowledged.length;
    server = await startServer({ port, dir, args: DURABLE });
    await Promise.all(writers);
    let missing = 0;
    for (let start = 0; start < acknowledged.length; start += 10_000) {
      for (const answer of await filter.hasMany(acknowledged.slice(start, start + 10_000))) if (answer !== 1) missing++;
    }
    return {
      acknowledgedBeforeKill,
      acknowledged: acknowledged.length,
      failedCalls,
      missing,
      size: await filter.size(),
      attempted: total,
      recoverySeconds: recoveredAt === null ? null : Number(recoveredAt - killedAt) / 1e9,
    };
  } finally {
    await client.close().catch(() => undefined);
    await server.remove();
  }
}
