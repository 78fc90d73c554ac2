// The lean module (cuckoo.wasm) leaves out what only Bloom filters show
// (bindings/facts_exports.cpp): the sentences of Bloom filters' statuses and
// of the retired kSemiSortRateOutOfRange, and the Bloom options. For every
// other status it gives what the full module gives. Only the main entry is
// imported at first (Jest gives each test file its own module registry), so
// init() loads the lean module; requiring cuckoo-wasm/bloom makes the next
// init() load the full one.
import { init } from 'cuckoo-wasm';
import { statusErrorCode, statusFormatCode, statusOptions, statusText } from '../../dist/cjs/facts';
import { requireRuntime } from '../../dist/cjs/loader';

// cuckoo::Status is a uint8_t enum: these are all the values it can have.
const everyStatus = Array.from({ length: 256 }, (_, status) => status);
// kSemiSortRateOutOfRange (11, never returned) and the Bloom filters' statuses (status.hpp).
const bloomOnly = new Set([11, 30, 31, 32, 33]);

/** Every fact the module gives of every status. */
function factsOfEveryStatus(): { text: string; formatCode: string; errorCode: string; options: string }[] {
  const runtime = requireRuntime('lean-facts.test');
  return everyStatus.map((status) => ({
    text: statusText(runtime, status),
    formatCode: statusFormatCode(runtime, status),
    errorCode: statusErrorCode(runtime, status),
    options: statusOptions(runtime, status),
  }));
}

test('the lean module gives the full module facts of every status but those only Bloom filters return', async () => {
  await init();
  expect(requireRuntime('lean-facts.test').kind).toBe('lean');
  const lean = factsOfEveryStatus();

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('cuckoo-wasm/bloom');
  await init();
  expect(requireRuntime('lean-facts.test').kind).toBe('full');
  const full = factsOfEveryStatus();

  for (const status of everyStatus) {
    if (bloomOnly.has(status)) {
      expect(full[status]!.text).not.toBe('unknown status');
      expect(lean[status]).toEqual({ ...full[status], text: 'unknown status', options: '' });
    } else {
      expect(lean[status]).toEqual(full[status]);
    }
  }
  // The Bloom options the lean module leaves out: the full module names them.
  expect([30, 31].map((status) => full[status]!.options)).toEqual(['bitCount', 'hashCount']);
});
