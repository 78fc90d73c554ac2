// How build sizes its filter, and the line on stderr that says what it chose
// and why. A file is counted first and gets a CuckooFilter sized exactly for
// its items (what gets shipped is the fewest bytes for the rate); --capacity
// sizes for a number given instead. Standard input, or any input that cannot
// be read twice, gets a ScalableCuckooFilter that grows as the lines come (one
// pass, nothing held in memory), and so does a file with --growable.

import { CuckooFilter, ScalableCuckooFilter } from '../index.node.js';
import { DEFAULT_FPR } from './arguments.js';
import { CommandError } from './errors.js';
import { readLineBatches, type LineSource } from './input.js';
import { formatPercent, type Progress } from './output.js';

/** What build will make, and why. */
export type Sizing =
  | { readonly kind: 'sized'; readonly capacity: number; readonly counted: boolean }
  | { readonly kind: 'growable'; readonly initialCapacity: number | undefined; readonly why: string };

/** What the command line asked for: --capacity and --growable. */
export interface SizingRequest {
  readonly capacity: number | undefined;
  readonly growable: boolean;
}

/** The sizing for `source`: counting its lines (a first pass over it) when nothing else decides. */
export async function chooseSizing(source: LineSource, request: SizingRequest, progress: Progress): Promise<Sizing> {
  if (request.growable) return { kind: 'growable', initialCapacity: request.capacity, why: 'as --growable asks' };
  if (request.capacity !== undefined) return { kind: 'sized', capacity: request.capacity, counted: false };
  // Pipes and devices report no size: what they give cannot be read again.
  if (source.size === undefined) {
    const what = source.name === 'stdin' ? 'stdin' : `${source.name} is not a regular file and`;
    const why = `${what} cannot be read twice to count its lines first; --capacity N sizes a filter exactly, in fewer bytes`;
    return { kind: 'growable', initialCapacity: undefined, why };
  }
  let lines = 0;
  for await (const batch of readLineBatches(source, (done) => progress.show('counting lines', done, source.size, lines))) {
    lines += batch.length;
  }
  if (lines === 0) throw new CommandError(`${source.name} has no items (empty lines are skipped); nothing to build`);
  return { kind: 'sized', capacity: lines, counted: true };
}

/** The filter `sizing` describes; `fpr` or `seed` undefined takes the library's default. */
export function createFilter(
  sizing: Sizing,
  options: { fpr: number | undefined; seed: bigint | undefined; semiSort: boolean },
): CuckooFilter | ScalableCuckooFilter {
  const { fpr, seed, semiSort } = options;
  return sizing.kind === 'sized'
    ? CuckooFilter.create({ capacity: sizing.capacity, fpr, seed, semiSort })
    : ScalableCuckooFilter.create({ initialCapacity: sizing.initialCapacity, fpr, seed, semiSort });
}

/**
 * The line saying what `filter` is and why: the items it is sized for and
 * where that number came from, its table, and the bound on its rate.
 */
export function sizingReport(sizing: Sizing, filter: CuckooFilter | ScalableCuckooFilter, sourceName: string, fpr: number | undefined): string {
  const rate = fpr === undefined ? `--fpr ${DEFAULT_FPR}, the default` : `--fpr ${fpr}`;
  if (sizing.kind === 'growable') {
    const { initialCapacity, fpr: kept } = (filter as ScalableCuckooFilter).params;
    return (
      `growing as the lines come (${sizing.why}): ` +
      `${initialCapacity} items at first, FPR at most ${formatPercent(kept)} at every size (${rate})`
    );
  }
  const sized = filter as CuckooFilter;
  const { bucketCount, bucketSize, fingerprintBits } = sized.params;
  const items = sizing.counted ? `the ${sizing.capacity} items counted in ${sourceName}` : `--capacity ${sizing.capacity}`;
  return (
    `sized for ${items}: ${bucketCount} buckets of ${bucketSize} slots (${sized.slotCount}), ` +
    `${fingerprintBits}-bit fingerprints, FPR at most ${formatPercent(sized.fprBound)} (${rate})`
  );
}

/**
 * The error for a counted file that did not give the lines counted when read
 * again (`read` of them, or more when undefined: a filter sized for n items
 * holds n, so a refused add means more); undefined when it did, or when
 * nothing was counted.
 */
export function changedWhileRead(sizing: Sizing, sourceName: string, read?: number): CommandError | undefined {
  if (sizing.kind !== 'sized' || !sizing.counted || read === sizing.capacity) return undefined;
  return new CommandError(
    `${sourceName} changed while it was read (${sizing.capacity} lines counted, then ${read ?? 'more'} read); build again`,
  );
}
