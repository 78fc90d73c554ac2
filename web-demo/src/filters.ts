// Making the pair of filters and putting them on show, from the form, the
// address or loaded bytes. The Bloom filter gets exactly the cuckoo table's
// memory and the k that suits it at the practical maximum load, so that the
// two compare fairly; a new pair starts every panel, reading and list afresh.

import { CuckooFilter } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';
import { locate, optimalBloomHashCount, practicalMaxLoad, tableBits } from 'cuckoo-wasm/inspect';
import { resetBloomDeleteNote, showBloomSummary } from './bloom-side.js';
import { showBloomVerdict } from './bloom-verdict.js';
import { stopBulk } from './bulk.js';
import { exampleItem } from './example-item.js';
import { stateFrame } from './frames.js';
import { refreshGauges } from './gauge-readings.js';
import { refreshKnownItems } from './items.js';
import { bloomBits, chainView, relationView, semiBucketView, tableView, ui } from './page.js';
import { setupPaperViews } from './paper-views.js';
import { fillForm, showParamsInAddress } from './params-form.js';
import { hashIdFor, type DemoParams } from './params.js';
import { player } from './playback.js';
import { currentDemo, readTable, replaceDemo, type Demo } from './state.js';

function createDemo(params: DemoParams, loaded?: CuckooFilter): Demo {
  const filter =
    loaded ??
    new CuckooFilter({
      bucketCount: params.bucketCount,
      bucketSize: params.bucketSize,
      fingerprintBits: params.fingerprintBits,
      maxKicks: params.maxKicks,
      seed: params.seed,
      semiSort: params.semiSort,
    });
  const maxLoad = practicalMaxLoad(params.bucketSize);
  const bits = tableBits(filter);
  // k for the items the cuckoo filter holds at its practical maximum load.
  const bloom = new BloomFilter({
    bitCount: bits,
    hashCount: optimalBloomHashCount(bits / (params.bucketCount * params.bucketSize * maxLoad)),
    seed: params.seed,
  });
  return {
    params,
    filter,
    bloom,
    items: [],
    bloomCopies: new Map(),
    nextItem: 1,
    fprPoints: [],
    kickBars: [],
    maxLoad,
    gaugesPending: false,
  };
}

export function start(params: DemoParams, loaded?: CuckooFilter, caption?: string): void {
  stopBulk();
  const demo = replaceDemo(() => createDemo(params, loaded));
  showParamsInAddress(params);
  fillForm(params);
  setupViews();
  bloomBits.setup(demo.bloom.bitCount);
  refreshGauges(true);
  refreshKnownItems();
  const { bucketCount, bucketSize, fingerprintBits, semiSort } = params;
  resetBloomDeleteNote();
  player.load([
    stateFrame(
      readTable(),
      caption ??
        `An empty filter: ${bucketCount} buckets × ${bucketSize} slots of ${fingerprintBits}-bit fingerprints${semiSort ? ', semi-sorted' : ''}. ` +
          'Type an item and press Enter, or press n to insert numbered items; kicks start once buckets fill up.',
    ),
  ]);
}

/** Rebuilds the panels for the current parameters, keeping the filter. */
export function setupViews(): void {
  const { params, filter } = currentDemo();
  // The page's fixed texts of the other layout hide (style.css).
  document.documentElement.dataset.hashId = String(hashIdFor(params.bucketCount));
  // The example the item box offers and the relation panel works out: two different buckets, the general case.
  const example = exampleItem(filter);
  ui.item.placeholder = example;
  tableView.setup(params);
  relationView.setup(params, { item: example, where: locate(filter, example) });
  chainView.setup(params);
  showBloomSummary(null);
  showBloomVerdict(ui.bloomVerdict, params, currentDemo().maxLoad);
  semiBucketView.setup(params, filter);
  setupPaperViews(params, filter);
}
