// The panels that put the paper's analysis next to the live table: fingerprint
// length (Sec. 4), the 2b + 1 collision, bucket size (Sec. 5.1) and space
// against false positives (Sec. 5.2). Each measures in a Web Worker on real
// filters; this module makes them and keeps them in step with the table.

import type { CuckooFilter } from 'cuckoo-wasm';
import { BucketSizeView } from './bucket-size-view.js';
import { CollisionView } from './collision-view.js';
import { FingerprintLengthView } from './fingerprint-length-view.js';
import type { DemoParams } from './params.js';
import { SpaceView } from './space-view.js';

let views: { fingerprintLength: FingerprintLengthView; collision: CollisionView; bucketSize: BucketSizeView; space: SpaceView } | undefined;

/** Builds the views (once the page's elements exist) and sizes the space curves, which no table changes. */
export function startPaperViews(): void {
  views = { fingerprintLength: new FingerprintLengthView(), collision: new CollisionView(), bucketSize: new BucketSizeView(), space: new SpaceView() };
  views.space.start();
}

/** A new filter on show: views measured for other parameters start over. */
export function setupPaperViews(params: DemoParams, filter: CuckooFilter): void {
  if (views === undefined) return;
  views.fingerprintLength.setup(params);
  views.collision.setup(params);
  views.bucketSize.setup(params);
  views.space.setup(params, filter);
}
