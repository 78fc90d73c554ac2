// A static file server for the browser column of `npm run bench`: loopback
// only, a random free port, a few folders mounted under URL prefixes.
//
// Every response is sent with COOP/COEP headers so the page is cross-origin
// isolated: only then does Chromium give performance.now() its fine (5 µs)
// resolution instead of 100 µs, and the timed sections of the shared bench
// code must read the same clock quality in both runtimes.

import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  // application/wasm lets the glue compile while downloading, as a user's server would.
  '.wasm': 'application/wasm',
};

/** The file `urlPath` names under one of `mounts` ({ '/prefix/': '/abs/dir' }), or undefined. */
function resolveFile(mounts, urlPath) {
  for (const [prefix, dir] of Object.entries(mounts)) {
    if (!urlPath.startsWith(prefix)) continue;
    const root = path.resolve(dir);
    const file = path.resolve(root, `.${path.sep}${urlPath.slice(prefix.length)}`);
    if (!file.startsWith(root + path.sep)) return undefined;
    try {
      return statSync(file).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Serves `mounts` on 127.0.0.1; resolves to { url, close() }. */
export function serve(mounts) {
  const server = createServer((request, response) => {
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      urlPath = '';
    }
    const file = request.method === 'GET' && !urlPath.includes('\0') ? resolveFile(mounts, urlPath) : undefined;
    const headers = {
      'Cache-Control': 'no-store',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    };
    if (file === undefined) {
      response.writeHead(404, { ...headers, 'Content-Type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, { ...headers, 'Content-Type': MIME_TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file)
      .on('error', () => response.destroy())
      .pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
