// The evaluation of Fan et al., "Cuckoo Filter: Practically Better Than Bloom"
// (CoNEXT 2014), Sections 4, 5 and 7, on the native core. bench/paper/run.mjs
// runs it; bench/paper/paper_wasm.mjs prints the same JSON from the wasm build.
//
//   paper_native load    [--log2-buckets 15,20] [--bucket-sizes 4,8] [--bits 2-20] [--runs 10] [--first-run 1] [--threads N]
//       Figure 2: load factor at the first failed insert, runs first-run .. first-run + runs - 1.
//   paper_native space   [--log2-slots 20] [--runs 2] [--log2-negatives 22] [--threads N]
//       Figures 3-4: bits per item against measured false-positive rate.
//   paper_native filters [--log2-buckets 22] [--runs 1] [--log2-negatives 22] [--log2-queries 21]
//                        [--log2-sample 18] [--window 0.05] [--repeats 3] [--only CF,ss-CF,BF,blk-BF]
//       Table 3 and Figures 5-8: CF (f=12), ss-CF (f=13), BF and blk-BF in the
//       same number of bits, filled window by window. Lookup rates are the
//       median of `repeats` passes (lookups leave the filter unchanged).
//   paper_native keys    [--run 1] [--count 4]
//       The first keys of run 1's streams, so the wasm side can check its copy of the generator.
//
// Keys are random 64-bit integers inserted as 8-byte items, from SplitMix64
// streams (cuckoo/prng.hpp) started at fixed states per run r: present keys
// 1000r+1, absent keys 1000r+2, query choices 1000r+3. The generator's
// finaliser is a bijection of its state, and states that close together are
// more than 2^48 steps apart on its cycle, so no absent key equals a present
// one: every "yes" to an absent key is a false positive. The filter seed is r.
//
// Only the timed loops are timed, by std::chrono::steady_clock and by the
// process's CPU time (std::clock); key generation and sampling happen before. Load factors and false-positive counts depend
// only on the keys and seeds, so the wasm build reproduces them exactly.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cuckoo/bloom_filter.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/prng.hpp"
#include "support/bench_support.hpp"

namespace {

using bench::Json;
using bench::parallelFor;
using bench::Rate;
using bench::Stopwatch;
using bench::Timing;
using bench::parseUnsignedList;
using bench::splitList;
using Key = std::uint64_t;

constexpr unsigned kTable3BucketSize = 4;
constexpr unsigned kTable3FingerprintBits = 12;
constexpr unsigned kTable3SemiSortedBits = 13;  // 4 * 13 - 4 = 48 bits a bucket, as 4 * 12
constexpr double kTable3BloomBitsPerItem = 13.0;  // the paper's Bloom filters: 13 bits an item, k = 9

cuckoo::SplitMix64 presentStream(unsigned run) { return cuckoo::SplitMix64(1000ULL * run + 1); }
cuckoo::SplitMix64 absentStream(unsigned run) { return cuckoo::SplitMix64(1000ULL * run + 2); }
cuckoo::SplitMix64 choiceStream(unsigned run) { return cuckoo::SplitMix64(1000ULL * run + 3); }

std::vector<Key> generate(cuckoo::SplitMix64 stream, std::uint64_t count) {
  std::vector<Key> keys(count);
  for (Key& key : keys) key = stream.next();
  return keys;
}

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "paper_native: %s\n", message.c_str());
  std::exit(2);
}

// ---------------------------------------------------------------- arguments

struct Options {
  std::string experiment;
  std::vector<unsigned> log2Buckets;
  std::vector<unsigned> bucketSizes{4, 8};
  std::vector<unsigned> bits;
  unsigned log2Slots = 20;
  unsigned runs = 0;
  unsigned firstRun = 1;
  unsigned repeats = 3;
  unsigned log2Negatives = 22;
  unsigned log2Queries = 21;
  unsigned log2Sample = 18;
  double window = 0.05;
  unsigned threads = 0;
  unsigned run = 1;
  unsigned count = 4;
  std::vector<std::string> only;
};

