// What every class that owns a core object shares.

import { CuckooFilterError, errorForStatus } from './errors.js';
import type { Runtime } from './loader.js';
import type { Address, Handle, RawModule } from './raw.js';

/** Symbol.dispose, or the same well-known stand-in where the runtime lacks it. */
export const disposeSymbol: typeof Symbol.dispose =
  (Symbol as { dispose?: typeof Symbol.dispose }).dispose ?? (Symbol.for('Symbol.dispose') as typeof Symbol.dispose);

/** Throws the error for a failed core status (see errorForStatus); returns on success. */
export function checkStatus(
  runtime: Runtime,
  status: number,
  context: string,
  options?: Readonly<Record<string, unknown>>,
): void {
  if (status !== runtime.module.statusOk) throw errorForStatus(runtime.module, status, context, options);
}

/** Reads the handle the core wrote to the result area, or throws for a failed status. */
export function takeHandle(
  runtime: Runtime,
  status: number,
  context: string,
  options?: Readonly<Record<string, unknown>>,
): Handle {
  checkStatus(runtime, status, context, options);
  return runtime.module.HEAPU32[runtime.results >>> 2]!;
}

// The one way to construct a public class around a handle its factory
// already owns (create, fromBytes, clone): the constructor receives this
// token instead of options. The symbol is private to the library, so no user
// value can pass for a token.
const adoptKey = Symbol('cuckoo-wasm adopted handle');

/** What a factory passes to a constructor to wrap `handle`. */
export interface Adopted {
  readonly [adoptKey]: Handle;
}

export function adopted(handle: Handle): Adopted {
  return { [adoptKey]: handle };
}

/** The handle inside a constructor argument that is a token from {@link adopted}. */
export function adoptedHandle(argument: unknown): Handle | undefined {
  return typeof argument === 'object' && argument !== null && adoptKey in argument
    ? (argument as Adopted)[adoptKey]
    : undefined;
}

type Release = (module: RawModule, handle: Handle) => void;

/** A core call on one item already written to wasm memory. */
export type ItemCall<T> = (module: RawModule, handle: Handle, item: Address, length: number) => T;

// Frees core objects whose owner was garbage-collected without dispose(). The
// held value must not reference the owner, or the owner could never be collected.
const leakedObjects = new FinalizationRegistry<() => void>((release) => release());

/**
 * Ownership of one core object in wasm memory, shared by the public classes.
 * The object lives until {@link WasmOwned.dispose} (or the end of a `using`
 * scope); a FinalizationRegistry frees it if its owner is garbage-collected
 * first, but that is a safety net with no timing guarantee, not the plan.
 */
export abstract class WasmOwned implements Disposable {
  readonly #runtime: Runtime;
  readonly #className: string;
  readonly #release: Release;
  #handle: Handle | undefined;

  protected constructor(runtime: Runtime, handle: Handle, className: string, release: Release) {
    this.#runtime = runtime;
    this.#className = className;
    this.#release = release;
    this.#handle = handle;
    leakedObjects.register(this, () => release(runtime.module, handle), this);
  }

  /** The loaded module this object lives in. */
  protected get runtime(): Runtime {
    return this.#runtime;
  }

  /**
   * The handle, or a CuckooFilterError (code DISPOSED) naming `method` once
   * disposed. For the library's own modules (cuckoo-wasm/inspect).
   * @internal
   */
  live(method: string): Handle {
    if (this.#handle === undefined) {
      throw new CuckooFilterError(
        'DISPOSED',
        `${this.#className}.${method}: this filter was disposed and its memory released; create or load a new filter`,
      );
    }
    return this.#handle;
  }

  /**
   * The per-call path: writes `item` into wasm memory and runs `call` on it.
   * `label` names the item in errors (a constant, so nothing is built per call).
   */
  protected withItem<T>(method: string, label: string, item: unknown, call: ItemCall<T>): T {
    const handle = this.live(method);
    const { module, writer } = this.#runtime;
    const length = writer.writeSingle(item, label);
    const result = call(module, handle, writer.data.address, length);
    writer.trimIfLarge();
    return result;
  }

  /**
   * Releases the filter's WebAssembly memory. Idempotent; any other call
   * afterwards throws a CuckooFilterError with code `DISPOSED`.
   * @example
   * ```ts
   * const filter = CuckooFilter.create({ capacity: 100, fpr: 0.01 });
   * try { filter.add('x'); } finally { filter.dispose(); }
   * ```
   */
  dispose(): void {
    if (this.#handle === undefined) return;
    leakedObjects.unregister(this);
    this.#release(this.#runtime.module, this.#handle);
    this.#handle = undefined;
  }

  /**
   * Same as {@link WasmOwned.dispose}, for `using filter = ...`.
   * @example
   * ```ts
   * { using filter = CuckooFilter.create({ capacity: 100, fpr: 0.01 }); } // disposed here
   * ```
   */
  [disposeSymbol](): void {
    this.dispose();
  }

  /**
   * True once {@link WasmOwned.dispose} was called.
   * @example
   * ```ts
   * filter.dispose(); filter.disposed; // true
   * ```
   */
  get disposed(): boolean {
    return this.#handle === undefined;
  }
}
