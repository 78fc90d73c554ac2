// Native benchmark of the core: the metrics of the paper's Table 3 (items at
// first failure, load, bits per item, construction rate, lookups, deletes,
// measured false-positive rate) for chosen shapes.
//
//   cuckoo_bench                          f=12 b=4, and semi-sorted f=13 (the same
//                                         space), at 2^16 and 2^22 buckets
//   cuckoo_bench --log2-buckets 16,20 --bits 8,12,16 --bucket-size 4 --semi-bits 13 --json
//   cuckoo_bench --semi-bits none         no semi-sorted rows
//   cuckoo_bench --any-count              also 2^k - 1 buckets (hash id 2) beside each
//                                         2^k, runs interleaved, and their speed ratio
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
  unsigned log2Buckets;          // of the power of two at or just above the bucket count
  std::uint64_t bucketCount;
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

// `bucketCount` is 2^log2Buckets, or 2^log2Buckets - 1 when `belowPowerOfTwo`.
Row measure(bool semiSort, unsigned bits, unsigned bucketSize, unsigned log2Buckets, bool belowPowerOfTwo,
            std::uint64_t seed) {
  cuckoo::FilterParams params;
  params.semiSort = semiSort;
  params.fingerprintBits = bits;
  params.bucketSize = bucketSize;
  params.bucketCount = (std::uint64_t{1} << log2Buckets) - (belowPowerOfTwo ? 1 : 0);
  params.seed = seed;
  cuckoo::CuckooFilter filter;
  if (cuckoo::CuckooFilter::create(params, filter) != cuckoo::Status::kOk) {
    std::fprintf(stderr, "cannot create f=%u b=%u m=%llu%s\n", bits, bucketSize,
                 static_cast<unsigned long long>(params.bucketCount), semiSort ? " semi-sorted" : "");
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
             params.bucketCount,
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

// Medians of several runs for the timing columns (the other columns come from
// the first run; they only depend on the seed). With `twin`, each run of the
// power of two is followed by one of 2^k - 1 buckets, so that machine noise
// falls on both alike; returns one row, or the pair.
std::vector<Row> measureMedian(bool semiSort, unsigned bits, unsigned bucketSize, unsigned log2Buckets, int runs,
                               bool twin) {
  std::vector<std::vector<Row>> runsOf(twin ? 2 : 1);
  for (int r = 0; r < runs; ++r) {
    for (std::size_t variant = 0; variant < runsOf.size(); ++variant) {
      runsOf[variant].push_back(measure(semiSort, bits, bucketSize, log2Buckets, variant == 1, 1 + r));
    }
  }
  std::vector<Row> out;
  for (const std::vector<Row>& rows : runsOf) {
    const auto median = [&](double Row::*field) {
      std::vector<double> v;
      for (const Row& row : rows) v.push_back(row.*field);
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    Row row = rows.front();
    row.constructMops = median(&Row::constructMops);
    row.positiveLookupMops = median(&Row::positiveLookupMops);
    row.negativeLookupMops = median(&Row::negativeLookupMops);
    row.deleteMops = median(&Row::deleteMops);
    out.push_back(row);
  }
  return out;
}

std::string bucketsLabel(const Row& r) {
  const bool powerOfTwo = r.bucketCount == (std::uint64_t{1} << r.log2Buckets);
  return "2^" + std::to_string(r.log2Buckets) + (powerOfTwo ? "" : " - 1");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> log2BucketList = {16, 22};
  std::vector<unsigned> bitsList = {12};
  std::vector<unsigned> bucketSizeList = {4};
  std::vector<unsigned> semiBitsList = {13};
  bool json = false;
  bool anyCount = false;
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
    } else if (arg == "--any-count") {
      anyCount = true;
    } else {
      std::fprintf(stderr,
                   "usage: cuckoo_bench [--log2-buckets 16,22] [--bits 12] [--bucket-size 4] [--semi-bits 13|none] "
                   "[--any-count] [--json]\n");
      return 2;
    }
  }

  std::vector<Row> rows;
  for (unsigned log2Buckets : log2BucketList) {
    for (unsigned bucketSize : bucketSizeList) {
      for (unsigned bits : bitsList) {
        // Small tables are timed several times; a 2^22-bucket table once.
        const int runs = log2Buckets <= 18 ? 5 : 1;
        for (const Row& row : measureMedian(false, bits, bucketSize, log2Buckets, runs, anyCount)) rows.push_back(row);
      }
    }
    for (unsigned bits : semiBitsList) {
      for (const Row& row : measureMedian(true, bits, 4, log2Buckets, log2Buckets <= 18 ? 5 : 1, anyCount)) {
        rows.push_back(row);
      }
    }
  }

  if (json) {
    std::printf("[\n");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      std::printf(
          "  {\"semiSort\": %s, \"fingerprintBits\": %u, \"bucketSize\": %u, \"log2Buckets\": %u, "
          "\"bucketCount\": %llu, \"items\": %llu, "
          "\"loadFactor\": %.6f, \"bitsPerItem\": %.4f, \"constructMops\": %.3f, \"positiveLookupMops\": %.3f, "
          "\"negativeLookupMops\": %.3f, \"deleteMops\": %.3f, \"measuredFpr\": %.6e, \"expectedFpr\": %.6e}%s\n",
          r.semiSort ? "true" : "false", r.bits, r.bucketSize, r.log2Buckets,
          static_cast<unsigned long long>(r.bucketCount), static_cast<unsigned long long>(r.items), r.load, r.bitsPerItem, r.constructMops, r.positiveLookupMops, r.negativeLookupMops, r.deleteMops, r.measuredFpr, r.expectedFpr,
          i + 1 < rows.size() ? "," : "");
    }
    std::printf("]\n");
    return 0;
  }
  std::printf("| table | f | b | buckets | items at first failure | load | bits/item | construct (M keys/s) "
              "| lookup + (M ops/s) | lookup - (M ops/s) | delete (M ops/s) | FPR measured | FPR expected |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    std::printf("| %s | %u | %u | %s | %llu | %.4f | %.2f | %.2f | %.2f | %.2f | %.2f | %.4f%% | %.4f%% |\n",
                r.semiSort ? "semi-sorted" : "plain", r.bits, r.bucketSize, bucketsLabel(r).c_str(),
                static_cast<unsigned long long>(r.items), r.load, r.bitsPerItem, r.constructMops,
                r.positiveLookupMops, r.negativeLookupMops, r.deleteMops, 100 * r.measuredFpr, 100 * r.expectedFpr);
  }
  if (anyCount) {
    // Rows come in pairs: 2^k buckets (hash id 1), then 2^k - 1 (hash id 2).
    std::printf("\nSpeed of 2^k - 1 buckets (hash id 2) over 2^k (hash id 1), same run, interleaved:\n");
    for (std::size_t i = 0; i + 1 < rows.size(); i += 2) {
      const Row& p = rows[i];
      const Row& q = rows[i + 1];
      std::printf("  %s f=%u b=%u 2^%u: construct %.3f, lookup + %.3f, lookup - %.3f, delete %.3f\n",
                  p.semiSort ? "semi-sorted" : "plain", p.bits, p.bucketSize, p.log2Buckets,
                  q.constructMops / p.constructMops, q.positiveLookupMops / p.positiveLookupMops,
                  q.negativeLookupMops / p.negativeLookupMops, q.deleteMops / p.deleteMops);
    }
  }
  return 0;
}
