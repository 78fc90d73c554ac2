// The `node` condition's main entry: Node's platform, then the entry itself.
import './use-node.js';

export * from './index.js';
