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
