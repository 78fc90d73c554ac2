// Table 3 and Figures 5-8 of the paper on the native core: CF (f=12), ss-CF
// (f=13), BF and blk-BF in the same number of bits, filled window by window
// (paper_native.cpp documents the command line).

#include <type_traits>

#include "paper_native.hpp"

namespace paper {
namespace {

// ---------------------------------------------------------------- Table 3 and Figures 5-8

// "name": the wall-clock rate, "nameCpu": the CPU-time rate.
void rateFields(Json& json, const char* name, Rate rate) {
  json.field(name, rate.wall).field((std::string(name) + "Cpu").c_str(), rate.cpu);
}

// The cuckoo filters fail an insert and delete; the Bloom filters take every
// insert (theirs returns false for an item whose bits were all set) and
// cannot delete.
template <class Filter>
constexpr bool kIsCuckoo = std::is_same_v<Filter, cuckoo::CuckooFilter>;

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
  for (std::uint64_t i = 0; i < count; ++i) hits += filter.contains(&keys[i], sizeof(Key));
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
void measureFilter(Json& json, const char* name, Filter& filter, std::uint64_t capacity, unsigned run,
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
        if (!filter.insert(&keys[stored], sizeof(Key)) && kIsCuckoo<Filter>) {
          failed = true;
          break;
        }
        ++stored;
        // The paper's first failure: evictions ran out, the stash took the
        // last homeless fingerprint (later inserts may still find room).
        if constexpr (kIsCuckoo<Filter>) {
          if (filter.stash().occupied) {
            failed = true;
            break;
          }
        }
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
  const auto stats = filter.stats();
  json.field("items", stats.itemCount).field("load", occupancy(stats.itemCount));
  json.field("bitsPerItem", stats.bitsPerItem).field("constructSeconds", construction.wall);
  rateFields(json, "constructMops", Rate::of(static_cast<double>(stats.itemCount), construction));
  json.field("negatives", absent.size()).field("falsePositives", falsePositives);
  rateFields(json, "fullNegativeMops", Rate::of(static_cast<double>(absent.size()), negativeTime));
  json.field("expectedFpr", stats.expectedFalsePositiveRate);

  // Figure 5.
  json.key("mixes").open('[');
  for (const double p : kMixFractions) {
    const std::vector<Key> queries = mixedQueries(run, p, keys, stored, absent, setup.queries);
    std::uint64_t hits = 0;
    const Rate rate = lookupRate(clock, filter, queries.data(), queries.size(), setup.repeats, hits);
    json.open('{').field("p", p);
    rateFields(json, "mops", rate);
    json.field("hits", hits).close('}');
  }
  json.close(']');

  // Figure 8: deletes in insertion order, window by window, until empty.
  if constexpr (kIsCuckoo<Filter>) {
    json.key("deletes").open('[');
    std::uint64_t deleted = 0;
    while (deleted < stored) {
      const std::uint64_t start = deleted;
      const std::uint64_t end = std::min(stored, deleted + window);
      std::uint64_t erased = 0;
      const Timing t = clock.time([&] {
        for (; deleted < end; ++deleted) erased += filter.erase(&keys[deleted], sizeof(Key));
      });
      if (erased != end - start) fail(std::string(name) + ": a delete found nothing");
      json.open('{').field("loadStart", occupancy(stored - start)).field("loadEnd", occupancy(stored - end));
      rateFields(json, "mops", Rate::of(static_cast<double>(end - start), t));
      json.close('}');
    }
    json.close(']');
    if (filter.itemCount() != 0) fail(std::string(name) + ": not empty after deleting every item");
  }
  json.field("cpuShare", clock.cpuShare()).close('}');
}

}  // namespace

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
    const auto measure = [&](const char* name, auto make, std::uint64_t capacity) {
      if (!wanted(name)) return;
      std::fprintf(stderr, "paper_native: run %u %s\n", run, name);
      auto filter = make();
      measureFilter(json, name, filter, capacity, run, setup, keys, absent);
    };
    const std::uint64_t slots = setup.cuckooSlots;
    measure("CF", [&] { return makeCuckoo(kTable3FingerprintBits, kTable3BucketSize, bucketCount, false, run); }, slots);
    measure("ss-CF", [&] { return makeCuckoo(kTable3SemiSortedBits, kTable3BucketSize, bucketCount, true, run); }, slots);
    const std::uint64_t bits = setup.bitCount;
    measure("BF", [&] { return makeBloom<cuckoo::StandardBloomFilter>(bits, bloomHashes, run); }, setup.bloomCapacity);
    measure("blk-BF", [&] { return makeBloom<cuckoo::BlockedBloomFilter>(bits, bloomHashes, run); }, setup.bloomCapacity);
  }
  json.close(']').close('}');
  std::printf("%s\n", json.text().c_str());
  return 0;
}

}  // namespace paper
