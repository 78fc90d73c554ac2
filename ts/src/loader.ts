// Loads the WebAssembly module once, lazily, and keeps it for the process or page.

import { CuckooFilterError } from './errors.js';
import { ItemWriter } from './items.js';
import { createCuckooModule, defaultWasmUrl, readLocalFile } from './platform.js';
import type { Address, EmscriptenModuleOptions, RawModule } from './raw.js';

/** Options of {@link init}. Both are optional: by default the packaged `cuckoo.wasm` is found by itself. */
export interface InitOptions {
  /** The bytes of `cuckoo.wasm`, if you load them yourself (e.g. from a CDN or a bundle). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where `cuckoo.wasm` is: receives the file name (`'cuckoo.wasm'`) and the
   * default folder URL, returns a URL (browsers) or a path or file: URL (Node).
   */
  locateFile?: (file: string, defaultFolder: string) => string;
}

/** What the rest of the library uses once the module is loaded. */
export interface Runtime {
  readonly module: RawModule;
  readonly writer: ItemWriter;
  /** 128 bytes for out-parameters: a new handle, or describeFilter's doubles. */
  readonly results: Address;
}

let runtime: Runtime | undefined;
let loading: Promise<void> | undefined;

function runningInNode(): boolean {
  const host = globalThis as { process?: { versions?: { node?: unknown } }; document?: unknown };
  return typeof host.process?.versions?.node === 'string' && host.document === undefined;
}

function validateOptions(options: unknown): InitOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`init: options must be an object { wasmBinary?, locateFile? }, got ${String(options)}`);
  }
  const { wasmBinary, locateFile } = options as Record<string, unknown>;
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer) && !(wasmBinary instanceof Uint8Array)) {
    throw new TypeError('init: options.wasmBinary must be an ArrayBuffer or a Uint8Array');
  }
  if (locateFile !== undefined && typeof locateFile !== 'function') {
    throw new TypeError('init: options.locateFile must be a function (file, defaultFolder) => string');
  }
  return options as InitOptions;
}

async function instantiate(options: InitOptions): Promise<Runtime> {
  const wasmUrl = defaultWasmUrl();
  const defaultFolder = wasmUrl.slice(0, wasmUrl.lastIndexOf('/') + 1);
  // The default is wasmUrl itself, not the folder plus the name: bundlers
  // rewrite that URL to the emitted asset, whose name carries a content hash.
  const locate = (file: string): string =>
    options.locateFile?.(file, defaultFolder) ?? (file === 'cuckoo.wasm' ? wasmUrl : new URL(file, defaultFolder).href);
  const moduleOptions: EmscriptenModuleOptions = {};
  if (options.wasmBinary !== undefined) {
    moduleOptions.wasmBinary = options.wasmBinary;
  } else if (runningInNode()) {
    // The glue would fetch() a file path, which Node's fetch cannot do.
    moduleOptions.wasmBinary = await readLocalFile(locate('cuckoo.wasm'));
  } else {
    moduleOptions.locateFile = locate;
  }
  // The glue reports load problems on the console; keep them for the error instead.
  const glueMessages: string[] = [];
  moduleOptions.printErr = (message: string) => glueMessages.push(message);
  let module: RawModule;
  try {
    module = await createCuckooModule(moduleOptions);
  } catch (error) {
    const details = glueMessages.length > 0 ? ` (${glueMessages.join('; ')})` : '';
    throw new Error(`${error instanceof Error ? error.message : String(error)}${details}`, { cause: error });
  }
  const results = module._malloc(128) >>> 0;
  if (results === 0) throw new RangeError('cannot allocate the result area');
  return { module, writer: new ItemWriter(module), results };
}

/**
 * Loads the WebAssembly module. Call it once and await it before creating
 * filters; later calls return the same promise (their options are ignored).
 * If loading fails, the promise rejects with a `CuckooFilterError` (code
 * `LOAD_FAILED`) and the next call tries again.
 *
 * @example
 * ```ts
 * import { init, CuckooFilter } from 'cuckoo-wasm';
 * await init();
 * const filter = CuckooFilter.create({ capacity: 10_000, fpr: 0.001 });
 * ```
 * @example Serving the .wasm from elsewhere (browsers):
 * ```ts
 * await init({ locateFile: (file) => `https://cdn.example.com/cuckoo-wasm/${file}` });
 * ```
 */
export function init(options?: InitOptions): Promise<void> {
  // Checked on every call, so that a wrong argument is reported even once loaded.
  let checked: InitOptions;
  try {
    checked = validateOptions(options);
  } catch (error) {
    return Promise.reject(error);
  }
  if (runtime !== undefined) return Promise.resolve();
  if (loading === undefined) {
    loading = instantiate(checked).then(
      (loaded) => {
        runtime = loaded;
      },
      (error: unknown) => {
        loading = undefined;
        const reason = error instanceof Error ? error.message : String(error);
        throw new CuckooFilterError('LOAD_FAILED', `init: could not load the WebAssembly module: ${reason}`, {
          cause: error,
        });
      },
    );
  }
  return loading;
}

/** True once {@link init} has resolved. */
export function isInitialized(): boolean {
  return runtime !== undefined;
}

/** The loaded runtime; throws a CuckooFilterError naming `caller` before init() resolved. */
export function requireRuntime(caller: string): Runtime {
  if (runtime === undefined) {
    throw new CuckooFilterError(
      'NOT_INITIALIZED',
      `${caller}: cuckoo-wasm is not initialized; call \`await init()\` once before using it`,
    );
  }
  return runtime;
}
