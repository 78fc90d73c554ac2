#pragma once
// How a write through the module reaches replicas and the AOF: as commands
// every server has, so that one without the module holds the same bytes.
//
// Per changed chunk: a few buckets as one BITFIELD ... SET u<w> <bit> <value>
// (each bucket's bits, in pieces of at most 63); more as one EVAL of
// kRangesScript with the changed buckets' byte ranges packed into a single
// argument: building a BITFIELD argument per bucket costed the master twice
// its own work on a batch (two strings made and freed per bucket), where the
// packed ranges cost a copy. A server running that EVAL writes each range
// with SETRANGE. The header's 24 state bytes go as SETRANGE. Redis wraps a
// command's replicated writes in MULTI/EXEC.

#include <cstdint>
#include <utility>
#include <vector>

#include "server_api.hpp"

namespace cuckoo::redis {

class CommandScope;

// The script a replica runs for a batch: KEYS[1] the chunk, ARGV[1] per
// range its offset (4 bytes, big-endian), its length (1 byte) and its bytes.
extern const char* const kRangesScript;
// Up to this many changed buckets in a chunk go as BITFIELD, more as EVAL.
inline constexpr std::size_t kBitfieldBuckets = 2;

// Replicates the changed buckets (number, first bit) of a chunk `key` whose bytes are `chunk`.
void replicateBuckets(CommandScope& scope, String* key, const unsigned char* chunk, unsigned bucketBits,
                      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& buckets);

}  // namespace cuckoo::redis
