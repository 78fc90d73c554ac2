#!/usr/bin/env node
// The experiments of paper_native.cpp on the wasm build through the public
// API: batch calls on BigUint64Array keys, the 8-byte items the native side
// inserts; `filters` also times has(bigint) on a prefix of each Figure 5
// workload. Same command line (paper_wasm.mjs load|space|filters|keys
// [options]), same JSON on stdout. Build first: bash scripts/build.

import { init, CuckooFilter } from 'cuckoo-wasm';
import { BloomFilter } from 'cuckoo-wasm/bloom';
import { generateKeys, SplitMix64 } from '../support/splitmix64.mjs';
import { addToFirstFailure, countOnes, timeSection, upperMedian } from '../support/measurement.mjs';
import { protocol } from './protocol.mjs';

const {
  bucketSize: TABLE3_BUCKET_SIZE, fingerprintBits: TABLE3_FINGERPRINT_BITS, semiSortedBits: TABLE3_SEMI_SORTED_BITS, bloomBitsPerItem: TABLE3_BLOOM_BITS_PER_ITEM,
} = protocol.table3;
const { maxKicks: MAX_KICKS, mixFractions: MIX_FRACTIONS, spaceSeries: SPACE_SERIES, streams } = protocol;
const streamState = (which) => (run) => streams.statesPerRun * run + streams[which];
const [presentState, absentState, choiceState] = ['present', 'absent', 'choices'].map(streamState);

function fail(message) {
  process.stderr.write(`paper_wasm: ${message}\n`);
  process.exit(2);
}

function parseList(text) {
  const values = [];
  for (const part of String(text).split(',')) {
    const [low, high] = part.split('-').map(Number);
    if (high === undefined) values.push(low);
    else for (let v = low; v <= high; v++) values.push(v);
  }
  return values;
}

/**
 * paper_native's command line, read generically: `--log2-per-call 14` sets
 * log2PerCall. run.mjs passes every size; run alone, each experiment takes
 * protocol.json's full plan (Figure 2: every size of it).
 */
function parseOptions([experiment, ...rest]) {
  if (!experiment) fail('usage: paper_wasm.mjs load|space|filters|keys [options] (as paper_native)');
  const { full } = protocol.plans;
  const plans = {
    load: { log2Buckets: [...full.load, full.loadWithinBudget].flatMap((spec) => spec.log2Buckets), runs: full.load[0].runs },
    space: full.space,
    filters: { ...full.filters, log2Buckets: [full.filters.log2Buckets] },
  };
  const o = { experiment, bucketSizes: protocol.load.bucketSizes, bits: parseList(protocol.load.fingerprintBits), firstRun: 1, run: 1, count: 4, ...plans[experiment] };
  const lists = new Set(['log2Buckets', 'bucketSizes', 'bits']);
  for (let i = 0; i < rest.length; i += 2) {
    if (!rest[i].startsWith('--') || rest[i + 1] === undefined) fail(`cannot read ${rest[i]} ${rest[i + 1] ?? ''}`);
    const name = rest[i].slice(2).replace(/-(\w)/g, (_, c) => c.toUpperCase());
    o[name] = lists.has(name) ? parseList(rest[i + 1]) : name === 'only' ? rest[i + 1].split(',') : Number(rest[i + 1]);
  }
  return o;
}

// ---------------------------------------------------------------- helpers

const optimalHashCount = (bitsPerItem) => Math.min(32, Math.max(1, Math.floor(Math.LN2 * bitsPerItem + 0.5)));

/** Sums the wall and CPU seconds of the sections it times (Stopwatch in bench_support.hpp). */
class Stopwatch {
  wall = 0;
  cpu = 0;
  time(body) {
    const t = timeSection(body);
    this.wall += t.wall;
    this.cpu += t.cpu;
    return t;
  }
}

/** Millions of operations per second by both clocks (Rate::of in paper_native.cpp). */
const rateOf = (operations, t) => ({ wall: operations / t.wall / 1e6, cpu: operations / (t.cpu > 0 ? t.cpu : t.wall) / 1e6 });

/** Adds `name` (wall-clock rate) and `nameCpu` (CPU-time rate) to `target`. */
function setRate(target, name, rate) {
  target[name] = rate.wall;
  target[`${name}Cpu`] = rate.cpu;
  return target;
}

/** The median rates of `repeats` passes of hasMany (lookupRate in paper_native.cpp), and the answers. */
function lookupRate(clock, filter, keys, repeats) {
  const wall = [];
  const cpu = [];
  let answers;
  for (let r = 0; r < repeats; r++) {
    const rate = rateOf(keys.length, clock.time(() => {
      answers = filter.hasMany(keys);
    }));
    wall.push(rate.wall);
    cpu.push(rate.cpu);
  }
  return { rate: { wall: upperMedian(wall), cpu: upperMedian(cpu) }, answers };
}

