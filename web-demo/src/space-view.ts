// Paper Sec. 5.2, Table 2 and Fig. 4: bits per item against the false-positive
// rate ε, for a plain cuckoo filter, a semi-sorted one and a Bloom filter, each
// as the core sizes it for n items (space-curves.ts, in a worker), with the
// paper's smooth formulas and its crossover beside them, the crossovers of
// the core's staircases in words that say why they differ from the paper's,
// the sizing calculator's choice, and this page's filter as a point.

import type { CuckooFilter } from 'cuckoo-wasm';
import { bloomSizeFor, practicalMaxLoad, sizeFor, tableBits } from 'cuckoo-wasm/inspect';
import { count, element, percent, rate } from './format.js';
import { svg } from './gauges.js';
import type { SpaceJob, SpaceResult } from './measure-jobs.js';
import { MeasureControl } from './measure-control.js';
import { byId } from './page.js';
import { H, PAD, W, drawAxes, linearAxis, logAxis, polyline, type Axis } from './paper-chart.js';
import { PAPER, table2Bits, table2Crossover } from './paper-values.js';
import type { DemoParams } from './params.js';

export const SPACE_CAPACITY = 1_000_000;
/** ε from 10^-1 down to 10^-6, twenty rates a decade, so that every step of f shows. */
export const SPACE_RATES = Array.from({ length: 101 }, (_, k) => 10 ** (-(20 + k) / 20));
const DECADES = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6];
const Y_MAX = 32;

const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** 10⁻³ for 0.001: short tick labels that fit a phone. */
function powerOfTen(value: number): string {
  const e = Math.round(Math.log10(value));
  return `10${e < 0 ? '⁻' : ''}${[...String(Math.abs(e))].map((d) => SUPERSCRIPTS[Number(d)]).join('')}`;
}

type Series = 'plain' | 'semiSorted' | 'bloom';
const LABELS: Record<Series, string> = { plain: 'cuckoo', semiSorted: 'semi-sorted cuckoo', bloom: 'Bloom' };

/** The sizing calculator's choice, marked on the staircases. */
export interface SpaceChoice {
  fpr: number;
  bits: Partial<Record<Series, number>>;
}

export class SpaceView {
  readonly #panel = byId('space-panel');
  readonly #chart = byId('space-chart') as unknown as SVGSVGElement;
  readonly #crossovers = byId('space-crossovers');
  readonly #rows = byId('space-rows');
  readonly #hereNote = byId('space-here');
  readonly #control = new MeasureControl<SpaceJob>(this.#panel, byId('space-progress'), byId('space-status'));
  #result: SpaceResult | undefined;
  #here: { fpr: number; bits: number; label: string } | undefined;
  #choice: SpaceChoice | undefined;

