// One of the processes of the Redis benchmark's concurrency run: connects,
// opens the shared filter (or the SET), prints "ready", waits for a line on
// stdin so that all start at once, then adds its own items in batches and
// prints {"seconds", "added"}.
//   node bench/redis/worker.mjs <redis://…|cluster:url,url,…> <filter name|set:key> <first> <count> <batch>

import { createClient, createCluster } from 'redis';
import { init } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { itemsFrom } from './items.mjs';

const [target, name, firstText, countText, batchText] = process.argv.slice(2);
const [first, count, batch] = [Number(firstText), Number(countText), Number(batchText)];

await init();
const redis = target.startsWith('cluster:')
  ? createCluster({ rootNodes: target.slice(8).split(',').map((url) => ({ url })) })
  : createClient({ url: target });
redis.on('error', () => undefined);
await redis.connect();
const items = itemsFrom(first, count);
const add = name.startsWith('set:')
  ? (slice) => redis.sAdd(name.slice(4), slice)
  : await RedisCuckooFilter.open(redis, name).then((filter) => (slice) => filter.addMany(slice));
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const started = process.hrtime.bigint();
let added = 0;
for (let start = 0; start < count; start += batch) added += Number(await add(items.slice(start, start + batch)));
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(`${JSON.stringify({ seconds, added })}\n`);
await redis.close();
