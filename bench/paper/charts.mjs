// The nine SVG charts of the paper report (Figures 2-8), drawn by svg.mjs from
// the summaries: each filter keeps one colour and marker in every chart, and
// the wasm build is drawn dashed with hollow markers beside the native one.

import { FILTERS, LOGIN_LOADS, table3BitCount } from './published.mjs';
import { bytes, pow2 } from '../support/format.mjs';
import { figure2Sizes, MIX_FRACTIONS } from './summary.mjs';
import { lineChart } from './svg.mjs';

// ---------------------------------------------------------------- chart styles

const STYLE = {
  CF: { color: '#1f77b4', marker: 'circle' },
  'ss-CF': { color: '#ff7f0e', marker: 'square' },
  BF: { color: '#2ca02c', marker: 'triangle' },
  'blk-BF': { color: '#d62728', marker: 'diamond' },
  'b=2': { color: '#9467bd', marker: 'triangle' },
  'b=4': { color: '#1f77b4', marker: 'circle' },
  'b=8': { color: '#8c564b', marker: 'square' },
};

// ---------------------------------------------------------------- shared pieces

const percentAxis = (v) => `${Math.round(v * 100)}%`;
const fprAxis = (v) => `${Number((v * 100).toPrecision(2))}%`;

/** One series per filter and platform: native solid, wasm dashed and hollow. */
function platformSeries(summary, names, pick) {
  const series = [];
  for (const platform of ['native', 'wasm']) {
    for (const name of names) {
      const s = summary.filters[platform][name];
      if (!s) continue;
      series.push({
        name: `${name} ${platform}`,
        color: STYLE[name].color,
        marker: STYLE[name].marker,
        dashed: platform === 'wasm',
        hollow: platform === 'wasm',
        points: pick(s),
      });
    }
  }
  return series;
}

/** Figures 3 and 4: one series of measured (ε, bits per item) points; `name` starts with the summary's series name. */
function fprSeries(summary, name, style, extra = {}) {
  return {
    name,
    ...style,
    points: summary.space[name.split(' ')[0]]?.filter((p) => p.fpr > 0).map((p) => [p.fpr, p.bitsPerItem]) ?? [],
    ...extra,
  };
}

const fprRange = { log: true, min: 1e-6, max: 0.2, ticks: [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1], format: fprAxis };

/** The line factor · log2(1/ε) across the ε axis. */
const boundPoints = (factor) => [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.2].map((e) => [e, factor * Math.log2(1 / e)]);

/**
 * Figures 5-8: rates of the Table 3 filters from 0 up, against occupancy
 * unless `options.x` says otherwise, under one subtitle (size, platforms, runs).
 */
function rateChart(f, options) {
  return lineChart({
    subtitle: `${pow2(f.log2Buckets)} buckets, every filter ${bytes(table3BitCount(f.log2Buckets) / 8)}; native solid, wasm (batch API) dashed; ${f.runs} run(s); per CPU-second`,
    x: { min: 0, max: 1, format: percentAxis },
    y: { min: 0 },
    ...options,
  });
}

// ---------------------------------------------------------------- one function per figure

/** Figure 2(a) (b = 4, with the ;login: article's loads) or 2(b) (b = 8). */
function figure2Chart(summary, b) {
  const runsAt = (l) => summary.load.find((g) => g.log2Buckets === l)?.runs;
  const series = figure2Sizes(summary).map((l, i) => ({
    name: `m = 2^${l} (min of ${runsAt(l)})`,
    color: ['#1f77b4', '#d62728', '#2ca02c'][i % 3],
    marker: ['circle', 'square', 'triangle'][i % 3],
    points: summary.load.filter((g) => g.log2Buckets === l && g.bucketSize === b).map((g) => [g.fingerprintBits, g.min]),
  }));
  if (b === 4) {
    series.push({ name: 'paper: 2^25, mean of 10', color: '#7f7f7f', marker: 'diamond', hollow: true, dashed: true, points: LOGIN_LOADS });
  }
  return lineChart({
    title: `Figure 2${b === 4 ? '(a)' : '(b)'}: load factor at the first failed insert, b = ${b}`,
    subtitle: `native core, random 64-bit keys, 500 kicks; f = 1 is not supported (the core stores f = 2..32)`,
    xLabel: 'f: fingerprint size in bits',
    yLabel: 'α: load factor at first failure',
    x: { min: 1, max: 20, ticks: [1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20] },
    y: { min: 0, max: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 0.9, 1], format: percentAxis },
    series,
    note: b === 4 ? 'grey: the ;login: article\'s Table 2 (2^25 buckets, mean over 10 runs).' : undefined,
  });
}

