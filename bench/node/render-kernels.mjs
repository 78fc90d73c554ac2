// The sections of `npm run bench` after the main table: the kernel rows of
// wasm (Node, and Chromium when the browser column ran) beside the native
// core's, their ratios, where the time of a call and of a batch goes, and
// Chromium against Node.

import { mops } from '../support/format.mjs';
import { kernelRatios, ratesById } from './kernels.mjs';
import { nativeRates, nativeRow } from './native.mjs';
import { KERNEL_VARIANTS } from '../shared/wasm-bench.mjs';
import { FINGERPRINT_BITS, SEMI_SORTED_BITS } from '../support/measurement.mjs';

const OPS = ['add', 'has', 'miss', 'del'];
const OP_NAMES = { add: 'insert', has: 'lookup +', miss: 'lookup −', del: 'delete' };
const RUNTIME_NAMES = { node: 'wasm, Node', chromium: 'wasm, Chromium' };
/** How far a wasm ratio may be from the native one (issue 11: "within 20 %"). */
export const RATIO_TOLERANCE = 0.2;

const f2 = (value) => (value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(2));
const ns = (value) => value.toFixed(1);

function variantLabel(row) {
  const table = row.semiSort ? `semi-sorted f=${SEMI_SORTED_BITS}` : `plain f=${FINGERPRINT_BITS}`;
  return `${table}, ${row.generic ? 'generic' : 'specialised'}, ${row.api === 'call' ? 'per call' : 'batch'}`;
}

/** Native rows in the kernel rows' variant order (no generic batch: cuckoo_bench has none). */
function nativeKernelRows(native, log2) {
  return KERNEL_VARIANTS.flatMap((v) => {
    const row = nativeRow(native, log2, v);
    return row ? [{ ...v, kernel: row.kernel, items: row.items, loadFactor: row.loadFactor, rates: nativeRates(row) }] : [];
  });
}

function kernelTable(results) {
  const { native, kernels, options } = results;
  const lines = [
    '### Kernels: specialised and generic, per call and batched (wasm beside native)',
    '',
    `Each filter filled to its first refused add, then lookups of every stored key, as many absent keys (capped at 2^22), ` +
      `deletes of every stored key; keys are u32 numbers (8-byte items: \`add(n)\` per call, \`addMany(Uint32Array)\` batched), ` +
      `native u64. Generic rows: a twin filter switched with \`useGenericKernel\` (cuckoo-wasm/inspect). ` +
      `Rounds alternate Node and Chromium, every variant once per round; medians of ${options.kernelRounds[16]} rounds at 2^16` +
      (options.sizes.includes(22) ? `, ${options.kernelRounds[22]} at 2^22` : '') +
      '. M ops/s.',
    '',
    '| runtime | variant | kernel | buckets | items (load) | insert | lookup + | lookup − | delete |',
    '|---|---|---|---|---|--:|--:|--:|--:|',
  ];
  for (const log2 of options.sizes) {
    const sources = [['native C++', nativeKernelRows(native, log2)]];
    for (const [name, runtime] of Object.entries(kernels)) sources.push([RUNTIME_NAMES[name], runtime.kernels[log2] ?? []]);
    for (const [runtime, rows] of sources) {
      for (const row of rows) {
        lines.push(
          `| ${runtime} | ${variantLabel(row)} | ${row.kernel} | 2^${log2} | ${row.items} (${row.loadFactor.toFixed(4)}) | ` +
            `${OPS.map((op) => mops(row.rates[op])).join(' | ')} |`,
        );
      }
    }
  }
  const broken = Object.entries(kernels).flatMap(([name, runtime]) =>
    Object.values(runtime.kernels)
      .flat()
      .filter((row) => row.falseNegatives || row.deleteFailures)
      .map((row) => `${name} ${row.id}: ${row.falseNegatives} false negatives, ${row.deleteFailures} failed deletes`),
  );
  if (broken.length) lines.push('', `**BUG**: ${broken.join('; ')}`);
  return lines.join('\n');
}

/**
 * The ratios of cuckoo_bench beside the same ratios of wasm in Node (and
 * Chromium), and whether Node's are within RATIO_TOLERANCE of native's.
 * Returns the section's text.
 */
export function compareRatios(results) {
  const { native, kernels, options } = results;
  const lines = [
    '### Ratios, same run: wasm beside native',
    '',
    `"Node ÷ native" is the wasm ratio over the native one; "within 20 %" holds when it is from ${1 - RATIO_TOLERANCE} to ${1 + RATIO_TOLERANCE}. ` +
      'Generic batch / generic per call has no native counterpart.',
    '',
    '| buckets | ratio | operation | native | wasm, Node | Node ÷ native | within 20 % | wasm, Chromium |',
    '|---|---|---|--:|--:|--:|---|--:|',
  ];
  const kinds = [
    ['specialisedOverGeneric', 'specialised / generic, per call', OPS],
    ['batchOverGenericCall', 'batch / generic per call', OPS],
    ['semiOverPlainCall', `semi-sorted f=${SEMI_SORTED_BITS} / plain f=${FINGERPRINT_BITS}, per call`, ['has', 'miss']],
    ['semiOverPlainBatch', `semi-sorted f=${SEMI_SORTED_BITS} / plain f=${FINGERPRINT_BITS}, batch`, ['has', 'miss']],
    ['genericBatchOverGenericCall', 'generic batch / generic per call', OPS],
  ];
  for (const log2 of options.sizes) {
    const nativeRatios = kernelRatios(ratesById(nativeKernelRows(native, log2)));
    const nodeRatios = kernelRatios(ratesById(kernels.node?.kernels[log2]));
    const chromiumRatios = kernels.chromium ? kernelRatios(ratesById(kernels.chromium.kernels[log2])) : undefined;
    for (const [kind, label, ops] of kinds) {
      for (const op of ops) {
        const n = nativeRatios[kind]?.[op];
        const w = nodeRatios[kind]?.[op];
        const share = n === undefined || w === undefined ? undefined : w / n;
        const within = share === undefined ? undefined : Math.abs(share - 1) <= RATIO_TOLERANCE;
        lines.push(
          `| 2^${log2} | ${label} | ${OP_NAMES[op]} | ${f2(n)} | ${f2(w)} | ${f2(share)} | ` +
            `${within === undefined ? '—' : within ? 'yes' : '**no**'} | ${f2(chromiumRatios?.[kind]?.[op])} |`,
        );
      }
    }
  }
  return lines.join('\n');
}

/** Chromium / Node for the batch and per-call rows of the same run. */
export function compareBrowser(results) {
  const { kernels, options } = results;
  if (!kernels.chromium) return '';
  const lines = [
    `### Chromium beside Node, same run (${results.browser.version}, the packed package served on 127.0.0.1)`,
    '',
    '| buckets | variant | Chromium ÷ Node: insert | lookup + | lookup − | delete |',
    '|---|---|--:|--:|--:|--:|',
  ];
  for (const log2 of options.sizes) {
    const node = ratesById(kernels.node.kernels[log2]);
    const chromium = kernels.chromium.kernels[log2] ?? [];
    for (const row of chromium) {
      const shares = OPS.map((op) => row.rates[op] / node[row.id][op]);
      lines.push(`| 2^${log2} | ${variantLabel(row)} | ${shares.map(f2).join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

export function renderKernels(results) {
  const sections = [kernelTable(results), compareRatios(results)];
  if (results.kernels.chromium) sections.push(compareBrowser(results));
  else if (results.browser?.skipped) sections.push(`Browser column skipped: ${results.browser.skipped}.`);
  return sections.join('\n\n');
}
