#pragma once
// What the experiments of paper_native share: the keys, the options, the
// filters' construction (paper_native.cpp documents the command line).

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
#include "paper_protocol.hpp"
#include "support/bench_support.hpp"

namespace paper {

using bench::Json;
using bench::parallelFor;
using bench::Rate;
using bench::Stopwatch;
using bench::Timing;
using bench::parseUnsignedList;
using bench::splitList;
using Key = std::uint64_t;

using namespace protocol;

inline cuckoo::SplitMix64 stream(unsigned run, unsigned long long which) { return cuckoo::SplitMix64(kStatesPerRun * run + which); }
inline cuckoo::SplitMix64 presentStream(unsigned run) { return stream(run, kPresent); }
inline cuckoo::SplitMix64 absentStream(unsigned run) { return stream(run, kAbsent); }
inline cuckoo::SplitMix64 choiceStream(unsigned run) { return stream(run, kChoices); }

inline std::vector<Key> generate(cuckoo::SplitMix64 stream, std::uint64_t count) {
  std::vector<Key> keys(count);
  for (Key& key : keys) key = stream.next();
  return keys;
}

[[noreturn]] inline void fail(const std::string& message) {
  std::fprintf(stderr, "paper_native: %s\n", message.c_str());
  std::exit(2);
}

// ---------------------------------------------------------------- arguments

// Run alone, each experiment takes protocol.json's full plan, as paper_wasm.mjs does.
struct Options {
  std::string experiment;
  std::vector<unsigned> log2Buckets;
  std::vector<unsigned> bucketSizes = parseUnsignedList(kLoadBucketSizes);
  std::vector<unsigned> bits;
  unsigned log2Slots = 20;
  unsigned runs = 0;
  unsigned firstRun = 1;
  unsigned repeats = 3;
  unsigned log2Negatives = 22;
  unsigned log2Queries = 20;
  unsigned log2Sample = 17;
  double window = 0.05;
  unsigned threads = 0;
  unsigned run = 1;
  unsigned count = 4;
  std::vector<std::string> only;
};

inline cuckoo::CuckooFilter makeCuckoo(unsigned bits, unsigned bucketSize, std::uint64_t bucketCount, bool semiSort,
                                std::uint64_t seed) {
  cuckoo::FilterParams params;
  params.fingerprintBits = bits;
  params.bucketSize = bucketSize;
  params.bucketCount = bucketCount;
  params.semiSort = semiSort;
  params.seed = seed;
  params.maxKicks = kMaxKicks;
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

// Table 3 and Figures 5-8 (paper_filters.cpp).
int runFilters(const Options& o);

}  // namespace paper
