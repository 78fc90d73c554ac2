// Opening a filter's keys for one command, and making its writes visible:
// replicated, signalled, logged.

#include "filter_access.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "change_log.hpp"
#include "replication.hpp"

namespace cuckoo::redis {
namespace {

std::string textOf(const String* string) {
  std::size_t length = 0;
  const char* text = server.StringPtrLen(string, &length);
  return std::string(text, length);
}

std::string quoted(const std::string& key) { return "key '" + key + "'"; }

bool sameState(const FilterState& a, const FilterState& b) noexcept {
  return a.prng.state() == b.prng.state() && a.stash.occupied == b.stash.occupied &&
         a.stash.fingerprint == b.stash.fingerprint && a.stash.bucket == b.stash.bucket && a.itemCount == b.itemCount;
}

// Chunk lengths are fixed when a filter is made: shorter is truncated, longer inconsistent.
bool checkLength(std::size_t length, std::size_t expected, const std::string& key, Refusal& refusal) {
  if (length == expected) return true;
  return refusal.refuse(length < expected ? "TRUNCATED" : "INCONSISTENT",
                        quoted(key) + " holds " + std::to_string(length) + " bytes, the filter needs " +
                            std::to_string(expected));
}

}  // namespace

// ---- CommandScope

CommandScope::~CommandScope() {
  for (std::size_t k = keys_.size(); k-- > 0;) server.CloseKey(keys_[k]);
  for (String* each : strings_) server.FreeString(ctx_, each);
  if (user_ != nullptr) server.FreeModuleUser(user_);
}

String* CommandScope::string(const std::string& text) {
  String* made = server.CreateString(ctx_, text.data(), text.size());
  strings_.push_back(made);
  return made;
}

bool CommandScope::mayAccess(String* name) {
  if (!userLooked_) {
    userLooked_ = true;
    String* userName = server.GetCurrentUserName(ctx_);
    if (userName != nullptr) {
      user_ = server.GetModuleUserFromUserName(userName);
      server.FreeString(ctx_, userName);
    }
  }
  if (user_ == nullptr) return true;
  if (server.ACLCheckKeyPermissions(user_, name, aclFlags_) == kOk) return true;
  return refusal_.refuse("NOPERM", "this user has no permissions to access " + quoted(textOf(name)) +
                                       ", one of the keys of the filter the command names");
}

Key* CommandScope::open(String* name, bool derived) {
  if (derived && !mayAccess(name)) return nullptr;
  Key* key = server.OpenKey(ctx_, name, writes_ ? kRead | kWrite : kRead);
  if (key != nullptr) keys_.push_back(key);
  return key;
}

unsigned char* CommandScope::bytesOf(Key* key, String* name, std::size_t& length) {
  length = 0;
  const int type = key == nullptr ? kKeyEmpty : server.KeyType(key);
  if (type == kKeyEmpty) return nullptr;
  if (type != kKeyString) {
    refusal_.refuse("WRONGTYPE", std::string(kWrongTypeMessage) + " (" + quoted(textOf(name)) + ")");
    return nullptr;
  }
  return reinterpret_cast<unsigned char*>(server.StringDMA(key, &length, writes_ ? kRead | kWrite : kRead));
}

// ---- The state in a shard's header

FilterState readState(const unsigned char* header) noexcept {
  FilterState state;
  state.prng = SplitMix64(readBigEndian(header + at::prng, 8));
  const auto fingerprint = static_cast<std::uint32_t>(readBigEndian(header + at::stashFingerprint, 4));
  const auto bucket = static_cast<std::uint32_t>(readBigEndian(header + at::stashBucket, 4));
  state.stash = Stash{fingerprint != 0, fingerprint, bucket};
  state.itemCount = readBigEndian(header + at::itemCount, 8);
  return state;
}

void writeState(const FilterState& state, unsigned char* header) noexcept {
  writeBigEndian(header + at::stashFingerprint, 4, state.stash.occupied ? state.stash.fingerprint : 0);
  writeBigEndian(header + at::stashBucket, 4, state.stash.occupied ? state.stash.bucket : 0);
  writeBigEndian(header + at::itemCount, 8, state.itemCount);
  writeBigEndian(header + at::prng, 8, state.prng.state());
}

// ---- OpenedShard

const std::string& OpenedShard::chunkName(unsigned chunk) {
  nameScratch_ = prefix_ + std::to_string(chunk);
  return nameScratch_;
}

bool OpenedShard::open(String* name, const unsigned char* root, unsigned shard, const std::string& rootName) {
  const bool derived = name == nullptr;
  if (derived) name = scope_.string(chunkName(0));
  std::size_t length = 0;
  unsigned char* bytes = scope_.bytesOf(scope_.open(name, derived), name, length);
  if (scope_.refusal().refused()) return false;
  return adopt(name, bytes, length, root, shard, rootName);
}

bool OpenedShard::adopt(String* name, unsigned char* bytes, std::size_t length, const unsigned char* root,
                        unsigned shard, const std::string& rootName) {
  Refusal& refusal = scope_.refusal();
  const std::string key = textOf(name);
  if (length == 0) {
    if (root != nullptr) {
      return refusal.refuse("INCONSISTENT", "shard " + std::to_string(shard) + " of filter '" + rootName +
                                                "' is missing (" + quoted(key) + ")");
    }
    return refusal.refuse("NOT_FOUND", quoted(key) + " is gone: the filter was dropped");
  }
  if (!decodeFixedHeader(bytes, length, HeaderKind::kShard, key, layout_, refusal)) return false;
  if (root != nullptr) {
    // The shard repeats the root's bytes but for its magic and index; the
    // format version and the log length may be ahead of the root's while the
    // filter is upgraded (CHANGE-LOG.md).
    FilterLayout expected;
    Refusal ignored;
    decodeFixedHeader(root, kFixedHeaderBytes, HeaderKind::kRoot, rootName, expected, ignored);
    expected.position = shard;
    unsigned char mine[kFixedHeaderBytes];
    encodeFixedHeader(expected, HeaderKind::kShard, mine);
    for (std::size_t k = 0; k < at::logLength; ++k) {
      if (k != at::version && bytes[k] != mine[k]) {
        return refusal.refuse("INCONSISTENT", quoted(key) + " disagrees with the root '" + rootName +
                                                  "' at header byte " + std::to_string(k) + ": not shard " +
                                                  std::to_string(shard) + " of this filter");
      }
    }
  }
  if (!checkLength(length, chunkExtent(layout_, 0).bytes, key, refusal)) return false;
  const FilterParams& params = layout_.params;
  const std::uint64_t fingerprint = readBigEndian(bytes + at::stashFingerprint, 4);
  const std::uint64_t bucket = readBigEndian(bytes + at::stashBucket, 4);
  const bool stashBad = fingerprint == 0 ? bucket != 0
                                         : fingerprint >= (std::uint64_t{1} << params.fingerprintBits) ||
                                               bucket >= params.bucketCount;
  if (stashBad) return refusal.refuse("INCONSISTENT", quoted(key) + " has a damaged stash");
  // At most every slot and the stash; at least the stash.
  const std::uint64_t items = readBigEndian(bytes + at::itemCount, 8);
  if (items > params.bucketCount * layout_.slotsPerBucket() + 1 || (fingerprint != 0 && items == 0)) {
    return refusal.refuse("INCONSISTENT", quoted(key) + " has a damaged item count");
  }
  header_ = bytes;
  chunkNames_[0] = name;
  state_ = readState(bytes);
  start_ = state_;
  table_ = std::make_unique<ShardTable>(layout_, *this, refusal);
  return true;
}

unsigned char* OpenedShard::openChunk(unsigned chunk) {
  if (chunk == 0) return header_;
  Refusal& refusal = scope_.refusal();
  String* name = scope_.string(chunkName(chunk));
  std::size_t length = 0;
  unsigned char* bytes = scope_.bytesOf(scope_.open(name, true), name, length);
  if (refusal.refused()) return nullptr;
  if (!checkLength(length, chunkExtent(layout_, chunk).bytes, textOf(name), refusal)) return nullptr;
  chunkNames_[chunk] = name;
  return bytes;
}

void OpenedShard::replicateChunk(unsigned chunk, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& buckets) {
  replicateBuckets(scope_, chunkNames_[chunk], table_->chunk(chunk), layout_.bucketBits(), buckets);
  server.NotifyKeyspaceEvent(scope_.ctx(), kNotifyString, "setrange", chunkNames_[chunk]);
  server.SignalModifiedKey(scope_.ctx(), chunkNames_[chunk]);
}

bool OpenedShard::prepare() {
  changed_.assign(layout_.chunkCount, {});
  logged_.clear();
  const std::uint32_t zero = layout_.chunkZeroBuckets;
  const std::uint32_t later = layout_.chunkBuckets;
  // Every write that placed or removed an item changed the count; a walk
  // that was undone (the only writes that leave the count as it was: the
  // kernel puts every bucket back and restores the PRNG) changed nothing. So
  // with the state changed every written bucket is sent (some perhaps
  // unchanged, and some twice: the same final bytes), and without, nothing.
  // (The fuzzer and the native suite check a replica against the keys after
  // every command.)
  stateChanged_ = !sameState(start_, state_);
  if (!stateChanged_) return true;
  table_->forEachWritten([&](std::uint32_t bucket, const unsigned char*, std::uint64_t bit) {
    const unsigned chunk = bucket < zero ? 0 : 1 + (bucket - zero) / later;
    changed_[chunk].emplace_back(bucket, bit);
    logged_.push_back(bucket);
  });
  // The change log lists each bucket once.
  if (layout_.version == kLoggedFormatVersion) {
    std::sort(logged_.begin(), logged_.end());
    logged_.erase(std::unique(logged_.begin(), logged_.end()), logged_.end());
  }
  const bool logs = layout_.version == kLoggedFormatVersion && (stateChanged_ || !logged_.empty());
  return !logs || changeLogReady(scope_, prefix_);
}

void OpenedShard::commit() {
  if (logged_.empty() && !stateChanged_) return;
  for (unsigned chunk = 0; chunk < layout_.chunkCount; ++chunk) {
    if (!changed_[chunk].empty()) replicateChunk(chunk, changed_[chunk]);
  }
  if (stateChanged_) {
    writeState(state_, header_);
    server.Replicate(scope_.ctx(), "SETRANGE", "slb", chunkNames_[0], static_cast<long long>(at::stashFingerprint),
                     reinterpret_cast<const char*>(header_ + at::stashFingerprint), kStateBytes);
    server.NotifyKeyspaceEvent(scope_.ctx(), kNotifyString, "setrange", chunkNames_[0]);
    server.SignalModifiedKey(scope_.ctx(), chunkNames_[0]);
  }
  if (layout_.version == kLoggedFormatVersion) appendChangeRecord(scope_, prefix_, layout_, header_, logged_, *table_);
}

// ---- FilterTarget

bool FilterTarget::open(String** argv, int argc, int& firstItem, bool rootOnly) {
  Refusal& refusal = scope_.refusal();
  name_ = textOf(argv[1]);
  std::size_t length = 0;
  unsigned char* bytes = scope_.bytesOf(scope_.open(argv[1], false), argv[1], length);
  if (refusal.refused()) return false;
  if (length == 0) return refusal.refuse("NOT_FOUND", "there is no filter named '" + name_ + "'");
  if (length >= 4 && std::memcmp(bytes, "CKFN", 4) == 0) {
    if (!decodeFixedHeader(bytes, length, HeaderKind::kRoot, name_, layout_, refusal)) return false;
    if (layout_.position == kRootBeingCreated) {
      return refusal.refuse("NOT_FOUND", "filter '" + name_ + "' is being created, or its creation did not finish");
    }
    if (!rootOnly && (server.GetContextFlags(scope_.ctx()) & kContextCluster) != 0) {
      return refusal.refuse("ERR", "filter '" + name_ +
                                       "' spans several hash slots: in a cluster, address a shard by its key and "
                                       "the filter id ({tag}:0 <id>; CUCKOO.INFO " + name_ + " lists them)");
    }
    std::memcpy(root_, bytes, kFixedHeaderBytes);
    byName_ = true;
    shards_.resize(layout_.shards);
    firstItem = 2;
    return true;
  }
  if (length >= 4 && std::memcmp(bytes, "CKFR", 4) == 0) {
    // A shard's chunk 0, {T}:0, and the filter id: the chunks are {T}:1, ...
    if (!parseShardKey(name_, filterName_)) {
      return refusal.refuse("ERR", quoted(name_) + " holds a shard, but is not named as its chunk 0 ({name:shard:salt}:0)");
    }
    // The filter id, or the shard's 52 fixed header bytes as the client opened
    // them (RedisCuckooFilter sends those): then all of them must still hold.
    unsigned long long id = 0;
    std::size_t openedLength = 0;
    const auto* opened = argc < 3 ? nullptr : reinterpret_cast<const unsigned char*>(server.StringPtrLen(argv[2], &openedLength));
    const bool wholeHeader = opened != nullptr && openedLength == kFixedHeaderBytes && std::memcmp(opened, "CKFR", 4) == 0;
    if (wholeHeader) {
      id = readBigEndian(opened + at::id, 6);
    } else if (argc < 3 || server.StringToULongLong(argv[2], &id) != kOk) {
      return refusal.refuse("ERR", "a shard's key is followed by the filter id (CUCKOO.INFO on the filter's "
                                   "name gives it): " + quoted(name_));
    }
    // The header as the client knows it before anything else, as the scripts check it.
    if (!decodeFixedHeader(bytes, length, HeaderKind::kShard, name_, layout_, refusal)) return false;
    if (layout_.id != id) {
      return refusal.refuse("NOT_FOUND", quoted(name_) + " belongs to filter id " + std::to_string(layout_.id) +
                                             ", not " + std::to_string(id) +
                                             ": that filter was dropped and the name used again");
    }
    // The format version and the log length may have moved on (an upgrade, CHANGE-LOG.md).
    for (std::size_t k = 0; wholeHeader && k < at::logLength; ++k) {
      if (k != at::version && bytes[k] != opened[k]) {
        return refusal.refuse("BAD_PARAMETERS", "the header in " + quoted(name_) +
                                                    " differs from the parameters the filter was opened with (byte " +
                                                    std::to_string(k) + ")");
      }
    }
    auto shard = std::make_unique<OpenedShard>(scope_, name_.substr(0, name_.size() - 1));
    if (!shard->adopt(argv[1], bytes, length, nullptr, 0, name_)) return false;
    addressed_ = layout_.position;
    shards_.push_back(std::move(shard));
    firstItem = 3;
    return true;
  }
  return refuseForeignBytes(bytes, length, name_, refusal);
}

std::string FilterTarget::shardKey(unsigned shard) const {
  if (byName_) return "{" + shardTag(name_, shard, layout_.shards) + "}:0";
  if (shard == addressed_) return name_;
  return "{" + shardTag(filterName_, shard, layout_.shards) + "}:0";
}

OpenedShard* FilterTarget::shard(unsigned shard) {
  if (!byName_) return shards_[0].get();
  if (shards_[shard] == nullptr) {
    auto opened = std::make_unique<OpenedShard>(scope_, "{" + shardTag(name_, shard, layout_.shards) + "}:");
    if (!opened->open(nullptr, root_, shard, name_)) return nullptr;
    shards_[shard] = std::move(opened);
  }
  return shards_[shard].get();
}

}  // namespace cuckoo::redis
