// The core side by side with the paper's authors' C++ (efficient/cuckoofilter,
// fetched by hand into a folder outside this repository: never copied here),
// in one process on the same keys: bench/reference.mjs compiles this file
// against that folder's src/ natively (g++ -O3) and with em++ -O3, runs it and
// prints the ratio table.
//
//   vs_reference [--log2-buckets 16,22] [--runs 3] [--only ours|ours-mulshift|reference] [--table plain|semi-sorted]
//                [--mulshift-through view|filter]
//
// Both filters get the same random 64-bit keys (SplitMix64), b = 4, f = 12
// plain (the reference's SingleTable) and f = 13 semi-sorted (its
// PackedTable), a power-of-two bucket count, and are filled to the paper's
// first failure: the insert that leaves the victim stash occupied (stored; the
// reference refuses every later insert, the core goes on placing items that
// find room). Then present lookups (every stored key), absent lookups (as many
// keys from another stream) and deletes (every stored key). Ours goes through
// its public C++ API: insert / contains / erase on the key's 8 bytes, twice:
// with the default item hash (XXH3, hash id 1) through the filter's own calls,
// and with multiplyShiftHash (hash id 6, for filters of 64-bit keys) through
// the typed entry, cuckoo/key_filter_view.hpp (or with --mulshift-through
// filter the filter's own calls).
//
// Each phase runs in a function of its own (noipa), so callgrind and perf name
// it; --only runs one side, for profiling. Rates are by the process's CPU time,
// which the other processes of a shared machine do not stretch; each run
// interleaves the two filters, in alternating order. It prints every run's
// rates as JSON; bench/reference.mjs gives the medians and the ratios.

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/key_filter_view.hpp"
#include "cuckoofilter.h"
#include "support/bench_support.hpp"

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#endif

namespace {

using Keys = std::vector<std::uint64_t>;

// The operations, in the order they run.
enum Op { kInsert, kLookupPresent, kLookupAbsent, kDelete, kOps };
constexpr const char* kOpNames[kOps] = {"insert", "lookupPresent", "lookupAbsent", "delete"};

struct Shape {
  bool semiSorted;
  unsigned log2Buckets;
};

// The paper's code: CuckooFilter<uint64_t, f, Table>, sized for 95 % of
// 4 * 2^k items so that its constructor picks exactly 2^k buckets.
template <std::size_t Bits, template <std::size_t> class Table>
class Reference {
 public:
  explicit Reference(unsigned log2Buckets, std::uint64_t)
      : filter_(static_cast<std::size_t>((std::uint64_t{4} << log2Buckets) * 95 / 100)) {}
  bool insert(std::uint64_t key) { return filter_.Add(key) == cuckoofilter::Ok; }
  // Its Add stores the item that fills the victim stash and refuses every later one.
  bool stashFilled() { return false; }
  bool contains(std::uint64_t key) const { return filter_.Contain(key) == cuckoofilter::Ok; }
  bool erase(std::uint64_t key) { return filter_.Delete(key) == cuckoofilter::Ok; }

 private:
  cuckoofilter::CuckooFilter<std::uint64_t, Bits, Table> filter_;
};

// Whether the multiply-shift side goes through the typed entry (the default) or the filter's own calls.
bool gMultiplyShiftThroughView = true;

// The core through its public C++ API: the filter's own calls, or with
// ThroughView the typed entry of a multiply-shift filter.
template <bool SemiSorted, bool MultiplyShift, bool ThroughView = false>
class Ours {
  using View = cuckoo::KeyFilterView<SemiSorted ? 13 : 12, SemiSorted>;
  static_assert(MultiplyShift || !ThroughView, "the view serves multiply-shift filters");

