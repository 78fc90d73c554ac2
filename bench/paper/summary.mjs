// From the raw results of bench/paper/run.mjs to what the report states:
// per-filter and per-size summaries (means over runs, minimum loads, windows
// averaged) and the pass / fail checks.

import { protocol } from './protocol.mjs';
import { FILTERS } from './published.mjs';
import { fixed, percent, pow2 } from '../support/format.mjs';
import { mean } from '../support/measurement.mjs';

// ---------------------------------------------------------------- summaries

/** Figure 5's fractions of positive queries, as both experiment programs measure them. */
export const MIX_FRACTIONS = protocol.mixFractions;

/** The table sizes Figure 2 ran at, as log2 of the bucket count, smallest first. */
export const figure2Sizes = (summary) => [...new Set(summary.load.map((g) => g.log2Buckets))].sort((a, b) => a - b);

function summariseLoad(rows) {
  const groups = new Map();
  for (const r of rows) {
    const key = `${r.log2Buckets}/${r.bucketSize}/${r.fingerprintBits}`;
    if (!groups.has(key)) groups.set(key, { log2Buckets: r.log2Buckets, bucketSize: r.bucketSize, fingerprintBits: r.fingerprintBits, loads: [] });
    groups.get(key).loads.push(r.load);
  }
  return [...groups.values()].map((g) => ({ ...g, runs: g.loads.length, min: Math.min(...g.loads), mean: mean(g.loads), max: Math.max(...g.loads) }));
}

function summariseSpace(space) {
  const groups = new Map();
  for (const r of space.rows) {
    const parameter = r.fingerprintBits ?? r.bitsPerItemTarget;
    const key = `${r.series}/${parameter}`;
    if (!groups.has(key)) groups.set(key, { series: r.series, parameter, hashCount: r.hashCount, rows: [] });
    groups.get(key).rows.push(r);
  }
  const bySeries = {};
  for (const g of groups.values()) {
    const falsePositives = g.rows.reduce((a, r) => a + r.falsePositives, 0);
    (bySeries[g.series] ??= []).push({
      parameter: g.parameter,
      hashCount: g.hashCount,
      runs: g.rows.length,
      bitsPerItem: mean(g.rows.map((r) => r.tableBits / r.items)),
      load: g.rows[0].bucketSize ? mean(g.rows.map((r) => r.items / space.slots)) : undefined,
      falsePositives,
      fpr: falsePositives / (space.negatives * g.rows.length),
      expectedFpr: mean(g.rows.map((r) => r.expectedFpr)),
    });
  }
  return bySeries;
}

/** Averages window-by-window series over runs, keeping the windows every run has. */
function averageWindows(runs, field, keys) {
  const length = Math.min(...runs.map((r) => r[field]?.length ?? 0));
  const out = [];
  for (let i = 0; i < length; i++) {
    const point = {};
    for (const k of keys) {
      const values = runs.map((r) => r[field][i][k]).filter((v) => v !== undefined);
      if (values.length) point[k] = mean(values);
    }
    out.push(point);
  }
  return out;
}

/**
 * A copy of a measurement in which every rate `x` is the CPU-time rate
 * `xCpu` (basis 'cpu') or stays the wall-clock rate (basis 'wall').
 */
function onBasis(value, basis) {
  if (Array.isArray(value)) return value.map((v) => onBasis(v, basis));
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (key.endsWith('Cpu')) continue;
    out[key] = onBasis(basis === 'cpu' && `${key}Cpu` in value ? value[`${key}Cpu`] : v, basis);
  }
  return out;
}

