// What every class that owns a core object shares: the handle, its release
// (dispose, `using`, or the FinalizationRegistry as a safety net), and the
// move of a live object to another module when the program upgrades from the
// lean module to the full one (loader.ts).

import { CuckooFilterError, errorForStatus } from './errors.js';
import type { Handle } from './core-exports.js';
import { described, gettersBelow, inspectCustom, type Facts, type Inspect } from './describe.js';
import type { Runtime } from './runtime.js';

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
  if (status !== runtime.statusOk) throw errorForStatus(runtime, status, context, options);
}

/** Reads the handle the core wrote to the result block, or throws for a failed status. */
export function takeHandle(
  runtime: Runtime,
  status: number,
  context: string,
  options?: Readonly<Record<string, unknown>>,
): Handle {
  checkStatus(runtime, status, context, options);
  return runtime.takeResultHandle();
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

// The library's own protocol between its classes, under symbols rather than
// names, so that no internal member shows among a class's public ones.
/** The handle, or 0 once disposed (the per-call methods test it themselves). */
export const handleOrZero: unique symbol = Symbol('cuckoo-wasm handle');
/** The CuckooFilterError (code DISPOSED) for a method called once disposed. */
export const disposedError: unique symbol = Symbol('cuckoo-wasm disposed error');
/** Moves a live object to another module (moveLiveObjects). */
export const moveTo: unique symbol = Symbol('cuckoo-wasm move');
/** A class's rebuild of an object in another module: its new handle. */
export const rebuildIn: unique symbol = Symbol('cuckoo-wasm rebuild');
/** What a class refreshes after a move. */
export const movedTo: unique symbol = Symbol('cuckoo-wasm moved');

/** Frees a core object: a class's destroy call. It must not reference the owner. */
export type Release = (runtime: Runtime, handle: Handle) => void;

/** What the safety net frees; it must not reference the owner, or the owner could never be collected. */
interface Leaked {
  runtime: Runtime;
  handle: Handle;
  readonly release: Release;
  readonly ref: OwnerRef;
}

/** A WeakRef to an owner, or where there is none a plain reference (see below). */
interface OwnerRef {
  deref(): WasmOwned | undefined;
}

// Cloudflare Workers whose compatibility date is before 2025-05-05 have
// neither WeakRef nor FinalizationRegistry. There the safety net is absent
// (dispose() frees, as it should anyway) and the live set holds its objects
// until they are disposed.
const refTo: (owner: WasmOwned) => OwnerRef =
  typeof WeakRef === 'function' ? (owner) => new WeakRef(owner) : (owner) => ({ deref: () => owner });
const leakedObjects: Pick<FinalizationRegistry<Leaked>, 'register' | 'unregister'> =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<Leaked>((leaked) => {
        liveObjects.delete(leaked.ref);
        leaked.release(leaked.runtime, leaked.handle);
      })
    : { register: () => undefined, unregister: () => false };
/** Every object not yet disposed or collected, so that an upgrade can move them all. */
const liveObjects = new Set<OwnerRef>();

/** Moves every live object to `to` (loader.ts, when the full module replaces the lean one). */
export function moveLiveObjects(to: Runtime): void {
  for (const ref of liveObjects) ref.deref()?.[moveTo](to);
}

/**
 * Ownership of one core object in wasm memory, shared by the public classes.
 * The object lives until {@link WasmOwned.dispose} (or the end of a `using`
 * scope); a FinalizationRegistry frees it if its owner is garbage-collected
 * first, but that is a safety net with no timing guarantee, not the plan.
 */
export abstract class WasmOwned implements Disposable {
  #runtime: Runtime;
  #handle: Handle;
  readonly #className: string;
  readonly #leaked: Leaked;

  protected constructor(runtime: Runtime, handle: Handle, className: string, release: Release) {
    this.#runtime = runtime;
    this.#handle = handle;
    this.#className = className;
    const ref = refTo(this);
    this.#leaked = { runtime, handle, release, ref };
    liveObjects.add(ref);
    leakedObjects.register(this, this.#leaked, this);
  }

  /** @internal The same object rebuilt in `to` (its bytes, loaded there); the new handle. */
  protected abstract [rebuildIn](to: Runtime, from: Runtime, handle: Handle): Handle;

  /** The module this object lives in. */
  protected get runtime(): Runtime {
    return this.#runtime;
  }

  /** @internal */
  get [handleOrZero](): Handle {
    return this.#handle;
  }

  /**
   * The handle, or a CuckooFilterError (code DISPOSED) naming `method` once
   * disposed. For the library's own modules (cuckoo-wasm/inspect).
   * @internal
   */
  live(method: string): Handle {
    if (this.#handle === 0) throw this[disposedError](method);
    return this.#handle;
  }

  /** @internal */
  [disposedError](method: string): CuckooFilterError {
    return new CuckooFilterError(
      'DISPOSED',
      `${this.#className}.${method}: this filter was disposed and its memory released; create or load a new filter`,
    );
  }

  /** @internal Moves this object to `to`, keeping its contents: see moveLiveObjects. */
  [moveTo](to: Runtime): void {
    if (this.#handle === 0 || to === this.#runtime) return;
    const handle = this[rebuildIn](to, this.#runtime, this.#handle);
    leakedObjects.unregister(this);
    this.#leaked.release(this.#runtime, this.#handle);
    this.#runtime = to;
    this.#handle = handle;
    this.#leaked.runtime = to;
    this.#leaked.handle = handle;
    leakedObjects.register(this, this.#leaked, this);
    this[movedTo](to);
  }

  /** @internal What a class refreshes after a move (its calls of the new module). */
  protected [movedTo](_to: Runtime): void {}

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
    if (this.#handle === 0) return;
    leakedObjects.unregister(this);
    liveObjects.delete(this.#leaked.ref);
    this.#leaked.release(this.#runtime, this.#handle);
    this.#handle = 0;
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
    return this.#handle === 0;
  }

  /**
   * The filter's facts for `JSON.stringify` and logs: the value of each of
   * its getters (size, load, bits per item, rates, `params`; a seed as its
   * decimal string), not its contents; `{ disposed: true }` once disposed.
   * `JSON.stringify` writes an `Infinity` (bitsPerItem of an empty filter) as null.
   * @example
   * ```ts
   * using filter = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 5 });
   * filter.add('a');
   * JSON.stringify(filter); // '{"size":1,"slotCount":1076,"loadFactor":0.000929...,...,"params":{...,"seed":"5",...}}'
   * ```
   */
  toJSON(): Facts<this> | { readonly disposed: true } {
    return (this.#handle ? gettersBelow(this, WasmOwned.prototype) : { disposed: true }) as Facts<this>;
  }

  /**
   * The class and {@link WasmOwned.toJSON}'s facts on one line, for a
   * browser console (whose preview of an object runs no getters) or a template string.
   * @example
   * ```ts
   * console.log(`${filter}`); // CuckooFilter {"size":1,"slotCount":1076,...}
   * ```
   */
  toString(): string {
    return this[inspectCustom]();
  }

  /**
   * What `console.log(filter)` and `util.inspect(filter)` show in Node, Bun
   * and Deno: the class and {@link WasmOwned.toJSON}'s facts.
   * @example
   * ```ts
   * console.log(filter); // CuckooFilter { size: 1, slotCount: 1076, loadFactor: 0.000929..., ... }
   * ```
   */
  [inspectCustom](_depth?: number, options?: object, inspect?: Inspect): string {
    return described(this.#className, this.toJSON(), options, inspect);
  }
}