Options parseOptions(int argc, char** argv) {
  if (argc < 2) fail("usage: paper_native load|space|filters|keys [options] (see the top of paper_native.cpp)");
  Options o;
  o.experiment = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) fail("missing value after " + arg);
    const std::string value = argv[++i];
    if (arg == "--log2-buckets") o.log2Buckets = parseUnsignedList(value);
    else if (arg == "--bucket-sizes") o.bucketSizes = parseUnsignedList(value);
    else if (arg == "--bits") o.bits = parseUnsignedList(value);
    else if (arg == "--log2-slots") o.log2Slots = static_cast<unsigned>(std::stoul(value));
    else if (arg == "--runs") o.runs = static_cast<unsigned>(std::stoul(value));
    else if (arg == "--first-run") o.firstRun = static_cast<unsigned>(std::stoul(value));
    else if (arg == "--repeats") o.repeats = std::max(1UL, std::stoul(value));
    else if (arg == "--log2-negatives") o.log2Negatives = static_cast<unsigned>(std::stoul(value));
    else if (arg == "--log2-queries") o.log2Queries = static_cast<unsigned>(std::stoul(value));
    else if (arg == "--log2-sample") o.log2Sample = static_cast<unsigned>(std::stoul(value));
    else if (arg == "--window") o.window = std::stod(value);
    else if (arg == "--threads") o.threads = static_cast<unsigned>(std::stoul(value));
    else if (arg == "--run") o.run = static_cast<unsigned>(std::stoul(value));
    else if (arg == "--count") o.count = static_cast<unsigned>(std::stoul(value));
    else if (arg == "--only") o.only = splitList(value);
    else fail("unknown option " + arg);
  }
  if (o.threads == 0) o.threads = std::max(1U, std::thread::hardware_concurrency());
  return o;
}

cuckoo::CuckooFilter makeCuckoo(unsigned bits, unsigned bucketSize, std::uint64_t bucketCount, bool semiSort,
                                std::uint64_t seed) {
  cuckoo::FilterParams params;
  params.fingerprintBits = bits;
  params.bucketSize = bucketSize;
  params.bucketCount = bucketCount;
  params.semiSort = semiSort;
  params.seed = seed;
  cuckoo::CuckooFilter filter;
  const cuckoo::Status status = cuckoo::CuckooFilter::create(params, filter);
  if (status != cuckoo::Status::kOk) fail(std::string("cannot create a cuckoo filter: ") + cuckoo::statusMessage(status));
  return filter;
}

template <class Bloom>
Bloom makeBloom(std::uint64_t bitCount, unsigned hashCount, std::uint64_t seed) {
  cuckoo::BloomParams params;
  params.bitCount = bitCount;
  params.hashCount = hashCount;
  params.seed = seed;
  Bloom filter;
  const cuckoo::Status status = Bloom::create(params, filter);
  if (status != cuckoo::Status::kOk) fail(std::string("cannot create a Bloom filter: ") + cuckoo::statusMessage(status));
  return filter;
}

// ---------------------------------------------------------------- Figure 2

