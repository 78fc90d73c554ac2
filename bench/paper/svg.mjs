// A small chart generator for the paper report: line and scatter series on
// linear or logarithmic axes, with ticks, grid, axis labels, a title and a
// legend beside the plot, as one standalone SVG string (no fonts or scripts
// fetched, so the files render the same on GitHub, in a browser or offline).
//
//   lineChart({
//     title: 'Figure 5', subtitle: '...', xLabel: 'p', yLabel: 'M ops/s',
//     x: { min: 0, max: 1, format: (v) => `${v * 100}%` },
//     y: { log: true },
//     series: [{ name: 'CF', color: '#1f77b4', dashed: false, marker: 'circle', points: [[0, 5], [1, 6]] }],
//   })
//
// A series can leave out its markers (`marker: 'none'`); points with a
// non-finite coordinate, or at or below 0 on a log axis, are skipped. A log
// axis takes its min, max and ticks from the caller; a linear one finds what
// it is not given. Each series is drawn in <g class="series" data-series="name">.

const FONT = 'font-family="Helvetica, Arial, sans-serif"';

function escapeXml(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const round = (v) => Math.round(v * 100) / 100;

/** About `count` round tick values ({1, 2, 5} x 10^k steps) covering [min, max]. */
function linearTicks(min, max, count = 6) {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** A compact label: 0.001 → "0.001", 1e-5 → "1e-5", 2500000 → "2.5M". */
function formatNumber(v) {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (a >= 1e4) return `${Number((v / 1e3).toPrecision(3))}k`;
  if (a < 1e-3) {
    const [mantissa, exponent] = v.toExponential().split('e');
    return `${Number(Number(mantissa).toPrecision(2))}e${Number(exponent)}`;
  }
  return String(Number(v.toPrecision(4)));
}

function axisRange(values, spec) {
  const finite = values.filter((v) => Number.isFinite(v) && (!spec.log || v > 0));
  let min = spec.min ?? Math.min(...finite);
  let max = spec.max ?? Math.max(...finite);
  if (!Number.isFinite(min) || !Number.isFinite(max)) [min, max] = [0, 1];
  if (spec.log) return [min, max];
  if (spec.min === undefined) min = Math.min(0, min);
  if (max <= min) max = min + 1;
  if (spec.max === undefined) {
    // Up to the next round tick, so that the top line has a label.
    const ticks = linearTicks(min, max);
    const step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
    max = Math.ceil(max / step - 1e-9) * step;
  }
  return [min, max];
}

function scale(spec, [min, max], [from, to]) {
  if (spec.log) {
    const a = Math.log10(min);
    const b = Math.log10(max);
    return (v) => from + ((Math.log10(v) - a) / (b - a)) * (to - from);
  }
  return (v) => from + ((v - min) / (max - min)) * (to - from);
}

function markerPath(kind, x, y, size, color, hollow) {
  const fill = hollow ? 'white' : color;
  const stroke = `stroke="${color}" stroke-width="1.5" fill="${fill}"`;
  const r = size;
  switch (kind) {
    case 'none':
      return '';
    case 'square':
      return `<rect x="${round(x - r)}" y="${round(y - r)}" width="${round(2 * r)}" height="${round(2 * r)}" ${stroke}/>`;
    case 'triangle':
      return `<path d="M${round(x)},${round(y - r * 1.2)} L${round(x + r * 1.1)},${round(y + r * 0.8)} L${round(x - r * 1.1)},${round(y + r * 0.8)} Z" ${stroke}/>`;
    case 'diamond':
      return `<path d="M${round(x)},${round(y - r * 1.3)} L${round(x + r * 1.1)},${round(y)} L${round(x)},${round(y + r * 1.3)} L${round(x - r * 1.1)},${round(y)} Z" ${stroke}/>`;
    default:
      return `<circle cx="${round(x)}" cy="${round(y)}" r="${round(r)}" ${stroke}/>`;
  }
}

/**
 * One chart as an SVG document. `x` and `y` take { log, min, max, ticks,
 * format }; series take { name, color, points, dashed, marker, hollow, width }. `note` is a line of small print under the plot.
 */
export function lineChart({ title, subtitle, xLabel, yLabel, x = {}, y = {}, series, note, width = 780, height = 460 }) {
  const legendWidth = Math.max(120, 14 + 7 * Math.max(...series.map((s) => s.name.length)));
  const margin = { top: subtitle ? 62 : 44, right: legendWidth + 24, bottom: note ? 74 : 56, left: 70 };
  const plot = { left: margin.left, top: margin.top, right: width - margin.right, bottom: height - margin.bottom };

  const visible = (s) => s.points.filter(([px, py]) => Number.isFinite(px) && Number.isFinite(py) && (!x.log || px > 0) && (!y.log || py > 0));
  const xRange = axisRange(series.flatMap((s) => visible(s).map((p) => p[0])), x);
  const yRange = axisRange(series.flatMap((s) => visible(s).map((p) => p[1])), y);
  const sx = scale(x, xRange, [plot.left, plot.right]);
  const sy = scale(y, yRange, [plot.bottom, plot.top]);
  const xTicks = (x.ticks ?? linearTicks(...xRange)).filter((v) => v >= xRange[0] - 1e-12 && v <= xRange[1] * (1 + 1e-9) + 1e-12);
  const yTicks = (y.ticks ?? linearTicks(...yRange)).filter((v) => v >= yRange[0] - 1e-12 && v <= yRange[1] * (1 + 1e-9) + 1e-12);
  const xFormat = x.format ?? formatNumber;
  const yFormat = y.format ?? formatNumber;

  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}">`);
  out.push(`<title>${escapeXml(title)}</title>`);
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="white"/>`);
  out.push(`<text x="${plot.left}" y="24" ${FONT} font-size="16" font-weight="bold" fill="#222">${escapeXml(title)}</text>`);
  if (subtitle) out.push(`<text x="${plot.left}" y="44" ${FONT} font-size="12" fill="#555">${escapeXml(subtitle)}</text>`);

  // Grid and ticks.
  out.push('<g class="axes">');
  for (const v of xTicks) {
    const px = round(sx(v));
    out.push(`<line x1="${px}" y1="${plot.top}" x2="${px}" y2="${plot.bottom}" stroke="#e5e5e5"/>`);
    out.push(`<line x1="${px}" y1="${plot.bottom}" x2="${px}" y2="${plot.bottom + 5}" stroke="#333"/>`);
    out.push(`<text x="${px}" y="${plot.bottom + 19}" ${FONT} font-size="12" fill="#333" text-anchor="middle">${escapeXml(xFormat(v))}</text>`);
  }
  for (const v of yTicks) {
    const py = round(sy(v));
    out.push(`<line x1="${plot.left}" y1="${py}" x2="${plot.right}" y2="${py}" stroke="#e5e5e5"/>`);
    out.push(`<line x1="${plot.left - 5}" y1="${py}" x2="${plot.left}" y2="${py}" stroke="#333"/>`);
    out.push(`<text x="${plot.left - 8}" y="${py + 4}" ${FONT} font-size="12" fill="#333" text-anchor="end">${escapeXml(yFormat(v))}</text>`);
  }
  out.push(`<rect x="${plot.left}" y="${plot.top}" width="${plot.right - plot.left}" height="${plot.bottom - plot.top}" fill="none" stroke="#333"/>`);
  out.push(`<text x="${round((plot.left + plot.right) / 2)}" y="${plot.bottom + 42}" ${FONT} font-size="13" fill="#222" text-anchor="middle">${escapeXml(xLabel)}</text>`);
  const yMid = round((plot.top + plot.bottom) / 2);
  out.push(`<text x="18" y="${yMid}" ${FONT} font-size="13" fill="#222" text-anchor="middle" transform="rotate(-90 18 ${yMid})">${escapeXml(yLabel)}</text>`);
  out.push('</g>');

  // Series, clipped to the plot.
  out.push(`<defs><clipPath id="plot-area"><rect x="${plot.left - 6}" y="${plot.top - 6}" width="${plot.right - plot.left + 12}" height="${plot.bottom - plot.top + 12}"/></clipPath></defs>`);
  for (const s of series) {
    const points = visible(s).map(([px, py]) => [sx(px), sy(py)]);
    out.push(`<g class="series" data-series="${escapeXml(s.name)}" clip-path="url(#plot-area)">`);
    if (points.length > 1) {
      const d = points.map(([px, py], i) => `${i ? 'L' : 'M'}${round(px)},${round(py)}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="${s.width ?? 2}"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    }
    for (const [px, py] of points) out.push(markerPath(s.marker ?? 'circle', px, py, 3.5, s.color, s.hollow));
    out.push('</g>');
  }

  // Legend, beside the plot so that it never hides data.
  const legendX = plot.right + 18;
  out.push('<g class="legend">');
  series.forEach((s, index) => {
    const ly = plot.top + 10 + index * 20;
    out.push(`<line x1="${legendX}" y1="${ly}" x2="${legendX + 26}" y2="${ly}" stroke="${s.color}" stroke-width="${s.width ?? 2}"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    out.push(markerPath(s.marker ?? 'circle', legendX + 13, ly, 3.5, s.color, s.hollow));
    out.push(`<text x="${legendX + 34}" y="${ly + 4}" ${FONT} font-size="12" fill="#222">${escapeXml(s.name)}</text>`);
  });
  out.push('</g>');
  if (note) out.push(`<text x="${plot.left}" y="${height - 12}" ${FONT} font-size="11" fill="#666">${escapeXml(note)}</text>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
