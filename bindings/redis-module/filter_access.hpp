#pragma once
// How a command reaches a filter's keys. The key a command names is either
// the filter's name (its root key: the module serves every shard from this
// server, so not in a cluster) or a shard's chunk 0, {T}:0, followed by the
// filter's id (one slot: what a cluster client sends, and what
// RedisCuckooFilter sends). Every key is checked before any is written: the
// headers against each other, each chunk's type and length when first used;
// a damaged bucket met later undoes what the command wrote (ShardTable).
//
// A command's writes reach replicas and the AOF as commands every server has
// (replication.hpp), and on a filter of format 2 the change-log record
// (change_log.hpp).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "chunk_buckets.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "refusal.hpp"
#include "server_api.hpp"
#include "shard_layout.hpp"

namespace cuckoo::redis {

// The keys one command opened, closed when it ends; the ACL user it runs as.
class CommandScope {
 public:
  // `aclFlags`: how the command uses the keys it derives (ACLCheckKeyPermissions'
  // flags); by default read (kKeyAccess), and changed when it writes (kKeyUpdate).
  CommandScope(Ctx* ctx, bool writes, int aclFlags = 0) noexcept
      : ctx_(ctx),
        writes_(writes),
        aclFlags_(aclFlags != 0 ? aclFlags : static_cast<int>(writes ? kKeyAccess | kKeyUpdate : kKeyAccess)) {}
  ~CommandScope();
  CommandScope(const CommandScope&) = delete;
  CommandScope& operator=(const CommandScope&) = delete;

  Ctx* ctx() const noexcept { return ctx_; }
  bool writes() const noexcept { return writes_; }
  Refusal& refusal() noexcept { return refusal_; }

  // A string the scope frees at its end.
  String* string(const std::string& text);
  // Whether the user the command runs as may access `name` as the command
  // does (refused NOPERM when not).
  bool mayAccess(String* name);
  // Opens `name` (for writing when the command writes); `derived` keys (named
  // by the module, not by the command's arguments) are first checked against
  // the user's ACL key permissions. Null when the key is missing (read) or refused.
  Key* open(String* name, bool derived);
  // The bytes of a string key opened by open(): null, with WRONGTYPE
  // refused, for another type; `length` 0 for a missing key.
  unsigned char* bytesOf(Key* key, String* name, std::size_t& length);

 private:
  Ctx* ctx_;
  bool writes_;
  int aclFlags_;
  Refusal refusal_;
  std::vector<Key*> keys_;
  std::vector<String*> strings_;
  User* user_ = nullptr;
  bool userLooked_ = false;
};

// The state beside a shard's table in its header: stash, item count, PRNG.
FilterState readState(const unsigned char* header) noexcept;
void writeState(const FilterState& state, unsigned char* header) noexcept;

// One shard of a filter, opened for a command.
class OpenedShard final : public ChunkSource {
 public:
  // `chunkPrefix` is "{T}:", the chunk keys' common start.
  OpenedShard(CommandScope& scope, std::string chunkPrefix) noexcept
      : scope_(scope), prefix_(std::move(chunkPrefix)) {}
  ~OpenedShard() = default;

  // Opens chunk 0 (`name`, or the prefix's chunk 0 when null): its header
  // checked on its own, and against `root` (the root's 52 bytes, as this
  // shard must repeat them) when given; the stash and count checked.
  bool open(String* name, const unsigned char* root, unsigned shard, const std::string& rootName);
  // The same for a chunk 0 the command opened already: its `bytes`.
  bool adopt(String* name, unsigned char* bytes, std::size_t length, const unsigned char* root, unsigned shard,
             const std::string& rootName);

  const FilterLayout& layout() const noexcept { return layout_; }
  FilterState& state() noexcept { return state_; }
  ShardTable& table() noexcept { return *table_; }
  const std::string& chunkName(unsigned chunk);

  // After the command's operations, before anything is replicated: finds
  // what changed, and whether it can be logged (false, refused, when the
  // change log's keys are damaged).
  bool prepare();
  // Writes the state, replicates and signals what changed, appends the
  // change-log record.
  void commit();
  // Puts back every bucket the command wrote.
  void rollback() noexcept { table_->rollback(); }

 private:
  unsigned char* openChunk(unsigned chunk) override;
  void replicateChunk(unsigned chunk, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& buckets);

  CommandScope& scope_;
  std::string prefix_;
  std::string nameScratch_;
  FilterLayout layout_;
  FilterState state_;
  FilterState start_;
  bool stateChanged_ = false;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> changed_;  // per chunk: bucket, first bit
  std::vector<std::uint32_t> logged_;
  unsigned char* header_ = nullptr;
  String* chunkNames_[kMaxChunks] = {};
  std::unique_ptr<ShardTable> table_;
};

// The filter a command names: its layout, and its shards as they are opened.
class FilterTarget {
 public:
  explicit FilterTarget(CommandScope& scope) noexcept : scope_(scope) {}

  // Opens argv[1] (the name, or a shard's chunk 0 followed by the filter id
  // in argv[2]); `firstItem` is the index of the first argument after them.
  // A name is refused in a cluster unless `rootOnly` (only the root is read).
  bool open(String** argv, int argc, int& firstItem, bool rootOnly = false);

  const FilterLayout& layout() const noexcept { return layout_; }
  bool byName() const noexcept { return byName_; }
  // The shard a command addressed by its key; for a name, every shard may be used.
  unsigned addressedShard() const noexcept { return addressed_; }
  // Shard `shard`, opened on first use (null, refused, when it cannot be).
  OpenedShard* shard(unsigned shard);
  // The key name of shard `shard`'s chunk 0.
  std::string shardKey(unsigned shard) const;
  const std::string& name() const noexcept { return name_; }

 private:
  CommandScope& scope_;
  FilterLayout layout_;
  bool byName_ = false;
  unsigned addressed_ = 0;
  std::string name_;  // the name, or the shard's key
  std::string filterName_;  // the name, from a shard's key
  unsigned char root_[kFixedHeaderBytes] = {};
  std::vector<std::unique_ptr<OpenedShard>> shards_;
};

}  // namespace cuckoo::redis