int runLoad(const Options& o) {
  const std::vector<unsigned> log2Buckets = o.log2Buckets.empty() ? std::vector<unsigned>{15, 20} : o.log2Buckets;
  const std::vector<unsigned> bits = o.bits.empty() ? parseUnsignedList("2-20") : o.bits;
  const unsigned runs = o.runs ? o.runs : 10;
  struct Task {
    unsigned log2Buckets, bucketSize, bits, run;
    std::uint64_t items = 0;
    double load = 0;
  };
  std::vector<Task> tasks;
  for (unsigned l : log2Buckets)
    for (unsigned b : o.bucketSizes)
      for (unsigned f : bits)
        for (unsigned r = o.firstRun; r < o.firstRun + runs; ++r) tasks.push_back({l, b, f, r});
  // Largest first, so that the threads finish together.
  std::vector<std::size_t> order(tasks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return tasks[a].log2Buckets + tasks[a].bucketSize / 8 > tasks[b].log2Buckets + tasks[b].bucketSize / 8;
  });
  parallelFor(tasks.size(), o.threads, [&](std::size_t i) {
    Task& t = tasks[order[i]];
    cuckoo::CuckooFilter filter = makeCuckoo(t.bits, t.bucketSize, std::uint64_t{1} << t.log2Buckets, false, t.run);
    cuckoo::SplitMix64 keys = presentStream(t.run);
    // The first insert that runs out of evictions parks its victim in the
    // stash and still succeeds; that is the paper's first failure.
    while (!filter.isFull()) {
      const Key key = keys.next();
      filter.insert(&key, sizeof key);
    }
    t.items = filter.itemCount();
    t.load = filter.stats().loadFactor;
  });
  Json json;
  json.open('{').field("experiment", "load").field("platform", "native").field("runs", runs);
  json.field("maxKicks", cuckoo::kDefaultMaxKicks).key("rows").open('[');
  for (const Task& t : tasks) {
    json.open('{').field("log2Buckets", t.log2Buckets).field("bucketSize", t.bucketSize).field("fingerprintBits", t.bits);
    json.field("run", t.run).field("items", t.items).field("load", t.load).close('}');
  }
  json.close(']').close('}');
  std::printf("%s\n", json.text().c_str());
  return 0;
}

// ---------------------------------------------------------------- Figures 3-4

struct SpaceSeries {
  const char* name;
  enum Kind { kCuckoo, kSemiSorted, kBloom, kBlockedBloom } kind;
  unsigned bucketSize;
  unsigned first, last, step;  // fingerprint bits, or Bloom bits per item
};

// Fingerprint ranges chosen so that 2b * load / 2^f spans about 10% .. 10^-5,
// the range of the paper's Figures 3 and 4.
const SpaceSeries kSpaceSeries[] = {
    {"b=2", SpaceSeries::kCuckoo, 2, 5, 18, 1},
    {"b=4", SpaceSeries::kCuckoo, 4, 6, 19, 1},
    {"b=8", SpaceSeries::kCuckoo, 8, 7, 20, 1},
    {"ss-CF", SpaceSeries::kSemiSorted, 4, 6, 19, 1},
    {"BF", SpaceSeries::kBloom, 0, 4, 24, 2},
    {"blk-BF", SpaceSeries::kBlockedBloom, 0, 4, 24, 2},
};

