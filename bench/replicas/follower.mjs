// A replica of the replica benchmark's lag run, in a process of its own: it
// follows the filter and notes, for every writer's next batch, when it first
// answers for it. It looks after each reply its reader gets (its connection
// wrapped: the record is applied before a task queued then runs), so it
// spends nothing waiting. At the end it syncs, and reports what it saw, the
// items it misses and its bytes' sha256.
//   node follower.mjs <redis url> <name> <writers> <batches>

import { createHash } from 'node:crypto';
import { createClient } from 'redis';
import { init } from 'cuckoo-wasm';
import { nodeRedisConnection, RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { batchItems, batchMarks, wallClock } from './items.mjs';

const [url, name, writersText, batchesText] = process.argv.slice(2);
const writers = Number(writersText);
const batches = Number(batchesText);
await init();
const client = createClient({ url });
client.on('error', () => undefined);
await client.connect();

const next = new Array(writers).fill(0);
const seenAt = Array.from({ length: writers }, () => []);
let replica;
function look() {
  if (replica === undefined) return;
  for (let writer = 0; writer < writers; writer++) {
    while (next[writer] < batches && batchMarks(writer, next[writer]).every((item) => replica.has(item))) {
      seenAt[writer][next[writer]++] = wallClock();
    }
  }
}
const connection = nodeRedisConnection(client);
const watched = {
  ...connection,
  duplicate: async () => {
    const reader = await connection.duplicate();
    return {
      ...reader,
      call: async (key, command, readOnly) => {
        const reply = await reader.call(key, command, readOnly);
        setImmediate(look);
        return reply;
      },
    };
  },
};
replica = await RedisCuckooFilter.openReplica(watched, name);
process.send({ ready: true });
await new Promise((resolve) => process.once('message', resolve));
await replica.sync();
look();
let missed = 0;
for (let writer = 0; writer < writers; writer++) {
  for (let batch = 0; batch < batches; batch++) missed += replica.hasMany(batchItems(writer, batch)).filter((answer) => answer === 0).length;
}
const sha256 = createHash('sha256').update(replica.toBytes()).digest('hex');
process.send({ seenAt, missed, sha256, reloads: replica.reloads });
await replica.close();
await client.close();
