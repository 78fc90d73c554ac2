// The evaluation of Fan et al., "Cuckoo Filter: Practically Better Than Bloom"
// (CoNEXT 2014), Sections 4, 5 and 7, on the native core. bench/paper/run.mjs
// runs it; bench/paper/paper_wasm.mjs prints the same JSON from the wasm build.
//
//   paper_native load    [--log2-buckets 15,20] [--bucket-sizes 4,8] [--bits 2-20] [--runs 10] [--first-run 1] [--threads N]
//       Figure 2: load factor at the first failed insert, runs first-run .. first-run + runs - 1.
//   paper_native space   [--log2-slots 20] [--runs 2] [--log2-negatives 22] [--threads N]
//       Figures 3-4: bits per item against measured false-positive rate.
//   paper_native filters [--log2-buckets 22] [--runs 1] [--log2-negatives 22] [--log2-queries 20]
//                        [--log2-sample 17] [--window 0.05] [--repeats 3] [--only CF,ss-CF,BF,blk-BF]
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
#include <cstring>
#include <string>
#include <thread>

#include "paper_native.hpp"

namespace paper {
namespace {

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

// ---------------------------------------------------------------- Figure 2

int runLoad(const Options& o) {
  const std::vector<unsigned> log2Buckets = o.log2Buckets.empty() ? std::vector<unsigned>{15, 20} : o.log2Buckets;
  const std::vector<unsigned> bits = o.bits.empty() ? parseUnsignedList(kLoadBits) : o.bits;
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
    while (!filter.stash().occupied) {
      const Key key = keys.next();
      filter.insert(&key, sizeof key);
    }
    t.items = filter.itemCount();
    t.load = filter.stats().loadFactor;
  });
  Json json;
  json.open('{').field("experiment", "load").field("platform", "native").field("runs", runs);
  json.field("maxKicks", kMaxKicks).key("rows").open('[');
  for (const Task& t : tasks) {
    json.open('{').field("log2Buckets", t.log2Buckets).field("bucketSize", t.bucketSize).field("fingerprintBits", t.bits);
    json.field("run", t.run).field("items", t.items).field("load", t.load).close('}');
  }
  json.close(']').close('}');
  std::printf("%s\n", json.text().c_str());
  return 0;
}

// ---------------------------------------------------------------- Figures 3-4

// The series are protocol.json's (bench/README.md says why those ranges).
bool isSemiSorted(const SpaceSeries& s) { return std::strcmp(s.kind, "semiSorted") == 0; }
bool isCuckoo(const SpaceSeries& s) { return std::strcmp(s.kind, "cuckoo") == 0 || isSemiSorted(s); }

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
    if (isCuckoo(*t.series)) {
      // Every bucket size gets the same number of slots, so the same item count.
      cuckoo::CuckooFilter filter = makeCuckoo(t.parameter, t.series->bucketSize, slots / t.series->bucketSize,
                                               isSemiSorted(*t.series), t.run);
      while (!filter.stash().occupied) {
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
      if (std::strcmp(t.series->kind, "bloom") == 0) fill(makeBloom<cuckoo::StandardBloomFilter>(bitCount, t.hashCount, t.run));
      else fill(makeBloom<cuckoo::BlockedBloomFilter>(bitCount, t.hashCount, t.run));
    }
  });

  Json json;
  json.open('{').field("experiment", "space").field("platform", "native").field("runs", runs);
  json.field("slots", slots).field("negatives", negatives).key("rows").open('[');
  for (const Task& t : tasks) {
    const bool bloom = !isCuckoo(*t.series);
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
}  // namespace paper

int main(int argc, char** argv) {
  using namespace paper;
  const Options options = parseOptions(argc, argv);
  if (options.experiment == "load") return runLoad(options);
  if (options.experiment == "space") return runSpace(options);
  if (options.experiment == "filters") return runFilters(options);
  if (options.experiment == "keys") return runKeys(options);
  fail("unknown experiment " + options.experiment + " (load, space, filters or keys)");
}