/** Keys [0, count) taken evenly from the first `stored` (spreadSample in paper_native.cpp). */
function spreadSample(keys, stored, count) {
  count = Math.min(count, stored);
  const sample = new BigUint64Array(count);
  const from = new Uint32Array(keys.buffer, keys.byteOffset, keys.length * 2);
  const to = new Uint32Array(sample.buffer);
  for (let j = 0; j < count; j++) {
    const index = Math.floor((j * stored) / count);
    to[2 * j] = from[2 * index];
    to[2 * j + 1] = from[2 * index + 1];
  }
  return sample;
}

/** Figure 5's workload, query for query as mixedQueries in paper_native.cpp. */
function mixedQueries(run, p, keys, stored, absent, count) {
  const choices = new SplitMix64(choiceState(run));
  const threshold = p * 2 ** 32;
  const queries = new BigUint64Array(count);
  const to = new Uint32Array(queries.buffer);
  const fromKeys = new Uint32Array(keys.buffer, keys.byteOffset, keys.length * 2);
  const fromAbsent = new Uint32Array(absent.buffer, absent.byteOffset, absent.length * 2);
  let nextAbsent = 0;
  for (let j = 0; j < count; j++) {
    choices.next();
    let from = fromAbsent;
    let index;
    if (choices.hi < threshold) {
      from = fromKeys;
      index = choices.lo % stored;
    } else {
      index = nextAbsent++ % absent.length;
    }
    to[2 * j] = from[2 * index];
    to[2 * j + 1] = from[2 * index + 1];
  }
  return queries;
}

/** body(filter), then the filter's wasm memory freed whatever happened. */
function using(filter, body) {
  try {
    return body(filter);
  } finally {
    filter.dispose();
  }
}

function makeCuckoo(bits, bucketSize, bucketCount, semiSort, seed) {
  return new CuckooFilter({ bucketCount, bucketSize, fingerprintBits: bits, maxKicks: MAX_KICKS, seed, semiSort });
}

/** Fills a filter to its first failure with `keys` (a slot's worth and one: enough); returns the size. */
const fillCuckoo = (filter, keys) => addToFirstFailure(filter, keys) && filter.size;

// ---------------------------------------------------------------- Figure 2

function runLoad(o) {
  const { log2Buckets, runs } = o;
  const rows = [];
  const keysByRun = new Map();
  for (const l of log2Buckets) {
    for (const b of o.bucketSizes) {
      const slots = b * 2 ** l;
      for (const f of o.bits) {
        for (let run = o.firstRun; run < o.firstRun + runs; run++) {
          let keys = keysByRun.get(run);
          if (!keys || keys.length < slots + 1) keysByRun.set(run, (keys = generateKeys(presentState(run), slots + 1)));
          using(makeCuckoo(f, b, 2 ** l, false, run), (filter) => {
            const items = fillCuckoo(filter, keys.subarray(0, slots + 1));
            rows.push({ log2Buckets: l, bucketSize: b, fingerprintBits: f, run, items, load: filter.loadFactor });
          });
        }
      }
    }
  }
  return { experiment: 'load', platform: 'wasm', runs, maxKicks: MAX_KICKS, rows };
}

// ---------------------------------------------------------------- Figures 3-4

function runSpace(o) {
  const { runs } = o;
  const slots = 2 ** o.log2Slots;
  const negatives = 2 ** o.log2Negatives;
  const rows = [];
  const keysOf = [];
  const absentOf = [];
  for (let run = 1; run <= runs; run++) {
    keysOf[run] = generateKeys(presentState(run), slots + 1);
    absentOf[run] = generateKeys(absentState(run), negatives);
  }
  for (const s of SPACE_SERIES) {
    for (let p = s.first; p <= s.last; p += s.step) {
      for (let run = 1; run <= runs; run++) {
        const keys = keysOf[run];
        const absent = absentOf[run];
        if (s.kind === 'cuckoo' || s.kind === 'semiSorted') {
          using(makeCuckoo(p, s.bucketSize, slots / s.bucketSize, s.kind === 'semiSorted', run), (filter) => {
            const items = fillCuckoo(filter, keys);
            rows.push({
              series: s.name, run, fingerprintBits: p, bucketSize: s.bucketSize, items,
              tableBits: Math.round(filter.bitsPerItem * items),
              falsePositives: countOnes(filter.hasMany(absent)),
              expectedFpr: filter.expectedFpr,
            });
          });
        } else {
          const hashCount = optimalHashCount(p);
          using(new BloomFilter({ bitCount: slots * p, hashCount, blocked: s.kind === 'blockedBloom', seed: run }), (filter) => {
            filter.addMany(keys.subarray(0, slots));
            rows.push({
              series: s.name, run, bitsPerItemTarget: p, hashCount, items: filter.size, tableBits: filter.bitCount,
              falsePositives: countOnes(filter.hasMany(absent)), expectedFpr: filter.expectedFpr,
            });
          });
        }
      }
    }
  }
  return { experiment: 'space', platform: 'wasm', runs, slots, negatives, rows };
}

