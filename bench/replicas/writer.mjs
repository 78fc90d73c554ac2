// A writer of the replica benchmark's lag run, in a process of its own: adds
// `batches` batches of 1,000 items ("w<writer>-<batch>-<i>") to the filter,
// one after the other, and sends the parent when each was acknowledged.
//   node writer.mjs <redis url> <name> <writer> <batches>

import { createClient } from 'redis';
import { init } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { batchItems, wallClock } from './items.mjs';

const [url, name, writerText, batchesText] = process.argv.slice(2);
const writer = Number(writerText);
await init();
const client = createClient({ url });
client.on('error', () => undefined);
await client.connect();
const filter = await RedisCuckooFilter.open(client, name);
process.send({ ready: true });
await new Promise((resolve) => process.once('message', resolve));
const acknowledgedAt = [];
for (let batch = 0; batch < Number(batchesText); batch++) {
  const added = await filter.addMany(batchItems(writer, batch));
  acknowledgedAt.push(wallClock());
  if (added !== 1000) throw new Error(`batch ${batch}: ${added} of 1000 added`);
}
process.send({ acknowledgedAt });
await client.close();
