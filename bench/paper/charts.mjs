// The nine SVG charts of the paper report (Figures 2-8), drawn by svg.mjs from
// the summaries: each filter keeps one colour and marker in every chart, and
// the wasm build is drawn dashed with hollow markers beside the native one.

import { FILTERS, LOGIN_LOADS, table3BitCount } from './published.mjs';
import { bytes, pow2 } from './format.mjs';
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

// ---------------------------------------------------------------- charts

const percentAxis = (v) => `${Math.round(v * 100)}%`;
const fprAxis = (v) => `${Number((v * 100).toPrecision(2))}%`;

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

export function charts(data, summary) {
  const plan = data.plan;
  const out = {};
  const sizes = figure2Sizes(summary);
  const runsAt = (l) => summary.load.find((g) => g.log2Buckets === l)?.runs;

  for (const b of [4, 8]) {
    const series = sizes.map((l, i) => ({
      name: `m = 2^${l} (min of ${runsAt(l)})`,
      color: ['#1f77b4', '#d62728', '#2ca02c'][i % 3],
      marker: ['circle', 'square', 'triangle'][i % 3],
      points: summary.load.filter((g) => g.log2Buckets === l && g.bucketSize === b).map((g) => [g.fingerprintBits, g.min]),
    }));
    if (b === 4) {
      series.push({ name: 'paper: 2^25, mean of 10', color: '#7f7f7f', marker: 'diamond', hollow: true, dashed: true, points: LOGIN_LOADS });
    }
    out[`fig2-b${b}.svg`] = lineChart({
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

  const fprSeries = (name, style, extra = {}) => ({
    name,
    ...style,
    points: summary.space[name.split(' ')[0]]?.filter((p) => p.fpr > 0).map((p) => [p.fpr, p.bitsPerItem]) ?? [],
    ...extra,
  });
  const fprRange = { log: true, min: 1e-6, max: 0.2, ticks: [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1], format: fprAxis };
  const boundPoints = (factor) => [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.2].map((e) => [e, factor * Math.log2(1 / e)]);
  out['fig3.svg'] = lineChart({
    title: 'Figure 3: bits per item against measured false-positive rate, b = 2, 4, 8',
    subtitle: `native core, ${pow2(Math.log2(data.native.space.slots))} slots filled to the first failure, mean of ${plan.space.runs} run(s)`,
    xLabel: 'ε: measured false-positive rate (log scale)',
    yLabel: 'bits per item (table bits / items)',
    x: fprRange,
    y: { min: 0, max: 26, ticks: [0, 4, 8, 12, 16, 20, 24] },
    series: [
      fprSeries('b=2', STYLE['b=2']),
      fprSeries('b=4', STYLE['b=4']),
      fprSeries('b=8', STYLE['b=8']),
      { name: 'log2(1/ε) bound', color: '#7f7f7f', marker: 'none', dashed: true, width: 1.5, points: boundPoints(1) },
    ],
    note: 'Each point is one fingerprint size f: b=2 f=5..18, b=4 f=6..19, b=8 f=7..20.',
  });
  out['fig4.svg'] = lineChart({
    title: 'Figure 4: bits per item against false-positive rate, cuckoo vs Bloom',
    subtitle: `native core, measured; Bloom filters with the optimal k for their bits per item, ${pow2(Math.log2(data.native.space.slots))} items`,
    xLabel: 'ε: measured false-positive rate (log scale)',
    yLabel: 'bits per item',
    x: fprRange,
    y: { min: 0, max: 36, ticks: [0, 5, 10, 15, 20, 25, 30, 35] },
    series: [
      fprSeries('BF', STYLE.BF),
      fprSeries('blk-BF', STYLE['blk-BF']),
      fprSeries('b=4', STYLE.CF, { name: 'CF (b=4)' }),
      fprSeries('ss-CF', STYLE['ss-CF']),
      { name: '1.44 log2(1/ε) (BF theory)', color: '#2ca02c', marker: 'none', dashed: true, width: 1.2, points: boundPoints(1.44) },
      { name: 'log2(1/ε) lower bound', color: '#7f7f7f', marker: 'none', dashed: true, width: 1.5, points: boundPoints(1) },
    ],
  });

  const f = plan.filters;
  const filterSubtitle = `${pow2(f.log2Buckets)} buckets, every filter ${bytes(table3BitCount(f.log2Buckets) / 8)}; native solid, wasm (batch API) dashed; ${f.runs} run(s); per CPU-second`;
  out['fig5.svg'] = lineChart({
    title: 'Figure 5: lookup throughput against the fraction of positive queries',
    subtitle: filterSubtitle,
    xLabel: 'p: fraction of queries on stored items',
    yLabel: 'lookups (million per second)',
    x: { min: 0, max: 1, ticks: MIX_FRACTIONS, format: percentAxis },
    y: { min: 0 },
    series: platformSeries(summary, FILTERS, (s) => s.mixes.map((m) => [m.p, m.mops])),
  });
  out['fig6a.svg'] = lineChart({
    title: 'Figure 6(a): lookups of absent keys against occupancy',
    subtitle: filterSubtitle,
    xLabel: 'α: occupancy (CF: items / slots; Bloom: items / capacity at 13 bits per item)',
    yLabel: 'negative lookups (million per second)',
    x: { min: 0, max: 1, format: percentAxis },
    y: { min: 0 },
    series: platformSeries(summary, FILTERS, (s) => s.lookups.filter((p) => p.load > 0).map((p) => [p.load, p.negativeMops])),
    note: 'The empty filter (α = 0) is left out: its table pages were never written, so every lookup reads the same zero page (see the report).',
  });
  out['fig6b.svg'] = lineChart({
    title: 'Figure 6(b): lookups of stored keys against occupancy',
    subtitle: filterSubtitle,
    xLabel: 'α: occupancy',
    yLabel: 'positive lookups (million per second)',
    x: { min: 0, max: 1, format: percentAxis },
    y: { min: 0 },
    series: platformSeries(summary, FILTERS, (s) => s.lookups.filter((p) => p.positiveMops !== undefined).map((p) => [p.load, p.positiveMops])),
  });
  out['fig7.svg'] = lineChart({
    title: 'Figure 7: insert throughput against occupancy',
    subtitle: filterSubtitle,
    xLabel: `α: occupancy (middle of each ${Math.round(f.window * 100)}% window)`,
    yLabel: 'inserts (million per second)',
    x: { min: 0, max: 1, format: percentAxis },
    y: { min: 0 },
    series: platformSeries(summary, FILTERS, (s) => s.inserts.map((w) => [(w.loadStart + w.loadEnd) / 2, w.mops])),
  });
  out['fig8.svg'] = lineChart({
    title: 'Figure 8: delete-until-empty throughput against occupancy',
    subtitle: filterSubtitle,
    xLabel: `α: occupancy (middle of each ${Math.round(f.window * 100)}% window)`,
    yLabel: 'deletes (million per second)',
    x: { min: 0, max: 1, format: percentAxis },
    y: { min: 0 },
    series: platformSeries(summary, ['CF', 'ss-CF'], (s) => s.deletes.map((w) => [(w.loadStart + w.loadEnd) / 2, w.mops])),
  });
  return out;
}
