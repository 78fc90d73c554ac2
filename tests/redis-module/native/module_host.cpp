// The host's implementation of the module API, and of the few commands the
// module's writes reach replicas as.

#include "module_host.hpp"

#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "replication.hpp"
#include "server_api.hpp"

extern "C" int RedisModule_OnLoad(cuckoo::redis::Ctx* ctx, cuckoo::redis::String** argv, int argc);

namespace cuckoo::redis {

// The opaque types, as this host makes them.
struct Ctx {
  void* getApi;
  host::Host* host;
  std::string command;
  // Replies being built: containers not yet full, with the items they still expect.
  std::vector<std::pair<host::Reply, long>> open;
  host::Reply reply;
  bool replied = false;
};
struct String {
  std::string bytes;
  int references = 1;
};
struct Key {
  host::Host* host;
  std::string name;
  int mode;
};
struct CallReply {
  int type;
  long long integer;
  std::string text;
};
struct Command {
  std::string name;
};
struct User {};

namespace host {

Value::~Value() { std::free(bytes); }

void Value::assign(const unsigned char* data, std::size_t count) {
  std::free(bytes);
  bytes = static_cast<unsigned char*>(std::malloc(count == 0 ? 1 : count));
  if (count != 0) std::memcpy(bytes, data, count);
  length = count;
}

struct Host::Registered {
  CommandFunction function;
  std::string flags;
  int arity = 0;
  std::uint64_t keySpecFlags = 0;
};

struct Host::Impl {
  static std::map<std::string, std::unique_ptr<Registered>>& commands(Host& host) { return host.commands_; }
  static bool cluster(const Host& host) { return host.cluster_; }
  static void countReplicated(Host& host) { ++host.replicated_; }
};

namespace {

Host* loading = nullptr;

// Values resized as StringTruncate resizes them: a new block of exactly the new length.
void resize(Value& value, std::size_t length) {
  auto* grown = static_cast<unsigned char*>(std::malloc(length == 0 ? 1 : length));
  const std::size_t kept = value.length < length ? value.length : length;
  if (kept != 0) std::memcpy(grown, value.bytes, kept);
  if (length > kept) std::memset(grown + kept, 0, length - kept);
  std::free(value.bytes);
  value.bytes = grown;
  value.length = length;
}

Value& stringValue(Keyspace& keyspace, const std::string& key) {
  auto& slot = keyspace[key];
  if (slot == nullptr) slot = std::make_unique<Value>();
  return *slot;
}

bool parseLongLong(const std::string& text, long long& out) {
  if (text.empty() || text.size() > 20) return false;
  std::size_t at = text[0] == '-' ? 1 : 0;
  if (at == text.size() || (text[at] == '0' && text.size() > at + 1) || (at == 1 && text == "-0")) return false;
  for (std::size_t k = at; k < text.size(); ++k) {
    if (text[k] < '0' || text[k] > '9') return false;
  }
  errno = 0;
  out = std::strtoll(text.c_str(), nullptr, 10);
  return errno == 0;
}

bool parseUnsigned(const std::string& text, unsigned long long& out) {
  if (text.empty() || text.size() > 20 || (text[0] == '0' && text.size() > 1)) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  errno = 0;
  out = std::strtoull(text.c_str(), nullptr, 10);
  return errno == 0;
}

// The commands the module's writes reach a replica as (and INCR and XADD, which it calls).
long long apply(Keyspace& keyspace, const std::vector<std::string>& command) {
  const std::string& name = command.at(0);
  if (name == "SET") {
    stringValue(keyspace, command.at(1)).assign(reinterpret_cast<const unsigned char*>(command.at(2).data()), command.at(2).size());
  } else if (name == "SETRANGE") {
    Value& value = stringValue(keyspace, command.at(1));
    long long offset = 0;
    if (!parseLongLong(command.at(2), offset) || offset < 0) throw std::runtime_error("SETRANGE offset");
    const std::string& bytes = command.at(3);
    if (value.length < offset + bytes.size()) resize(value, offset + bytes.size());
    std::memcpy(value.bytes + offset, bytes.data(), bytes.size());
  } else if (name == "BITFIELD") {
    Value& value = *keyspace.at(command.at(1));
    for (std::size_t k = 2; k + 3 < command.size(); k += 4) {
      if (command[k] != "SET" || command[k + 1].at(0) != 'u') throw std::runtime_error("BITFIELD op");
      const unsigned width = static_cast<unsigned>(std::stoul(command[k + 1].substr(1)));
      unsigned long long offset = 0;
      unsigned long long field = 0;
      if (!parseUnsigned(command[k + 2], offset) || !parseUnsigned(command[k + 3], field)) throw std::runtime_error("BITFIELD");
      if ((offset + width + 7) / 8 > value.length) throw std::runtime_error("BITFIELD past the end");
      for (unsigned bit = 0; bit < width; ++bit) {
        const unsigned long long at = offset + bit;
        const unsigned one = static_cast<unsigned>((field >> (width - 1 - bit)) & 1U);
        const unsigned mask = 1U << (7 - at % 8);
        value.bytes[at / 8] = static_cast<unsigned char>((value.bytes[at / 8] & ~mask) | (one != 0 ? mask : 0));
      }
    }
  } else if (name == "EVAL") {
    // Only the module's script of byte ranges, applied as the script would apply it.
    if (command.at(1) != kRangesScript || command.at(2) != "1") throw std::runtime_error("an unknown script");
    const std::string& packed = command.at(4);
    for (std::size_t at = 0; at < packed.size();) {
      const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(packed.at(k)); };
      const std::size_t offset = ((std::size_t{byte(at)} * 256 + byte(at + 1)) * 256 + byte(at + 2)) * 256 + byte(at + 3);
      const std::size_t length = byte(at + 4);
      apply(keyspace, {"SETRANGE", command.at(3), std::to_string(offset), packed.substr(at + 5, length)});
      at += 5 + length;
    }
  } else if (name == "INCR") {
    Value& value = stringValue(keyspace, command.at(1));
    long long count = 0;
    if (value.length != 0 && !parseLongLong(value.text(), count)) return -1;
    const std::string next = std::to_string(count + 1);
    value.assign(reinterpret_cast<const unsigned char*>(next.data()), next.size());
    return count + 1;
  } else if (name == "XADD") {
    auto& slot = keyspace[command.at(1)];
    if (slot == nullptr) {
      slot = std::make_unique<Value>();
      slot->type = 7;
    }
    slot->records.push_back(command.back());
    return static_cast<long long>(slot->records.size());
  } else if (name == "SPUBLISH" || name == "PUBLISH") {
    // Pub/Sub is not the keyspace: no subscriber here (the real servers' suites receive the messages).
    return 0;
  } else {
    throw std::runtime_error("the host cannot apply " + name);
  }
  return 0;
}

// The arguments of Replicate and Call, as their format strings give them.
std::vector<std::string> arguments(const char* name, const char* format, va_list list, bool& replicate) {
  std::vector<std::string> out{name};
  replicate = false;
  for (const char* p = format; *p != '\0'; ++p) {
    switch (*p) {
      case 's': out.push_back(va_arg(list, String*)->bytes); break;
      case 'c': out.emplace_back(va_arg(list, const char*)); break;
      case 'l': out.push_back(std::to_string(va_arg(list, long long))); break;
      case 'b': {
        const char* data = va_arg(list, const char*);
        const std::size_t length = va_arg(list, std::size_t);
        out.emplace_back(data, length);
        break;
      }
      case 'v': {
        String** strings = va_arg(list, String**);
        const std::size_t count = va_arg(list, std::size_t);
        for (std::size_t k = 0; k < count; ++k) out.push_back(strings[k]->bytes);
        break;
      }
      case '!': replicate = true; break;
      default: throw std::runtime_error(std::string("format ") + *p);
    }
  }
  return out;
}

void append(Ctx* ctx, Reply reply) {
  if (ctx->open.empty()) {
    ctx->reply = std::move(reply);
    ctx->replied = true;
    return;
  }
  ctx->open.back().first.items.push_back(std::move(reply));
  while (!ctx->open.empty() && --ctx->open.back().second == 0) {
    Reply done = std::move(ctx->open.back().first);
    ctx->open.pop_back();
    if (ctx->open.empty()) {
      ctx->reply = std::move(done);
      ctx->replied = true;
    } else {
      ctx->open.back().first.items.push_back(std::move(done));
      continue;
    }
  }
}

Reply simple(Reply::Kind kind, std::string text = {}, long long integer = 0) {
  Reply reply;
  reply.kind = kind;
  reply.text = std::move(text);
  reply.integer = integer;
  return reply;
}

void openContainer(Ctx* ctx, long items) {
  Reply array;
  array.kind = Reply::Kind::kArray;
  if (items == 0) return append(ctx, std::move(array));
  ctx->open.emplace_back(std::move(array), items);
}

// ---- The API functions.

void setModuleAttribs(Ctx*, const char*, int, int) {}
int isModuleNameBusy(const char*) { return 0; }
void setModuleOptions(Ctx*, int) {}
int createCommand(Ctx* ctx, const char* name, CommandFunction function, const char* flags, int, int, int) {
  auto registered = std::make_unique<Host::Registered>();
  registered->function = function;
  registered->flags = flags;
  Host::Impl::commands(*ctx->host)[name] = std::move(registered);
  return kOk;
}
Command* getCommand(Ctx*, const char* name) { return new Command{name}; }
int setCommandInfo(Command* command, const CommandInfo* info) {
  auto& registered = *Host::Impl::commands(*loading).at(command->name);
  registered.arity = info->arity;
  registered.keySpecFlags = info->keySpecs[0].flags;
  const bool wellFormed = info->version->keySpecSize == sizeof(CommandKeySpec) && info->keySpecs[0].beginSearch == BeginSearch::kIndex &&
                          info->keySpecs[0].begin.index.position == 1 && info->keySpecs[1].beginSearch == BeginSearch::kInvalid;
  delete command;
  return wellFormed ? kOk : kErr;
}
int getContextFlags(Ctx* ctx) { return Host::Impl::cluster(*ctx->host) ? kContextCluster : 0; }
Key* openKey(Ctx* ctx, String* name, int mode) {
  Keyspace& keys = ctx->host->keys();
  if ((mode & kWrite) == 0 && keys.count(name->bytes) == 0) return nullptr;
  return new Key{ctx->host, name->bytes, mode};
}
void closeKey(Key* key) { delete key; }
int keyType(Key* key) {
  if (key == nullptr) return kKeyEmpty;
  const auto found = key->host->keys().find(key->name);
  return found == key->host->keys().end() ? kKeyEmpty : found->second->type;
}
char* stringDMA(Key* key, std::size_t* length, int) {
  static char empty[] = "";
  const auto found = key->host->keys().find(key->name);
  if (found == key->host->keys().end()) {
    *length = 0;
    return empty;
  }
  if (found->second->type != kKeyString) return nullptr;
  *length = found->second->length;
  return reinterpret_cast<char*>(found->second->bytes);
}
int stringTruncate(Key* key, std::size_t length) {
  if ((key->mode & kWrite) == 0) return kErr;
  resize(stringValue(key->host->keys(), key->name), length);
  return kOk;
}
const char* stringPtrLen(const String* string, std::size_t* length) {
  *length = string->bytes.size();
  return string->bytes.data();
}
String* createString(Ctx*, const char* data, std::size_t length) { return new String{std::string(data, length)}; }
void freeString(Ctx*, String* string) {
  if (--string->references == 0) delete string;
}
int stringToLongLong(const String* string, long long* out) { return parseLongLong(string->bytes, *out) ? kOk : kErr; }
int stringToULongLong(const String* string, unsigned long long* out) { return parseUnsigned(string->bytes, *out) ? kOk : kErr; }
int stringToDouble(const String* string, double* out) {
  const std::string& text = string->bytes;
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) != 0) return kErr;
  char* end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && !std::isnan(*out) ? kOk : kErr;
}
int replyWithLongLong(Ctx* ctx, long long value) {
  append(ctx, simple(Reply::Kind::kInteger, {}, value));
  return kOk;
}
int replyWithDouble(Ctx* ctx, double value) {
  Reply reply = simple(Reply::Kind::kDouble);
  reply.real = value;
  append(ctx, std::move(reply));
  return kOk;
}
int replyWithError(Ctx* ctx, const char* text) {
  append(ctx, simple(Reply::Kind::kError, text));
  return kOk;
}
int replyWithSimpleString(Ctx* ctx, const char* text) {
  append(ctx, simple(Reply::Kind::kStatus, text));
  return kOk;
}
int replyWithStringBuffer(Ctx* ctx, const char* data, std::size_t length) {
  append(ctx, simple(Reply::Kind::kBulk, std::string(data, length)));
  return kOk;
}
int replyWithArray(Ctx* ctx, long items) {
  openContainer(ctx, items);
  return kOk;
}
int replyWithMap(Ctx* ctx, long pairs) {
  openContainer(ctx, 2 * pairs);
  return kOk;
}
int wrongArity(Ctx* ctx) {
  return replyWithError(ctx, ("ERR wrong number of arguments for '" + ctx->command + "' command").c_str());
}
int replicate(Ctx* ctx, const char* name, const char* format, ...) {
  va_list list;
  va_start(list, format);
  bool ignored = false;
  const std::vector<std::string> command = arguments(name, format, list, ignored);
  va_end(list);
  apply(ctx->host->replica(), command);
  Host::Impl::countReplicated(*ctx->host);
  return kOk;
}
CallReply* call(Ctx* ctx, const char* name, const char* format, ...) {
  va_list list;
  va_start(list, format);
  bool replicated = false;
  const std::vector<std::string> command = arguments(name, format, list, replicated);
  va_end(list);
  const long long result = apply(ctx->host->keys(), command);
  if (replicated) {
    apply(ctx->host->replica(), command);
    Host::Impl::countReplicated(*ctx->host);
  }
  if (result < 0) return new CallReply{kReplyError, 0, "ERR value is not an integer"};
  const std::string called = name;
  // XADD answers its entry's ID (here the stream's length and 0); INCR and the publishes a number.
  if (called == "XADD") return new CallReply{kReplyString, 0, std::to_string(result) + "-0"};
  const bool numeric = called == "INCR" || called == "SPUBLISH" || called == "PUBLISH";
  return new CallReply{numeric ? kReplyInteger : kReplyString, result, {}};
}
int callReplyType(CallReply* reply) { return reply->type; }
long long callReplyInteger(CallReply* reply) { return reply->integer; }
const char* callReplyStringPtr(CallReply* reply, std::size_t* length) {
  *length = reply->text.size();
  return reply->text.data();
}
void freeCallReply(CallReply* reply) { delete reply; }
int notifyKeyspaceEvent(Ctx*, int, const char*, String*) { return kOk; }
int signalModifiedKey(Ctx*, String*) { return kOk; }
void getRandomBytes(unsigned char* out, std::size_t length) {
  static std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  for (std::size_t k = 0; k < length; ++k) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    out[k] = static_cast<unsigned char>(state);
  }
}
// No users in the host: the ACL is the real-server suites'.
String* getCurrentUserName(Ctx*) { return nullptr; }
User* getModuleUserFromUserName(String*) { return nullptr; }
int freeModuleUser(User*) { return kOk; }
int aclCheckKeyPermissions(User*, String*, int) { return kOk; }

