// Implemented per module format by ts/platform/{esm,cjs}/platform-web.*, which
// the build copies next to the compiled files: how browsers, workers and
// every runtime that is not Node find and read the packaged .wasm files.

/** The lean module's default location: a URL relative to this file (ES build), for bundlers to see. */
export declare function leanWasmUrl(): string;
/** The default location of a packaged .wasm file; throws where there is none (CommonJS in a browser). */
export declare function packagedWasmUrl(file: string): string;
/** The bytes at a URL, fetched. */
export declare function loadBinary(location: string): Promise<ArrayBuffer | Uint8Array>;
/** `count` words from the platform's cryptographic random source. */
export declare function randomWords(count: number): Uint32Array;
