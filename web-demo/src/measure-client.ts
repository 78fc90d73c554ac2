// Runs a measurement job in a Web Worker of its own, so that starting a new
// one (new parameters, a new item) simply ends the old worker: no stale result
// can arrive, and a long fill never blocks the page.

import type { Job, ResultOf, WorkerMessage } from './measure-jobs.js';

export interface Running<R> {
  result: Promise<R>;
  cancel(): void;
}

export function runJob<J extends Job>(job: J, onProgress: (done: number) => void, onPartial?: (result: ResultOf<J>) => void): Running<ResultOf<J>> {
  const worker = new Worker(new URL('./measure-worker.ts', import.meta.url), { type: 'module' });
  let settle: ((error: Error) => void) | undefined;
  const result = new Promise<ResultOf<J>>((resolve, reject) => {
    settle = reject;
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.type === 'progress') return onProgress(message.done);
      if (message.type === 'partial') return onPartial?.(message.result as ResultOf<J>);
      worker.terminate();
      if (message.type === 'result') resolve(message.result as ResultOf<J>);
      else reject(new Error(message.message));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'the measuring worker failed'));
    };
  });
  worker.postMessage(job);
  return {
    result,
    cancel: () => {
      worker.terminate();
      settle?.(new CancelledError());
    },
  };
}

/** Why a cancelled job's promise rejects; views ignore it. */
export class CancelledError extends Error {
  constructor() {
    super('measurement cancelled');
    this.name = 'CancelledError';
  }
}
