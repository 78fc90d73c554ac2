// Why hasMany(Uint32Array) was slower in Chromium than in Node (issue 11):
// probes that run unchanged in both (plain ES module, the package's exports
// passed in), each meant for a fresh process or page, since the first calls
// after loading are the point. bench/batch-lag.mjs drives them.
//
// lib = { CuckooFilter, requireRuntime }; requireRuntime is internal
// (dist/esm/loader.js), for the raw module and the item writer.

import { uint32Keys } from '../keys.mjs';

const ABSENT_BASE = 2 ** 31;

function countOnes(answers) {
  let ones = 0;
  for (let i = 0; i < answers.length; i++) ones += answers[i];
  return ones;
}

export function createBatchLag(lib) {
  const { CuckooFilter, requireRuntime } = lib;

  /**
   * A new user's first minute: create a filter for `count` items, addMany a
   * Uint32Array of them, then hasMany the same array `calls` times, each
   * timed (M items/s) with whether wasm memory grew during it. With
   * `preGrowBytes`, that much memory is allocated and freed first, so later
   * allocations find it already grown.
   */
  function newUser({ count, calls, preGrowBytes = 0 }) {
    const { module } = requireRuntime('bench');
    if (preGrowBytes > 0) {
      const block = module._malloc(preGrowBytes) >>> 0;
      if (block === 0) throw new Error('bench: cannot pre-grow memory');
      module._free(block);
    }
    const keys = uint32Keys(0, count);
    const memoryAtStart = module.HEAPU8.length;
    const filter = CuckooFilter.create({ capacity: count, fpr: 0.001 });
    try {
      let start = performance.now();
      const added = filter.addMany(keys);
      const addMops = added / (performance.now() - start) / 1e3;
      const hasMany = [];
      for (let c = 0; c < calls; c++) {
        const buffer = module.HEAPU8.buffer;
        start = performance.now();
        const answers = filter.hasMany(keys);
        const mops = count / (performance.now() - start) / 1e3;
        // Counted after the clock stops: a loop of this module's own, cold on
        // the first call, would otherwise be timed with the library's.
        if (countOnes(answers) !== added) throw new Error('bench: hasMany missed stored items');
        hasMany.push({ mops, grew: module.HEAPU8.buffer !== buffer });
      }
      return { count, added, addMops, hasMany, memoryAtStart, memoryAtEnd: module.HEAPU8.length };
    } finally {
      filter.dispose();
    }
  }

  /**
   * hasMany(Uint32Array) split into its parts, warm, for chunk sizes `chunks`
   * (items per call into the module): writing the items (writeNumericRun),
   * the core's lookup (containsFixed), and the answers copied out
   * (a slice per chunk, joined at the end, as batches.ts does) or written
   * straight into the result; ns per item for each, the whole hasMany beside.
   */
  function split({ count, chunks, rounds }) {
    const { module, writer } = requireRuntime('bench');
    const keys = uint32Keys(0, count);
    const absent = uint32Keys(ABSENT_BASE, count);
    const filter = CuckooFilter.create({ capacity: count, fpr: 0.001 });
    const handle = filter.live('bench');
    try {
      filter.addMany(keys);
      const ns = (start) => ((performance.now() - start) * 1e6) / count;
      const result = {};
      for (let round = 0; round < rounds; round++) {
        for (const chunk of chunks) {
          const row = (result[chunk] ??= { encode: [], core: [], slice: [], direct: [] });
          let start = performance.now();
          for (let s = 0; s < count; s += chunk) writer.writeNumericRun(absent, s, Math.min(chunk, count - s));
          row.encode.push(ns(start));
          // Every item written once, untimed, so each chunk is looked up where it lies.
          writer.writeNumericRun(absent, 0, count);
          const data = writer.data.address;
          const out = writer.answers.reserve(chunk);
          start = performance.now();
          for (let s = 0; s < count; s += chunk) module.cuckooContainsFixed(handle, data + 8 * s, 8, Math.min(chunk, count - s), out);
          row.core.push(ns(start));
          start = performance.now();
          const parts = [];
          for (let s = 0; s < count; s += chunk) parts.push(module.HEAPU8.slice(out, out + Math.min(chunk, count - s)));
          const joined = new Uint8Array(count);
          let offset = 0;
          for (const part of parts) {
            joined.set(part, offset);
            offset += part.length;
          }
          row.slice.push(ns(start));
          start = performance.now();
          const answers = new Uint8Array(count);
          for (let s = 0; s < count; s += chunk) {
            const n = Math.min(chunk, count - s);
            answers.set(module.HEAPU8.subarray(out, out + n), s);
          }
          row.direct.push(ns(start));
          writer.trim();
        }
        const start = performance.now();
        countOnes(filter.hasMany(absent));
        (result.hasMany ??= []).push(ns(start));
      }
      return result;
    } finally {
      filter.dispose();
    }
  }

  return { newUser, split };
}
