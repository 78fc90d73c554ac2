// Each item operation of RedisCuckooFilter through the engine its filter was
// opened with: the cuckoo module's command (module-engine.ts), which hashes on
// the server, or the items located here (through the wasm core) and the
// buckets read (opened.ts) or the mutating script run (mutations.ts). The one
// place that chooses between the two.

import type { ItemBatch } from '../index.js';
import { locateItem, locateItems } from '../parts.js';
import { moduleCopies, moduleHasMany, moduleMutateMany, moduleMutateOne } from './module-engine.js';
import { mutateMany, mutateOne, type Mutation } from './mutations.js';
import { countCopies, type OpenedFilter } from './opened.js';

/** The copies stored for `item` (for `has`, the module may stop at the first). */
export async function copiesOf(opened: OpenedFilter, item: unknown, forHas: boolean, what: string): Promise<number> {
  if (opened.engine === 'module') return moduleCopies(opened, item, forHas, what);
  return (await countCopies(opened, locateItem(opened.layout.params, item, `${what}: item`), what))[0]!;
}

/** 1 or 0 for each item: whether it may be in the filter. */
export async function answersFor(opened: OpenedFilter, items: unknown, what: string): Promise<Uint8Array> {
  if (opened.engine === 'module') return moduleHasMany(opened, items, what);
  const counts = await countCopies(opened, locateItems(opened.layout.params, items as ItemBatch, `${what}: items`), what);
  const answers = new Uint8Array(counts.length);
  for (let k = 0; k < counts.length; k++) answers[k] = counts[k]! > 0 ? 1 : 0;
  return answers;
}

/** One add, addUnique or delete: the mutating script's answer (mutateOne), from either engine. */
export function mutateItem(opened: OpenedFilter, operation: Mutation, item: unknown, what: string): Promise<number> {
  if (opened.engine === 'module') return moduleMutateOne(opened, operation, item, what);
  return mutateOne(opened, operation, locateItem(opened.layout.params, item, `${what}: item`), what);
}

/** Adds or deletes a batch: how many were added or deleted, from either engine. */
export function mutateItems(opened: OpenedFilter, operation: 'add' | 'delete', items: unknown, what: string): Promise<number> {
  if (opened.engine === 'module') return moduleMutateMany(opened, operation, items, what);
  return mutateMany(opened, operation, locateItems(opened.layout.params, items as ItemBatch, `${what}: items`), what);
}
