#include "cuckoo/bloom_filter.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "item_hash.hpp"
#include "reject.hpp"

namespace cuckoo {
namespace {

using detail::rejected;

constexpr double kLn2 = 0.69314718055994530942;
constexpr std::size_t kCacheLineBytes = 64;

Status validateShape(const BloomParams& params) noexcept {
  if (params.bitCount == 0 || params.bitCount > kMaxBloomBitCount) return rejected(Status::kInvalidBloomBitCount);
  if (params.hashCount < kMinBloomHashCount || params.hashCount > kMaxBloomHashCount) {
    return rejected(Status::kInvalidBloomHashCount);
  }
  return Status::kOk;
}

double bitsPerItemOf(std::uint64_t bitCount, std::uint64_t itemCount) noexcept {
  return itemCount == 0 ? std::numeric_limits<double>::infinity()
                        : static_cast<double>(bitCount) / static_cast<double>(itemCount);
}

// The arithmetic below sticks to pow, exp and the operations wasm has as
// instructions: lgamma, expm1 and friends would add kilobytes of libm to the
// browser download for the sake of a statistic.
double powInt(double base, unsigned exponent) noexcept {
  double result = 1.0;
  for (; exponent != 0; exponent >>= 1, base *= base) {
    if (exponent & 1U) result *= base;
  }
  return result;
}

// Half away from zero, as std::round, without its libm call.
double roundHalfUp(double x) noexcept { return std::floor(x + 0.5); }

// (1 - e^(-k n / m))^k.
double standardFalsePositiveRate(double items, double bits, unsigned hashCount) noexcept {
  if (items <= 0.0) return 0.0;
  return powInt(1.0 - std::exp(-static_cast<double>(hashCount) * items / bits), hashCount);
}

// The Poisson mixture of BlockedBloomFilter::stats. The Poisson weights are
// built outward from the mode by the ratio P(j+1) / P(j) = mean / (j+1) and
// normalised by their sum, which avoids factorials; terms beyond 12 standard
// deviations from the mean are below 1e-30 of the sum and are left out.
double blockedFalsePositiveRate(double itemsPerBlock, unsigned hashCount) noexcept {
  if (itemsPerBlock <= 0.0) return 0.0;
  const double spread = 12.0 * std::sqrt(itemsPerBlock) + 20.0;
  // So many items per block that every block is saturated: the mixture is the
  // rate at the mean to well within double precision, at a fraction of the cost.
  if (spread > 20000.0) return standardFalsePositiveRate(itemsPerBlock, kBloomBlockBits, hashCount);
  const double mode = std::floor(itemsPerBlock);
  const double first = mode > spread ? std::floor(mode - spread) : 0.0;
  const double last = std::ceil(itemsPerBlock + spread);
  // A bit stays clear through one item's k probes with probability q.
  const double q = powInt(1.0 - 1.0 / kBloomBlockBits, hashCount);
  const auto rateWith = [&](double items) { return powInt(1.0 - std::pow(q, items), hashCount); };

  double weightSum = 1.0;
  double rate = rateWith(mode);
  double weight = 1.0;
  for (double j = mode; j < last; j += 1.0) {
    weight *= itemsPerBlock / (j + 1.0);
    weightSum += weight;
    rate += weight * rateWith(j + 1.0);
  }
  weight = 1.0;
  for (double j = mode; j > first; j -= 1.0) {
    weight *= j / itemsPerBlock;
    weightSum += weight;
    rate += weight * rateWith(j - 1.0);
  }
  rate /= weightSum;
  return rate < 1.0 ? rate : 1.0;
}

// One out-of-line copy of XXH3 for the item operations below: inlined into
// each it would cost kilobytes of wasm for no measurable speed.
[[gnu::noinline]] std::uint64_t hashOf(const void* item, std::size_t length, std::uint64_t seed) noexcept {
  return detail::hashItem(item, length, seed);
}

// The batches of both filters, written once over the single-item calls,
// which keep their one copy of the probe loops (the full wasm module carries
// the Bloom filters; inlining the loops again cost 400 bytes gzip there).
template <class Filter>
std::size_t insertEach(Filter& filter, const ItemBatch& items) noexcept {
  std::size_t setNewBits = 0;
  for (std::size_t k = 0; k < items.count; ++k) {
    setNewBits += filter.insert(items.item(k), items.length(k)) ? 1 : 0;
  }
  return setNewBits;
}

template <class Filter>
void answerEach(const Filter& filter, const ItemBatch& items, unsigned char* answers) noexcept {
  for (std::size_t k = 0; k < items.count; ++k) {
    answers[k] = filter.contains(items.item(k), items.length(k)) ? 1 : 0;
  }
}

}  // namespace

unsigned optimalBloomHashCount(double bitsPerItem) noexcept {
  const double k = roundHalfUp(kLn2 * bitsPerItem);
  // Written so that NaN lands on the minimum.
  if (!(k >= kMinBloomHashCount)) return kMinBloomHashCount;
  if (k >= kMaxBloomHashCount) return kMaxBloomHashCount;
  return static_cast<unsigned>(k);
}

Status bloomParamsForBits(std::uint64_t expectedItems, std::uint64_t totalBits, BloomParams& out) noexcept {
  if (expectedItems == 0) return rejected(Status::kInvalidCapacity);
  if (totalBits == 0 || totalBits > kMaxBloomBitCount) return rejected(Status::kInvalidBloomBitCount);
  out.bitCount = totalBits;
  out.hashCount = optimalBloomHashCount(static_cast<double>(totalBits) / static_cast<double>(expectedItems));
  return Status::kOk;
}

Status bloomParamsForBitsPerItem(std::uint64_t expectedItems, double bitsPerItem, BloomParams& out) noexcept {
  if (expectedItems == 0) return rejected(Status::kInvalidCapacity);
  if (!(bitsPerItem > 0.0 && bitsPerItem <= std::numeric_limits<double>::max())) {
    return rejected(Status::kInvalidBitsPerItem);
  }
  const double bits = std::ceil(static_cast<double>(expectedItems) * bitsPerItem);
  if (bits > static_cast<double>(kMaxBloomBitCount)) return rejected(Status::kTableTooLarge);
  return bloomParamsForBits(expectedItems, static_cast<std::uint64_t>(bits), out);
}

Status bloomParamsForCapacity(std::uint64_t capacity, double falsePositiveRate, BloomParams& out) noexcept {
  if (capacity == 0) return rejected(Status::kInvalidCapacity);
  if (!(falsePositiveRate > 0.0 && falsePositiveRate < 1.0)) {
    return rejected(Status::kInvalidFalsePositiveRate);
  }
  const double items = static_cast<double>(capacity);
  // ln(rate) = log2(rate) * ln 2.
  const double bits = std::ceil(-items * std::log2(falsePositiveRate) / kLn2);
  if (roundHalfUp(kLn2 * bits / items) > kMaxBloomHashCount) return rejected(Status::kBloomFalsePositiveRateTooLow);
  if (bits > static_cast<double>(kMaxBloomBitCount)) return rejected(Status::kTableTooLarge);
  return bloomParamsForBits(capacity, static_cast<std::uint64_t>(bits), out);
}

double bloomExpectedFalsePositiveRate(std::uint64_t bitCount, unsigned hashCount, double items) noexcept {
  return standardFalsePositiveRate(items, static_cast<double>(bitCount), hashCount);
}

namespace detail {

Status BloomWords::allocate(std::uint64_t wordCount, BloomWords& out) noexcept {
  // At most 2^26 words (2^32 bits): the byte count fits size_t on wasm32 too.
  const std::size_t bytes = static_cast<std::size_t>(wordCount * 8);
  void* allocation = std::calloc(bytes + kCacheLineBytes - 1, 1);
  if (allocation == nullptr) return rejected(Status::kOutOfMemory);
  const auto address = reinterpret_cast<std::uintptr_t>(allocation);
  const std::uintptr_t aligned = (address + kCacheLineBytes - 1) & ~std::uintptr_t{kCacheLineBytes - 1};
  BloomWords words;
  words.allocation_ = allocation;
  words.words_ = reinterpret_cast<std::uint64_t*>(aligned);
  words.wordCount_ = wordCount;
  out = std::move(words);
  return Status::kOk;
}

void BloomWords::release() noexcept {
  std::free(allocation_);
  allocation_ = nullptr;
  words_ = nullptr;
  wordCount_ = 0;
}

}  // namespace detail

Status StandardBloomFilter::validate(const BloomParams& params) noexcept {
  return validateShape(params);
}

Status StandardBloomFilter::create(const BloomParams& params, StandardBloomFilter& out) noexcept {
  const Status valid = validate(params);
  if (valid != Status::kOk) return valid;
  StandardBloomFilter filter;
  const Status allocated = detail::BloomWords::allocate((params.bitCount + 63) / 64, filter.words_);
  if (allocated != Status::kOk) return allocated;
  filter.params_ = params;
  out = std::move(filter);
  return Status::kOk;
}

bool StandardBloomFilter::insert(const void* item, std::size_t length) noexcept {
  return insertHash(hashOf(item, length, params_.seed));
}

bool StandardBloomFilter::contains(const void* item, std::size_t length) const noexcept {
  return containsHash(hashOf(item, length, params_.seed));
}

unsigned StandardBloomFilter::probePositions(const void* item, std::size_t length, std::uint32_t* out) const noexcept {
  return probePositionsOfHash(hashOf(item, length, params_.seed), out);
}

std::size_t StandardBloomFilter::insertMany(const ItemBatch& items) noexcept { return insertEach(*this, items); }

void StandardBloomFilter::containsMany(const ItemBatch& items, unsigned char* answers) const noexcept {
  answerEach(*this, items, answers);
}

BloomStats StandardBloomFilter::stats() const noexcept {
  return BloomStats{itemCount_,
                    params_.bitCount,
                    params_.hashCount,
                    sizeInBytes(),
                    bitsPerItemOf(params_.bitCount, itemCount_),
                    bloomExpectedFalsePositiveRate(params_.bitCount, params_.hashCount, static_cast<double>(itemCount_))};
}

Status BlockedBloomFilter::validate(const BloomParams& params) noexcept {
  return validateShape(params);
}

Status BlockedBloomFilter::create(const BloomParams& params, BlockedBloomFilter& out) noexcept {
  const Status valid = validate(params);
  if (valid != Status::kOk) return valid;
  BloomParams rounded = params;
  // 2^32 is a multiple of 512, so rounding up never leaves the valid range.
  rounded.bitCount = (params.bitCount + kBloomBlockBits - 1) / kBloomBlockBits * kBloomBlockBits;
  BlockedBloomFilter filter;
  const Status allocated = detail::BloomWords::allocate(rounded.bitCount / 64, filter.words_);
  if (allocated != Status::kOk) return allocated;
  filter.params_ = rounded;
  out = std::move(filter);
  return Status::kOk;
}

bool BlockedBloomFilter::insert(const void* item, std::size_t length) noexcept {
  return insertHash(hashOf(item, length, params_.seed));
}

bool BlockedBloomFilter::contains(const void* item, std::size_t length) const noexcept {
  return containsHash(hashOf(item, length, params_.seed));
}

unsigned BlockedBloomFilter::probePositions(const void* item, std::size_t length, std::uint32_t* out) const noexcept {
  return probePositionsOfHash(hashOf(item, length, params_.seed), out);
}

std::size_t BlockedBloomFilter::insertMany(const ItemBatch& items) noexcept { return insertEach(*this, items); }

void BlockedBloomFilter::containsMany(const ItemBatch& items, unsigned char* answers) const noexcept {
  answerEach(*this, items, answers);
}

BloomStats BlockedBloomFilter::stats() const noexcept {
  const double itemsPerBlock = static_cast<double>(itemCount_) / static_cast<double>(blockCount());
  return BloomStats{itemCount_,
                    params_.bitCount,
                    params_.hashCount,
                    sizeInBytes(),
                    bitsPerItemOf(params_.bitCount, itemCount_),
                    blockedFalsePositiveRate(itemsPerBlock, params_.hashCount)};
}

}  // namespace cuckoo
