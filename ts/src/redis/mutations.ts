// Adds and deletes: per shard, the items in order, in runs of at most
// ITEMS_PER_COMMAND, each run one call of the mutating script (atomic). The
// shards run side by side; a shard's runs one after another, so that an add
// stops at its shard's first refused item, as CuckooFilter.addMany stops.

import { LOCATION_WORDS } from '../parts.js';
import { itemsByShard, runsOf, type OpenedFilter } from './opened.js';
import { runScript, SCRIPTS } from './scripts.js';

export type Mutation = 'add' | 'addUnique' | 'delete';

const ONLY_ITEM = new Uint32Array(1);

/** The script's answer for one run: items added or deleted, or addUnique's 0 added / 1 present / 2 full. */
function runMutation(opened: OpenedFilter, shard: number, operation: Mutation, run: Uint32Array, located: Uint32Array, what: string): Promise<number> {
  // Each item as 8 bytes, fingerprint then first bucket, big-endian: one argument for the run.
  const packed = new Uint8Array(8 * run.length);
  const view = new DataView(packed.buffer);
  for (let position = 0; position < run.length; position++) {
    const base = LOCATION_WORDS * run[position]!;
    view.setUint32(8 * position, located[base]!);
    view.setUint32(8 * position + 4, located[base + 1]!);
  }
  return runScript(opened.connection, SCRIPTS.mutate, opened.scriptKeys[shard]!, [opened.fixedHeaders[shard]!, operation, packed], what).then(Number);
}

/** Adds (stopping each shard at its first refused item) or deletes the located items; resolves to how many. */
export async function mutateMany(opened: OpenedFilter, operation: 'add' | 'delete', located: Uint32Array, what: string): Promise<number> {
  const perShard = itemsByShard(opened, located).map(async (items, shard) => {
    let done = 0;
    for (const run of runsOf(items)) {
      const counted = await runMutation(opened, shard, operation, run, located, what);
      done += counted;
      if (operation === 'add' && counted < run.length) break;
    }
    return done;
  });
  return (await Promise.all(perShard)).reduce((sum, done) => sum + done, 0);
}

/** Adds or deletes one located item; resolves to the script's answer. */
export function mutateOne(opened: OpenedFilter, operation: Mutation, located: Uint32Array, what: string): Promise<number> {
  const shard = Math.floor((located[3]! * opened.layout.shards) / 2 ** 32);
  return runMutation(opened, shard, operation, ONLY_ITEM, located, what);
}
