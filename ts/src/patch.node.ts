// The `node` condition's patch entry: Node's platform, then the entry itself.
import './use-node.js';

export * from './patch.js';
