#pragma once
// The part of the Redis module API this module uses, declared here from the
// documented ABI (no server header is included): the server calls
// RedisModule_OnLoad(ctx, argv, argc); the first word of ctx is a function
// that looks each API function up by its name, "RedisModule_" + name; the
// module must call SetModuleAttribs before anything else. Valkey registers
// every function under both prefixes, so these names serve it too.
//
// The types are opaque: the module only passes their pointers back.

#include <cstddef>
#include <cstdint>

namespace cuckoo::redis {

struct Ctx;
struct String;
struct Key;
struct CallReply;
struct Command;
struct User;

using CommandFunction = int (*)(Ctx* ctx, String** argv, int argc);

inline constexpr int kOk = 0;
inline constexpr int kErr = 1;
inline constexpr int kApiVersion1 = 1;

// OpenKey modes, StringDMA modes.
inline constexpr int kRead = 1 << 0;
inline constexpr int kWrite = 1 << 1;

// KeyType.
inline constexpr int kKeyEmpty = 0;
inline constexpr int kKeyString = 1;

// CallReplyType.
inline constexpr int kReplyString = 0;
inline constexpr int kReplyError = 1;
inline constexpr int kReplyInteger = 2;

// GetContextFlags.
inline constexpr int kContextCluster = 1 << 5;

// SetModuleOptions: the module signals the keys it changes itself.
inline constexpr int kOptionNoImplicitSignalModified = 1 << 1;

// NotifyKeyspaceEvent: string events.
inline constexpr int kNotifyString = 1 << 3;

// Key-spec flags (SetCommandInfo), also the access flags of ACLCheckKeyPermissions.
inline constexpr std::uint64_t kKeyReadOnly = 1ULL << 0;
inline constexpr std::uint64_t kKeyReadWrite = 1ULL << 1;
inline constexpr std::uint64_t kKeyOverwrite = 1ULL << 2;
inline constexpr std::uint64_t kKeyAccess = 1ULL << 4;
inline constexpr std::uint64_t kKeyUpdate = 1ULL << 5;
inline constexpr std::uint64_t kKeyInsert = 1ULL << 6;

// SetCommandInfo's structures, version 1 (Redis 7.0): the server reads the
// arrays with the element sizes given in CommandInfoVersion.
enum class BeginSearch : int { kInvalid = 0, kUnknown, kIndex, kKeyword };
enum class FindKeys : int { kOmitted = 0, kUnknown, kRange, kKeyNumber };

struct CommandKeySpec {
  const char* notes;
  std::uint64_t flags;
  BeginSearch beginSearch;
  union {
    struct {
      int position;
    } index;
    struct {
      const char* keyword;
      int startFrom;
    } keyword;
  } begin;
  FindKeys findKeys;
  union {
    struct {
      int lastKey;
      int keyStep;
      int limit;
    } range;
    struct {
      int keyNumberIndex;
      int firstKey;
      int keyStep;
    } keyNumber;
  } find;
};

struct CommandHistoryEntry {
  const char* since;
  const char* changes;
};

struct CommandArg;  // not described: the commands give no argument list

struct CommandInfoVersion {
  int version;
  std::size_t historyEntrySize;
  std::size_t keySpecSize;
  std::size_t argSize;
};

struct CommandInfo {
  const CommandInfoVersion* version;
  const char* summary;
  const char* complexity;
  const char* since;
  CommandHistoryEntry* history;
  const char* tips;
  int arity;
  CommandKeySpec* keySpecs;
  CommandArg* args;
};

// Every function the module calls: X(name, return type, parameter list).
#define CUCKOO_SERVER_API(X)                                                                              \
  X(SetModuleAttribs, void, (Ctx*, const char*, int, int))                                                \
  X(IsModuleNameBusy, int, (const char*))                                                                 \
  X(SetModuleOptions, void, (Ctx*, int))                                                                  \
  X(CreateCommand, int, (Ctx*, const char*, CommandFunction, const char*, int, int, int))                 \
  X(GetCommand, Command*, (Ctx*, const char*))                                                            \
  X(SetCommandInfo, int, (Command*, const CommandInfo*))                                                  \
  X(GetContextFlags, int, (Ctx*))                                                                         \
  X(OpenKey, Key*, (Ctx*, String*, int))                                                                  \
  X(CloseKey, void, (Key*))                                                                               \
  X(KeyType, int, (Key*))                                                                                 \
  X(StringDMA, char*, (Key*, std::size_t*, int))                                                          \
  X(StringTruncate, int, (Key*, std::size_t))                                                             \
  X(StringPtrLen, const char*, (const String*, std::size_t*))                                             \
  X(CreateString, String*, (Ctx*, const char*, std::size_t))                                              \
  X(FreeString, void, (Ctx*, String*))                                                                    \
  X(StringToLongLong, int, (const String*, long long*))                                                   \
  X(StringToULongLong, int, (const String*, unsigned long long*))                                         \
  X(StringToDouble, int, (const String*, double*))                                                        \
  X(ReplyWithLongLong, int, (Ctx*, long long))                                                            \
  X(ReplyWithDouble, int, (Ctx*, double))                                                                 \
  X(ReplyWithError, int, (Ctx*, const char*))                                                             \
  X(ReplyWithSimpleString, int, (Ctx*, const char*))                                                      \
  X(ReplyWithStringBuffer, int, (Ctx*, const char*, std::size_t))                                         \
  X(ReplyWithArray, int, (Ctx*, long))                                                                    \
  X(ReplyWithMap, int, (Ctx*, long))                                                                      \
  X(WrongArity, int, (Ctx*))                                                                              \
  X(Replicate, int, (Ctx*, const char*, const char*, ...))                                                \
  X(Call, CallReply*, (Ctx*, const char*, const char*, ...))                                              \
  X(CallReplyType, int, (CallReply*))                                                                     \
  X(CallReplyInteger, long long, (CallReply*))                                                            \
  X(CallReplyStringPtr, const char*, (CallReply*, std::size_t*))                                          \
  X(FreeCallReply, void, (CallReply*))                                                                    \
  X(NotifyKeyspaceEvent, int, (Ctx*, int, const char*, String*))                                         \
  X(SignalModifiedKey, int, (Ctx*, String*))                                                              \
  X(GetRandomBytes, void, (unsigned char*, std::size_t))                                                  \
  X(GetCurrentUserName, String*, (Ctx*))                                                                  \
  X(GetModuleUserFromUserName, User*, (String*))                                                          \
  X(FreeModuleUser, int, (User*))                                                                         \
  X(ACLCheckKeyPermissions, int, (User*, String*, int))

struct ServerApi {
#define CUCKOO_API_FIELD(name, result, parameters) result(*name) parameters = nullptr;
  CUCKOO_SERVER_API(CUCKOO_API_FIELD)
#undef CUCKOO_API_FIELD
};

// The functions, once loadServerApi has filled them.
extern ServerApi server;

// Looks every function up through ctx's first word; false when one is
// missing (a server older than Redis 7.0).
bool loadServerApi(Ctx* ctx) noexcept;

}  // namespace cuckoo::redis
