// The replicated form of a write through the module (replication.hpp).

#include "replication.hpp"

#include <string>

#include "chunk_buckets.hpp"
#include "filter_access.hpp"

namespace cuckoo::redis {

const char* const kRangesScript =
    "local packed, at = ARGV[1], 1\n"
    "while at <= #packed do\n"
    "  local a, b, c, d, n = string.byte(packed, at, at + 4)\n"
    "  redis.call('SETRANGE', KEYS[1], string.format('%d', ((a * 256 + b) * 256 + c) * 256 + d), "
    "string.sub(packed, at + 5, at + 4 + n))\n"
    "  at = at + 5 + n\n"
    "end\n"
    "return 0\n";

namespace {

// BITFIELD SET takes fields of up to 63 bits (unsigned): a wider bucket goes in pieces.
void asBitfield(CommandScope& scope, String* key, const unsigned char* chunk, unsigned bits,
                const std::vector<std::pair<std::uint32_t, std::uint64_t>>& buckets) {
  constexpr unsigned kPiece = 63;
  String* set = scope.string("SET");
  std::vector<String*> arguments;
  for (const auto& [bucket, bit] : buckets) {
    static_cast<void>(bucket);
    for (unsigned done = 0; done < bits;) {
      const unsigned width = bits - done < kPiece ? bits - done : kPiece;
      arguments.push_back(set);
      arguments.push_back(scope.string("u" + std::to_string(width)));
      arguments.push_back(scope.string(std::to_string(bit + done)));
      arguments.push_back(scope.string(std::to_string(readField(chunk, bit + done, width))));
      done += width;
    }
  }
  server.Replicate(scope.ctx(), "BITFIELD", "sv", key, arguments.data(), arguments.size());
}

void asRanges(CommandScope& scope, String* key, const unsigned char* chunk, unsigned bits,
              const std::vector<std::pair<std::uint32_t, std::uint64_t>>& buckets) {
  std::string packed;
  packed.reserve(buckets.size() * (5 + (bits + 14) / 8));
  for (const auto& [bucket, bit] : buckets) {
    static_cast<void>(bucket);
    const std::uint64_t first = bit / 8;
    const std::uint64_t length = (bit + bits - 1) / 8 - first + 1;
    for (int shift = 24; shift >= 0; shift -= 8) packed.push_back(static_cast<char>(first >> shift));
    packed.push_back(static_cast<char>(length));
    packed.append(reinterpret_cast<const char*>(chunk + first), length);
  }
  server.Replicate(scope.ctx(), "EVAL", "ccsb", kRangesScript, "1", key, packed.data(), packed.size());
}

}  // namespace

void replicateBuckets(CommandScope& scope, String* key, const unsigned char* chunk, unsigned bucketBits,
                      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& buckets) {
  if (buckets.size() <= kBitfieldBuckets) {
    asBitfield(scope, key, chunk, bucketBits, buckets);
  } else {
    asRanges(scope, key, chunk, bucketBits, buckets);
  }
}

}  // namespace cuckoo::redis