function figure3Chart(data, summary) {
  return lineChart({
    title: 'Figure 3: bits per item against measured false-positive rate, b = 2, 4, 8',
    subtitle: `native core, ${pow2(Math.log2(data.native.space.slots))} slots filled to the first failure, mean of ${data.plan.space.runs} run(s)`,
    xLabel: 'ε: measured false-positive rate (log scale)',
    yLabel: 'bits per item (table bits / items)',
    x: fprRange,
    y: { min: 0, max: 26, ticks: [0, 4, 8, 12, 16, 20, 24] },
    series: [
      fprSeries(summary, 'b=2', STYLE['b=2']),
      fprSeries(summary, 'b=4', STYLE['b=4']),
      fprSeries(summary, 'b=8', STYLE['b=8']),
      { name: 'log2(1/ε) bound', color: '#7f7f7f', marker: 'none', dashed: true, width: 1.5, points: boundPoints(1) },
    ],
    note: 'Each point is one fingerprint size f: b=2 f=5..18, b=4 f=6..19, b=8 f=7..20.',
  });
}

function figure4Chart(data, summary) {
  return lineChart({
    title: 'Figure 4: bits per item against false-positive rate, cuckoo vs Bloom',
    subtitle: `native core, measured; Bloom filters with the optimal k for their bits per item, ${pow2(Math.log2(data.native.space.slots))} items`,
    xLabel: 'ε: measured false-positive rate (log scale)',
    yLabel: 'bits per item',
    x: fprRange,
    y: { min: 0, max: 36, ticks: [0, 5, 10, 15, 20, 25, 30, 35] },
    series: [
      fprSeries(summary, 'BF', STYLE.BF),
      fprSeries(summary, 'blk-BF', STYLE['blk-BF']),
      fprSeries(summary, 'b=4', STYLE.CF, { name: 'CF (b=4)' }),
      fprSeries(summary, 'ss-CF', STYLE['ss-CF']),
      { name: '1.44 log2(1/ε) (BF theory)', color: '#2ca02c', marker: 'none', dashed: true, width: 1.2, points: boundPoints(1.44) },
      { name: 'log2(1/ε) lower bound', color: '#7f7f7f', marker: 'none', dashed: true, width: 1.5, points: boundPoints(1) },
    ],
  });
}

function figure5Chart(f, summary) {
  return rateChart(f, {
    title: 'Figure 5: lookup throughput against the fraction of positive queries',
    xLabel: 'p: fraction of queries on stored items',
    yLabel: 'lookups (million per second)',
    x: { min: 0, max: 1, ticks: MIX_FRACTIONS, format: percentAxis },
    series: platformSeries(summary, FILTERS, (s) => s.mixes.map((m) => [m.p, m.mops])),
  });
}

function figure6aChart(f, summary) {
  return rateChart(f, {
    title: 'Figure 6(a): lookups of absent keys against occupancy',
    xLabel: 'α: occupancy (CF: items / slots; Bloom: items / capacity at 13 bits per item)',
    yLabel: 'negative lookups (million per second)',
    series: platformSeries(summary, FILTERS, (s) => s.lookups.filter((p) => p.load > 0).map((p) => [p.load, p.negativeMops])),
    note: 'The empty filter (α = 0) is left out: its table pages were never written, so every lookup reads the same zero page (see the report).',
  });
}

function figure6bChart(f, summary) {
  return rateChart(f, {
    title: 'Figure 6(b): lookups of stored keys against occupancy',
    xLabel: 'α: occupancy',
    yLabel: 'positive lookups (million per second)',
    series: platformSeries(summary, FILTERS, (s) => s.lookups.filter((p) => p.positiveMops !== undefined).map((p) => [p.load, p.positiveMops])),
  });
}

function figure7Chart(f, summary) {
  return rateChart(f, {
    title: 'Figure 7: insert throughput against occupancy',
    xLabel: `α: occupancy (middle of each ${Math.round(f.window * 100)}% window)`,
    yLabel: 'inserts (million per second)',
    series: platformSeries(summary, FILTERS, (s) => s.inserts.map((w) => [(w.loadStart + w.loadEnd) / 2, w.mops])),
  });
}

function figure8Chart(f, summary) {
  return rateChart(f, {
    title: 'Figure 8: delete-until-empty throughput against occupancy',
    xLabel: `α: occupancy (middle of each ${Math.round(f.window * 100)}% window)`,
    yLabel: 'deletes (million per second)',
    series: platformSeries(summary, ['CF', 'ss-CF'], (s) => s.deletes.map((w) => [(w.loadStart + w.loadEnd) / 2, w.mops])),
  });
}

/** Every chart by file name, in the order the report lists them. */
export function charts(data, summary) {
  const f = data.plan.filters;
  return {
    'fig2-b4.svg': figure2Chart(summary, 4),
    'fig2-b8.svg': figure2Chart(summary, 8),
    'fig3.svg': figure3Chart(data, summary),
    'fig4.svg': figure4Chart(data, summary),
    'fig5.svg': figure5Chart(f, summary),
    'fig6a.svg': figure6aChart(f, summary),
    'fig6b.svg': figure6bChart(f, summary),
    'fig7.svg': figure7Chart(f, summary),
    'fig8.svg': figure8Chart(f, summary),
  };
}
