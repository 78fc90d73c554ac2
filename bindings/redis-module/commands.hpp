#pragma once
// The module's commands (module.cpp registers them, README's "A Redis module"
// section documents them).

#include "refusal.hpp"
#include "server_api.hpp"

namespace cuckoo::redis {

enum class Operation { kAdd, kAddUnique, kExists, kCount, kDelete };

struct ItemCommand {
  Operation operation;
  bool many;    // any number of items (MADD, MEXISTS, DEL), else exactly one
  bool writes;
};

// CUCKOO.ADD/ADDNX/MADD/EXISTS/MEXISTS/COUNT/DEL <name | {tag}:0 id> item...
int itemCommand(Ctx* ctx, String** argv, int argc, const ItemCommand& command);
// CUCKOO.RESERVE name capacity fpr [MAXKICKS n] [SEED s] [SEMISORT] [KEYEDHASH] [SHARDS n] [LOGLENGTH n]
int reserveCommand(Ctx* ctx, String** argv, int argc);
// CUCKOO.INFO <name | {tag}:0 id>
int infoCommand(Ctx* ctx, String** argv, int argc);

// Replies the refusal as a Redis error ("CODE message").
int replyRefusal(Ctx* ctx, const Refusal& refusal);

}  // namespace cuckoo::redis
