// Loads one WebAssembly module, lazily, once, and keeps it for the process or
// page: the lean module (cuckoo.wasm) when only the main entry is imported,
// the full one (cuckoo-full.wasm) as soon as cuckoo-wasm/inspect or
// cuckoo-wasm/bloom is, since their calls live only there. A filter made
// through one entry works with every other: if the full module is needed
// after the lean one was loaded (an entry imported later), the next init()
// loads it and moves every live filter into it, contents and all.

import { CuckooFilterError } from './errors.js';
import { moveLiveObjects } from './handles.js';
import { instantiateLean, LEAN_WASM_FILE } from './lean-module.js';
import type { ModuleKind, Runtime } from './runtime.js';
import { leanWasmUrl, loadBinary, packagedWasmUrl as webPackagedWasmUrl, randomWords } from './platform-web.js';

/** Options of {@link init}. All are optional: by default the packaged module is found by itself. */
export interface InitOptions {
  /**
   * The bytes of the module, if you load them yourself (from a CDN, a
   * bundle, a cache): `cuckoo.wasm`, or `cuckoo-full.wasm` when the program
   * imports `cuckoo-wasm/inspect` or `cuckoo-wasm/bloom`.
   */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * The same module already compiled, where wasm arrives as a
   * `WebAssembly.Module` (Cloudflare Workers: `import wasm from
   * 'cuckoo-wasm/wasm/cuckoo.wasm'`).
   */
  wasmModule?: WebAssembly.Module;
  /**
   * Where the module is: receives the file name (`'cuckoo.wasm'` or
   * `'cuckoo-full.wasm'`) and the default folder URL, returns a URL
   * (browsers) or a path or file: URL (Node).
   */
  locateFile?: (file: string, defaultFolder: string) => string;
}

/** How the full module is loaded; cuckoo-wasm/inspect and /bloom register it when imported (full-module.ts). */
export interface FullModuleLoader {
  readonly file: string;
  defaultUrl(): string;
  instantiate(module: WebAssembly.Module): Promise<Runtime>;
}

/**
 * How this platform finds and reads the packaged .wasm files: browsers,
 * workers and any runtime that is not Node fetch them (platform-web); the
 * entries of the `node` condition (index.node.ts, ...) install Node's, which
 * reads the file system (use-node.ts).
 */
export interface Platform {
  /** The lean module's default location (a literal URL in the ES build, for bundlers to see). */
  leanWasmUrl(): string;
  /** The default location of a packaged .wasm file; throws where there is none (CommonJS in a browser). */
  packagedWasmUrl(file: string): string;
  /** The bytes at a URL or path. */
  loadBinary(location: string): Promise<ArrayBuffer | Uint8Array>;
  /** `count` words from the platform's cryptographic random source. */
  randomWords(count: number): Uint32Array;
}

// An object of the web platform's functions rather than its module namespace,
// which esbuild and Vite would rebuild with helpers of their own: 69 and 82
// bytes (gzip) of the main entry's budget.
let platform: Platform = { leanWasmUrl, packagedWasmUrl: webPackagedWasmUrl, loadBinary, randomWords };

/** Installs the platform (use-node.ts, for the entries of the `node` condition). */
export function usePlatform(installed: Platform): void {
  platform = installed;
}

/** A seed nobody can guess, as its two 32-bit halves, from the platform's cryptographic random source. */
export function randomSeed(): [low: number, high: number] {
  const [low, high] = platform.randomWords(2);
  return [low!, high!];
}

/** The default location of a packaged .wasm file on this platform (full-glue, CommonJS). */
export function packagedWasmUrl(file: string): string {
  return platform.packagedWasmUrl(file);
}

let runtime: Runtime | undefined;
let loading: Promise<void> | undefined;
let loadingKind: ModuleKind | undefined;
let fullLoader: FullModuleLoader | undefined;

/** Registers the full module: the next init() loads it (full-module.ts, when cuckoo-wasm/inspect or /bloom is imported). */
export function needFullModule(loader: FullModuleLoader): void {
  fullLoader = loader;
}

function validateOptions(options: unknown): InitOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`init: options must be an object { wasmBinary?, locateFile? }, got ${String(options)}`);
  }
  const { wasmBinary, wasmModule, locateFile } = options as Record<string, unknown>;
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer) && !(wasmBinary instanceof Uint8Array)) {
    throw new TypeError('init: options.wasmBinary must be an ArrayBuffer or a Uint8Array');
  }
  if (wasmModule !== undefined && !(wasmModule instanceof WebAssembly.Module)) {
    throw new TypeError('init: options.wasmModule must be a WebAssembly.Module');
  }
  if (locateFile !== undefined && typeof locateFile !== 'function') {
    throw new TypeError('init: options.locateFile must be a function (file, defaultFolder) => string');
  }
  return options as InitOptions;
}

