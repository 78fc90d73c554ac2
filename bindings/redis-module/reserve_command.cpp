// CUCKOO.RESERVE: a new filter, sized and laid out exactly as
// RedisCuckooFilter.create makes one (the same parameters, chunks, keys and
// bytes), made in one step: every key is checked to be free first.

#include <cstring>
#include <string>
#include <strings.h>
#include <vector>

#include "commands.hpp"
#include "cuckoo/sizing.hpp"
#include "filter_access.hpp"
#include "shard_layout.hpp"

namespace cuckoo::redis {
namespace {

constexpr long long kMaxCapacity = (1LL << 53) - 1;

std::string textOf(const String* string) {
  std::size_t length = 0;
  const char* text = server.StringPtrLen(string, &length);
  return std::string(text, length);
}

std::uint64_t randomBits(unsigned bytes) {
  unsigned char random[8] = {};
  server.GetRandomBytes(random, bytes);
  return readBigEndian(random, bytes);
}

struct ReserveOptions {
  std::uint64_t capacity = 0;
  double fpr = 0;
  FilterParams params;
  bool seeded = false;
  unsigned shards = 1;
  // Records each shard's change log keeps: 0, no log (format 1); else format 2 (CHANGE-LOG.md).
  unsigned logLength = kDefaultLogLength;
};

bool parseOptions(String** argv, int argc, ReserveOptions& options, Refusal& refusal) {
  long long capacity = 0;
  if (server.StringToLongLong(argv[2], &capacity) != kOk || capacity < 1 || capacity > kMaxCapacity) {
    return refusal.refuse("ERR", "capacity must be an integer from 1 to 2^53 - 1, got '" + textOf(argv[2]) + "'");
  }
  options.capacity = static_cast<std::uint64_t>(capacity);
  if (server.StringToDouble(argv[3], &options.fpr) != kOk) {
    return refusal.refuse("ERR", "fpr must be a number greater than 0 and less than 1, got '" + textOf(argv[3]) + "'");
  }
  constexpr int kOptions = 6;
  bool seen[kOptions] = {};
  for (int k = 4; k < argc; ++k) {
    const std::string option = textOf(argv[k]);
    static const char* const kNames[kOptions] = {"MAXKICKS", "SEED", "SEMISORT", "SHARDS", "KEYEDHASH", "LOGLENGTH"};
    int which = -1;
    for (int n = 0; n < kOptions; ++n) {
      if (strcasecmp(option.c_str(), kNames[n]) == 0) which = n;
    }
    if (which < 0 && strcasecmp(option.c_str(), "MULTIPLYSHIFTHASH") == 0) {
      return refusal.refuse("ERR", "option MULTIPLYSHIFTHASH is not supported: " + std::string(kNoMultiplyShift));
    }
    if (which < 0) {
      return refusal.refuse("ERR", "unknown option '" + option +
                                       "' (MAXKICKS n, SEED n, SEMISORT, KEYEDHASH, SHARDS n, LOGLENGTH n)");
    }
    if (seen[which]) return refusal.refuse("ERR", "option " + std::string(kNames[which]) + " given twice");
    seen[which] = true;
    if (which == 2 || which == 4) {
      (which == 2 ? options.params.semiSort : options.params.keyedHash) = true;
      continue;
    }
    if (k + 1 >= argc) return refusal.refuse("ERR", "option " + std::string(kNames[which]) + " needs a value");
    String* value = argv[++k];
    unsigned long long number = 0;
    const bool parsed = server.StringToULongLong(value, &number) == kOk;
    if (which == 0) {
      if (!parsed || number > kMaxKicksLimit) {
        return refusal.refuse("ERR", "MAXKICKS must be an integer from 0 to 1000000, got '" + textOf(value) + "'");
      }
      options.params.maxKicks = static_cast<std::uint32_t>(number);
    } else if (which == 1) {
      if (!parsed) return refusal.refuse("ERR", "SEED must be an integer from 0 to 2^64 - 1, got '" + textOf(value) + "'");
      options.params.seed = number;
      options.seeded = true;
    } else if (which == 3) {
      if (!parsed || number < 1 || number > kMaxShards) {
        return refusal.refuse("ERR", "SHARDS must be an integer from 1 to 1024, got '" + textOf(value) + "'");
      }
      options.shards = static_cast<unsigned>(number);
    } else {
      if (!parsed || number > 65535) {
        return refusal.refuse("ERR", "LOGLENGTH must be an integer from 0 to 65535, got '" + textOf(value) + "'");
      }
      options.logLength = static_cast<unsigned>(number);
    }
  }
  return true;
}

// The layout RedisCuckooFilter.create would make, with a new id.
bool planFilter(const ReserveOptions& options, FilterLayout& layout, Refusal& refusal) {
  layout.params = options.params;
  if (!options.seeded) layout.params.seed = randomBits(8);
  const Status status = paramsForCapacity(shardCapacity(options.capacity, options.shards), options.fpr, layout.params);
  if (status != Status::kOk) return refusal.refuse("ERR", statusMessage(status));
  if ((layout.params.bucketCount * layout.bucketBits() + 7) / 8 + 7 > (std::uint64_t{1} << 31)) {
    return refusal.refuse("ERR", "each shard's table would be over 2 GiB: use more SHARDS, or a higher fpr");
  }
  const ChunkPlan plan = planChunks(layout.params);
  layout.version = options.logLength > 0 ? kLoggedFormatVersion : kFormatVersion;
  layout.logLength = options.logLength;
  layout.shards = options.shards;
  layout.chunkCount = plan.chunkCount;
  layout.chunkZeroBuckets = plan.chunkZeroBuckets;
  layout.chunkBuckets = plan.chunkBuckets;
  do {
    layout.id = randomBits(6);
  } while (layout.id == 0);
  return true;
}

// A new string key of `length` zero bytes (allocated at exactly that length);
// its bytes to write into.
unsigned char* makeString(Key* key, std::size_t length) {
  server.StringTruncate(key, length);
  std::size_t made = 0;
  return reinterpret_cast<unsigned char*>(server.StringDMA(key, &made, kRead | kWrite));
}

}  // namespace

int reserveCommand(Ctx* ctx, String** argv, int argc) {
  if (argc < 4) return server.WrongArity(ctx);
  CommandScope scope(ctx, true, static_cast<int>(kKeyInsert));
  Refusal& refusal = scope.refusal();
  const std::string name = textOf(argv[1]);
  if ((server.GetContextFlags(ctx) & kContextCluster) != 0) {
    refusal.refuse("ERR", "a filter's keys lie in several hash slots, so CUCKOO.RESERVE cannot make one in a cluster: "
                          "make it with RedisCuckooFilter.create (cuckoo-wasm/redis)");
    return replyRefusal(ctx, refusal);
  }
  if (name.empty() || name.find_first_of("{}") != std::string::npos) {
    refusal.refuse("ERR", "name must be non-empty and without '{' or '}' (the filter's keys carry hash tags of "
                          "their own), got '" + name + "'");
    return replyRefusal(ctx, refusal);
  }
  ReserveOptions options;
  FilterLayout layout;
  if (!parseOptions(argv, argc, options, refusal) || !planFilter(options, layout, refusal)) return replyRefusal(ctx, refusal);

  // Every key must be free before any is made.
  Key* root = scope.open(argv[1], false);
  if (server.KeyType(root) != kKeyEmpty) {
    refusal.refuse("EXISTS", "the name '" + name + "' is taken (a filter, or another key, exists under it)");
    return replyRefusal(ctx, refusal);
  }
  struct Made {
    String* name;
    Key* key;
    std::size_t length;
    unsigned shard;
    unsigned chunk;
  };
  std::vector<Made> chunks;
  for (unsigned shard = 0; shard < layout.shards; ++shard) {
    const std::string prefix = "{" + shardTag(name, shard, layout.shards) + "}:";
    for (unsigned chunk = 0; chunk < layout.chunkCount; ++chunk) {
      String* key = scope.string(prefix + std::to_string(chunk));
      Key* opened = scope.open(key, true);
      if (refusal.refused()) return replyRefusal(ctx, refusal);
      if (server.KeyType(opened) != kKeyEmpty) {
        refusal.refuse("EXISTS", "key " + prefix + std::to_string(chunk) + " already exists");
        return replyRefusal(ctx, refusal);
      }
      chunks.push_back({key, opened, chunkExtent(layout, chunk).bytes, shard, chunk});
    }
  }

  unsigned char header[kHeaderBytes] = {};
  layout.position = kRootReady;
  unsigned char* rootBytes = makeString(root, kFixedHeaderBytes);
  encodeFixedHeader(layout, HeaderKind::kRoot, rootBytes);
  server.Replicate(ctx, "SET", "sb", argv[1], reinterpret_cast<const char*>(rootBytes), kFixedHeaderBytes);
  server.NotifyKeyspaceEvent(ctx, kNotifyString, "set", argv[1]);
  server.SignalModifiedKey(ctx, argv[1]);
  for (const Made& chunk : chunks) {
    unsigned char* bytes = makeString(chunk.key, chunk.length);
    // As the creating script writes it: the last byte, then the header.
    server.Replicate(ctx, "SETRANGE", "slb", chunk.name, static_cast<long long>(chunk.length - 1), "", std::size_t{1});
    if (chunk.chunk == 0) {
      layout.position = chunk.shard;
      encodeFixedHeader(layout, HeaderKind::kShard, header);
      FilterState empty;
      empty.prng = SplitMix64::fromSeed(layout.params.seed);
      writeState(empty, header);
      std::memcpy(bytes, header, kHeaderBytes);
      server.Replicate(ctx, "SETRANGE", "slb", chunk.name, 0LL, reinterpret_cast<const char*>(header), kHeaderBytes);
    }
    server.NotifyKeyspaceEvent(ctx, kNotifyString, "setrange", chunk.name);
    server.SignalModifiedKey(ctx, chunk.name);
  }
  return server.ReplyWithSimpleString(ctx, "OK");
}

}  // namespace cuckoo::redis
