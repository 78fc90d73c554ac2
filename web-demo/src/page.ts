// The page's fixed elements and panels, looked up once when the module loads:
// a renamed id then fails at once, naming the id, rather than in the middle of
// an animation, and every module draws on the same single instance of a panel.

import { BloomBits } from './bloom-view.js';
import { ChainView } from './chain-view.js';
import { GaugeList } from './gauges.js';
import { RelationView } from './relation-view.js';
import { SemiBucketView } from './semi-bucket-view.js';
import { TableView } from './table-view.js';

export function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}

export const ui = {
  form: byId<HTMLFormElement>('params'),
  item: byId<HTMLInputElement>('item'),
  knownItems: byId<HTMLDataListElement>('known-items'),
  bulkCount: byId<HTMLInputElement>('bulk-count'),
  caption: byId<HTMLElement>('caption'),
  stepCount: byId<HTMLOutputElement>('step-count'),
  speed: byId<HTMLOutputElement>('speed'),
  play: byId<HTMLButtonElement>('play'),
  load: byId<HTMLInputElement>('load'),
  bloomSummary: byId<HTMLElement>('bloom-summary'),
  bloomDelete: byId<HTMLElement>('bloom-delete'),
  bloomVerdict: byId<HTMLElement>('bloom-verdict'),
  fpList: byId<HTMLOListElement>('fp-list'),
  fpStatus: byId<HTMLElement>('fp-status'),
  fprChart: byId<HTMLElement>('fpr-chart') as unknown as SVGSVGElement,
  kickChart: byId<HTMLElement>('kick-chart') as unknown as SVGSVGElement,
};

export const tableView = new TableView(byId('table'), byId('stash'), byId('stash-note'));
export const semiBucketView = new SemiBucketView(byId('semi-panel'), byId<HTMLInputElement>('semi-bucket'), byId('semi-bucket-view'), byId('table'));
export const relationView = new RelationView(byId('relation'));
export const chainView = new ChainView(byId<HTMLOListElement>('chain'), byId('kick-now'));
export const gauges = new GaugeList(byId('gauges'));
export const bloomGauges = new GaugeList(byId('bloom-gauges'));
export const bloomBits = new BloomBits(byId<HTMLCanvasElement>('bloom-bits'));
