// Paper Sec. 5.2, Table 2 and Fig. 4: bits per item against the false-positive
// rate ε, for a plain cuckoo filter, a semi-sorted one and a Bloom filter, each
// as the core sizes it for a million items (space-curves.ts, in a worker),
// with the crossovers below which a cuckoo filter always takes fewer bits,
// and this page's filter as a point. Sizing needs no luck: computed once.

import { practicalMaxLoad, tableBits } from 'cuckoo-wasm/inspect';
import type { CuckooFilter } from 'cuckoo-wasm';
import { count, element, rate } from './format.js';
import { svg } from './gauges.js';
import type { SpaceJob, SpaceResult } from './measure-jobs.js';
import { MeasureControl } from './measure-control.js';
import { byId } from './page.js';
import { H, PAD, W, drawAxes, linearAxis, logAxis, polyline, type Axis } from './paper-chart.js';
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

export class SpaceView {
  readonly #panel = byId('space-panel');
  readonly #chart = byId('space-chart') as unknown as SVGSVGElement;
  readonly #crossovers = byId('space-crossovers');
  readonly #rows = byId('space-rows');
  readonly #hereNote = byId('space-here');
  readonly #control = new MeasureControl<SpaceJob>(this.#panel, byId('space-progress'), byId('space-status'));
  #result: SpaceResult | undefined;
  #here: { fpr: number; bits: number; label: string } | undefined;

  /** Computes the curves once; they do not depend on the table. */
  start(): void {
    const job: SpaceJob = { kind: 'space', capacity: SPACE_CAPACITY, rates: SPACE_RATES };
    this.#control.run(job, `Sizing filters for ${count(SPACE_CAPACITY)} items at ${SPACE_RATES.length} rates…`, (result) => {
      this.#result = result;
      this.#draw();
      return `Each filter sized by the core for ${count(SPACE_CAPACITY)} items; bits per item = the table's bits / ${count(SPACE_CAPACITY)}.`;
    });
  }

  /** This page's filter, at its bound 2b/2^f and the bits per item it costs when full to the practical load of its b. */
  setup(params: DemoParams, filter: CuckooFilter): void {
    const load = practicalMaxLoad(params.bucketSize);
    this.#here = {
      fpr: filter.fprBound,
      bits: tableBits(filter) / (filter.slotCount * load),
      label: `this filter: b = ${params.bucketSize}, f = ${params.fingerprintBits}${params.semiSort ? ', semi-sorted' : ''}, at ${Math.round(load * 1000) / 10} % load`,
    };
    if (this.#result !== undefined) this.#draw();
  }

  #draw(): void {
    const result = this.#result!;
    const x = logAxis(1e-6, 1e-1, powerOfTen);
    const y = linearAxis(0, Y_MAX, [0, 8, 16, 24, 32].map((v) => [v, String(v)]), true);
    drawAxes(this.#chart, x, y, 'false-positive rate ε (log scale)', 'bits per item');
    const bound = SPACE_RATES.map((fpr): [number, number] => [x.at(fpr), y.at(Math.log2(1 / fpr))]);
    this.#chart.append(polyline(bound, 'space-line lower-bound'));
    for (const series of ['bloom', 'plain', 'semiSorted'] as const) {
      const points = result.rates.map((fpr, i): [number, number] => [x.at(fpr), y.at(result[series][i]!)]);
      const line = polyline(points, `space-line ${series}`, series !== 'bloom');
      line.dataset.series = series;
      line.dataset.bits = result[series].join(',');
      this.#chart.append(line);
    }
    this.#markCrossover(x, 'plain', result.crossover.plain);
    this.#markCrossover(x, 'semiSorted', result.crossover.semiSorted);
    const here = this.#here;
    if (here !== undefined && here.fpr >= 1e-6 && here.fpr <= 1e-1) {
      const dot = svg('circle', { cx: x.at(here.fpr), cy: y.at(Math.min(Y_MAX, here.bits)), r: 4, class: 'here' });
      dot.append(svg('title', {}, `${here.label}: ${here.bits.toFixed(2)} bits per item at ${rate(here.fpr)}`));
      this.#chart.append(dot);
    }
    this.#chart.dataset.here = here === undefined ? '' : `${here.fpr},${here.bits}`;
    if (here !== undefined) {
      const shown = here.fpr >= 1e-6 && here.fpr <= 1e-1;
      this.#hereNote.textContent = `● ${here.label}: bound ${rate(here.fpr)}, ${here.bits.toFixed(2)} bits per item${shown ? '' : ' (off the chart, above 10 %)'}.`;
    }
    this.#showCrossovers(result);
    this.#showDecades(result);
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

  #showCrossovers(result: SpaceResult): void {
    const words = (series: 'plain' | 'semiSorted') => {
      const at = result.crossover[series];
      const line = element('span', `crossover-text ${series}`);
      line.dataset.value = String(at);
      line.textContent = at === null ? `${LABELS[series]}: never fewer bits at every rate sampled` : `${LABELS[series]} takes fewer bits than Bloom at every ε below ${rate(at)}`;
      return line;
    };
    this.#crossovers.replaceChildren(
      words('plain'),
      words('semiSorted'),
      element(
        'span',
        'crossover-note',
        'Above those rates the two cross back and forth: as ε falls, each extra bit of f raises a cuckoo filter’s cost by a step at once, while a Bloom filter’s rises smoothly. ' +
          "Table 2's smooth formulas, (log2(1/ε) + 3)/α and (log2(1/ε) + 2)/α at α = 95.5 %, against 1.44 log2(1/ε), cross at ε ≈ 0.4 % and ≈ 2.6 %: the paper's Fig. 4 marks the semi-sorted one, “3 %, 7.2 bits”.",
      ),
    );
  }

  #showDecades(result: SpaceResult): void {
    this.#rows.replaceChildren(
      ...DECADES.map((fpr) => {
        const i = result.rates.findIndex((r) => Math.abs(r / fpr - 1) < 1e-9);
        const tr = element('tr');
        const shape = result.plainShape[i]!;
        Object.assign(tr.dataset, { fpr: String(fpr), plain: String(result.plain[i]), semi: String(result.semiSorted[i]), bloom: String(result.bloom[i]) });
        for (const text of [rate(fpr), `${result.plain[i]!.toFixed(2)} (b = ${shape.bucketSize}, f = ${shape.fingerprintBits})`, result.semiSorted[i]!.toFixed(2), result.bloom[i]!.toFixed(2), Math.log2(1 / fpr).toFixed(2)]) {
          tr.append(element('td', '', text));
        }
        return tr;
      }),
    );
  }
}
