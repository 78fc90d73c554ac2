// What the replica benchmark's processes share: the items of a writer's
// batch, and a clock that reads the same in every process of the machine.

/** The 1,000 items of batch `batch` of writer `writer`. */
export const batchItems = (writer, batch) => Array.from({ length: 1000 }, (_, i) => `w${writer}-${batch}-${i}`);

/** Items that tell a batch from a false positive: present together only once it was added (about 10^-9 otherwise). */
export const batchMarks = (writer, batch) => [`w${writer}-${batch}-0`, `w${writer}-${batch}-500`, `w${writer}-${batch}-999`];

/** Milliseconds since the epoch, to the microsecond: performance's clock, comparable across processes. */
export const wallClock = () => performance.timeOrigin + performance.now();