struct Function {
  const char* name;
  void* address;
};

template <class F>
void* address(F function) {
  void* out = nullptr;
  std::memcpy(&out, &function, sizeof out);
  return out;
}

int getApi(const char* name, void** target) {
  static const Function kFunctions[] = {
      {"SetModuleAttribs", address(&setModuleAttribs)}, {"IsModuleNameBusy", address(&isModuleNameBusy)},
      {"SetModuleOptions", address(&setModuleOptions)}, {"CreateCommand", address(&createCommand)},
      {"GetCommand", address(&getCommand)}, {"SetCommandInfo", address(&setCommandInfo)},
      {"GetContextFlags", address(&getContextFlags)}, {"OpenKey", address(&openKey)}, {"CloseKey", address(&closeKey)},
      {"KeyType", address(&keyType)}, {"StringDMA", address(&stringDMA)}, {"StringTruncate", address(&stringTruncate)},
      {"StringPtrLen", address(&stringPtrLen)}, {"CreateString", address(&createString)},
      {"FreeString", address(&freeString)}, {"StringToLongLong", address(&stringToLongLong)},
      {"StringToULongLong", address(&stringToULongLong)}, {"StringToDouble", address(&stringToDouble)},
      {"ReplyWithLongLong", address(&replyWithLongLong)}, {"ReplyWithDouble", address(&replyWithDouble)},
      {"ReplyWithError", address(&replyWithError)}, {"ReplyWithSimpleString", address(&replyWithSimpleString)},
      {"ReplyWithStringBuffer", address(&replyWithStringBuffer)}, {"ReplyWithArray", address(&replyWithArray)},
      {"ReplyWithMap", address(&replyWithMap)}, {"WrongArity", address(&wrongArity)},
      {"Replicate", address(&replicate)}, {"Call", address(&call)}, {"CallReplyType", address(&callReplyType)},
      {"CallReplyInteger", address(&callReplyInteger)}, {"CallReplyStringPtr", address(&callReplyStringPtr)},
      {"FreeCallReply", address(&freeCallReply)}, {"NotifyKeyspaceEvent", address(&notifyKeyspaceEvent)},
      {"SignalModifiedKey", address(&signalModifiedKey)}, {"GetRandomBytes", address(&getRandomBytes)},
      {"GetCurrentUserName", address(&getCurrentUserName)}, {"GetModuleUserFromUserName", address(&getModuleUserFromUserName)},
      {"FreeModuleUser", address(&freeModuleUser)}, {"ACLCheckKeyPermissions", address(&aclCheckKeyPermissions)},
  };
  constexpr char kPrefix[] = "RedisModule_";
  if (std::strncmp(name, kPrefix, sizeof kPrefix - 1) != 0) return kErr;
  for (const Function& function : kFunctions) {
    if (std::strcmp(name + sizeof kPrefix - 1, function.name) == 0) {
      *target = function.address;
      return kOk;
    }
  }
  return kErr;
}

}  // namespace