int runSpace(const Options& o) {
  const unsigned runs = o.runs ? o.runs : 2;
  const std::uint64_t slots = std::uint64_t{1} << o.log2Slots;
  const std::uint64_t negatives = std::uint64_t{1} << o.log2Negatives;
  struct Task {
    const SpaceSeries* series;
    unsigned parameter, run;
    unsigned hashCount = 0;
    std::uint64_t items = 0, tableBits = 0, falsePositives = 0;
    double expectedFpr = 0;
  };
  std::vector<Task> tasks;
  for (const SpaceSeries& s : kSpaceSeries)
    for (unsigned p = s.first; p <= s.last; p += s.step)
      for (unsigned r = 1; r <= runs; ++r) tasks.push_back({&s, p, r});

  parallelFor(tasks.size(), o.threads, [&](std::size_t i) {
    Task& t = tasks[i];
    cuckoo::SplitMix64 present = presentStream(t.run);
    cuckoo::SplitMix64 absent = absentStream(t.run);
    const auto countFalsePositives = [&](const auto& filter) {
      std::uint64_t hits = 0;
      for (std::uint64_t q = 0; q < negatives; ++q) {
        const Key key = absent.next();
        hits += filter.contains(&key, sizeof key);
      }
      return hits;
    };
    if (t.series->kind == SpaceSeries::kCuckoo || t.series->kind == SpaceSeries::kSemiSorted) {
      // Every bucket size gets the same number of slots, so the same item count.
      cuckoo::CuckooFilter filter = makeCuckoo(t.parameter, t.series->bucketSize, slots / t.series->bucketSize,
                                               t.series->kind == SpaceSeries::kSemiSorted, t.run);
      while (!filter.isFull()) {
        const Key key = present.next();
        filter.insert(&key, sizeof key);
      }
      const cuckoo::FilterStats stats = filter.stats();
      t.items = stats.itemCount;
      t.tableBits = static_cast<std::uint64_t>(std::llround(stats.bitsPerItem * static_cast<double>(stats.itemCount)));
      t.expectedFpr = stats.expectedFalsePositiveRate;
      t.falsePositives = countFalsePositives(filter);
    } else {
      // A space-optimised Bloom filter: `slots` items in parameter bits each, k optimal.
      const std::uint64_t bitCount = slots * t.parameter;
      t.hashCount = cuckoo::optimalBloomHashCount(t.parameter);
      const auto fill = [&](auto filter) {
        for (std::uint64_t n = 0; n < slots; ++n) {
          const Key key = present.next();
          filter.insert(&key, sizeof key);
        }
        const cuckoo::BloomStats stats = filter.stats();
        t.items = stats.itemCount;
        t.tableBits = stats.bitCount;
        t.expectedFpr = stats.expectedFalsePositiveRate;
        t.falsePositives = countFalsePositives(filter);
      };
      if (t.series->kind == SpaceSeries::kBloom) fill(makeBloom<cuckoo::StandardBloomFilter>(bitCount, t.hashCount, t.run));
      else fill(makeBloom<cuckoo::BlockedBloomFilter>(bitCount, t.hashCount, t.run));
    }
  });

  Json json;
  json.open('{').field("experiment", "space").field("platform", "native").field("runs", runs);
  json.field("slots", slots).field("negatives", negatives).key("rows").open('[');
  for (const Task& t : tasks) {
    const bool bloom = t.series->kind == SpaceSeries::kBloom || t.series->kind == SpaceSeries::kBlockedBloom;
    json.open('{').field("series", t.series->name).field("run", t.run);
    if (bloom) json.field("bitsPerItemTarget", t.parameter).field("hashCount", t.hashCount);
    else json.field("fingerprintBits", t.parameter).field("bucketSize", t.series->bucketSize);
    json.field("items", t.items).field("tableBits", t.tableBits).field("falsePositives", t.falsePositives);
    json.field("expectedFpr", t.expectedFpr).close('}');
  }
  json.close(']').close('}');
  std::printf("%s\n", json.text().c_str());
  return 0;
}

// ---------------------------------------------------------------- Table 3 and Figures 5-8

// "name": the wall-clock rate, "nameCpu": the CPU-time rate.
void rateFields(Json& json, const char* name, Rate rate) {
  json.field(name, rate.wall).field((std::string(name) + "Cpu").c_str(), rate.cpu);
}

class CuckooUnderTest {
 public:
  static constexpr bool kCanFail = true;
  static constexpr bool kCanDelete = true;
  explicit CuckooUnderTest(cuckoo::CuckooFilter filter) : filter_(std::move(filter)) {}
  bool insert(Key key) { return filter_.insert(&key, sizeof key); }
  bool contains(Key key) const { return filter_.contains(&key, sizeof key); }
  bool erase(Key key) { return filter_.erase(&key, sizeof key); }
  std::uint64_t items() const { return filter_.itemCount(); }
  double bitsPerItem() const { return filter_.stats().bitsPerItem; }
  double expectedFpr() const { return filter_.stats().expectedFalsePositiveRate; }

 private:
  cuckoo::CuckooFilter filter_;
};

template <class Bloom>
class BloomUnderTest {
 public:
  static constexpr bool kCanFail = false;
  static constexpr bool kCanDelete = false;
  explicit BloomUnderTest(Bloom filter) : filter_(std::move(filter)) {}
  bool insert(Key key) {
    filter_.insert(&key, sizeof key);
    return true;
  }
  bool contains(Key key) const { return filter_.contains(&key, sizeof key); }
  bool erase(Key) { return false; }
  std::uint64_t items() const { return filter_.itemCount(); }
  double bitsPerItem() const { return filter_.stats().bitsPerItem; }
  double expectedFpr() const { return filter_.stats().expectedFalsePositiveRate; }

