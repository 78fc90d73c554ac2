// A replica that notes, for every writer's next batch, when it first answers
// for it. It looks after each reply its reader gets and each message its
// subscription hears (its connections wrapped: the record is applied before a
// task queued then runs), so it spends nothing waiting. Shared by follower.mjs (a replica in a process of its own) and the
// lag run's replicas in one process (lag.mjs).

import { nodeRedisConnection, RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { batchItems, batchMarks, wallClock } from './items.mjs';

export async function watchedReplica(client, name, writers, batches) {
  const next = new Array(writers).fill(0);
  const seenAt = Array.from({ length: writers }, () => []);
  let replica;
  const look = () => {
    if (replica === undefined) return;
    for (let writer = 0; writer < writers; writer++) {
      while (next[writer] < batches && batchMarks(writer, next[writer]).every((item) => replica.has(item))) {
        seenAt[writer][next[writer]++] = wallClock();
      }
    }
  };
  const connection = nodeRedisConnection(client);
  const watched = {
    ...connection,
    duplicate: async () => {
      const reader = await connection.duplicate();
      const { subscribe } = reader;
      return {
        ...reader,
        ...(subscribe !== undefined && {
          subscribe: (channel, command, listener) =>
            subscribe(channel, command, (message) => {
              listener(message);
              setImmediate(look);
            }),
        }),
        call: async (key, command, readOnly) => {
          const reply = await reader.call(key, command, readOnly);
          setImmediate(look);
          return reply;
        },
      };
    },
  };
  replica = await RedisCuckooFilter.openReplica(watched, name);
  return {
    replica,
    seenAt,
    /** After the writers stopped: syncs, and counts the written items it misses. */
    async finish() {
      await replica.sync();
      look();
      let missed = 0;
      for (let writer = 0; writer < writers; writer++) {
        for (let batch = 0; batch < batches; batch++) missed += replica.hasMany(batchItems(writer, batch)).filter((answer) => answer === 0).length;
      }
      return missed;
    },
  };
}
