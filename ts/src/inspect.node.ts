// The `node` condition's inspect entry: Node's platform, then the entry itself.
import './use-node.js';

export * from './inspect.js';
