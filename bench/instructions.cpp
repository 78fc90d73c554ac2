// Instructions per operation, for valgrind's callgrind: each phase (inserts up
// to half load, positive and negative lookups, deletes, one item per call and
// then in batches) runs in a function of its own (noipa: never inlined nor
// folded into a twin) that callgrind reports; instruction counts, unlike
// seconds, do not depend on what else the machine is doing.
//
//   valgrind --tool=callgrind --callgrind-out-file=out cuckoo_instructions --bucket-count 4096 --bits 12
//   callgrind_annotate --inclusive=yes out | grep phase
//
// bench/instructions.mjs runs it and divides by the operations each phase did.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "support/bench_support.hpp"

namespace {

using Keys = std::vector<std::uint64_t>;

[[gnu::noipa]] std::uint64_t insertPhase(cuckoo::CuckooFilter& filter, const Keys& keys) {
  std::uint64_t stored = 0;
  for (const std::uint64_t& key : keys) stored += filter.insert(&key, sizeof key) ? 1 : 0;
  return stored;
}

[[gnu::noipa]] std::uint64_t lookupPositivePhase(const cuckoo::CuckooFilter& filter, const Keys& keys) {
  std::uint64_t found = 0;
  for (const std::uint64_t& key : keys) found += filter.contains(&key, sizeof key) ? 1 : 0;
  return found;
}

[[gnu::noipa]] std::uint64_t lookupNegativePhase(const cuckoo::CuckooFilter& filter, const Keys& keys) {
  std::uint64_t found = 0;
  for (const std::uint64_t& key : keys) found += filter.contains(&key, sizeof key) ? 1 : 0;
  return found;
}

[[gnu::noipa]] std::uint64_t erasePhase(cuckoo::CuckooFilter& filter, const Keys& keys) {
  std::uint64_t erased = 0;
  for (const std::uint64_t& key : keys) erased += filter.erase(&key, sizeof key) ? 1 : 0;
  return erased;
}

[[gnu::noipa]] std::uint64_t insertBatchPhase(cuckoo::CuckooFilter& filter, const Keys& keys) {
  return filter.insertMany(cuckoo::ItemBatch::fixed(keys.data(), 8, keys.size()));
}

[[gnu::noipa]] std::uint64_t lookupPositiveBatchPhase(const cuckoo::CuckooFilter& filter, const Keys& keys,
                                                     std::vector<unsigned char>& answers) {
  filter.containsMany(cuckoo::ItemBatch::fixed(keys.data(), 8, keys.size()), answers.data());
  return answers[0];
}

[[gnu::noipa]] std::uint64_t lookupNegativeBatchPhase(const cuckoo::CuckooFilter& filter, const Keys& keys,
                                                     std::vector<unsigned char>& answers) {
  filter.containsMany(cuckoo::ItemBatch::fixed(keys.data(), 8, keys.size()), answers.data());
  return answers[0];
}

[[gnu::noipa]] std::uint64_t eraseBatchPhase(cuckoo::CuckooFilter& filter, const Keys& keys) {
  return filter.eraseMany(cuckoo::ItemBatch::fixed(keys.data(), 8, keys.size()));
}

Keys randomKeys(std::uint64_t count, std::uint64_t seed) {
  cuckoo::SplitMix64 stream(seed);
  Keys keys(count);
  for (auto& key : keys) key = stream.next();
  return keys;
}

}  // namespace

int main(int argc, char** argv) {
  cuckoo::FilterParams params;
  params.bucketCount = 4096;
  params.fingerprintBits = 12;
  params.bucketSize = 4;
  bool generic = false;  // the generic kernel instead of the filter's own
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--bucket-count" && hasValue) {
      params.bucketCount = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--bits" && hasValue) {
      params.fingerprintBits = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (arg == "--semi-sort") {
      params.semiSort = true;
    } else if (arg == "--generic") {
      generic = true;
    } else {
      std::fprintf(stderr,
                   "usage: cuckoo_instructions [--bucket-count 4096] [--bits 12] [--semi-sort] [--generic]\n");
      return 2;
    }
  }
  cuckoo::CuckooFilter filter;
  if (cuckoo::CuckooFilter::create(params, filter) != cuckoo::Status::kOk) {
    std::fprintf(stderr, "cannot create the filter\n");
    return 2;
  }
  if (generic) filter.useGenericKernel();
  const std::uint64_t count = params.bucketCount * params.bucketSize / 2;  // half load
  const Keys present = randomKeys(count, 1);
  const Keys absent = randomKeys(count, 2);
  const std::uint64_t stored = insertPhase(filter, present);
  const std::uint64_t found = lookupPositivePhase(filter, present);
  bench::gSink = lookupNegativePhase(filter, absent);
  const std::uint64_t erased = erasePhase(filter, present);
  // The same again through the batches, on the now empty filter.
  std::vector<unsigned char> answers(count);
  const std::uint64_t storedInBatch = insertBatchPhase(filter, present);
  lookupPositiveBatchPhase(filter, present, answers);
  std::uint64_t foundInBatch = 0;
  for (const unsigned char answer : answers) foundInBatch += answer;
  bench::gSink = lookupNegativeBatchPhase(filter, absent, answers);
  const std::uint64_t erasedInBatch = eraseBatchPhase(filter, present);
  // The operations of each phase, for dividing callgrind's counts.
  std::printf("{\"operations\": %llu, \"stored\": %llu, \"found\": %llu, \"erased\": %llu}\n",
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(stored),
              static_cast<unsigned long long>(found), static_cast<unsigned long long>(erased));
  const bool complete = stored == count && found == count && erased == count;
  return complete && storedInBatch == count && foundInBatch == count && erasedInBatch == count ? 0 : 1;
}