 private:
  Bloom filter_;
};

struct FiltersSetup {
  unsigned log2Buckets;
  std::uint64_t bitCount;       // every filter's size
  std::uint64_t cuckooSlots;    // m * b
  std::uint64_t bloomCapacity;  // bitCount / 13
  std::uint64_t negatives, queries, sample;
  double window;
  unsigned repeats;
};

template <class Filter>
std::uint64_t countHits(const Filter& filter, const Key* keys, std::uint64_t count) {
  std::uint64_t hits = 0;
  for (std::uint64_t i = 0; i < count; ++i) hits += filter.contains(keys[i]);
  return hits;
}

// `count` stored keys spread evenly over the first `stored`, for positive lookups.
std::vector<Key> spreadSample(const std::vector<Key>& keys, std::uint64_t stored, std::uint64_t count) {
  count = std::min(count, stored);
  std::vector<Key> sample(count);
  for (std::uint64_t j = 0; j < count; ++j) sample[j] = keys[j * stored / count];
  return sample;
}

// Figure 5's workload: query j is positive when the high half of draw j is
// below p * 2^32, then it is stored key (low half mod stored); otherwise the
// next absent key. paper_wasm.mjs builds the same queries.
std::vector<Key> mixedQueries(unsigned run, double p, const std::vector<Key>& keys, std::uint64_t stored,
                              const std::vector<Key>& absent, std::uint64_t count) {
  cuckoo::SplitMix64 choices = choiceStream(run);
  const std::uint64_t threshold = static_cast<std::uint64_t>(p * 4294967296.0);
  std::vector<Key> queries(count);
  std::uint64_t nextAbsent = 0;
  for (Key& q : queries) {
    const std::uint64_t draw = choices.next();
    if ((draw >> 32) < threshold) q = keys[(draw & 0xFFFFFFFFU) % stored];
    else q = absent[nextAbsent++ % absent.size()];
  }
  return queries;
}

