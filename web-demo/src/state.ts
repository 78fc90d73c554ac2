// The demo's shared mutable state: the filters on show and what the page knows
// about them. Every module reaches it through these functions, so that it is
// replaced in one place (new parameters, loaded bytes) and reading it before
// the first filter exists is one clear error.

import type { CuckooFilter } from 'cuckoo-wasm';
import type { BloomFilter } from 'cuckoo-wasm/bloom';
import { buckets } from 'cuckoo-wasm/inspect';
import type { TableState } from './frames.js';
import type { FprPoint, KickBar } from './gauges.js';
import type { DemoParams } from './params.js';

export interface Demo {
  params: DemoParams;
  filter: CuckooFilter;
  bloom: BloomFilter;
  /** What the cuckoo filter holds, as far as the page knows (not after loading bytes). */
  items: string[];
  /** Times each item was added to the Bloom filter. */
  bloomCopies: Map<string, number>;
  nextItem: number;
  fprPoints: FprPoint[];
  kickBars: KickBar[];
  maxLoad: number;
  /** Refresh the gauges once the animation reaches its last frame. */
  gaugesPending: boolean;
}

let demo: Demo | undefined;

/** False until the first filter exists (wasm still loading, or it failed). */
export function demoReady(): boolean {
  return demo !== undefined;
}

export function currentDemo(): Demo {
  if (demo === undefined) throw new Error('the demo is not ready');
  return demo;
}

/** Frees the filters on show, then shows what `make` builds. */
export function replaceDemo(make: () => Demo): Demo {
  demo?.filter.dispose();
  demo?.bloom.dispose();
  demo = make();
  return demo;
}

/** The table as the core has it now. */
export function readTable(): TableState {
  const { slots, stash } = buckets(currentDemo().filter);
  return { slots, stash };
}
