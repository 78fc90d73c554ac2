// Serves the built demo (build/demo/, or the folder given as the first
// argument) on 127.0.0.1 and prints its URL. The port is $PORT if set,
// else 8080, else the first free one after it. Ctrl-C (or SIGTERM) stops it.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('../build/demo/', import.meta.url)));
const host = '127.0.0.1';
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

try {
  statSync(join(root, 'index.html'));
} catch {
  console.error(`serve: no index.html in ${root}; build the demo first (bash scripts/build-demo)`);
  process.exit(1);
}

function fileFor(urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const candidate = resolve(root, `.${sep}${path}`);
  if (candidate !== root && !candidate.startsWith(root + sep)) return undefined;
  try {
    const stats = statSync(candidate);
    if (stats.isDirectory()) return fileFor(`${path.replace(/\/?$/, '/')}index.html`);
    return stats.isFile() ? candidate : undefined;
  } catch {
    return undefined;
  }
}

const server = createServer((request, response) => {
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  const file = request.method === 'GET' || request.method === 'HEAD' ? fileFor(pathname) : undefined;
  if (file === undefined) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('not found\n');
    return;
  }
  response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
  if (request.method === 'HEAD') response.end();
  else createReadStream(file).on('error', () => response.destroy()).pipe(response);
});

// `fallbacks` more ports are tried after `port` when it is taken, then any free one.
function listen(port, fallbacks) {
  server.once('error', (error) => {
    if (error.code === 'EADDRINUSE' && fallbacks !== undefined) {
      listen(fallbacks > 0 ? port + 1 : 0, fallbacks > 0 ? fallbacks - 1 : undefined);
      return;
    }
    console.error(`serve: cannot listen on ${host}:${port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    console.log(`cuckoo-wasm demo: http://${host}:${server.address().port}/`);
    console.log('Press Ctrl-C to stop.');
  });
}

const requested = process.env.PORT;
if (requested !== undefined && !/^\d+$/.test(requested)) {
  console.error(`serve: PORT must be a port number, got ${JSON.stringify(requested)}`);
  process.exit(1);
}
// An explicit PORT is used as is (0: any free port); by default 8080 or the next free one.
if (requested !== undefined) listen(Number(requested), undefined);
else listen(8080, 20);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
