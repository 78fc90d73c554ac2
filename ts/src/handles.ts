// What every class that owns a core object shares.

import { errorForStatus, STATUS_OK } from './errors.js';
import type { Runtime } from './loader.js';
import type { Handle } from './raw.js';

/** Symbol.dispose, or the same well-known stand-in where the runtime lacks it. */
export const disposeSymbol: typeof Symbol.dispose =
  (Symbol as { dispose?: typeof Symbol.dispose }).dispose ?? (Symbol.for('Symbol.dispose') as typeof Symbol.dispose);

/** Reads the handle the core wrote to the result area, or throws for a failed status. */
export function takeHandle(runtime: Runtime, status: number, context: string): Handle {
  if (status !== STATUS_OK) throw errorForStatus(status, context, (s) => runtime.module.statusText(s));
  return runtime.module.HEAPU32[runtime.results >>> 2]!;
}
