// CUCKOO.INFO: a filter's parameters, state and layout, as a map. For a
// name, every shard's state summed (in a cluster, where the shards are on
// other nodes, the root's fields and the shards' keys only); for a shard's
// key, that shard's.

#include <cmath>
#include <string>
#include <vector>

#include "commands.hpp"
#include "filter_access.hpp"
#include "one_minus_power.hpp"

namespace cuckoo::redis {
namespace {

class MapReply {
 public:
  explicit MapReply(Ctx* ctx) noexcept : ctx_(ctx) {}
  void number(const char* field, long long value) {
    fields_.push_back({field, Kind::kInteger, value, 0, {}, {}});
  }
  void real(const char* field, double value) { fields_.push_back({field, Kind::kDouble, 0, value, {}, {}}); }
  void text(const char* field, std::string value) { fields_.push_back({field, Kind::kText, 0, 0, std::move(value), {}}); }
  void list(const char* field, std::vector<std::string> values) {
    fields_.push_back({field, Kind::kList, 0, 0, {}, std::move(values)});
  }
  int send() {
    server.ReplyWithMap(ctx_, static_cast<long>(fields_.size()));
    for (const Field& each : fields_) {
      server.ReplyWithSimpleString(ctx_, each.name);
      switch (each.kind) {
        case Kind::kInteger: server.ReplyWithLongLong(ctx_, each.integer); break;
        case Kind::kDouble: server.ReplyWithDouble(ctx_, each.real); break;
        case Kind::kText: server.ReplyWithStringBuffer(ctx_, each.text.data(), each.text.size()); break;
        case Kind::kList:
          server.ReplyWithArray(ctx_, static_cast<long>(each.list.size()));
          for (const std::string& item : each.list) server.ReplyWithStringBuffer(ctx_, item.data(), item.size());
          break;
      }
    }
    return kOk;
  }

 private:
  enum class Kind { kInteger, kDouble, kText, kList };
  struct Field {
    const char* name;
    Kind kind;
    long long integer;
    double real;
    std::string text;
    std::vector<std::string> list;
  };
  Ctx* ctx_;
  std::vector<Field> fields_;
};

}  // namespace

int infoCommand(Ctx* ctx, String** argv, int argc) {
  if (argc < 2 || argc > 3) return server.WrongArity(ctx);
  CommandScope scope(ctx, false);
  FilterTarget target(scope);
  int first = 0;
  if (!target.open(argv, argc, first, true)) return replyRefusal(ctx, scope.refusal());
  if (first != argc) return server.WrongArity(ctx);
  const FilterLayout& layout = target.layout();
  const FilterParams& params = layout.params;
  const bool everyShard = target.byName();
  const bool clustered = (server.GetContextFlags(ctx) & kContextCluster) != 0;

  MapReply reply(ctx);
  reply.text(everyShard ? "name" : "key", target.name());
  reply.number("id", static_cast<long long>(layout.id));
  reply.number("format", layout.version);
  reply.number("shards", layout.shards);
  if (!everyShard) reply.number("shard", target.addressedShard());
  std::vector<std::string> keys;
  for (unsigned shard = 0; shard < layout.shards && everyShard; ++shard) keys.push_back(target.shardKey(shard));
  if (everyShard) reply.list("shard-keys", std::move(keys));
  reply.number("bucket-count", static_cast<long long>(params.bucketCount));
  reply.number("bucket-size", params.bucketSize);
  reply.number("fingerprint-bits", params.fingerprintBits);
  reply.number("semi-sorted", params.semiSort ? 1 : 0);
  reply.number("keyed-hash", params.keyedHash ? 1 : 0);
  reply.number("max-kicks", params.maxKicks);
  reply.text("seed", std::to_string(params.seed));
  reply.number("hash-id", plainHashId(isPowerOfTwo(params.bucketCount), params.keyedHash));
  reply.number("chunks", layout.chunkCount);
  reply.number("chunk-zero-buckets", layout.chunkZeroBuckets);
  reply.number("chunk-buckets", layout.chunkBuckets);
  if (layout.version == kLoggedFormatVersion) reply.number("log-length", layout.logLength);
  const unsigned counted = everyShard ? layout.shards : 1;
  const std::uint64_t tableBits = params.bucketCount * layout.bucketBits();
  reply.number("table-bytes", static_cast<long long>(counted * ((tableBits + 7) / 8)));
  const double bound = 2.0 * layout.slotsPerBucket() * std::ldexp(1.0, -static_cast<int>(params.fingerprintBits));
  reply.real("fpr-bound", bound);
  if (everyShard && clustered) return reply.send();

  // The state, summed over the shards counted.
  std::uint64_t items = 0;
  std::uint64_t stashed = 0;
  for (unsigned shard = 0; shard < counted; ++shard) {
    OpenedShard* opened = target.shard(everyShard ? shard : target.addressedShard());
    if (opened == nullptr) return replyRefusal(ctx, scope.refusal());
    items += opened->state().itemCount;
    stashed += opened->state().stash.occupied ? 1 : 0;
  }
  const double slots = static_cast<double>(counted) * static_cast<double>(params.bucketCount) * layout.slotsPerBucket();
  const double load = static_cast<double>(items - stashed) / slots;
  const double perSlotMatch = std::ldexp(1.0, -static_cast<int>(params.fingerprintBits));
  reply.number("size", static_cast<long long>(items));
  reply.number("stashed", static_cast<long long>(stashed));
  reply.number("slots", static_cast<long long>(slots));
  reply.real("load", load);
  reply.real("bits-per-item", items == 0 ? HUGE_VAL : static_cast<double>(counted) * static_cast<double>(tableBits) /
                                                         static_cast<double>(items));
  reply.real("expected-fpr", 1.0 - detail::oneMinusPower(perSlotMatch, 2.0 * layout.slotsPerBucket() * load));
  return reply.send();
}

}  // namespace cuckoo::redis
