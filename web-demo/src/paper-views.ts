// The panels that put the paper's analysis next to the live table: fingerprint
// length (Sec. 4), the 2b + 1 collision, bucket size (Sec. 5.1) and space
// against false positives (Sec. 5.2) with its sizing calculator. Each measures
// in a Web Worker on real filters, by itself as the page opens; this module
// makes them and keeps them in step with the table.

import type { CuckooFilter } from 'cuckoo-wasm';
import { BucketSizeView } from './bucket-size-view.js';
import { CollisionView } from './collision-view.js';
import { FingerprintLengthView } from './fingerprint-length-view.js';
import type { DemoParams } from './params.js';
import { DEFAULT_SIZING, SizingCalculator } from './sizing-calculator.js';
import { SpaceView } from './space-view.js';

let views: { fingerprintLength: FingerprintLengthView; collision: CollisionView; bucketSize: BucketSizeView; space: SpaceView; sizing: SizingCalculator } | undefined;

/** Builds the views (once the page's elements exist) and starts what no table changes: Fig. 2, and the space curves with the calculator's choice. */
export function startPaperViews(): void {
  const space = new SpaceView();
  views = { fingerprintLength: new FingerprintLengthView(), collision: new CollisionView(), bucketSize: new BucketSizeView(), space, sizing: new SizingCalculator(space) };
  views.fingerprintLength.start();
  views.sizing.set(DEFAULT_SIZING.capacity, DEFAULT_SIZING.fpr);
}

/** The calculator, for the presenter's steps. */
export function sizingCalculator(): SizingCalculator | undefined {
  return views?.sizing;
}

/** A new filter on show: views measured for other parameters start over. */
export function setupPaperViews(params: DemoParams, filter: CuckooFilter): void {
  if (views === undefined) return;
  views.collision.setup(params);
  views.bucketSize.setup(params);
  views.space.setup(params, filter);
}
