// Implemented per module format by ts/platform/esm.js and ts/platform/cjs.js,
// which the build copies next to the compiled files as platform.js.
import type { EmscriptenModuleOptions, RawModule } from './raw.js';

/** The Emscripten factory of the wasm glue. */
export declare function createCuckooModule(options: EmscriptenModuleOptions): Promise<RawModule>;
/** Where the packaged cuckoo.wasm lives, as a URL string (file: in Node). */
export declare function defaultWasmUrl(): string;
/** Reads a file: URL or a path (Node only). */
export declare function readLocalFile(location: string): Promise<Uint8Array>;
