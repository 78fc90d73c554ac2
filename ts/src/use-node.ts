// Installs Node's platform (files read with fs) for the entries of the `node`
// condition of package.json's exports (index.node.ts, inspect.node.ts,
// bloom.node.ts): Node, Bun and Deno. Everything else gets the web platform,
// so that no bundler for the browser meets an import of node:fs.

import { usePlatform } from './loader.js';
import * as nodePlatform from './platform-node.js';

usePlatform(nodePlatform);