 public:
  Ours(unsigned log2Buckets, std::uint64_t seed) {
    cuckoo::FilterParams params;
    params.semiSort = SemiSorted;
    params.multiplyShiftHash = MultiplyShift;
    params.fingerprintBits = SemiSorted ? 13 : 12;
    params.bucketCount = std::uint64_t{1} << log2Buckets;
    params.seed = seed;
    if (cuckoo::CuckooFilter::create(params, filter_) != cuckoo::Status::kOk) {
      std::fprintf(stderr, "cannot create the filter\n");
      std::exit(2);
    }
    if constexpr (ThroughView) view_ = View::of(filter_);
  }
  bool insert(std::uint64_t key) {
    if constexpr (ThroughView) return view_->insert(key);
    return filter_.insert(key);
  }
  // The paper's first failure: the stash became occupied.
  bool stashFilled() { return filter_.stash().occupied; }
  bool contains(std::uint64_t key) const {
    if constexpr (ThroughView) return view_->contains(key);
    return filter_.contains(key);
  }
  bool erase(std::uint64_t key) {
    if constexpr (ThroughView) return view_->erase(key);
    return filter_.erase(key);
  }

 private:
  cuckoo::CuckooFilter filter_;
  std::optional<View> view_;
};

// Inserts keys in order up to and including the first failure; returns how many were stored.
template <class Filter>
[[gnu::noipa]] std::uint64_t insertPhase(Filter& filter, const Keys& keys) {
  std::uint64_t stored = 0;
  while (stored < keys.size() && filter.insert(keys[stored])) {
    ++stored;
    if (filter.stashFilled()) break;
  }
  return stored;
}

template <class Filter>
[[gnu::noipa]] std::uint64_t lookupPresentPhase(const Filter& filter, const Keys& keys, std::uint64_t count) {
  std::uint64_t found = 0;
  for (std::uint64_t i = 0; i < count; ++i) found += filter.contains(keys[i]) ? 1 : 0;
  return found;
}

template <class Filter>
[[gnu::noipa]] std::uint64_t lookupAbsentPhase(const Filter& filter, const Keys& keys, std::uint64_t count) {
  std::uint64_t found = 0;
  for (std::uint64_t i = 0; i < count; ++i) found += filter.contains(keys[i]) ? 1 : 0;
  return found;
}

template <class Filter>
[[gnu::noipa]] std::uint64_t deletePhase(Filter& filter, const Keys& keys, std::uint64_t count) {
  std::uint64_t erased = 0;
  for (std::uint64_t i = 0; i < count; ++i) erased += filter.erase(keys[i]) ? 1 : 0;
  return erased;
}

struct Measured {
  std::uint64_t stored = 0;
  double mops[kOps] = {};
};

// Seconds of CPU time this process has used: the clock every rate is taken
// by, so that what other processes of a shared machine take is not counted.
// Emscripten's std::clock is the wall clock in milliseconds; under Node the
// process's own count serves instead.
#if defined(__EMSCRIPTEN__)
EM_JS(double, cpuSeconds, (), {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
});
#else
double cpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}
#endif

// M operations/s of `operations` done by `phase`.
template <class Phase>
double timed(std::uint64_t operations, Phase&& phase) {
  const double start = cpuSeconds();
  phase();
  return static_cast<double>(operations) / (cpuSeconds() - start) / 1e6;
}

template <class Filter>
Measured measure(unsigned log2Buckets, std::uint64_t seed, const Keys& present, const Keys& absent) {
  Filter filter(log2Buckets, seed);
  Measured m;
  std::uint64_t answer = 0;
  const double insertSeconds = cpuSeconds();
  m.stored = insertPhase(filter, present);
  m.mops[kInsert] = static_cast<double>(m.stored) / (cpuSeconds() - insertSeconds) / 1e6;
  m.mops[kLookupPresent] = timed(m.stored, [&] { answer = lookupPresentPhase(filter, present, m.stored); });
  if (answer != m.stored) std::fprintf(stderr, "BUG: %llu false negatives\n", static_cast<unsigned long long>(m.stored - answer));
  const std::uint64_t absentCount = std::min<std::uint64_t>(m.stored, absent.size());
  m.mops[kLookupAbsent] = timed(absentCount, [&] { answer = lookupAbsentPhase(filter, absent, absentCount); });
  bench::gSink = answer;
  m.mops[kDelete] = timed(m.stored, [&] { answer = deletePhase(filter, present, m.stored); });
  if (answer != m.stored) std::fprintf(stderr, "BUG: %llu deletes failed\n", static_cast<unsigned long long>(m.stored - answer));
  return m;
}

