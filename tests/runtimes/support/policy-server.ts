// Serves a folder on 127.0.0.1 with a Content-Security-Policy header on every
// response (tests/e2e/support/server.ts sends no such header), and records
// what was requested.
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
};

export interface PolicyServer {
  /** The folder's URL, ending in '/'. */
  url: string;
  /** Each request's path and status, in order. */
  requests: { path: string; status: number }[];
  close(): Promise<void>;
}

/** Serves the .html, .js and .wasm files of `dir` with `Content-Security-Policy: policy`. */
export function servePolicy(dir: string, policy: string): Promise<PolicyServer> {
  const root = resolve(dir);
  const requests: PolicyServer['requests'] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const file = resolve(join(root, path === '/' ? 'index.html' : decodeURIComponent(path)));
    const type = contentTypes[extname(file)];
    let found = false;
    try {
      found = file.startsWith(root + sep) && type !== undefined && statSync(file).isFile();
    } catch {
      // missing
    }
    requests.push({ path, status: found ? 200 : 404 });
    response.writeHead(found ? 200 : 404, {
      'Content-Security-Policy': policy,
      'Content-Type': found ? type! : 'text/plain',
      'Cache-Control': 'no-store',
    });
    response.end(found ? readFileSync(file) : 'not found');
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      done({
        url: `http://127.0.0.1:${port}/`,
        requests,
        close: () =>
          new Promise<void>((closed) => {
            server.closeAllConnections();
            server.close(() => closed());
          }),
      });
    });
  });
}
