// Implemented per module format by ts/platform/{esm,cjs}/platform-node.*, which
// the build copies next to the compiled files: Node (and Bun, Deno) read the
// packaged .wasm files from the file system.

export declare function leanWasmUrl(): string;
export declare function packagedWasmUrl(file: string): string;
export declare function loadBinary(location: string): Promise<ArrayBuffer | Uint8Array>;
/** `count` words from the platform's cryptographic random source. */
export declare function randomWords(count: number): Uint32Array;