// ---------------------------------------------------------------- Table 3 and Figures 5-8

// `limit`: the items a cuckoo filter takes to its first failure (found beforehand,
// untimed, by addToFirstFailure), so that the timed batches stop exactly there.
function measureFilter(name, filter, { canFail, canDelete }, capacity, limit, run, setup, keys, absent) {
  const clock = new Stopwatch();
  const window = Math.max(1, Math.ceil(setup.window * capacity));
  const negativeSample = absent.subarray(0, Math.min(setup.sample, absent.length));
  const occupancy = (items) => items / capacity;
  const result = { name, run, capacity, bitCount: setup.bitCount, windowItems: window };

  let stored = 0;
  let failed = false;
  const construction = { wall: 0, cpu: 0 };
  result.lookups = [];
  const measureLookups = () => {
    const positives = spreadSample(keys, stored, setup.sample);
    const point = setRate({ load: occupancy(stored) }, 'negativeMops', lookupRate(clock, filter, negativeSample, setup.repeats).rate);
    if (positives.length > 0) {
      const { rate, answers } = lookupRate(clock, filter, positives, setup.repeats);
      if (countOnes(answers) !== positives.length) fail(`${name}: a false negative`);
      setRate(point, 'positiveMops', rate);
    }
    result.lookups.push(point);
  };
  measureLookups();
  result.inserts = [];
  while (!failed && stored < limit) {
    const start = stored;
    const end = Math.min(limit, stored + window);
    const batch = keys.subarray(start, end);
    let added = 0;
    const t = clock.time(() => {
      added = filter.addMany(batch);
    });
    // A Bloom filter's addMany counts items that set a new bit; every item went in.
    if (canFail) {
      stored += added;
      failed = added < batch.length;
    } else {
      stored = end;
    }
    construction.wall += t.wall;
    construction.cpu += t.cpu;
    if (stored > start) result.inserts.push(setRate({ loadStart: occupancy(start), loadEnd: occupancy(stored) }, 'mops', rateOf(stored - start, t)));
    measureLookups();
  }

  let answers;
  const negativeTime = clock.time(() => {
    answers = filter.hasMany(absent);
  });
  const items = filter.size;
  Object.assign(result, { items, load: occupancy(items), bitsPerItem: filter.bitsPerItem, constructSeconds: construction.wall });
  setRate(result, 'constructMops', rateOf(items, construction));
  Object.assign(result, { negatives: absent.length, falsePositives: countOnes(answers) });
  setRate(result, 'fullNegativeMops', rateOf(absent.length, negativeTime));
  result.expectedFpr = filter.expectedFpr;

  result.mixes = [];
  for (const p of MIX_FRACTIONS) {
    const queries = mixedQueries(run, p, keys, stored, absent, setup.queries);
    const batch = lookupRate(clock, filter, queries, setup.repeats);
    // The per-call API on a prefix: each element read is a new bigint, as a caller holding bigint keys would pass.
    const prefix = queries.subarray(0, Math.min(queries.length, setup.perCall));
    let perCallHits = 0;
    const perCallTime = clock.time(() => {
      for (let i = 0; i < prefix.length; i++) if (filter.has(prefix[i])) perCallHits++;
    });
    const mix = setRate({ p }, 'mops', batch.rate);
    mix.hits = countOnes(batch.answers);
    setRate(mix, 'perCallMops', rateOf(prefix.length, perCallTime));
    Object.assign(mix, { perCallQueries: prefix.length, perCallHits });
    result.mixes.push(mix);
  }

  if (canDelete) {
    result.deletes = [];
    let deleted = 0;
    while (deleted < stored) {
      const start = deleted;
      const end = Math.min(stored, deleted + window);
      const batch = keys.subarray(start, end);
      let erased = 0;
      const t = clock.time(() => {
        erased = filter.deleteMany(batch);
      });
      if (erased !== end - start) fail(`${name}: a delete found nothing`);
      deleted = end;
      result.deletes.push(setRate({ loadStart: occupancy(stored - start), loadEnd: occupancy(stored - end) }, 'mops', rateOf(end - start, t)));
    }
    if (filter.size !== 0) fail(`${name}: not empty after deleting every item`);
  }
  result.cpuShare = clock.cpu / clock.wall;
  return result;
}

