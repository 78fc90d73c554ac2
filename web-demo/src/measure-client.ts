// Runs measurement jobs in a Web Worker, one at a time, in the order asked:
// the views measure by themselves as the page opens, and several workers at
// once would each load the core and share the machine's cores with the page.
// One worker serves job after job; cancelling the running job ends that
// worker (no stale result can arrive) and the next job gets a new one.
// Cancelling a job still waiting just drops it.

import type { Job, ResultOf, WorkerMessage } from './measure-jobs.js';

export interface Running<R> {
  result: Promise<R>;
  cancel(): void;
}

interface Queued {
  job: Job;
  onProgress: (done: number) => void;
  onPartial: ((result: unknown) => void) | undefined;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

const queue: Queued[] = [];
let worker: Worker | undefined;
let running: Queued | undefined;

function workerFor(): Worker {
  worker ??= new Worker(new URL('./measure-worker.ts', import.meta.url), { type: 'module' });
  return worker;
}

/** Ends the worker (a job running in it stops); the next job starts a new one. */
function endWorker(): void {
  worker?.terminate();
  worker = undefined;
}

function next(): void {
  if (running !== undefined) return;
  const entry = queue.shift();
  if (entry === undefined) return;
  running = entry;
  const w = workerFor();
  const finish = (settle: () => void) => {
    running = undefined;
    settle();
    next();
  };
  w.onmessage = (event: MessageEvent<WorkerMessage>) => {
    const message = event.data;
    if (message.type === 'progress') return entry.onProgress(message.done);
    if (message.type === 'partial') return entry.onPartial?.(message.result);
    if (message.type === 'result') finish(() => entry.resolve(message.result));
    else finish(() => entry.reject(new Error(message.message)));
  };
  w.onerror = (event) => {
    endWorker();
    finish(() => entry.reject(new Error(event.message || 'the measuring worker failed')));
  };
  w.postMessage(entry.job);
}

export function runJob<J extends Job>(job: J, onProgress: (done: number) => void, onPartial?: (result: ResultOf<J>) => void): Running<ResultOf<J>> {
  let entry: Queued | undefined;
  const result = new Promise<ResultOf<J>>((resolve, reject) => {
    entry = { job, onProgress, onPartial: onPartial as Queued['onPartial'], resolve: resolve as Queued['resolve'], reject };
  });
  queue.push(entry!);
  next();
  return {
    result,
    cancel: () => {
      const waiting = queue.indexOf(entry!);
      if (waiting >= 0) queue.splice(waiting, 1);
      else if (running === entry) {
        endWorker();
        running = undefined;
        next();
      } else return;
      entry!.reject(new CancelledError());
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
