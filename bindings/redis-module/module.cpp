// The module's entry point: the server API looked up, the commands
// registered with their flags and key specs (so that Cluster routing, ACLs
// and MULTI see them as what they are).

#include "commands.hpp"
#include "server_api.hpp"

namespace cuckoo::redis {
namespace {

constexpr int kModuleVersion = 1;

template <Operation operation, bool many, bool writes>
int itemEntry(Ctx* ctx, String** argv, int argc) {
  return itemCommand(ctx, argv, argc, ItemCommand{operation, many, writes});
}

struct CommandSpec {
  const char* name;
  CommandFunction function;
  const char* flags;
  int arity;
  std::uint64_t keyFlags;  // of argv[1], the filter's name or a shard's key
  const char* summary;
  const char* complexity;
};

constexpr std::uint64_t kReads = kKeyReadOnly | kKeyAccess;
constexpr std::uint64_t kWrites = kKeyReadWrite | kKeyAccess | kKeyUpdate;

const CommandSpec kCommands[] = {
    {"cuckoo.reserve", reserveCommand, "write deny-oom", -4, kKeyOverwrite | kKeyInsert,
     "Makes a cuckoo filter sized for a capacity at a false-positive rate", "O(table size)"},
    {"cuckoo.add", itemEntry<Operation::kAdd, false, true>, "write deny-oom", -3, kWrites,
     "Adds an item: 1, or 0 when the filter is full (nothing changed)", "O(1), O(max kicks) when near full"},
    {"cuckoo.addnx", itemEntry<Operation::kAddUnique, false, true>, "write deny-oom", -3, kWrites,
     "Adds an item unless present: 1 added, 0 present, -1 full", "O(1), O(max kicks) when near full"},
    {"cuckoo.madd", itemEntry<Operation::kAdd, true, true>, "write deny-oom", -3, kWrites,
     "Adds items in order, each shard stopping at its first refused one: how many were added", "O(N)"},
    {"cuckoo.exists", itemEntry<Operation::kExists, false, false>, "readonly fast", -3, kReads,
     "1 if the item may be in the filter, 0 if it certainly is not", "O(1)"},
    {"cuckoo.mexists", itemEntry<Operation::kExists, true, false>, "readonly fast", -3, kReads,
     "For each item, 1 if it may be in the filter, 0 if it certainly is not", "O(N)"},
    {"cuckoo.count", itemEntry<Operation::kCount, false, false>, "readonly fast", -3, kReads,
     "The stored copies matching the item", "O(1)"},
    {"cuckoo.del", itemEntry<Operation::kDelete, true, true>, "write", -3, kWrites,
     "Removes one copy of each item: how many were found", "O(N)"},
    {"cuckoo.info", infoCommand, "readonly", -2, kKeyReadOnly,
     "The filter's parameters, size, load, bits per item, expected rate and layout", "O(shards)"},
};

bool registerCommand(Ctx* ctx, const CommandSpec& spec) {
  if (server.CreateCommand(ctx, spec.name, spec.function, spec.flags, 1, 1, 1) != kOk) return false;
  static const CommandInfoVersion version{1, sizeof(CommandHistoryEntry), sizeof(CommandKeySpec), 0};
  CommandKeySpec keys[2] = {};
  keys[0].flags = spec.keyFlags;
  keys[0].beginSearch = BeginSearch::kIndex;
  keys[0].begin.index.position = 1;
  keys[0].findKeys = FindKeys::kRange;
  keys[0].find.range = {0, 1, 0};
  CommandInfo info{};
  info.version = &version;
  info.summary = spec.summary;
  info.complexity = spec.complexity;
  info.since = "1.0.0";
  info.arity = spec.arity;
  info.keySpecs = keys;
  return server.SetCommandInfo(server.GetCommand(ctx, spec.name), &info) == kOk;
}

}  // namespace
}  // namespace cuckoo::redis

extern "C" __attribute__((visibility("default"))) int RedisModule_OnLoad(cuckoo::redis::Ctx* ctx,
                                                                        cuckoo::redis::String** argv, int argc) {
  using namespace cuckoo::redis;
  static_cast<void>(argv);
  static_cast<void>(argc);
  if (!loadServerApi(ctx)) return kErr;
  if (server.IsModuleNameBusy("cuckoo") != 0) return kErr;
  server.SetModuleAttribs(ctx, "cuckoo", kModuleVersion, kApiVersion1);
  server.SetModuleOptions(ctx, kOptionNoImplicitSignalModified);
  for (const CommandSpec& spec : kCommands) {
    if (!registerCommand(ctx, spec)) return kErr;
  }
  return kOk;
}
