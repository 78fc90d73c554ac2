// The package's own subpath import '#platform': the root package.json's
// "imports" maps it by condition, `node` (Node, Bun, Deno) to
// ts/platform/{esm,cjs}/platform-node.* and anything else (browsers, workers,
// Cloudflare Workers) to platform-web.*, as built into dist/.
declare module '#platform' {
  /** Where the packaged lean module cuckoo.wasm is: a URL (file: in Node) or a path; throws where there is no default. */
  export function leanWasmUrl(): string;
  /** The bytes at a URL or path: fetch in browsers and workers, the file system in Node (and fetch for http(s) URLs). */
  export function loadBinary(location: string): Promise<ArrayBuffer | Uint8Array>;
}
