// What a call throws, for tests that check several properties of one error.

/** The value `call` throws; fails the test if it returns normally. */
export function thrownBy(call: () => unknown): Error & { code?: string } {
  try {
    call();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected the call to throw, but it returned');
}
