#pragma once
// The change log of a format-2 filter (ts/src/redis/CHANGE-LOG.md): a write
// that changed a shard appends one record, as the Lua scripts do, in the same
// command: seq = INCR {T}:seq, then XADD {T}:log MAXLEN ~ <logLength> * c
// <record>. Both run through the server (and so reach replicas and the AOF
// as XADD and INCR).

#include <cstdint>
#include <string>
#include <vector>

#include "chunk_buckets.hpp"
#include "filter_access.hpp"
#include "shard_layout.hpp"

namespace cuckoo::redis {

// Whether the shard's log keys can take a record ({T}:seq missing or a
// decimal count, {T}:log missing or a stream): checked before the command
// writes anything it would have to take back.
bool changeLogReady(CommandScope& scope, const std::string& chunkPrefix);

// The record of a write: the header (after the write) gives the id, the
// shard and the 24 state bytes; `buckets` are listed with their contents in
// the table now.
std::string changeRecord(const FilterLayout& layout, const unsigned char* header, std::uint64_t seq,
                         const std::vector<std::uint32_t>& buckets, ShardTable& table);

// INCR and XADD: appends the record of the write to the log.
void appendChangeRecord(CommandScope& scope, const std::string& chunkPrefix, const FilterLayout& layout,
                        const unsigned char* header, const std::vector<std::uint32_t>& buckets, ShardTable& table);

}  // namespace cuckoo::redis
