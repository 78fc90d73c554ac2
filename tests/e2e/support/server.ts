// A tiny static file server for the browser tests: loopback only, port 0,
// correct MIME types (the wasm must be application/wasm for streaming
// compilation), no directory listings, and a log of every request.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.cf': 'application/octet-stream',
};

export interface ServedRequest {
  method: string;
  /** The request path, query string removed. */
  path: string;
  status: number;
  contentType: string | undefined;
}

export interface StaticServer {
  /** Where `rootDir` is served, ending in '/': `http://127.0.0.1:PORT/` + basePath. */
  url: string;
  /** Every request served so far, in order. */
  requests: ServedRequest[];
  close(): Promise<void>;
}

/** What a route answers: a status, a type and a body (none for 204). */
export interface RouteReply {
  status: number;
  contentType?: string;
  body?: string | Uint8Array;
}

export interface StaticServerOptions {
  /** Serve `rootDir` under this path instead of '/', e.g. '/some/sub/path/'; anything else is a 404. */
  basePath?: string;
  /** Paths answered by a function of the request's URL instead of a file (an application's own endpoints). */
  routes?: Record<string, (url: URL) => RouteReply>;
}

/** Serves `rootDir` on 127.0.0.1 at a free port. `/favicon.ico` is an empty icon unless the folder has one. */
export function startStaticServer(rootDir: string, options: StaticServerOptions = {}): Promise<StaticServer> {
  const root = resolve(rootDir);
  let basePath = options.basePath ?? '/';
  if (!basePath.startsWith('/')) basePath = `/${basePath}`;
  if (!basePath.endsWith('/')) basePath = `${basePath}/`;
  const requests: ServedRequest[] = [];

  const server: Server = createServer((request, response) => {
    const method = request.method ?? 'GET';
    let path = '/';
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      path = '\0';
    }
    const reply = (status: number, contentType: string | undefined, body?: string | Buffer) => {
      requests.push({ method, path, status, contentType });
      response.writeHead(status, { 'Cache-Control': 'no-store', ...(contentType ? { 'Content-Type': contentType } : {}) });
      response.end(method === 'HEAD' ? undefined : body);
    };
    if (method !== 'GET' && method !== 'HEAD') return reply(405, 'text/plain', 'method not allowed');
    const route = options.routes?.[path];
    if (route !== undefined) {
      const answer = route(new URL(request.url ?? '/', 'http://localhost'));
      return reply(answer.status, answer.contentType, answer.body === undefined ? undefined : Buffer.from(answer.body));
    }

    let file: string | undefined;
    if (path.startsWith(basePath) && !path.includes('\0')) {
      const relative = path.slice(basePath.length);
      const candidate = resolve(root, `.${sep}${relative}`);
      if (candidate === root || candidate.startsWith(root + sep)) {
        file = candidate;
        try {
          if (statSync(file).isDirectory()) file = join(file, 'index.html');
          if (!statSync(file).isFile()) file = undefined;
        } catch {
          file = undefined;
        }
      }
    }
    if (file === undefined) {
      if (path === '/favicon.ico') return reply(200, 'image/x-icon', Buffer.alloc(0));
      return reply(404, 'text/plain', 'not found');
    }
    const contentType = mimeTypes[extname(file).toLowerCase()] ?? 'application/octet-stream';
    requests.push({ method, path, status: 200, contentType });
    response.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
    if (method === 'HEAD') return response.end();
    createReadStream(file)
      .on('error', () => response.destroy())
      .pipe(response);
  });

  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolvePromise({
        url: `http://127.0.0.1:${port}${basePath}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