// The median rates of `repeats` passes of a lookup loop (each clock's own
// median): one pass that the scheduler interrupted does not move them.
template <class Filter>
Rate lookupRate(Stopwatch& clock, const Filter& filter, const Key* keys, std::uint64_t count, unsigned repeats,
                std::uint64_t& hits) {
  std::vector<double> wall, cpu;
  for (unsigned r = 0; r < repeats; ++r) {
    const Rate rate = Rate::of(static_cast<double>(count), clock.time([&] { hits = countHits(filter, keys, count); }));
    wall.push_back(rate.wall);
    cpu.push_back(rate.cpu);
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  bench::gSink = hits;
  return Rate{wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

template <class Filter>
void measureFilter(Json& json, const char* name, Filter filter, std::uint64_t capacity, unsigned run,
                   const FiltersSetup& setup, const std::vector<Key>& keys, const std::vector<Key>& absent) {
  Stopwatch clock;
  const std::uint64_t window = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(setup.window * static_cast<double>(capacity))));
  const std::uint64_t negativeSample = std::min<std::uint64_t>(setup.sample, absent.size());
  const auto occupancy = [&](std::uint64_t items) { return static_cast<double>(items) / static_cast<double>(capacity); };

  json.open('{').field("name", name).field("run", run).field("capacity", capacity);
  json.field("bitCount", setup.bitCount).field("windowItems", window);

  // Figures 6 and 7: lookups at each occupancy, inserts window by window.
  std::uint64_t stored = 0;
  bool failed = false;
  Timing construction;
  json.key("lookups").open('[');
  const auto measureLookups = [&] {
    const std::vector<Key> positives = spreadSample(keys, stored, setup.sample);
    std::uint64_t hits = 0, falseHits = 0;
    const Rate negative = lookupRate(clock, filter, absent.data(), negativeSample, setup.repeats, falseHits);
    json.open('{').field("load", occupancy(stored));
    rateFields(json, "negativeMops", negative);
    if (!positives.empty()) {
      rateFields(json, "positiveMops", lookupRate(clock, filter, positives.data(), positives.size(), setup.repeats, hits));
      if (hits != positives.size()) fail(std::string(name) + ": a false negative");
    }
    json.close('}');
  };
  measureLookups();
  struct Window {
    double loadStart, loadEnd;
    Rate rate;
  };
  std::vector<Window> inserts;
  while (!failed && stored < capacity) {
    const std::uint64_t start = stored;
    const std::uint64_t end = std::min(capacity, stored + window);
    const Timing t = clock.time([&] {
      while (stored < end) {
        if (!filter.insert(keys[stored])) {
          failed = true;
          break;
        }
        ++stored;
      }
    });
    construction.wall += t.wall;
    construction.cpu += t.cpu;
    if (stored > start) inserts.push_back({occupancy(start), occupancy(stored), Rate::of(static_cast<double>(stored - start), t)});
    measureLookups();
  }
  json.close(']');
  json.key("inserts").open('[');
  for (const Window& w : inserts) {
    json.open('{').field("loadStart", w.loadStart).field("loadEnd", w.loadEnd);
    rateFields(json, "mops", w.rate);
    json.close('}');
  }
  json.close(']');

  // Table 3.
  std::uint64_t falsePositives = 0;
  const Timing negativeTime = clock.time([&] { falsePositives = countHits(filter, absent.data(), absent.size()); });
  json.field("items", filter.items()).field("load", occupancy(filter.items()));
  json.field("bitsPerItem", filter.bitsPerItem()).field("constructSeconds", construction.wall);
  rateFields(json, "constructMops", Rate::of(static_cast<double>(filter.items()), construction));
  json.field("negatives", absent.size()).field("falsePositives", falsePositives);
  rateFields(json, "fullNegativeMops", Rate::of(static_cast<double>(absent.size()), negativeTime));
  json.field("expectedFpr", filter.expectedFpr());

  // Figure 5.
  json.key("mixes").open('[');
  for (const double p : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    const std::vector<Key> queries = mixedQueries(run, p, keys, stored, absent, setup.queries);
    std::uint64_t hits = 0;
    const Rate rate = lookupRate(clock, filter, queries.data(), queries.size(), setup.repeats, hits);
    json.open('{').field("p", p);
    rateFields(json, "mops", rate);
    json.field("hits", hits).close('}');
  }
  json.close(']');

  // Figure 8: deletes in insertion order, window by window, until empty.
  if constexpr (Filter::kCanDelete) {
    json.key("deletes").open('[');
    std::uint64_t deleted = 0;
    while (deleted < stored) {
      const std::uint64_t start = deleted;
      const std::uint64_t end = std::min(stored, deleted + window);
      std::uint64_t erased = 0;
      const Timing t = clock.time([&] {
        for (; deleted < end; ++deleted) erased += filter.erase(keys[deleted]);
      });
      if (erased != end - start) fail(std::string(name) + ": a delete found nothing");
      json.open('{').field("loadStart", occupancy(stored - start)).field("loadEnd", occupancy(stored - end));
      rateFields(json, "mops", Rate::of(static_cast<double>(end - start), t));
      json.close('}');
    }
    json.close(']');
    if (filter.items() != 0) fail(std::string(name) + ": not empty after deleting every item");
  }
  json.field("cpuShare", clock.cpuShare()).close('}');
}

int runFilters(const Options& o) {
  FiltersSetup setup{};
  setup.log2Buckets = o.log2Buckets.empty() ? 22 : o.log2Buckets.front();
  const std::uint64_t bucketCount = std::uint64_t{1} << setup.log2Buckets;
  setup.cuckooSlots = bucketCount * kTable3BucketSize;
  setup.bitCount = setup.cuckooSlots * kTable3FingerprintBits;
  setup.bloomCapacity = static_cast<std::uint64_t>(static_cast<double>(setup.bitCount) / kTable3BloomBitsPerItem);
  setup.negatives = std::uint64_t{1} << o.log2Negatives;
  setup.queries = std::uint64_t{1} << o.log2Queries;
  setup.sample = std::uint64_t{1} << o.log2Sample;
  setup.window = o.window;
  setup.repeats = o.repeats;
  const unsigned runs = o.runs ? o.runs : 1;
  const unsigned bloomHashes = cuckoo::optimalBloomHashCount(kTable3BloomBitsPerItem);
  const auto wanted = [&](const char* name) {
    return o.only.empty() || std::find(o.only.begin(), o.only.end(), name) != o.only.end();
  };

  Json json;
  json.open('{').field("experiment", "filters").field("platform", "native").field("runs", runs);
  json.field("log2Buckets", setup.log2Buckets).field("bitCount", setup.bitCount);
  json.field("bloomHashCount", bloomHashes).field("window", setup.window).field("negatives", setup.negatives);
  json.field("queries", setup.queries).field("sample", setup.sample).field("repeats", setup.repeats);
  json.key("results").open('[');
  for (unsigned run = 1; run <= runs; ++run) {
    const std::vector<Key> keys = generate(presentStream(run), setup.cuckooSlots + 1);
    const std::vector<Key> absent = generate(absentStream(run), setup.negatives);
    if (wanted("CF")) {
      std::fprintf(stderr, "paper_native: run %u CF\n", run);
      measureFilter(json, "CF", CuckooUnderTest(makeCuckoo(kTable3FingerprintBits, kTable3BucketSize, bucketCount, false, run)),
                    setup.cuckooSlots, run, setup, keys, absent);
    }
    if (wanted("ss-CF")) {
      std::fprintf(stderr, "paper_native: run %u ss-CF\n", run);
      measureFilter(json, "ss-CF", CuckooUnderTest(makeCuckoo(kTable3SemiSortedBits, kTable3BucketSize, bucketCount, true, run)),
                    setup.cuckooSlots, run, setup, keys, absent);
    }
    if (wanted("BF")) {
      std::fprintf(stderr, "paper_native: run %u BF\n", run);
      measureFilter(json, "BF",
                    BloomUnderTest<cuckoo::StandardBloomFilter>(makeBloom<cuckoo::StandardBloomFilter>(setup.bitCount, bloomHashes, run)),
                    setup.bloomCapacity, run, setup, keys, absent);
    }
    if (wanted("blk-BF")) {
      std::fprintf(stderr, "paper_native: run %u blk-BF\n", run);
      measureFilter(json, "blk-BF",
                    BloomUnderTest<cuckoo::BlockedBloomFilter>(makeBloom<cuckoo::BlockedBloomFilter>(setup.bitCount, bloomHashes, run)),
                    setup.bloomCapacity, run, setup, keys, absent);
    }
  }
  json.close(']').close('}');
  std::printf("%s\n", json.text().c_str());
  return 0;
}

int runKeys(const Options& o) {
  Json json;
  json.open('{').field("experiment", "keys").field("platform", "native").field("run", o.run);
  const auto stream = [&](const char* name, cuckoo::SplitMix64 s) {
    json.key(name).open('[');
    // As strings: JSON numbers lose precision above 2^53.
    for (unsigned i = 0; i < o.count; ++i) json.string(std::to_string(s.next()));
    json.close(']');
  };
  stream("present", presentStream(o.run));
  stream("absent", absentStream(o.run));
  stream("choices", choiceStream(o.run));
  json.close('}');
  std::printf("%s\n", json.text().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parseOptions(argc, argv);
  if (options.experiment == "load") return runLoad(options);
  if (options.experiment == "space") return runSpace(options);
  if (options.experiment == "filters") return runFilters(options);
  if (options.experiment == "keys") return runKeys(options);
  fail("unknown experiment " + options.experiment + " (load, space, filters or keys)");
}
