// The `node` condition's bloom entry: Node's platform, then the entry itself.
import './use-node.js';

export * from './bloom.js';
