// Steps through an operation's frames: play, pause, step, speed. One step
// takes STEP_MS at 1x, times the frame's pace. Each mode of the page has its
// own kind of frame.

const STEP_MS = 1100;
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64] as const;

export class Player<Frame extends { pace: number }> {
  #frames: Frame[] = [];
  #index = 0;
  #speedIndex = SPEEDS.indexOf(1);
  #playing = true;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #loads = 0;

  constructor(
    private readonly show: (frame: Frame, index: number, count: number) => void,
    private readonly changed: () => void,
  ) {}

  get playing(): boolean {
    return this.#playing;
  }

  get speed(): number {
    return SPEEDS[this.#speedIndex]!;
  }

  get atEnd(): boolean {
    return this.#index >= this.#frames.length - 1;
  }

  get index(): number {
    return this.#index;
  }

  get count(): number {
    return this.#frames.length;
  }

  /** How many times frames were loaded: a change tells that an operation ran meanwhile. */
  get loads(): number {
    return this.#loads;
  }

  /** Shows the first frame and plays on from there if playing. */
  load(frames: Frame[], startAtEnd = false): void {
    this.#frames = frames;
    this.#index = startAtEnd ? frames.length - 1 : 0;
    this.#loads++;
    this.#render();
  }

  /** Draws the current frame again, over whatever was drawn in its place. */
  redraw(): void {
    this.#render();
  }

  togglePlay(): void {
    this.#playing = !this.#playing;
    this.#render();
  }

  step(delta: number): void {
    this.#goTo(this.#index + delta);
  }

  first(): void {
    this.#goTo(0);
  }

  last(): void {
    this.#goTo(this.#frames.length - 1);
  }

  faster(delta: number): void {
    this.#speedIndex = Math.min(SPEEDS.length - 1, Math.max(0, this.#speedIndex + delta));
    this.#render();
  }

  #goTo(index: number): void {
    if (this.#frames.length === 0) return;
    this.#index = Math.min(this.#frames.length - 1, Math.max(0, index));
    this.#render();
  }

  #render(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const frame = this.#frames[this.#index];
    if (frame !== undefined) this.show(frame, this.#index, this.#frames.length);
    if (this.#playing && !this.atEnd) {
      this.#timer = setTimeout(() => this.#goTo(this.#index + 1), (STEP_MS * (frame?.pace ?? 1)) / this.speed);
    }
    this.changed();
  }
}