Keys randomKeys(std::uint64_t count, std::uint64_t state) {
  cuckoo::SplitMix64 stream(state);
  Keys keys(count);
  for (auto& key : keys) key = stream.next();
  return keys;
}

struct Row {
  Shape shape;
  std::vector<Measured> reference, ours, oursMultiplyShift;  // one per run
};

// Whether `only` (empty, or a comma-separated list of sides) names `side`.
bool wants(const std::string& only, const char* side) {
  return only.empty() || ("," + only + ",").find("," + std::string(side) + ",") != std::string::npos;
}

template <bool SemiSorted>
void measureShape(Row& row, unsigned run, const std::string& only) {
  using Theirs = std::conditional_t<SemiSorted, Reference<13, cuckoofilter::PackedTable>, Reference<12, cuckoofilter::SingleTable>>;
  const unsigned log2 = row.shape.log2Buckets;
  const std::uint64_t slots = std::uint64_t{4} << log2;
  const Keys present = randomKeys(slots + 1, 1000 * run + 1);
  const Keys absent = randomKeys(slots, 1000 * run + 2);
  // The sides take turns going first: reference, ours, ours with
  // multiply-shift in run 1, then rotated.
  for (unsigned turn = 0; turn < 3; ++turn) {
    const unsigned side = (turn + run) % 3;
    if (side == 0 && wants(only, "reference")) {
      row.reference.push_back(measure<Theirs>(log2, run, present, absent));
    } else if (side == 1 && wants(only, "ours")) {
      row.ours.push_back(measure<Ours<SemiSorted, false>>(log2, run, present, absent));
    } else if (side == 2 && wants(only, "ours-mulshift")) {
      row.oursMultiplyShift.push_back(gMultiplyShiftThroughView
                                          ? measure<Ours<SemiSorted, true, true>>(log2, run, present, absent)
                                          : measure<Ours<SemiSorted, true>>(log2, run, present, absent));
    }
  }
}

void printJson(const std::vector<Row>& rows) {
  bench::Json json;
  json.open('[');
  for (const Row& row : rows) {
    json.open('{').field("semiSorted", row.shape.semiSorted).field("log2Buckets", row.shape.log2Buckets);
    for (const auto& [who, ms] : {std::pair{"reference", &row.reference}, std::pair{"ours", &row.ours},
                                  std::pair{"oursMultiplyShift", &row.oursMultiplyShift}}) {
      json.key(who).open('[');
      for (const Measured& m : *ms) {
        json.open('{').field("stored", m.stored);
        for (int op = 0; op < kOps; ++op) json.field(kOpNames[op], m.mops[op]);
        json.close('}');
      }
      json.close(']');
    }
    json.close('}');
  }
  std::printf("%s\n", json.close(']').text().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> log2Buckets = {16, 22};
  unsigned runs = 3;
  std::string only, table;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--log2-buckets" && hasValue) {
      log2Buckets = bench::parseUnsignedList(argv[++i]);
    } else if (arg == "--runs" && hasValue) {
      runs = static_cast<unsigned>(std::stoul(argv[++i]));
    } else if (arg == "--only" && hasValue) {
      only = argv[++i];
    } else if (arg == "--table" && hasValue) {
      table = argv[++i];
    } else if (arg == "--mulshift-through" && hasValue) {
      gMultiplyShiftThroughView = std::string(argv[++i]) != "filter";
    } else {
      std::fprintf(stderr,
                   "usage: vs_reference [--log2-buckets 16,22] [--runs 3] [--only ours|ours-mulshift|reference] "
                   "[--table plain|semi-sorted] [--mulshift-through view|filter]\n");
      return 2;
    }
  }
  std::vector<Row> rows;
  for (unsigned log2 : log2Buckets) {
    for (bool semiSorted : {false, true}) {
      if (table.empty() || (table == "semi-sorted") == semiSorted) rows.push_back(Row{Shape{semiSorted, log2}, {}, {}, {}});
    }
  }
  for (unsigned run = 1; run <= runs; ++run) {
    for (Row& row : rows) {
      if (row.shape.semiSorted) {
        measureShape<true>(row, run, only);
      } else {
        measureShape<false>(row, run, only);
      }
    }
  }
  printJson(rows);
  return 0;
}
