// The paper's lower bound on f (Sec. 4, eq. 3), made concrete: 2b + 1 items
// with the same fingerprint and the same two buckets. Their copies can only
// ever sit in those 2b slots, so kicks just swap equal fingerprints between
// the two buckets, and the last one ends in the stash. Found by locating
// numbered items with the core until enough share the chosen item's
// fingerprint and pair of buckets. Runs in the Web Worker.

import { CuckooFilter } from 'cuckoo-wasm';
import { buckets, locate, traceAdd } from 'cuckoo-wasm/inspect';
import type { Progress } from './load-measurements.js';
import { exampleItem } from './example-item.js';
import type { CollisionJob, CollisionResult, LocatedItem } from './measure-jobs.js';

const BUCKET_SIZE = 4;

function located(filter: CuckooFilter, item: string): LocatedItem {
  const { fingerprint, i1, i2 } = locate(filter, item);
  return { item, fingerprint, i1, i2 };
}

export function collisionGroup(job: CollisionJob, progress: Progress): CollisionResult {
  using filter = new CuckooFilter({
    bucketCount: job.bucketCount,
    bucketSize: BUCKET_SIZE,
    fingerprintBits: job.fingerprintBits,
    maxKicks: job.maxKicks,
    seed: job.seed,
  });
  const chosen = located(filter, job.item ?? exampleItem(filter));
  // Both buckets one bucket: b slots, so b + 1 items are too many.
  const needed = chosen.i1 === chosen.i2 ? BUCKET_SIZE + 1 : 2 * BUCKET_SIZE + 1;
  const group = [chosen];
  let searched = 0;
  while (group.length < needed && searched < job.searchLimit) {
    const item = `item-${++searched}`;
    if (item === chosen.item) continue;
    const where = located(filter, item);
    // The same fingerprint and i1 one of the pair: then i2 is the other, by the relation.
    if (where.fingerprint === chosen.fingerprint && (where.i1 === chosen.i1 || where.i1 === chosen.i2)) group.push(where);
    if (searched % 4096 === 0) progress(searched / job.searchLimit);
  }
  const outcomes = group.map(({ item }) => {
    const trace = traceAdd(filter, item);
    return {
      bucket: trace.placed?.bucket ?? trace.stashed?.bucket ?? -1,
      slot: trace.placed?.slot ?? null,
      kickCount: trace.kickCount,
      stashed: trace.stashed !== null,
    };
  });
  const pair = chosen.i1 === chosen.i2 ? [chosen.i1] : [chosen.i1, chosen.i2];
  const table = buckets(filter);
  const complete = group.length === needed;
  const nextRefused = complete && !filter.add(chosen.item);
  // Any item outside the group: the first numbered one that is not in it.
  const members = new Set(group.map((where) => where.item));
  let other = 1;
  while (members.has(`item-${other}`)) other++;
  return {
    chosen,
    group,
    needed,
    searched,
    outcomes,
    buckets: pair.map((bucket) => ({ bucket, slots: [...table.slots.subarray(bucket * BUCKET_SIZE, (bucket + 1) * BUCKET_SIZE)] })),
    stash: table.stash.fingerprint,
    nextRefused,
    other: complete ? { item: `item-${other}`, added: filter.add(`item-${other}`) } : null,
  };
}
