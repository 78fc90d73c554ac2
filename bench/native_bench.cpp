// Native benchmark of the core: the metrics of the paper's Table 3 (items at
// first failure, load, bits per item, construction rate, lookups, deletes,
// measured false-positive rate) for chosen shapes.
//
//   cuckoo_bench                          f=12 b=4, and semi-sorted f=13 (the same
//                                         space), at 2^16 and 2^22 buckets
//   cuckoo_bench --log2-buckets 16,20 --bits 8,12,16 --bucket-size 4 --semi-bits 13 --json
//   cuckoo_bench --semi-bits none         no semi-sorted rows
//
// A program, not a test: it prints figures and never fails on them.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "support/bench_support.hpp"

namespace {

using bench::Clock;
using bench::mops;
using bench::parseUnsignedList;

struct Row {
  bool semiSort;
  unsigned bits;
  unsigned bucketSize;
  unsigned log2Buckets;
  std::uint64_t items;
  double load;
  double bitsPerItem;
  double constructMops;
  double positiveLookupMops;
  double negativeLookupMops;
  double deleteMops;
  double measuredFpr;
  double expectedFpr;
};

Row measure(bool semiSort, unsigned bits, unsigned bucketSize, unsigned log2Buckets, std::uint64_t seed) {
  cuckoo::FilterParams params;
  params.semiSort = semiSort;
  params.fingerprintBits = bits;
  params.bucketSize = bucketSize;
  params.bucketCount = std::uint64_t{1} << log2Buckets;
  params.seed = seed;
  cuckoo::CuckooFilter filter;
  if (cuckoo::CuckooFilter::create(params, filter) != cuckoo::Status::kOk) {
    std::fprintf(stderr, "cannot create f=%u b=%u m=2^%u%s\n", bits, bucketSize, log2Buckets,
                 semiSort ? " semi-sorted" : "");
    std::exit(2);
  }
  // Random 64-bit keys, generated before timing, as in the paper's setup.
  const std::uint64_t slots = params.bucketCount * bucketSize;
  cuckoo::SplitMix64 keyStream(seed * 31 + 7);
  std::vector<std::uint64_t> keys(slots + 1);
  for (auto& k : keys) k = keyStream.next();
  std::vector<std::uint64_t> absent(slots);
  cuckoo::SplitMix64 absentStream(~seed);
  // A second stream: a 64-bit collision with a stored key has odds ~2^-40 here.
  for (auto& k : absent) k = absentStream.next();

  auto start = Clock::now();
  std::uint64_t stored = 0;
  while (stored < keys.size() && filter.insert(&keys[stored], 8)) ++stored;
  const auto constructTime = Clock::now() - start;

  std::uint64_t hits = 0;
  start = Clock::now();
  for (std::uint64_t i = 0; i < stored; ++i) hits += filter.contains(&keys[i], 8);
  const auto positiveTime = Clock::now() - start;
  bench::gSink = hits;
  if (hits != stored) std::fprintf(stderr, "BUG: %llu false negatives\n", static_cast<unsigned long long>(stored - hits));

  std::uint64_t falsePositives = 0;
  start = Clock::now();
  for (const std::uint64_t k : absent) falsePositives += filter.contains(&k, 8);
  const auto negativeTime = Clock::now() - start;
  bench::gSink = falsePositives;

  const cuckoo::FilterStats stats = filter.stats();
  start = Clock::now();
  std::uint64_t deleted = 0;
  for (std::uint64_t i = 0; i < stored; ++i) deleted += filter.erase(&keys[i], 8);
  const auto deleteTime = Clock::now() - start;
  if (deleted != stored) std::fprintf(stderr, "BUG: %llu deletes failed\n", static_cast<unsigned long long>(stored - deleted));

  return Row{semiSort,
             bits,
             bucketSize,
             log2Buckets,
             stored,
             stats.loadFactor,
             stats.bitsPerItem,
             mops(stored, constructTime),
             mops(stored, positiveTime),
             mops(absent.size(), negativeTime),
             mops(stored, deleteTime),
             static_cast<double>(falsePositives) / static_cast<double>(absent.size()),
             stats.expectedFalsePositiveRate};
}

// Median of several runs for the timing columns (the other columns come from
// the first run; they only depend on the seed).
Row measureMedian(bool semiSort, unsigned bits, unsigned bucketSize, unsigned log2Buckets, int runs) {
  std::vector<Row> rows;
  for (int r = 0; r < runs; ++r) rows.push_back(measure(semiSort, bits, bucketSize, log2Buckets, 1 + r));
  const auto median = [&](double Row::*field) {
    std::vector<double> v;
    for (const Row& row : rows) v.push_back(row.*field);
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  Row out = rows.front();
  out.constructMops = median(&Row::constructMops);
  out.positiveLookupMops = median(&Row::positiveLookupMops);
  out.negativeLookupMops = median(&Row::negativeLookupMops);
  out.deleteMops = median(&Row::deleteMops);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> log2BucketList = {16, 22};
  std::vector<unsigned> bitsList = {12};
  std::vector<unsigned> bucketSizeList = {4};
  std::vector<unsigned> semiBitsList = {13};
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--log2-buckets" && hasValue) {
      log2BucketList = parseUnsignedList(argv[++i]);
    } else if (arg == "--bits" && hasValue) {
      bitsList = parseUnsignedList(argv[++i]);
    } else if (arg == "--bucket-size" && hasValue) {
      bucketSizeList = parseUnsignedList(argv[++i]);
    } else if (arg == "--semi-bits" && hasValue) {
      const std::string value = argv[++i];
      semiBitsList = value == "none" ? std::vector<unsigned>{} : parseUnsignedList(value);
    } else if (arg == "--json") {
      json = true;
    } else {
      std::fprintf(stderr,
                   "usage: cuckoo_bench [--log2-buckets 16,22] [--bits 12] [--bucket-size 4] [--semi-bits 13|none] [--json]\n");
      return 2;
    }
  }

