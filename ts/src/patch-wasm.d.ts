// Implemented per module format by ts/platform/{esm,cjs}/patch-wasm.js, which
// the build copies next to the compiled files.

/** Where the packaged cuckoo-patch.wasm is: a URL (file: in Node) or a path. */
export declare function patchWasmUrl(): string;
