// The embind glue of cuckoo-wasm/inspect's reads of a filter's table and of
// the core's rules (ts/src/inspect-table.ts, inspect-facts.ts): copies of the
// slots and the stash, a semi-sorted bucket as it is stored, the relation of
// a fingerprint's two buckets, and the facts the demo must not restate
// (which relation a bucket count gets, when semi-sorting is allowed, the
// loads tables are sized to, the sizing of a filter and its rates).
// Read-only; nothing here throws.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "cuckoo/bit_io.hpp"
#include "cuckoo/bloom_filter.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/semi_sorted_table.hpp"
#include "cuckoo/sizing.hpp"
#include "glue.hpp"
#include "inspect_walk.hpp"

namespace {

using namespace inspect;  // the shared vocabulary (inspect_walk.hpp)
using glue::Address;

// Copies slots of buckets [first, first + count) to `out`, bucket by bucket
// (count * b words; 0 = empty). The caller keeps the range inside the table.
void readSlots(Handle h, unsigned first, unsigned count, Address out) {
  const CuckooFilter& filter = readFilter(h);
  const unsigned b = filter.params().bucketSize;
  std::uint32_t* words = glue::wordsAt(out);
  for (std::uint64_t bucket = first; bucket < std::uint64_t{first} + count; ++bucket) {
    for (unsigned s = 0; s < b; ++s) *words++ = filter.slotValue(bucket, s);
  }
}

struct StashInfo {
  bool occupied;
  std::uint32_t fingerprint;      // 0 when empty
  std::uint32_t bucket;           // the bucket it was last evicted from
  std::uint32_t alternateBucket;  // and that bucket's alternate for it
};

StashInfo readStash(Handle h) {
  const CuckooFilter& filter = readFilter(h);
  const cuckoo::Stash& stash = filter.stash();
  return StashInfo{stash.occupied, stash.fingerprint, stash.bucket,
                   stash.occupied ? filter.bucketIndex().alternate(stash.bucket, stash.fingerprint) : 0};
}

// A semi-sorted bucket's fields as the table stores them (semi_sorted_table.hpp):
// the 12-bit rank of its sorted high nibbles, and each entry's low f - 4 bits.
struct StoredSemiSortedBucket {
  std::uint32_t rank = 0;
  std::uint32_t nibbles = 0;     // kUnrank[rank]: the sorted nibbles, 4 bits each, the smallest lowest
  val lowBits = val::array();  // 4 numbers
};

// The caller checks that the filter is semi-sorted and the bucket in range.
StoredSemiSortedBucket readSemiSortedBucket(Handle h, unsigned bucket) {
  const CuckooFilter& filter = readFilter(h);
  const unsigned f = filter.params().fingerprintBits;
  const std::uint64_t start = std::uint64_t{bucket} * cuckoo::SemiSortedTable::bucketBitsFor(f);
  const unsigned char* bytes = filter.tableData();
  const auto rank = static_cast<std::uint32_t>(cuckoo::bits::read(bytes, start, cuckoo::kNibbleRankBits));
  val lows = val::array();
  for (unsigned s = 0; s < cuckoo::kSemiSortedBucketSize; ++s) {
    lows.call<void>("push", static_cast<std::uint32_t>(cuckoo::bits::read(bytes, start + cuckoo::kNibbleRankBits + s * (f - 4), f - 4)));
  }
  return StoredSemiSortedBucket{rank, cuckoo::semisort::kUnrank[rank], lows};
}

std::uint32_t alternateBucketOf(Handle h, std::uint32_t bucket, std::uint32_t fingerprint) {
  return readFilter(h).bucketIndex().alternate(bucket, fingerprint);
}
std::uint32_t mix32Of(std::uint32_t value) { return cuckoo::mix32(value); }

// Bits of table payload, without padding: what a Bloom filter of the same
// memory gets.
double tableBitsOf(const cuckoo::FilterParams& p) {
  const std::uint64_t bitsPerBucket =
      p.semiSort ? cuckoo::SemiSortedTable::bucketBitsFor(p.fingerprintBits) : std::uint64_t{p.bucketSize} * p.fingerprintBits;
  return static_cast<double>(p.bucketCount * bitsPerBucket);
}
double tableBits(Handle h) { return tableBitsOf(readFilter(h).params()); }

// The rates of a table of buckets of b slots with f-bit fingerprints, the
// expected one at `loadFactor` (cuckoo_filter.hpp).
struct CuckooRates {
  double fprBound;
  double expectedFpr;
};
CuckooRates cuckooRatesAt(unsigned bucketSize, unsigned fingerprintBits, double loadFactor) {
  return {cuckoo::falsePositiveBound(bucketSize, fingerprintBits),
          cuckoo::expectedFalsePositiveRate(bucketSize, fingerprintBits, loadFactor)};
}

// What the core's sizing (sizing.hpp) chooses for `capacity` items at
// `rate`, without making a table: the shape create() would make, its bits,
// and its rates holding `capacity` items; only `status` when it refuses.
struct CuckooSizing {
  int status;
  unsigned fingerprintBits;
  unsigned bucketSize;
  double bucketCount;
  double tableBits;
  CuckooRates rates;
};
CuckooSizing cuckooSizingFor(double capacity, double rate, bool semiSort) {
  cuckoo::FilterParams params;
  params.semiSort = semiSort;
  const auto items = glue::wholeNumber<std::uint64_t>(capacity);
  const cuckoo::Status status = cuckoo::paramsForCapacity(items, rate, params);
  if (status != cuckoo::Status::kOk) return {static_cast<int>(status), 0, 0, 0, 0, {0, 0}};
  const double slots = static_cast<double>(params.bucketCount) * params.bucketSize;
  return {static_cast<int>(status), params.fingerprintBits, params.bucketSize, static_cast<double>(params.bucketCount),
          tableBitsOf(params), cuckooRatesAt(params.bucketSize, params.fingerprintBits, capacity / slots)};
}

// The same for a standard Bloom filter (bloom_filter.hpp), with the rate it is
// expected to reach holding `capacity` items.
struct BloomSizing {
  int status;
  double bitCount;
  unsigned hashCount;
  double expectedFpr;
};
BloomSizing bloomSizingFor(double capacity, double rate) {
  cuckoo::BloomParams params;
  const auto items = glue::wholeNumber<std::uint64_t>(capacity);
  const cuckoo::Status status = cuckoo::bloomParamsForCapacity(items, rate, params);
  if (status != cuckoo::Status::kOk) return {static_cast<int>(status), 0, 0, 0};
  return {static_cast<int>(status), static_cast<double>(params.bitCount), params.hashCount,
          cuckoo::bloomExpectedFalsePositiveRate(params.bitCount, params.hashCount, capacity)};
}
double bloomRateWith(double bitCount, unsigned hashCount, double items) {
  return cuckoo::bloomExpectedFalsePositiveRate(static_cast<std::uint64_t>(bitCount), hashCount, items);
}

// The kernel serving a filter, and a switch to the generic one for comparing speeds.
std::string kernelNameOf(Handle h) { return readFilter(h).kernelName(); }
void useGenericKernel(Handle h) { filterAt(h).useGenericKernel(); }

double practicalMaxLoadOf(unsigned bucketSize) { return cuckoo::practicalMaxLoad(bucketSize); }
unsigned optimalBloomHashCountFor(double bitsPerItem) { return cuckoo::optimalBloomHashCount(bitsPerItem); }

// The relation a table of `bucketCount` buckets uses (hashing.hpp): 1 or 2.
unsigned hashIdFor(double bucketCount) {
  return cuckoo::BucketIndex::forCount(static_cast<std::uint64_t>(bucketCount)).hashId();
}

// Whether the core makes a semi-sorted table of this bucket size and fingerprint length.
bool semiSortAllowed(unsigned bucketSize, unsigned fingerprintBits) {
  cuckoo::FilterParams params;
  params.bucketSize = bucketSize;
  params.fingerprintBits = fingerprintBits;
  params.bucketCount = 1;
  params.semiSort = true;
  return cuckoo::CuckooFilter::validate(params) == cuckoo::Status::kOk;
}

}  // namespace