Host::Host() {
  Ctx ctx{address(&getApi), this, {}, {}, {}, false};
  loading = this;
  loaded_ = RedisModule_OnLoad(&ctx, nullptr, 0) == kOk;
}

Host::~Host() = default;

Reply Host::run(const std::vector<std::string>& command) {
  std::string name = command.at(0);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto found = commands_.find(name);
  if (found == commands_.end()) return simple(Reply::Kind::kError, "ERR unknown command '" + name + "'");
  const int argc = static_cast<int>(command.size());
  const int arity = found->second->arity;
  if ((arity > 0 && argc != arity) || (arity < 0 && argc < -arity)) {
    return simple(Reply::Kind::kError, "ERR wrong number of arguments for '" + name + "' command");
  }
  std::vector<String*> argv;
  for (const std::string& argument : command) argv.push_back(new String{argument});
  Ctx ctx{address(&getApi), this, name, {}, {}, false};
  found->second->function(&ctx, argv.data(), argc);
  for (String* each : argv) freeString(&ctx, each);
  if (!ctx.replied || !ctx.open.empty()) throw std::runtime_error("the command replied no complete reply: " + name);
  return ctx.reply;
}

std::string Host::flags(const std::string& command) const {
  const auto found = commands_.find(command);
  return found == commands_.end() ? std::string() : found->second->flags;
}

std::uint64_t Host::keySpecFlags(const std::string& command) const {
  const auto found = commands_.find(command);
  return found == commands_.end() ? 0 : found->second->keySpecFlags;
}

std::string Host::dump(const Keyspace& keyspace) {
  std::string out;
  for (const auto& [key, value] : keyspace) {
    out += key + " " + std::to_string(value->type) + " " + value->text();
    for (const std::string& record : value->records) out += " " + record;
    out += '\n';
  }
  return out;
}

}  // namespace host
}  // namespace cuckoo::redis