  /** Computes the curves for `capacity` items: they depend on n only, not on the table on show. */
  start(capacity = SPACE_CAPACITY): void {
    if (this.#result?.capacity === capacity) return;
    const job: SpaceJob = { kind: 'space', capacity, rates: SPACE_RATES };
    this.#control.run(job, `Sizing filters for ${count(capacity)} items at ${SPACE_RATES.length} rates…`, (result) => {
      this.#result = result;
      this.#draw();
      return `Each filter sized by the core for n = ${count(capacity)} items; bits per item = the table's bits / ${count(capacity)}.`;
    });
  }

  /** This page's filter, at its bound 2b/2^f and the bits per item it costs when full to the practical load of its b. */
  setup(params: DemoParams, filter: CuckooFilter): void {
    const load = practicalMaxLoad(params.bucketSize);
    this.#here = {
      fpr: filter.fprBound,
      bits: tableBits(filter) / (filter.slotCount * load),
      label: `this filter: b = ${params.bucketSize}, f = ${params.fingerprintBits}${params.semiSort ? ', semi-sorted' : ''}, at ${percent(load)} load`,
    };
    if (this.#result !== undefined) this.#draw();
  }

  /** The calculator's choice (or none), marked on the chart. */
  mark(choice: SpaceChoice | undefined): void {
    this.#choice = choice;
    if (this.#result !== undefined) this.#draw();
  }

  #draw(): void {
    const result = this.#result!;
    const x = logAxis(1e-6, 1e-1, powerOfTen);
    const y = linearAxis(0, Y_MAX, [0, 8, 16, 24, 32].map((v) => [v, String(v)]), true);
    drawAxes(this.#chart, x, y, 'false-positive rate ε (log scale)', 'bits per item');
    const smooth = (bits: (fpr: number) => number, className: string) =>
      this.#chart.append(polyline(SPACE_RATES.map((fpr): [number, number] => [x.at(fpr), y.at(bits(fpr))]), className));
    smooth((fpr) => Math.log2(1 / fpr), 'space-line lower-bound');
    smooth((fpr) => table2Bits('plain', fpr), 'space-line paper plain');
    smooth((fpr) => table2Bits('semiSorted', fpr), 'space-line paper semiSorted');
    for (const series of ['bloom', 'plain', 'semiSorted'] as const) {
      const points = result.rates.flatMap((fpr, i): Array<[number, number]> => (Number.isNaN(result[series][i]!) ? [] : [[x.at(fpr), y.at(result[series][i]!)]]));
      const line = polyline(points, `space-line ${series}`, series !== 'bloom');
      line.dataset.series = series;
      line.dataset.bits = result[series].join(',');
      this.#chart.append(line);
    }
    this.#markCrossover(x, 'plain', result.crossover.plain);
    this.#markCrossover(x, 'semiSorted', result.crossover.semiSorted);
    this.#markPaper(x, y);
    this.#markChoice(x, y);
    this.#markHere(x, y);
    this.#showCrossovers(result);
    this.#showDecades(result);
  }

  /** Fig. 4's own mark: the semi-sorted filter's crossover with Bloom, “3 %, 7.2 bits”. */
  #markPaper(x: Axis, y: Axis): void {
    const { fpr, bits } = PAPER.fig4Crossover;
    const [cx, cy] = [x.at(fpr), y.at(bits)];
    const mark = svg('path', { d: `M${cx} ${cy - 4.5}L${cx + 4.5} ${cy}L${cx} ${cy + 4.5}L${cx - 4.5} ${cy}Z`, class: 'paper-point' });
    mark.append(svg('title', {}, `the paper's Fig. 4: below ${percent(fpr, 0)} (${bits} bits) the semi-sorted filter takes fewer bits than Bloom`));
    this.#chart.append(mark, svg('text', { x: cx - 6, y: cy + 14, class: 'tick paper-label', 'text-anchor': 'end' }, `paper ${percent(fpr, 0)}, ${bits}`));
  }

  #markChoice(x: Axis, y: Axis): void {
    const choice = this.#choice;
    this.#chart.dataset.choice = choice === undefined ? '' : JSON.stringify(choice);
    if (choice === undefined || choice.fpr < 1e-6 || choice.fpr > 1e-1) return;
    const at = x.at(choice.fpr);
    this.#chart.append(svg('line', { x1: at, x2: at, y1: PAD.top, y2: H - PAD.bottom, class: 'choice-line' }));
    for (const [series, bits] of Object.entries(choice.bits) as Array<[Series, number]>) {
      const dot = svg('circle', { cx: at, cy: y.at(Math.min(Y_MAX, bits)), r: 3.4, class: `choice ${series}` });
      dot.append(svg('title', {}, `your sizing, ${LABELS[series]}: ${bits.toFixed(2)} bits per item at ${rate(choice.fpr)}`));
      this.#chart.append(dot);
    }
  }

  #markHere(x: Axis, y: Axis): void {
    const here = this.#here;
    this.#chart.dataset.here = here === undefined ? '' : `${here.fpr},${here.bits}`;
    if (here === undefined) return;
    const shown = here.fpr >= 1e-6 && here.fpr <= 1e-1;
    if (shown) {
      const dot = svg('circle', { cx: x.at(here.fpr), cy: y.at(Math.min(Y_MAX, here.bits)), r: 4, class: 'here' });
      dot.append(svg('title', {}, `${here.label}: ${here.bits.toFixed(2)} bits per item at ${rate(here.fpr)}`));
      this.#chart.append(dot);
    }
    this.#hereNote.textContent = `● ${here.label}: bound ${rate(here.fpr)}, ${here.bits.toFixed(2)} bits per item${shown ? '' : ' (off the chart, above 10 %)'}.`;
  }

  #markCrossover(x: Axis, series: Series, at: number | null): void {
    if (at === null) return;
    const left = x.at(at);
    this.#chart.append(svg('line', { x1: left, x2: left, y1: PAD.top, y2: H - PAD.bottom, class: `crossover ${series}` }));
    // Labels point away from the right edge, so that they stay inside the plot.
    const right = left > W / 2;
    const label = svg('text', { x: right ? left - 3 : left + 3, y: PAD.top + (series === 'plain' ? 10 : 20), class: `tick crossover-label ${series}`, 'text-anchor': right ? 'end' : 'start' }, rate(at));
    this.#chart.append(label);
  }

  /** The core's crossovers against the paper's, each with its reason next to it, every number from the curves or the core. */
  #showCrossovers(result: SpaceResult): void {
    const line = (series: 'plain' | 'semiSorted') => {
      const at = result.crossover[series];
      const first = result.firstWin[series];
      const node = element('p', `crossover-text ${series}`);
      node.dataset.value = String(at);
      node.dataset.firstWin = String(first);
      const name = series === 'plain' ? 'Cuckoo' : 'Semi-sorted cuckoo';
      if (at === null) {
        node.textContent = `${name}: more bits than Bloom at the lowest rate sampled too (Table 2's formula: below ${rate(table2Crossover(series))}).`;
        return node;
      }
      // Decade rows of the table where it wins above the crossover: the ones that look like a contradiction.
      const wins = DECADES.filter((fpr) => {
        const i = result.rates.findIndex((r) => Math.abs(r / fpr - 1) < 1e-9);
        return fpr > at && result[series][i]! < result.bloom[i]!;
      });
      const some = first !== null && first > at * 1.01 ? `, and at some ε up to ${rate(first)}: those just after a step of f${wins.length > 0 ? `, like ${wins.map(rate).join(' and ')} in the table below` : ''}` : '';
      node.textContent = `${name}: fewer bits than Bloom at every ε below ${rate(at)}${some}. ` + (series === 'semiSorted' ? this.#paperReason(result) : `Table 2's formula for it gives ${rate(table2Crossover(series))}.`);
      return node;
    };
    this.#crossovers.replaceChildren(line('semiSorted'), line('plain'));
  }

  /** Why the paper says 3 %: its smooth curve, against the core's whole bits, with the numbers at 3 %. */
  #paperReason(result: SpaceResult): string {
    const { fpr, bits } = PAPER.fig4Crossover;
    const reason =
      `The paper says below about ${percent(fpr, 0)} (Fig. 4: “${percent(fpr, 0)}, ${bits} bits”): its curve lets f be a fraction of a bit, at ${percent(PAPER.table2Load)} load ` +
      `(that formula crosses Bloom at ${rate(table2Crossover('semiSorted'))}); the core must round f up to a whole bit and sizes tables for about ${percent(practicalMaxLoad(4))}, ` +
      `so its cost climbs in steps of one bit per entry and crosses Bloom's smooth curve back and forth.`;
    try {
      const core = sizeFor({ capacity: result.capacity, fpr, semiSort: true });
      const bloom = bloomSizeFor({ capacity: result.capacity, fpr });
      const asked = Math.log2((2 * core.bucketSize) / fpr);
      return `${reason} At ${percent(fpr, 0)}, eq. (6) asks for log2(2b / ε) = ${asked.toFixed(2)} bits and the core takes ${core.fingerprintBits}: ${core.bitsPerItem.toFixed(2)} bits per item, against Bloom's ${bloom.bitsPerItem.toFixed(2)}.`;
    } catch {
      return reason;
    }
  }

  #showDecades(result: SpaceResult): void {
    this.#rows.replaceChildren(
      ...DECADES.map((fpr) => {
        const i = result.rates.findIndex((r) => Math.abs(r / fpr - 1) < 1e-9);
        const tr = element('tr');
        const shape = result.plainShape[i]!;
        const [plain, semi, bloom] = [result.plain[i]!, result.semiSorted[i]!, result.bloom[i]!];
        Object.assign(tr.dataset, { fpr: String(fpr), plain: String(plain), semi: String(semi), bloom: String(bloom) });
        const fewer = (bits: number) => (bits < bloom ? 'yes' : 'no');
        const cells = [rate(fpr), `${shape.bucketSize}, ${shape.fingerprintBits}`, plain.toFixed(2), semi.toFixed(2), bloom.toFixed(2), Math.log2(1 / fpr).toFixed(2), `${fewer(plain)} / ${fewer(semi)}`];
        for (const text of cells) tr.append(element('td', '', text));
        return tr;
      }),
    );
  }
}
