// A replica of the replica benchmark's lag run, in a process of its own
// (watch.mjs): at the end it syncs, and reports what it saw, the items it
// misses and its bytes' sha256.
//   node follower.mjs <redis url> <name> <writers> <batches>

import { createHash } from 'node:crypto';
import { createClient } from 'redis';
import { init } from 'cuckoo-wasm';
import { watchedReplica } from './watch.mjs';

const [url, name, writersText, batchesText] = process.argv.slice(2);
await init();
const client = createClient({ url });
client.on('error', () => undefined);
await client.connect();
const { replica, seenAt, finish } = await watchedReplica(client, name, Number(writersText), Number(batchesText));
process.send({ ready: true });
await new Promise((resolve) => process.once('message', resolve));
const missed = await finish();
const sha256 = createHash('sha256').update(replica.toBytes()).digest('hex');
process.send({ seenAt, missed, sha256, reloads: replica.reloads });
await replica.close();
await client.close();
