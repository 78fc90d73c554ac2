// The native half of the soak test: replays the operation sequence that
// tests/soak/soak.mjs runs in wasm and prints
//   ops=<operations> items=<final itemCount> sha256=<hash of the final serialized filter>
// for the JavaScript side to compare. The sequence is specified in soak.mjs;
// every draw from the generator here matches one there, in the same order.
//
// Usage: cuckoo_native_replay <f> <b> <m> <maxKicks> <seed> <semiSort 0|1> <number|string|unicode> <universe> <ops> <runSeed>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/prng.hpp"

namespace {

using cuckoo::CuckooFilter;

// SHA-256 (FIPS 180-4), so that the hash matches node:crypto's.
std::string sha256Hex(const std::vector<unsigned char>& message) {
  static const std::uint32_t k[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
      0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
      0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
      0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
      0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
      0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
      0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  auto rotr = [](std::uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); };

  std::vector<unsigned char> padded = message;
  padded.push_back(0x80);
  while (padded.size() % 64 != 56) padded.push_back(0);
  const std::uint64_t bitLength = std::uint64_t{message.size()} * 8;
  for (int i = 7; i >= 0; --i) padded.push_back(static_cast<unsigned char>(bitLength >> (8 * i)));

  for (std::size_t block = 0; block < padded.size(); block += 64) {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i) {
      const unsigned char* p = &padded[block + 4 * i];
      w[i] = std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
    }
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
  }
  std::string hex;
  for (std::uint32_t word : h) {
    char digits[9];
    std::snprintf(digits, sizeof digits, "%08x", word);
    hex += digits;
  }
  return hex;
}

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "cuckoo_native_replay: %s\n", message.c_str());
  std::exit(1);
}

// The item bytes of key k, as soak.mjs's keyOf(k) encodes them in JavaScript.
std::string keyBytes(const std::string& kind, std::uint32_t k) {
  if (kind == "number") {
    const std::int64_t value = (k % 2 == 0 ? 1 : -1) * static_cast<std::int64_t>(k) * 65537;
    std::string bytes(8, '\0');
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(static_cast<std::uint64_t>(value) >> (8 * i));
    return bytes;
  }
  if (kind == "string") return "key-" + std::to_string(k);
  if (kind == "unicode") return "\xd0\xba\xd0\xbb\xd1\x8e\xd1\x87-" + std::to_string(k) + "-\xf0\x9f\x90\xa6";  // ключ-k-🐦
  fail("unknown key kind '" + kind + "' (number, string or unicode)");
}

class Replay {
 public:
  Replay(const cuckoo::FilterParams& params, const std::string& kind, std::uint32_t universe, std::uint64_t budget,
         std::uint64_t runSeed)
      : rng_(runSeed), budget_(budget), slots_(params.bucketCount * params.bucketSize) {
    if (CuckooFilter::create(params, filter_) != cuckoo::Status::kOk) fail("invalid filter parameters");
    keys_.reserve(universe);
    for (std::uint32_t k = 0; k < universe; ++k) keys_.push_back(keyBytes(kind, k));
  }

  void run() {
    while (!done()) {
      for (std::uint64_t i = 0; i < 2 * slots_ && !done(); ++i) step();
      fill();
      drain();
    }
  }

  const CuckooFilter& filter() const { return filter_; }
  std::uint64_t ops() const { return ops_; }

 private:
  bool done() const { return ops_ >= budget_; }
  std::uint32_t draw(std::uint64_t n) { return static_cast<std::uint32_t>(rng_.next() >> 32) % static_cast<std::uint32_t>(n); }
  std::uint32_t drawKey() { return draw(keys_.size()); }

  bool insert(std::uint32_t k) {
    if (!filter_.insert(keys_[k].data(), keys_[k].size())) return false;
    present_.push_back(k);
    return true;
  }

  void erase(std::uint32_t k) {
    if (!filter_.erase(keys_[k].data(), keys_[k].size())) fail("erase of a present key failed after " + std::to_string(ops_) + " operations");
  }

  std::uint32_t takePresent() {
    const std::uint32_t index = draw(present_.size());
    const std::uint32_t k = present_[index];
    present_[index] = present_.back();
    present_.pop_back();
    return k;
  }