/** The compiled module of `file`, from the options or from where the package keeps it. */
async function compiledModule(file: string, defaultUrl: () => string, options: InitOptions): Promise<WebAssembly.Module> {
  if (options.wasmModule !== undefined) return options.wasmModule;
  if (options.wasmBinary !== undefined) return WebAssembly.compile(options.wasmBinary as BufferSource);
  let location: string;
  if (options.locateFile !== undefined) {
    let folder = '';
    try {
      const url = defaultUrl();
      folder = url.slice(0, url.lastIndexOf('/') + 1);
    } catch {
      // No default location on this platform (CommonJS in a browser): the callback decides.
    }
    location = options.locateFile(file, folder);
  } else {
    location = defaultUrl();
  }
  return WebAssembly.compile((await platform.loadBinary(location)) as BufferSource);
}

/** Which module `module` is, by what it imports: the lean one reports memory growth itself. */
function kindOf(module: WebAssembly.Module): ModuleKind | undefined {
  const names = WebAssembly.Module.imports(module).map((entry) => entry.name);
  if (names.includes('emscripten_notify_memory_growth')) return 'lean';
  if (names.includes('_embind_register_function')) return 'full';
  return undefined;
}

async function load(kind: ModuleKind, options: InitOptions): Promise<Runtime> {
  const full = kind === 'full' ? fullLoader! : undefined;
  const file = full?.file ?? LEAN_WASM_FILE;
  const module = await compiledModule(file, full?.defaultUrl ?? platform.leanWasmUrl, options);
  const found = kindOf(module);
  if (found !== kind) {
    const needs = kind === 'full' ? 'imports cuckoo-wasm/inspect or cuckoo-wasm/bloom, which need' : 'needs';
    throw new Error(`this program ${needs} ${file}; the module given is ${found === undefined ? 'not a cuckoo-wasm module' : found === 'full' ? 'cuckoo-full.wasm' : 'cuckoo.wasm'}`);
  }
  return full !== undefined ? full.instantiate(module) : instantiateLean(module);
}

/**
 * Loads the WebAssembly module. Call it once and await it before creating
 * filters; later calls return at once (their options are ignored), except
 * after `cuckoo-wasm/inspect` or `cuckoo-wasm/bloom` was first imported once
 * the main entry's module had loaded: then init() loads the full module, with
 * these options, and moves every live filter into it. If loading fails, the
 * promise rejects with a `CuckooFilterError` (code `LOAD_FAILED`) and the
 * next call tries again.
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
 * @example Cloudflare Workers, where wasm is imported as a module:
 * ```ts
 * import wasmModule from 'cuckoo-wasm/wasm/cuckoo.wasm';
 * await init({ wasmModule });
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
  const wanted: ModuleKind = fullLoader !== undefined ? 'full' : 'lean';
  if (runtime !== undefined && (runtime.kind === 'full' || wanted === 'lean')) return Promise.resolve();
  if (loading !== undefined && loadingKind === wanted) return loading;
  const previous = loading ?? Promise.resolve();
  loadingKind = wanted;
  loading = previous
    .catch(() => undefined)
    .then(() => (runtime?.kind === 'full' ? runtime : load(wanted, checked)))
    .then(
      (loaded) => {
        if (runtime !== undefined && runtime !== loaded) moveLiveObjects(loaded);
        runtime = loaded;
      },
      (error: unknown) => {
        loading = undefined;
        loadingKind = undefined;
        const reason = error instanceof Error ? error.message : String(error);
        throw new CuckooFilterError('LOAD_FAILED', `init: could not load the WebAssembly module: ${reason}`, {
          cause: error,
        });
      },
    );
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

/**
 * The runtime, which must be the full module's (cuckoo-wasm/inspect and
 * /bloom); throws a CuckooFilterError naming `caller` otherwise.
 */
export function requireFullRuntime(caller: string): Runtime {
  const loaded = requireRuntime(caller);
  if (loaded.kind !== 'full') {
    throw new CuckooFilterError(
      'NOT_INITIALIZED',
      `${caller}: this entry needs the full module, which is loaded by \`await init()\` once it is imported; ` +
        'it was imported after init() loaded the main entry\'s module: call `await init()` again (your filters move to it)',
    );
  }
  return loaded;
}
