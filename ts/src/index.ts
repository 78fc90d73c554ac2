/**
 * cuckoo-wasm: cuckoo filters (Fan, Andersen, Kaminsky and Mitzenmacher,
 * CoNEXT 2014) compiled to WebAssembly.
 *
 * @example
 * ```ts
 * import { init, CuckooFilter } from 'cuckoo-wasm';
 * await init();
 * const filter = CuckooFilter.create({ capacity: 100_000, fpr: 0.001 });
 * filter.add('https://example.com/');
 * filter.has('https://example.com/'); // true
 * filter.dispose();
 * ```
 * @packageDocumentation
 */
export { init, isInitialized, type InitOptions } from './loader.js';
export {
  CuckooFilter,
  type CuckooFilterOptions,
  type CreateOptions,
  type CuckooFilterParams,
  type ItemBatch,
} from './filter.js';
export {
  ScalableCuckooFilter,
  type ScalableCreateOptions,
  type ScalableCuckooFilterParams,
} from './scalable.js';
export { type Item, type NumericItemArray } from './items.js';
export { CuckooFilterError, FormatError, type CuckooFilterErrorCode, type FormatErrorCode } from './errors.js';
