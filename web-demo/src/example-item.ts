// The item a view offers as its example: a word whose two buckets differ in
// the filter at hand, so that the first thing a learner sees is the general
// case (an item whose buckets coincide, i1 = i2, is the rare one: hash(f) mod
// m = 0, or 2·i1 ≡ c). Located by the core; touches no page, so that the
// worker can use it too.

import type { CuckooFilter } from 'cuckoo-wasm';
import { locate } from 'cuckoo-wasm/inspect';

export const EXAMPLE_WORDS = ['apple', 'banana', 'cherry', 'kiwi', 'mango', 'plum', 'grape', 'lemon', 'peach', 'pear', 'fig', 'lime'];

/** The first of EXAMPLE_WORDS (not in `avoid`) whose two buckets in `filter` differ; the first word if none does (a one-bucket table). */
export function exampleItem(filter: CuckooFilter, avoid: ReadonlySet<string> = new Set()): string {
  const words = EXAMPLE_WORDS.filter((word) => !avoid.has(word));
  return (
    words.find((word) => {
      const { i1, i2 } = locate(filter, word);
      return i1 !== i2;
    }) ?? words[0] ?? EXAMPLE_WORDS[0]!
  );
}