EMSCRIPTEN_BINDINGS(cuckoo_inspect_table) {
  using emscripten::function;
  using emscripten::value_object;
  value_object<StashInfo>("StashInfo")
      .field("occupied", &StashInfo::occupied)
      .field("fingerprint", &StashInfo::fingerprint)
      .field("bucket", &StashInfo::bucket)
      .field("alternateBucket", &StashInfo::alternateBucket);
  value_object<StoredSemiSortedBucket>("StoredSemiSortedBucket")
      .field("rank", &StoredSemiSortedBucket::rank)
      .field("nibbles", &StoredSemiSortedBucket::nibbles)
      .field("lowBits", &StoredSemiSortedBucket::lowBits);
  value_object<CuckooRates>("CuckooRates").field("fprBound", &CuckooRates::fprBound).field("expectedFpr", &CuckooRates::expectedFpr);
  value_object<CuckooSizing>("CuckooSizing")
      .field("status", &CuckooSizing::status)
      .field("fingerprintBits", &CuckooSizing::fingerprintBits)
      .field("bucketSize", &CuckooSizing::bucketSize)
      .field("bucketCount", &CuckooSizing::bucketCount)
      .field("tableBits", &CuckooSizing::tableBits)
      .field("rates", &CuckooSizing::rates);
  value_object<BloomSizing>("BloomSizing")
      .field("status", &BloomSizing::status)
      .field("bitCount", &BloomSizing::bitCount)
      .field("hashCount", &BloomSizing::hashCount)
      .field("expectedFpr", &BloomSizing::expectedFpr);
  emscripten::constant("semiSortedRanks", cuckoo::kNibbleMultisets);
  emscripten::constant("nibbleRankBits", cuckoo::kNibbleRankBits);
  function("inspectReadSlots", &readSlots);
  function("inspectReadStash", &readStash);
  function("inspectReadSemiSortedBucket", &readSemiSortedBucket);
  function("inspectAlternateBucket", &alternateBucketOf);
  function("inspectMix32", &mix32Of);
  function("inspectTableBits", &tableBits);
  function("inspectKernelName", &kernelNameOf);
  function("inspectUseGenericKernel", &useGenericKernel);
  function("inspectPracticalMaxLoad", &practicalMaxLoadOf);
  function("inspectOptimalBloomHashCount", &optimalBloomHashCountFor);
  function("inspectHashIdFor", &hashIdFor);
  function("inspectSemiSortAllowed", &semiSortAllowed);
  function("inspectCuckooRates", &cuckooRatesAt);
  function("inspectCuckooSizing", &cuckooSizingFor);
  function("inspectBloomSizing", &bloomSizingFor);
  function("inspectBloomRate", &bloomRateWith);
}
