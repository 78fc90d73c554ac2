// `npm run bench -- --space`: bits per item at the capacity a user asks for,
// as `CuckooFilter.create({ capacity, fpr })` and `BloomFilter.create` size
// them, over 69 capacities from 100,000 to about 10,000,000 in steps of ×1.07,
// for rates 10^-2 … 10^-6: plain and semi-sorted cuckoo filters beside a
// standard Bloom filter at the same rate. Bits per item is the table's bytes
// (WebAssembly memory, padding included) × 8 / capacity. Nothing is timed.

import { CuckooFilter } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';

export const SPACE_RATES = [1e-2, 3e-3, 1e-3, 1e-4, 1e-5, 1e-6];
const FIRST_CAPACITY = 100_000;
const STEP = 1.07;
const STEPS = 69;

function capacities() {
  return Array.from({ length: STEPS }, (_, k) => Math.round(FIRST_CAPACITY * STEP ** k));
}

function geometricMean(values) {
  return Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
}

/** Bits per item of `make(capacity)` at each capacity, and the shape `describe` reads off the first filter. */
function sweep(make, describe = ({ params }) => ({ fingerprintBits: params.fingerprintBits, bucketSize: params.bucketSize })) {
  let shape;
  const bits = capacities().map((capacity) => {
    const filter = make(capacity);
    try {
      shape ??= describe(filter);
      return (filter.byteLength * 8) / capacity;
    } finally {
      filter.dispose();
    }
  });
  return { shape, geometricMean: geometricMean(bits), worst: Math.max(...bits), best: Math.min(...bits) };
}

/**
 * One row per rate. `idealBits` is fingerprint bits stored per entry over the
 * sizing load of large tables (practicalMaxLoad), what bits per item tends to.
 */
export function measureSpace(practicalMaxLoad) {
  return SPACE_RATES.map((fpr) => {
    const plain = sweep((capacity) => CuckooFilter.create({ capacity, fpr }));
    const semi = sweep((capacity) => CuckooFilter.create({ capacity, fpr, semiSort: true }));
    const bloom = sweep((capacity) => BloomFilter.create({ capacity, fpr }), (filter) => ({ hashCount: filter.hashCount }));
    const ideal = (row, storedBits) => storedBits / practicalMaxLoad(row.shape.bucketSize);
    return {
      fpr,
      plain: { ...plain, idealBits: ideal(plain, plain.shape.fingerprintBits) },
      semiSorted: { ...semi, idealBits: ideal(semi, semi.shape.fingerprintBits - 1) },
      bloom,
    };
  });
}

const fixed = (value, digits = 2) => value.toFixed(digits);

export function renderSpace(rows) {
  const lines = [
    `Bits per item at the requested capacity, \`create({ capacity, fpr })\` at ${STEPS} capacities from ` +
      `${FIRST_CAPACITY.toLocaleString('en-US')} to ${capacities().at(-1).toLocaleString('en-US')} (×${STEP} steps); ` +
      'geometric mean and worst; "ideal" is stored bits per entry / practicalMaxLoad(b).',
    '',
    '| fpr | plain f, b | plain ideal | plain mean | plain worst | semi-sorted f (stored) | semi-sorted ideal | semi-sorted mean | semi-sorted worst | Bloom k | Bloom mean | fewest bits |',
    '|---|---|--:|--:|--:|---|--:|--:|--:|--:|--:|---|',
  ];
  for (const { fpr, plain, semiSorted, bloom } of rows) {
    const best = Math.min(plain.geometricMean, semiSorted.geometricMean, bloom.geometricMean);
    const winner =
      best === semiSorted.geometricMean ? 'semi-sorted' : best === plain.geometricMean ? 'plain' : 'Bloom';
    lines.push(
      `| ${fpr} | ${plain.shape.fingerprintBits}, ${plain.shape.bucketSize} | ${fixed(plain.idealBits)} | ${fixed(plain.geometricMean)} | ` +
        `${fixed(plain.worst)} | ${semiSorted.shape.fingerprintBits} (${semiSorted.shape.fingerprintBits - 1}) | ${fixed(semiSorted.idealBits)} | ` +
        `${fixed(semiSorted.geometricMean)} | ${fixed(semiSorted.worst)} | ${bloom.shape.hashCount} | ${fixed(bloom.geometricMean)} | ${winner} |`,
    );
  }
  return lines.join('\n');
}
