// Change-log records, byte for byte as CHANGE-LOG.md gives them.

#include "change_log.hpp"

#include <cstring>

namespace cuckoo::redis {
namespace {

constexpr int kKeyStream = 7;
constexpr std::size_t kRecordHeaderBytes = 52;

}  // namespace

bool changeLogReady(CommandScope& scope, const std::string& chunkPrefix) {
  Refusal& refusal = scope.refusal();
  String* seq = scope.string(chunkPrefix + "seq");
  String* log = scope.string(chunkPrefix + "log");
  if (!scope.mayAccess(seq) || !scope.mayAccess(log)) return false;
  // Opened, looked at and closed at once: INCR and XADD change them later.
  Key* key = server.OpenKey(scope.ctx(), seq, kRead);
  bool ready = true;
  if (key != nullptr) {
    std::size_t length = 0;
    const char* text = server.KeyType(key) == kKeyString ? server.StringDMA(key, &length, kRead) : nullptr;
    bool decimal = text != nullptr && length > 0 && length < 19;
    for (std::size_t k = 0; decimal && k < length; ++k) decimal = text[k] >= '0' && text[k] <= '9';
    ready = decimal;
    server.CloseKey(key);
  }
  if (!ready) return refusal.refuse("INCONSISTENT", "key '" + chunkPrefix + "seq' does not hold the shard's change count");
  key = server.OpenKey(scope.ctx(), log, kRead);
  if (key != nullptr) {
    ready = server.KeyType(key) == kKeyStream;
    server.CloseKey(key);
  }
  if (!ready) return refusal.refuse("INCONSISTENT", "key '" + chunkPrefix + "log' does not hold the shard's change log");
  return true;
}

std::string changeRecord(const FilterLayout& layout, const unsigned char* header, std::uint64_t seq,
                         const std::vector<std::uint32_t>& buckets, ShardTable& table) {
  const unsigned bits = layout.bucketBits();
  const std::size_t bucketBytes = (bits + 7) / 8;
  std::string record(kRecordHeaderBytes + buckets.size() * (4 + bucketBytes), '\0');
  auto* out = reinterpret_cast<unsigned char*>(record.data());
  std::memcpy(out, "CKFC", 4);
  out[4] = 1;  // record version
  out[5] = 0;  // flags
  std::memcpy(out + 6, header + at::id, 6);
  std::memcpy(out + 12, header + at::shard, 2);
  writeBigEndian(out + 16, 8, seq);
  std::memcpy(out + 24, header + at::stashFingerprint, kStateBytes);
  writeBigEndian(out + 48, 4, buckets.size());
  unsigned char* at = out + kRecordHeaderBytes;
  for (const std::uint32_t bucket : buckets) {
    writeBigEndian(at, 4, bucket);
    std::uint64_t bit = 0;
    const unsigned char* bytes = table.locate(bucket, bit);
    // The bucket's bits from the most significant bit of its first byte on.
    for (unsigned done = 0; done < bits; done += 8) {
      const unsigned width = bits - done < 8 ? bits - done : 8;
      at[4 + done / 8] = static_cast<unsigned char>(readField(bytes, bit + done, width) << (8 - width));
    }
    at += 4 + bucketBytes;
  }
  return record;
}

// CHANGE-LOG.md, "Publishing a record": the entry ID, a space, the record, on
// the log key's channel (SPUBLISH, or PUBLISH on a server without shard
// channels), as the scripts publish it. A hint, not stored: not replicated.
static void publishRecord(CommandScope& scope, String* logKey, const std::string& id, const std::string& record) {
  const std::string message = id + ' ' + record;
  for (const char* command : {"SPUBLISH", "PUBLISH"}) {
    CallReply* published = server.Call(scope.ctx(), command, "sb", logKey, message.data(), message.size());
    if (published == nullptr) continue;  // no such command on this server
    const bool refused = server.CallReplyType(published) == kReplyError;
    server.FreeCallReply(published);
    if (!refused) return;
  }
}

void appendChangeRecord(CommandScope& scope, const std::string& chunkPrefix, const FilterLayout& layout,
                        const unsigned char* header, const std::vector<std::uint32_t>& buckets, ShardTable& table) {
  String* seqKey = scope.string(chunkPrefix + "seq");
  String* logKey = scope.string(chunkPrefix + "log");
  // changeLogReady checked both keys, so neither call fails.
  CallReply* counted = server.Call(scope.ctx(), "INCR", "!s", seqKey);
  const long long seq = counted == nullptr ? 0 : server.CallReplyInteger(counted);
  if (counted != nullptr) server.FreeCallReply(counted);
  const std::string record = changeRecord(layout, header, static_cast<std::uint64_t>(seq), buckets, table);
  CallReply* added = server.Call(scope.ctx(), "XADD", "!scclccb", logKey, "MAXLEN", "~",
                                 static_cast<long long>(layout.logLength), "*", "c", record.data(), record.size());
  if (added == nullptr) return;
  std::size_t idLength = 0;
  const char* id = server.CallReplyType(added) == kReplyString ? server.CallReplyStringPtr(added, &idLength) : nullptr;
  if (id != nullptr) publishRecord(scope, logKey, std::string(id, idLength), record);
  server.FreeCallReply(added);
}

}  // namespace cuckoo::redis
