// How many items a table holds before its first refused add, as a fraction of
// its slots, for every bucket size and many bucket counts and seeds: the
// measurements behind the sizing rule's maximum load (practicalMaxLoad in
// cuckoo_filter.cpp). Small tables reach a lower load, and vary more, than
// large ones, so each row gives the lowest fraction seen and low quantiles.
//
//   cuckoo_load_curve                         b = 1, 2, 4, 8; m from 1 to 2^20
//   cuckoo_load_curve --bucket-size 2,4 --max-log2 16 --seeds 100000
//   cuckoo_load_curve --bucket-size 4 --log2-buckets 22,24,26 --seeds 4
//   cuckoo_load_curve --bucket-size 4 --log2-buckets 15 --seeds 3000 --inserts-per-row 1000000000000
//
// A program, not a test: it prints figures and never fails on them.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "support/bench_support.hpp"

namespace {

// Adds distinct random keys until the first refused add; returns how many were accepted.
std::uint64_t acceptedBeforeRefusal(unsigned bucketSize, std::uint64_t bucketCount, std::uint64_t seed) {
  cuckoo::FilterParams params;
  params.fingerprintBits = 16;
  params.bucketSize = bucketSize;
  params.bucketCount = bucketCount;
  params.seed = seed;
  cuckoo::CuckooFilter filter;
  if (cuckoo::CuckooFilter::create(params, filter) != cuckoo::Status::kOk) std::exit(2);
  // Each run its own key stream (a SplitMix64 state advanced by the seed would
  // only shift one stream).
  cuckoo::SplitMix64 keys(cuckoo::SplitMix64(seed ^ (bucketCount << 32)).next());
  std::uint64_t accepted = 0;
  for (;;) {
    const std::uint64_t key = keys.next();
    if (!filter.insert(&key, sizeof key)) return accepted;
    ++accepted;
  }
}

// Bucket counts 1 .. 64 one by one, then about 8 per doubling up to 2^maxLog2.
std::vector<std::uint64_t> bucketCounts(unsigned maxLog2) {
  std::vector<std::uint64_t> counts;
  for (std::uint64_t m = 1; m <= 64; ++m) counts.push_back(m);
  for (double m = 64 * 1.09; m <= std::ldexp(1.0, static_cast<int>(maxLog2)); m *= 1.09) {
    const auto count = static_cast<std::uint64_t>(m);
    if (count != counts.back()) counts.push_back(count);
  }
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> bucketSizes = {1, 2, 4, 8};
  std::vector<std::uint64_t> counts;
  unsigned maxLog2 = 20;
  unsigned seeds = 400;
  // At most about this many inserts per row: fewer runs for large tables, whose loads vary little.
  std::uint64_t insertsPerRow = 20'000'000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--inserts-per-row") == 0) insertsPerRow = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--bucket-size") == 0) bucketSizes = bench::parseUnsignedList(argv[i + 1]);
    if (std::strcmp(argv[i], "--max-log2") == 0) maxLog2 = static_cast<unsigned>(std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--seeds") == 0) seeds = static_cast<unsigned>(std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--log2-buckets") == 0) {
      for (const unsigned log2 : bench::parseUnsignedList(argv[i + 1])) counts.push_back(std::uint64_t{1} << log2);
    }
  }
  if (counts.empty()) counts = bucketCounts(maxLog2);
  std::printf("b\tm\tslots\truns\tmin load\t0.01%% load\t0.1%% load\t1%% load\tmean load\tmin items\n");
  for (const unsigned b : bucketSizes) {
    for (const std::uint64_t m : counts) {
      const std::uint64_t slots = m * b;
      const unsigned runs = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(seeds, insertsPerRow / slots)));
      std::vector<double> loads;
      std::uint64_t fewest = ~std::uint64_t{0};
      for (unsigned seed = 0; seed < runs; ++seed) {
        const std::uint64_t accepted = acceptedBeforeRefusal(b, m, seed);
        fewest = std::min(fewest, accepted);
        loads.push_back(static_cast<double>(accepted) / static_cast<double>(slots));
      }
      std::sort(loads.begin(), loads.end());
      double mean = 0;
      for (const double load : loads) mean += load / static_cast<double>(loads.size());
      const auto quantile = [&](double q) { return loads[static_cast<std::size_t>(q * static_cast<double>(loads.size() - 1))]; };
      std::printf("%u\t%llu\t%llu\t%u\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%llu\n", b, static_cast<unsigned long long>(m),
                  static_cast<unsigned long long>(slots), runs, loads.front(), quantile(0.0001), quantile(0.001), quantile(0.01), mean,
                  static_cast<unsigned long long>(fewest));
      std::fflush(stdout);
    }
  }
  return 0;
}