  void step() {
    const std::uint32_t p = draw(1000);
    if (p < 400) {
      insert(drawKey());
      ops_ += 1;
    } else if (p < 650) {
      if (!present_.empty()) erase(takePresent());
      ops_ += 1;
    } else if (p < 800) {
      const std::uint32_t k = drawKey();
      (void)filter_.contains(keys_[k].data(), keys_[k].size());
      ops_ += 1;
    } else if (p < 880) {
      const std::uint32_t k = drawKey();
      (void)filter_.count(keys_[k].data(), keys_[k].size());
      ops_ += 1;
    } else if (p < 940) {
      const std::uint32_t k = drawKey();
      if (filter_.insertUnique(keys_[k].data(), keys_[k].size()) == cuckoo::InsertOutcome::kInserted) present_.push_back(k);
      ops_ += 1;
    } else if (p < 970) {
      const std::uint32_t n = 1 + draw(16);
      std::vector<std::uint32_t> batch;
      for (std::uint32_t i = 0; i < n; ++i) batch.push_back(drawKey());
      for (std::uint32_t k : batch) {
        if (!insert(k)) break;
      }
      ops_ += n;
    } else if (p < 985) {
      const std::uint64_t wanted = 1 + draw(16);
      const std::uint64_t n = wanted < present_.size() ? wanted : present_.size();
      for (std::uint64_t i = 0; i < n; ++i) erase(takePresent());
      ops_ += n > 0 ? n : 1;
    } else if (p < 998) {
      const std::uint32_t n = 1 + draw(16);
      for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t k = drawKey();
        (void)filter_.contains(keys_[k].data(), keys_[k].size());
      }
      ops_ += n;
    } else if (p < 999) {
      std::vector<unsigned char> bytes(filter_.serializedSize());
      filter_.serialize(bytes.data());
      CuckooFilter loaded;
      if (CuckooFilter::deserialize(bytes.data(), bytes.size(), loaded) != cuckoo::Status::kOk) fail("round trip failed");
      filter_ = std::move(loaded);
      ops_ += 1;
    } else {
      filter_.clear();
      present_.clear();
      ops_ += 1;
    }
  }

  void fill() {
    for (std::uint64_t attempts = 0; !done(); ++attempts) {
      if (attempts > slots_ + 1) fail("the filter never filled up");
      ops_ += 1;
      if (!insert(drawKey())) return;
    }
  }

  void drain() {
    while (!done() && !present_.empty()) {
      erase(takePresent());
      ops_ += 1;
    }
  }

  CuckooFilter filter_;
  cuckoo::SplitMix64 rng_;
  std::uint64_t budget_;
  std::uint64_t slots_;
  std::uint64_t ops_ = 0;
  std::vector<std::string> keys_;
  std::vector<std::uint32_t> present_;
};

std::uint64_t parseNumber(const char* text, const char* what) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') fail(std::string(what) + " must be a decimal integer, got '" + text + "'");
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 11) {
    std::fprintf(stderr,
                 "usage: cuckoo_native_replay <f> <b> <m> <maxKicks> <seed> <semiSort 0|1> <number|string|unicode> "
                 "<universe> <ops> <runSeed>\n");
    return 2;
  }
  cuckoo::FilterParams params;
  params.fingerprintBits = static_cast<unsigned>(parseNumber(argv[1], "f"));
  params.bucketSize = static_cast<unsigned>(parseNumber(argv[2], "b"));
  params.bucketCount = parseNumber(argv[3], "m");
  params.maxKicks = static_cast<std::uint32_t>(parseNumber(argv[4], "maxKicks"));
  params.seed = parseNumber(argv[5], "seed");
  params.semiSort = parseNumber(argv[6], "semiSort") != 0;
  const auto universe = static_cast<std::uint32_t>(parseNumber(argv[8], "universe"));
  if (universe == 0) fail("universe must be at least 1");
  Replay replay(params, argv[7], universe, parseNumber(argv[9], "ops"), parseNumber(argv[10], "runSeed"));
  replay.run();

  std::vector<unsigned char> bytes(replay.filter().serializedSize());
  replay.filter().serialize(bytes.data());
  std::printf("ops=%llu items=%llu sha256=%s\n", static_cast<unsigned long long>(replay.ops()),
              static_cast<unsigned long long>(replay.filter().itemCount()), sha256Hex(bytes).c_str());
  return 0;
}
