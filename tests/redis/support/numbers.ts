// The differential suites' operations: the same in every run.

/** A deterministic stream of numbers (xorshift32), so that every run does the same operations. */
export function numbers(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
}
