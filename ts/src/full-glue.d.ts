// Implemented per module format by ts/platform/{esm,cjs}/full-glue.js, which
// the build copies next to the compiled files.

/** The Emscripten factory of the full module's glue (cuckoo-full.mjs / .cjs). */
export declare const createCuckooFullModule: unknown;
/** Where the packaged cuckoo-full.wasm is: a URL (file: in Node) or a path. */
export declare function fullWasmUrl(): string;
