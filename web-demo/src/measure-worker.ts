// The Web Worker that measures for the paper's views: it loads the core and
// runs one job (measure-jobs.ts) on real filters off the page's thread,
// reporting progress and any part of the answer it has early, so the page
// stays responsive while tables fill and draws what is done.

import { init } from 'cuckoo-wasm';
import { collisionGroup } from './collision-search.js';
import { bucketSizeRows, fingerprintLengthCurves, type Progress } from './load-measurements.js';
import type { Job, WorkerMessage } from './measure-jobs.js';
import { spaceCurves } from './space-curves.js';

/** At most one progress message per this many ms: the page redraws a bar, not a chart. */
const PROGRESS_MS = 60;

function post(message: WorkerMessage): void {
  self.postMessage(message);
}

function run(job: Job, progress: Progress): unknown {
  switch (job.kind) {
    case 'fingerprint-length':
      return fingerprintLengthCurves(job, progress, (curves) => post({ type: 'partial', result: curves }));
    case 'collision':
      return collisionGroup(job, progress);
    case 'bucket-size':
      return bucketSizeRows(job, progress);
    case 'space':
      return spaceCurves(job, progress);
  }
}

self.onmessage = async (event: MessageEvent<Job>) => {
  try {
    await init();
    let last = 0;
    const result = run(event.data, (done) => {
      const now = performance.now();
      if (now - last < PROGRESS_MS) return;
      last = now;
      post({ type: 'progress', done });
    });
    post({ type: 'result', result });
  } catch (error) {
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};
