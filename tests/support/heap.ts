// The wasm heap as tests see it. Reads the module through the internal loader,
// which is the same instance the public API (dist/cjs) uses.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { requireRuntime } = require('../../dist/cjs/loader.js');

/** Bytes of WebAssembly memory: it grows and never shrinks, so growth means allocation. */
export function wasmHeapBytes(): number {
  return requireRuntime('test').core.memory.buffer.byteLength;
}

const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
let sentinelResolve = (): void => undefined;
// Module-level, so that the registry itself outlives its sentinels.
const sentinels = new FinalizationRegistry<void>(() => sentinelResolve());
function registerSentinel(): void {
  sentinels.register({}, undefined);
}

/**
 * The FinalizationRegistry safety net: 12 objects made by `makeAndForget`
 * (32 MiB each) and never disposed must be freed after garbage collection,
 * which leaves the heap well below the 384 MiB that leaking them would add.
 */
export async function expectForgottenObjectsFreed(makeAndForget: () => void): Promise<void> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run Jest with node --expose-gc (npm test does)');
  const settle = async (): Promise<void> => {
    // A WeakRef made in this job keeps its target alive until the job ends,
    // and the package makes one per object: collect in a later task.
    await nextTask();
    // Finalizers run in tasks after the collection that found their objects,
    // not before a timer of a loaded machine: wait for a sentinel's own, then
    // one more task for the registries queued with it.
    await new Promise<void>((resolve) => {
      sentinelResolve = resolve;
      registerSentinel();
      collect();
    });
    await nextTask();
  };
  await settle();
  const before = wasmHeapBytes();
  for (let i = 0; i < 12; i++) {
    makeAndForget();
    await settle();
  }
  expect(wasmHeapBytes() - before).toBeLessThan(160 * 2 ** 20);
}
