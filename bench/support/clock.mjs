// The wall clock the JavaScript benchmarks read: nanosecond readings that
// other processes cannot set back, as steady_clock on the native side.

export const now = () => process.hrtime.bigint();

/** Seconds from `start`, a reading of now(), to this moment. */
export const secondsSince = (start) => Number(process.hrtime.bigint() - start) / 1e9;