function runFilters(o) {
  const log2Buckets = o.log2Buckets[0];
  const bucketCount = 2 ** log2Buckets;
  const cuckooSlots = bucketCount * TABLE3_BUCKET_SIZE;
  const bitCount = cuckooSlots * TABLE3_FINGERPRINT_BITS;
  const bloomCapacity = Math.floor(bitCount / TABLE3_BLOOM_BITS_PER_ITEM);
  const bloomHashCount = optimalHashCount(TABLE3_BLOOM_BITS_PER_ITEM);
  const setup = {
    bitCount,
    window: o.window,
    sample: 2 ** o.log2Sample,
    queries: 2 ** o.log2Queries,
    perCall: 2 ** o.log2PerCall,
    repeats: o.repeats,
  };
  const { runs } = o;
  const wanted = (name) => !o.only || o.only.includes(name);
  const results = [];
  const cuckoo = { canFail: true, canDelete: true };
  const bloom = { canFail: false, canDelete: false };
  for (let run = 1; run <= runs; run++) {
    const keys = generateKeys(presentState(run), cuckooSlots + 1);
    const absent = generateKeys(absentState(run), 2 ** o.log2Negatives);
    const candidates = [
      ['CF', () => makeCuckoo(TABLE3_FINGERPRINT_BITS, TABLE3_BUCKET_SIZE, bucketCount, false, run), cuckoo, cuckooSlots],
      ['ss-CF', () => makeCuckoo(TABLE3_SEMI_SORTED_BITS, TABLE3_BUCKET_SIZE, bucketCount, true, run), cuckoo, cuckooSlots],
      ['BF', () => new BloomFilter({ bitCount, hashCount: bloomHashCount, seed: run }), bloom, bloomCapacity],
      ['blk-BF', () => new BloomFilter({ bitCount, hashCount: bloomHashCount, blocked: true, seed: run }), bloom, bloomCapacity],
    ];
    for (const [name, make, traits, capacity] of candidates) {
      if (!wanted(name)) continue;
      process.stderr.write(`paper_wasm: run ${run} ${name}\n`);
      const limit = traits.canFail ? using(make(), (filter) => addToFirstFailure(filter, keys)) : capacity;
      results.push(using(make(), (filter) => measureFilter(name, filter, traits, capacity, limit, run, setup, keys, absent)));
    }
  }
  return {
    experiment: 'filters', platform: 'wasm', runs, log2Buckets, bitCount, bloomHashCount, window: o.window,
    negatives: 2 ** o.log2Negatives, queries: setup.queries, sample: setup.sample, repeats: setup.repeats, perCall: setup.perCall, results,
  };
}

function runKeys(o) {
  const stream = (state) => Array.from(generateKeys(state, o.count), String);
  return {
    experiment: 'keys', platform: 'wasm', run: o.run,
    present: stream(presentState(o.run)), absent: stream(absentState(o.run)), choices: stream(choiceState(o.run)),
  };
}

/**
 * V8 first runs wasm through its baseline compiler and swaps in optimised
 * code for hot functions later, and the per-call path runs through the JIT:
 * a small workload on every filter kind first, so that no timed window pays
 * for either.
 */
function warmUp() {
  const keys = generateKeys(presentState(99), 1 << 18);
  const filters = [
    makeCuckoo(12, 4, 1 << 16, false, 1),
    makeCuckoo(13, 4, 1 << 16, true, 1),
    new BloomFilter({ bitCount: 1 << 22, hashCount: 9 }),
    new BloomFilter({ bitCount: 1 << 22, hashCount: 9, blocked: true }),
  ];
  for (const filter of filters) {
    for (let round = 0; round < 3; round++) {
      filter.addMany(keys.subarray(0, 200_000));
      filter.hasMany(keys);
      for (let i = 0; i < 50_000; i++) filter.has(keys[i]);
      if (filter instanceof CuckooFilter) filter.deleteMany(keys.subarray(0, filter.size));
    }
    filter.dispose();
  }
}

const options = parseOptions(process.argv.slice(2));
await init();
if (options.experiment === 'filters') warmUp();
const experiments = { load: runLoad, space: runSpace, filters: runFilters, keys: runKeys };
if (!experiments[options.experiment]) fail(`unknown experiment ${options.experiment} (load, space, filters or keys)`);
process.stdout.write(`${JSON.stringify(experiments[options.experiment](options))}\n`);
