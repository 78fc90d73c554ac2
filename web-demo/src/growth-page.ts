// The growth mode's own elements and panels, looked up once when the module
// loads, as page.ts does for the fixed-size mode; the player's bar and the
// caption are the ones in page.ts, shared by both modes.

import { GaugeList } from './gauges.js';
import { SplitView } from './growth-split-view.js';
import { GrowthTableView } from './growth-table-view.js';
import { byId } from './page.js';

const chart = (id: string) => byId(id) as unknown as SVGSVGElement;

export const growthUi = {
  count: byId<HTMLInputElement>('growth-count'),
  keep: byId<HTMLButtonElement>('growth-keep'),
  probeCount: byId('growth-probe-count'),
  rateChart: chart('rate-chart'),
  bitsChart: chart('bits-chart'),
  log: byId<HTMLTableSectionElement>('growth-log'),
};

export const growthTable = new GrowthTableView(byId('growth-strip'), byId('growth-table'));
export const splitView = new SplitView(byId('split-summary'), byId<HTMLOListElement>('split-list'));
export const growthGauges = new GaugeList(byId('growth-gauges'));
