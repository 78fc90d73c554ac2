// CUCKOO.ADD, ADDNX, MADD, EXISTS, MEXISTS, COUNT, DEL: the items hashed as
// the core hashes them (item_hash.hpp, hashing.hpp), routed to their shards
// as RedisCuckooFilter routes them, and handled by the core's algorithms
// (filter_algorithms.hpp) on the shards' chunk views, so that each makes
// CuckooFilter's choices.

#include <cstdint>
#include <vector>

#include "chunk_buckets.hpp"
#include "commands.hpp"
#include "cuckoo/hashing.hpp"
#include "filter_access.hpp"
#include "cuckoo/detail/filter_algorithms.hpp"
#include "item_hash.hpp"

namespace cuckoo::redis {
namespace {

struct LocatedItem {
  ItemLocation where;
  unsigned shard;
};

// Every item's place, and its shard: refused when the command addressed one
// shard and an item belongs to another.
bool locateItems(FilterTarget& target, String** items, int count, std::vector<LocatedItem>& out, Refusal& refusal) {
  const FilterLayout& layout = target.layout();
  const BucketIndex index = BucketIndex::forCount(layout.params.bucketCount);
  const std::uint64_t seed = layout.params.seed;
  const bool keyed = layout.params.keyedHash;
  out.resize(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) {
    std::size_t length = 0;
    const char* bytes = server.StringPtrLen(items[k], &length);
    unsigned shard = 0;
    if (layout.shards > 1) {
      const std::uint32_t route = routeWord(detail::hashItem(bytes, length, seed ^ kRouteSeedMask, keyed));
      shard = static_cast<unsigned>((std::uint64_t{route} * layout.shards) >> 32);
      if (!target.byName() && shard != target.addressedShard()) {
        return refusal.refuse("ERR", "item " + std::to_string(k + 1) + " belongs to shard " + std::to_string(shard) +
                                         " (" + target.shardKey(shard) + "), not to shard " +
                                         std::to_string(target.addressedShard()) + " (" + target.name() + ")");
      }
    }
    out[static_cast<std::size_t>(k)] = {index.locate(detail::hashItem(bytes, length, seed, keyed), layout.params.fingerprintBits),
                                        shard};
  }
  return true;
}

// The views of the shards a command's items reach, each opened (and checked) before any is used.
template <class Buckets>
bool openViews(FilterTarget& target, const std::vector<LocatedItem>& items, std::vector<OpenedShard*>& shards,
               std::vector<Buckets>& views) {
  const unsigned count = target.byName() ? target.layout().shards : 1;
  shards.assign(count, nullptr);
  views.assign(count, Buckets{});
  for (const LocatedItem& item : items) {
    const unsigned slot = target.byName() ? item.shard : 0;
    if (shards[slot] != nullptr) continue;
    shards[slot] = target.shard(item.shard);
    if (shards[slot] == nullptr) return false;
    views[slot] = Buckets(shards[slot]->table());
  }
  return true;
}

template <class Buckets>
int runItems(Ctx* ctx, const ItemCommand& command, FilterTarget& target, CommandScope& scope, String** items, int count) {
  using Algorithms = detail::FilterAlgorithms<Buckets, BucketIndex>;
  Refusal& refusal = scope.refusal();
  std::vector<LocatedItem> located;
  std::vector<OpenedShard*> shards;
  std::vector<Buckets> views;
  if (!locateItems(target, items, count, located, refusal) || !openViews(target, located, shards, views)) {
    return replyRefusal(ctx, refusal);
  }
  const BucketIndex relation = BucketIndex::forCount(target.layout().params.bucketCount);
  const std::uint32_t maxKicks = target.layout().params.maxKicks;
  const auto slotOf = [&](const LocatedItem& item) { return target.byName() ? item.shard : 0U; };
  detail::SilentObserver silent;
  const auto undoAll = [&]() {
    for (OpenedShard* shard : shards) {
      if (shard != nullptr) shard->rollback();
    }
    return replyRefusal(ctx, refusal);
  };

  // The buckets of the item a few places ahead are asked for before this
  // one's are read, so that their cache misses overlap (as the core's batches
  // do): a large table's buckets are rarely in cache.
  constexpr std::size_t kAhead = 8;
  const auto prefetch = [&](std::size_t k) {
    if (k >= located.size()) return;
    ShardTable& table = shards[slotOf(located[k])]->table();
    table.prefetch(located[k].where.primaryBucket);
    table.prefetch(located[k].where.alternateBucket);
  };
  for (std::size_t k = 0; k < kAhead; ++k) prefetch(k);

  long long result = 0;
  std::vector<unsigned char> answers;
  std::vector<unsigned char> stopped(shards.size(), 0);
  switch (command.operation) {
    case Operation::kExists:
    case Operation::kCount:
      answers.resize(located.size());
      for (std::size_t k = 0; k < located.size(); ++k) {
        prefetch(k + kAhead);
        const unsigned slot = slotOf(located[k]);
        const FilterState& state = shards[slot]->state();
        const unsigned copies = command.operation == Operation::kCount
                                    ? Algorithms::countIn(state, views[slot], located[k].where)
                                    : (Algorithms::containsIn(state, views[slot], located[k].where) ? 1U : 0U);
        if (refusal.refused()) return replyRefusal(ctx, refusal);
        answers[k] = static_cast<unsigned char>(copies > 255 ? 255 : copies);
        result = copies;
      }
      break;
    case Operation::kAddUnique: {
      const LocatedItem& item = located[0];
      OpenedShard& shard = *shards[slotOf(item)];
      Buckets& view = views[slotOf(item)];
      if (Algorithms::containsIn(shard.state(), view, item.where)) {
        result = 0;
      } else {
        result = Algorithms::addIn(shard.state(), maxKicks, view, relation, item.where, silent) ? 1 : -1;
      }
      if (refusal.refused()) return undoAll();
      break;
    }
    case Operation::kAdd:
    case Operation::kDelete:
      // In order; adding, each shard stops at its first refused item.
      for (std::size_t k = 0; k < located.size(); ++k) {
        prefetch(k + kAhead);
        const LocatedItem& item = located[k];
        const unsigned slot = slotOf(item);
        if (stopped[slot] != 0) continue;
        FilterState& state = shards[slot]->state();
        const bool done = command.operation == Operation::kAdd
                              ? Algorithms::addIn(state, maxKicks, views[slot], relation, item.where, silent)
                              : Algorithms::eraseIn(state, maxKicks, views[slot], relation, item.where, silent);
        if (refusal.refused()) return undoAll();
        if (done) ++result;
        else if (command.operation == Operation::kAdd) stopped[slot] = 1;
      }
      break;
  }
  if (command.writes) {
    for (OpenedShard* shard : shards) {
      if (shard != nullptr && !shard->prepare()) return undoAll();
    }
    for (OpenedShard* shard : shards) {
      if (shard != nullptr) shard->commit();
    }
  }
  if (command.operation == Operation::kExists && command.many) {
    server.ReplyWithArray(ctx, static_cast<long>(answers.size()));
    for (const unsigned char answer : answers) server.ReplyWithLongLong(ctx, answer);
    return kOk;
  }
  return server.ReplyWithLongLong(ctx, result);
}

}  // namespace

int replyRefusal(Ctx* ctx, const Refusal& refusal) {
  server.ReplyWithError(ctx, refusal.reply().c_str());
  return kOk;
}

int itemCommand(Ctx* ctx, String** argv, int argc, const ItemCommand& command) {
  if (argc < 3) return server.WrongArity(ctx);
  CommandScope scope(ctx, command.writes);
  FilterTarget target(scope);
  int first = 0;
  if (!target.open(argv, argc, first)) return replyRefusal(ctx, scope.refusal());
  const int count = argc - first;
  if (count < 1 || (!command.many && count != 1)) return server.WrongArity(ctx);
  if (target.layout().params.semiSort) {
    return runItems<SemiSortedChunkBuckets>(ctx, command, target, scope, argv + first, count);
  }
  return runItems<PlainChunkBuckets>(ctx, command, target, scope, argv + first, count);
}

}  // namespace cuckoo::redis
