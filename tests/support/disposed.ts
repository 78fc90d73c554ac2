// What calls on a disposed filter throw, for the CuckooFilter and BloomFilter tests.
// dist/cjs/index.node is the module Jest maps `cuckoo-wasm` to, so the class is the same.
import { CuckooFilterError } from '../../dist/cjs/index.node';
import { thrownBy } from './thrown';

/** Each call throws CuckooFilterError with code DISPOSED and a message naming `${className}.${method}`. */
export function expectEachCallDisposed(className: string, calls: ReadonlyArray<readonly [method: string, call: () => unknown]>): void {
  for (const [method, call] of calls) {
    const caught = thrownBy(call);
    expect(caught).toBeInstanceOf(CuckooFilterError);
    expect(caught.code).toBe('DISPOSED');
    expect(caught.message).toMatch(new RegExp(`^${className}\\.${method}: this filter was disposed`));
  }
}

/** Adds one item, disposes the filter twice (the second call does nothing) and checks that it says so; returns it for the calls that must now throw. */
export function usedThenDisposedTwice<Filter extends { add(item: string): unknown; dispose(): void; readonly disposed: boolean }>(filter: Filter): Filter {
  filter.add('x');
  filter.dispose();
  filter.dispose();
  expect(filter.disposed).toBe(true);
  return filter;
}
