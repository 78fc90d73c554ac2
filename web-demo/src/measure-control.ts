// A view's "Measure" button, its progress bar and its status line: runs one
// job at a time in a worker (measure-client.ts), cancels it when the view is
// reset, and tells the tests where it is through the panel's data-state
// ('idle', 'running', 'done' or 'failed').

import { CancelledError, runJob, type Running } from './measure-client.js';
import type { Job, ResultOf } from './measure-jobs.js';

export class MeasureControl<J extends Job> {
  #running: Running<ResultOf<J>> | undefined;

  constructor(
    private readonly panel: HTMLElement,
    private readonly progress: HTMLProgressElement,
    private readonly status: HTMLElement,
  ) {}

  /** Cancels any job and says why there is nothing to show. */
  reset(message: string): void {
    this.#running?.cancel();
    this.#running = undefined;
    this.progress.value = 0;
    this.progress.hidden = true;
    this.status.textContent = message;
    this.panel.dataset.state = 'idle';
  }

  /** Runs `job`, showing `what` while it runs; `show` draws the result, `partial` (if given) what the job has so far. */
  run(job: J, what: string, show: (result: ResultOf<J>) => string, partial?: (result: ResultOf<J>) => void): void {
    this.reset(what);
    this.panel.dataset.state = 'running';
    this.progress.hidden = false;
    const started = performance.now();
    const running = runJob(
      job,
      (done) => {
        this.progress.value = done;
      },
      partial === undefined
        ? undefined
        : (result) => {
            if (this.#running === running) partial(result);
          },
    );
    this.#running = running;
    running.result.then(
      (result) => {
        if (this.#running !== running) return;
        this.#running = undefined;
        this.progress.hidden = true;
        this.status.textContent = show(result);
        // For the tests and the closing figures: when the answer was on the page, since the page started and since it was asked for.
        this.panel.dataset.doneAtMs = String(Math.round(performance.now()));
        this.panel.dataset.tookMs = String(Math.round(performance.now() - started));
        this.panel.dataset.state = 'done';
      },
      (error: unknown) => {
        if (error instanceof CancelledError || this.#running !== running) return;
        this.#running = undefined;
        this.progress.hidden = true;
        this.status.textContent = `The measurement failed: ${error instanceof Error ? error.message : String(error)}`;
        this.panel.dataset.state = 'failed';
      },
    );
  }
}
