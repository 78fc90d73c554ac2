// A false positive, walked through (paper Sec. 3.2, eq. 5): items never added
// ("stranger-1", "stranger-2", …) are looked up by the core until one gets a
// "maybe"; then its lookup plays on the table slot by slot, each of the 2b
// slots of its two buckets compared with its fingerprint, until the one that
// matches, with the chance of it beside: at most 2b / 2^f, and at this load
// 1 − (1 − 2^−f)^(2b · load), the filter's own expected rate.

import { locate, traceHas, type LookupTrace } from 'cuckoo-wasm/inspect';
import { count, element, rate } from './format.js';
import { candidateMarks, frame, hashCaption, Notation, quoted, type Frame, type SlotMark, type TableState } from './frames.js';
import type { DemoParams } from './params.js';
import type { Demo } from './state.js';

/** Strangers looked up at most: a table this page draws answers "maybe" far sooner unless it is nearly empty. */
export const STRANGER_LIMIT = 200_000;

export interface FalsePositive {
  item: string;
  trace: LookupTrace;
  /** Strangers looked up, this one included. */
  tried: number;
  /** The slots compared, in order, each with its fingerprint; the last is the match (or the stash's). */
  compared: Array<{ bucket: number; slot: number; fingerprint: number }>;
  /** An item the page added whose fingerprint sits where the match is, if the page knows one. */
  owner: string | undefined;
}

/** The first stranger the filter answers "maybe" for; undefined if none of STRANGER_LIMIT is. */
export function findFalsePositive(d: Demo, table: TableState): FalsePositive | undefined {
  const added = new Set(d.items);
  const b = d.params.bucketSize;
  for (let n = 1; n <= STRANGER_LIMIT; n++) {
    const item = `stranger-${n}`;
    if (added.has(item)) continue;
    const trace = traceHas(d.filter, item);
    if (!trace.found) continue;
    const compared: FalsePositive['compared'] = [];
    const buckets = trace.i1 === trace.i2 ? [trace.i1] : [trace.i1, trace.i2];
    let matched = false;
    for (const bucket of buckets) {
      for (let slot = 0; slot < b && !matched; slot++) {
        const fingerprint = table.slots[bucket * b + slot]!;
        compared.push({ bucket, slot, fingerprint });
        matched = fingerprint === trace.fingerprint;
      }
    }
    const last = compared.at(-1)!;
    // The matching copy belongs to an added item with that fingerprint and that bucket among its two.
    const owner = matched
      ? d.items.find((other) => {
          const where = locate(d.filter, other);
          return where.fingerprint === trace.fingerprint && (where.i1 === last.bucket || where.i2 === last.bucket);
        })
      : undefined;
    return { item, trace, tried: n, compared, owner };
  }
  return undefined;
}

/** The chance of it: the bound, and the rate expected at the filter's load now. */
export function chances(d: Demo): { bound: number; expected: number; load: number } {
  return { bound: d.filter.fprBound, expected: d.filter.expectedFpr, load: d.filter.loadFactor };
}

/** The lookup's steps: its two buckets, then each slot compared in turn, the match last. */
export function falsePositiveFrames(found: FalsePositive, table: TableState, params: DemoParams): Frame[] {
  const n = new Notation(params);
  const b = params.bucketSize;
  const { item, trace } = found;
  const candidates = candidateMarks(trace);
  const frames = [
    frame(table, `${hashCaption('Look up', item, trace, n)} It was never added: every slot of these buckets that holds ${n.fp(trace.fingerprint)} is a false “maybe”.`, {
      bucketMarks: candidates,
    }),
  ];
  const done: Array<readonly [number, SlotMark]> = [];
  found.compared.forEach(({ bucket, slot, fingerprint }, k) => {
    const index = bucket * b + slot;
    const match = fingerprint === trace.fingerprint;
    const held = fingerprint === 0 ? 'is empty' : `holds ${n.fp(fingerprint)}`;
    const caption = match
      ? `Slot ${slot} of bucket ${bucket} holds ${n.fp(fingerprint)}: the same ${params.fingerprintBits} bits. The filter answers “maybe”, yet ${quoted(item)} was never added: a false positive.` +
        `${found.owner === undefined ? '' : ` The copy is ${quoted(found.owner)}’s, which shares the fingerprint and this bucket.`}`
      : `Slot ${slot} of bucket ${bucket} ${held}: ${fingerprint === 0 ? 'nothing to match' : `not ${n.fp(trace.fingerprint)}`}. ${k + 1} of at most ${candidates.length * b} compared.`;
    frames.push(frame(table, caption, { bucketMarks: candidates, slotMarks: [...done, [index, match ? 'match' : 'chosen']], pace: match ? 1 : 0.6 }));
    if (!match) done.push([index, 'removed']);
  });
  if (!found.compared.some(({ fingerprint }) => fingerprint === trace.fingerprint) && trace.inStash) {
    frames.push(frame(table, `No slot matches, but the stash holds ${n.fp(trace.fingerprint)} for one of these buckets: “maybe”, a false positive from the stash.`, { bucketMarks: candidates, stashMarked: true }));
  }
  return frames;
}

/** The panel's account of it: the comparisons as a list, and the chance beside them. */
export function showFalsePositive(list: HTMLOListElement, status: HTMLElement, found: FalsePositive | undefined, d: Demo): void {
  const n = new Notation(d.params);
  const { bound, expected, load } = chances(d);
  const { bucketSize: b, fingerprintBits: f } = d.params;
  const chance = `At most 2b / 2^f = ${2 * b} / ${count(2 ** f)} = ${rate(bound)} (eq. 5); at this load, ${rate(load)}, 1 − (1 − 2^−${f})^(${2 * b} × load) = ${rate(expected)}.`;
  if (found === undefined) {
    list.replaceChildren();
    status.textContent = `None of ${count(STRANGER_LIMIT)} items never added got a “maybe”${d.filter.size === 0 ? ': the table is empty, so nothing can match. Insert some items first.' : '.'} ${chance}`;
    return;
  }
  const { trace } = found;
  list.replaceChildren(
    ...found.compared.map(({ bucket, slot, fingerprint }) => {
      const match = fingerprint === trace.fingerprint;
      const li = element('li', match ? 'match' : '');
      Object.assign(li.dataset, { bucket: String(bucket), slot: String(slot), fp: String(fingerprint), match: String(match) });
      li.append(
        element('span', 'fp-where', `bucket ${bucket}, slot ${slot}`),
        element('span', 'fp-compare', `${fingerprint === 0 ? '·'.repeat(f) : n.fp(fingerprint)} ${match ? '=' : '≠'} ${n.fp(trace.fingerprint)}`),
        element('span', 'fp-verdict', match ? 'match: “maybe”' : fingerprint === 0 ? 'empty' : 'no'),
      );
      return li;
    }),
  );
  const expectTries = expected > 0 ? ` (at ${rate(expected)}, about ${count(Math.round(1 / expected))} are expected)` : '';
  status.textContent =
    `${quoted(found.item)} was never added, but its fingerprint ${n.fp(trace.fingerprint)} is in one of its buckets: ` +
    `${count(found.tried)} never-added ${found.tried === 1 ? 'item was' : 'items were'} looked up to find it${expectTries}. ${chance}`;
  Object.assign(status.dataset, { item: found.item, tried: String(found.tried), bound: String(bound), expected: String(expected) });
}