function summariseFilters(filters, basis) {
  const byName = {};
  for (const name of FILTERS) {
    const runs = filters.results.filter((r) => r.name === name).map((r) => onBasis(r, basis));
    if (!runs.length) continue;
    const falsePositives = runs.reduce((a, r) => a + r.falsePositives, 0);
    const negatives = runs.reduce((a, r) => a + r.negatives, 0);
    byName[name] = {
      runs: runs.length,
      items: mean(runs.map((r) => r.items)),
      capacity: runs[0].capacity,
      load: mean(runs.map((r) => r.load)),
      bitsPerItem: mean(runs.map((r) => r.bitsPerItem)),
      falsePositives,
      negatives,
      fpr: falsePositives / negatives,
      expectedFpr: mean(runs.map((r) => r.expectedFpr)),
      constructMops: mean(runs.map((r) => r.constructMops)),
      fullNegativeMops: mean(runs.map((r) => r.fullNegativeMops)),
      mixes: MIX_FRACTIONS.map((p) => {
        const at = runs.map((r) => r.mixes.find((m) => m.p === p));
        return {
          p,
          mops: mean(at.map((m) => m.mops)),
          perCallMops: at[0].perCallMops === undefined ? undefined : mean(at.map((m) => m.perCallMops)),
        };
      }),
      lookups: averageWindows(runs, 'lookups', ['load', 'negativeMops', 'positiveMops']),
      inserts: averageWindows(runs, 'inserts', ['loadStart', 'loadEnd', 'mops']),
      deletes: runs[0].deletes ? averageWindows(runs, 'deletes', ['loadStart', 'loadEnd', 'mops']) : null,
      cpuShare: Math.min(...runs.map((r) => r.cpuShare)),
    };
  }
  return byName;
}

/**
 * Rates in `filters` are per second of CPU time the benchmark process got,
 * those in `filtersWall` per second of wall-clock time: on a shared machine
 * the first measure the filters, the second also the other processes.
 */
export function summarise(data) {
  return {
    load: summariseLoad(data.native.load.flatMap((l) => l.rows)),
    space: summariseSpace(data.native.space),
    filters: { native: summariseFilters(data.native.filters, 'cpu'), wasm: summariseFilters(data.wasm.filters, 'cpu') },
    filtersWall: { native: summariseFilters(data.native.filters, 'wall'), wasm: summariseFilters(data.wasm.filters, 'wall') },
  };
}

// ---------------------------------------------------------------- checks

/**
 * The sanity conditions of the issue (tests/ts/paper.test.ts recomputes them
 * from data.json) and the native / wasm agreements.
 */
export function evaluateChecks(data, summary) {
  const checks = [];
  const add = (name, pass, detail) => checks.push({ name, pass, detail });
  for (const platform of ['native', 'wasm']) {
    const cf = summary.filters[platform].CF;
    const off = cf.fpr / cf.expectedFpr - 1;
    add(`${platform}: CF false-positive rate within 25% of theory`, Math.abs(off) <= 0.25,
      `${percent(cf.fpr)} measured, ${percent(cf.expectedFpr)} = 1 − (1 − 2^−12)^(8α) expected (${off >= 0 ? '+' : ''}${(100 * off).toFixed(1)}%)`);
    const ss = summary.filters[platform]['ss-CF'];
    const ratio = ss.fpr / cf.fpr;
    add(`${platform}: ss-CF false-positive rate about half of CF's at equal space`, ratio >= 0.35 && ratio <= 0.65,
      `${percent(ss.fpr)} / ${percent(cf.fpr)} = ${ratio.toFixed(3)}, at ${fixed(ss.bitsPerItem)} and ${fixed(cf.bitsPerItem)} bits per item`);
  }
  const high = summary.load.filter((g) => g.bucketSize === 4 && g.fingerprintBits >= 8);
  const worst = high.reduce((a, b) => (b.min < a.min ? b : a));
  add('load at first failure ≥ 0.94 for b = 4, f ≥ 8 (minimum over runs, every m)', worst.min >= 0.94,
    `lowest: ${fixed(worst.min, 4)} at m = ${pow2(worst.log2Buckets)}, f = ${worst.fingerprintBits}`);
  for (const c of data.crossChecks) add(c.name, c.pass, c.detail);
  return checks;
}