  std::vector<Row> rows;
  for (unsigned log2Buckets : log2BucketList) {
    for (unsigned bucketSize : bucketSizeList) {
      for (unsigned bits : bitsList) {
        // Small tables are timed several times; a 2^22-bucket table once.
        const int runs = log2Buckets <= 18 ? 5 : 1;
        rows.push_back(measureMedian(false, bits, bucketSize, log2Buckets, runs));
      }
    }
    for (unsigned bits : semiBitsList) {
      rows.push_back(measureMedian(true, bits, 4, log2Buckets, log2Buckets <= 18 ? 5 : 1));
    }
  }

  if (json) {
    std::printf("[\n");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      std::printf(
          "  {\"semiSort\": %s, \"fingerprintBits\": %u, \"bucketSize\": %u, \"log2Buckets\": %u, \"items\": %llu, "
          "\"loadFactor\": %.6f, \"bitsPerItem\": %.4f, \"constructMops\": %.3f, \"positiveLookupMops\": %.3f, "
          "\"negativeLookupMops\": %.3f, \"deleteMops\": %.3f, \"measuredFpr\": %.6e, \"expectedFpr\": %.6e}%s\n",
          r.semiSort ? "true" : "false", r.bits, r.bucketSize, r.log2Buckets,
          static_cast<unsigned long long>(r.items), r.load, r.bitsPerItem, r.constructMops, r.positiveLookupMops, r.negativeLookupMops, r.deleteMops, r.measuredFpr, r.expectedFpr,
          i + 1 < rows.size() ? "," : "");
    }
    std::printf("]\n");
    return 0;
  }
  std::printf("| table | f | b | buckets | items at first failure | load | bits/item | construct (M keys/s) "
              "| lookup + (M ops/s) | lookup - (M ops/s) | delete (M ops/s) | FPR measured | FPR expected |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    std::printf("| %s | %u | %u | 2^%u | %llu | %.4f | %.2f | %.2f | %.2f | %.2f | %.2f | %.4f%% | %.4f%% |\n",
                r.semiSort ? "semi-sorted" : "plain", r.bits,
                r.bucketSize, r.log2Buckets, static_cast<unsigned long long>(r.items), r.load, r.bitsPerItem,
                r.constructMops, r.positiveLookupMops, r.negativeLookupMops, r.deleteMops, 100 * r.measuredFpr,
                100 * r.expectedFpr);
  }
  return 0;
}
