// The paper reproduction (bench/paper/run.mjs) in --quick mode: it must write
// the report, the raw data and every chart, and its figures must be sane.
// The sanity conditions are recomputed here from the raw numbers in
// data.json, not read from the report's own checks.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..');
const nativeProgram = join(repoRoot, 'build', 'native', 'bench', 'paper_native');
const runner = join(repoRoot, 'bench', 'paper', 'run.mjs');

/** Each chart and the series it must draw. */
const CHARTS: Record<string, string[]> = {
  'fig2-b4.svg': ['m = 2^12 (min of 3)', 'm = 2^15 (min of 3)', 'paper: 2^25, mean of 10'],
  'fig2-b8.svg': ['m = 2^12 (min of 3)', 'm = 2^15 (min of 3)'],
  'fig3.svg': ['b=2', 'b=4', 'b=8', 'log2(1/ε) bound'],
  'fig4.svg': ['BF', 'blk-BF', 'CF (b=4)', 'ss-CF', 'log2(1/ε) lower bound'],
  'fig5.svg': ['CF native', 'ss-CF native', 'BF native', 'blk-BF native', 'CF wasm', 'ss-CF wasm', 'BF wasm', 'blk-BF wasm'],
  'fig6a.svg': ['CF native', 'blk-BF wasm'],
  'fig6b.svg': ['CF native', 'blk-BF wasm'],
  'fig7.svg': ['CF native', 'ss-CF native', 'BF native', 'blk-BF native', 'CF wasm', 'ss-CF wasm', 'BF wasm', 'blk-BF wasm'],
  'fig8.svg': ['CF native', 'ss-CF native', 'CF wasm', 'ss-CF wasm'],
};

interface FilterResult {
  name: string;
  items: number;
  negatives: number;
  falsePositives: number;
  expectedFpr: number;
  bitsPerItem: number;
}
interface PaperData {
  mode: string;
  totalSeconds: number;
  native: {
    filters: { results: FilterResult[] };
    load: { rows: { log2Buckets: number; bucketSize: number; fingerprintBits: number; load: number }[] }[];
  };
  wasm: { filters: { results: FilterResult[] } };
  checks: { name: string; pass: boolean; detail: string }[];
}

/** Tag balance and escaping: enough to catch a truncated or hand-broken SVG. */
function xmlProblems(text: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:"[^"]*"|'[^']*'|[^'">])*?)(\/?)>/g;
  let last = 0;
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    const between = text.slice(last, match.index);
    if (between.includes('<')) problems.push(`stray "<" before offset ${match.index}`);
    if (/&(?!amp;|lt;|gt;|quot;|apos;|#\d+;)/.test(between)) problems.push(`unescaped "&" before offset ${match.index}`);
    last = tag.lastIndex;
    const [, closing, name, , selfClosing] = match;
    if (selfClosing) continue;
    if (closing) {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open}>`);
    } else {
      stack.push(name!);
    }
  }
  if (stack.length) problems.push(`unclosed: ${stack.join(', ')}`);
  if (text.slice(last).trim()) problems.push('text after the root element');
  return problems;
}

const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

let outDir = '';
let data: PaperData;
let report = '';
let runOutput = '';

beforeAll(() => {
  if (!existsSync(nativeProgram)) {
    throw new Error(`${nativeProgram} is missing: build the native targets first (bash scripts/build, or npm test)`);
  }
  outDir = mkdtempSync(join(tmpdir(), 'cuckoo-paper-'));
  const started = Date.now();
  const result = spawnSync(process.execPath, [runner, '--quick', '--out', outDir], { cwd: repoRoot, encoding: 'utf8', timeout: 110_000 });
  runOutput = `${result.stdout}\n${result.stderr}`;
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`run.mjs --quick exited with ${result.status} after ${Date.now() - started} ms:\n${runOutput}`);
  data = JSON.parse(readFileSync(join(outDir, 'data.json'), 'utf8')) as PaperData;
  report = readFileSync(join(outDir, 'REPORT.md'), 'utf8');
}, 120_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

test('--quick finishes in under a minute', () => {
  expect(data.mode).toBe('quick');
  expect(data.totalSeconds).toBeLessThan(60);
});

test('the report has every section and links every chart', () => {
  for (const heading of ['## Machine and method', '## Sizes used', '## Table 3', '## Figure 2', '## Figures 3 and 4', '## Figure 5', '## Figures 6–8', '## Checks', '## Where we differ from the paper, and why']) {
    expect(report).toContain(heading);
  }
  for (const chart of Object.keys(CHARTS)) expect(report).toContain(`(${chart})`);
  expect(report).not.toMatch(/NaN|undefined|\[object/);
});

test.each(Object.entries(CHARTS))('%s is a well-formed SVG with its series', (file, expectedSeries) => {
  const svg = readFileSync(join(outDir, file), 'utf8');
  expect(svg.trimStart().startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  expect(xmlProblems(svg)).toEqual([]);
  expect(svg).not.toMatch(/NaN|undefined|Infinity/);
  const drawn = [...svg.matchAll(/<g class="series" data-series="([^"]*)"[^>]*>([\s\S]*?)<\/g>/g)].map(([, name, body]) => ({
    name: unescape(name!),
    marks: (body!.match(/<(path|circle|rect)\b/g) ?? []).length,
  }));
  for (const name of expectedSeries) {
    const series = drawn.find((s) => s.name === name);
    expect(series).toBeDefined();
    expect(series!.marks).toBeGreaterThan(0);
  }
});

test('the cuckoo filter false-positive rate is within 25% of theory, native and wasm', () => {
  for (const platform of [data.native, data.wasm]) {
    const cf = platform.filters.results.find((r) => r.name === 'CF')!;
    const measured = cf.falsePositives / cf.negatives;
    expect(Math.abs(measured / cf.expectedFpr - 1)).toBeLessThanOrEqual(0.25);
    // The expectation itself: 1 - (1 - 2^-12)^(8 * load) near 0.19% when full.
    expect(cf.expectedFpr).toBeGreaterThan(0.0017);
    expect(cf.expectedFpr).toBeLessThan(0.002);
  }
});

test('the semi-sorted filter has about half the false-positive rate in the same space', () => {
  const results = data.native.filters.results;
  const cf = results.find((r) => r.name === 'CF')!;
  const ss = results.find((r) => r.name === 'ss-CF')!;
  expect(Math.abs(ss.bitsPerItem / cf.bitsPerItem - 1)).toBeLessThan(0.02);
  const ratio = ss.falsePositives / ss.negatives / (cf.falsePositives / cf.negatives);
  expect(ratio).toBeGreaterThan(0.35);
  expect(ratio).toBeLessThan(0.65);
});

test('b = 4 with f >= 8 fills to at least 94% before the first failure, in every run', () => {
  const rows = data.native.load.flatMap((l) => l.rows).filter((r) => r.bucketSize === 4 && r.fingerprintBits >= 8);
  expect(rows.length).toBeGreaterThan(0);
  expect(Math.min(...rows.map((r) => r.load))).toBeGreaterThanOrEqual(0.94);
});

test('every check in the report passes, the wasm agreements included', () => {
  const failed = data.checks.filter((c) => !c.pass).map((c) => `${c.name}: ${c.detail}`);
  expect(failed).toEqual([]);
  expect(data.checks.filter((c) => c.name.startsWith('wasm')).length).toBeGreaterThanOrEqual(4);
});
