#pragma once
// An in-process host of the module: the part of the Redis module API the
// module uses (bindings/redis-module/server_api.hpp), over a keyspace of
// plain values, so that the command handlers run natively under
// AddressSanitizer and libFuzzer. Every string value is its own heap block of
// exactly its length, so a read or write past a key's end is reported.
//
// The module is loaded as a server loads it: RedisModule_OnLoad gets a
// context whose first word is the host's lookup function. What it replicates
// is applied to a second keyspace (BITFIELD SET, SETRANGE, SET, INCR, XADD),
// as a replica without the module applies it. This is a test host, not a
// server: the real-server suites (tests/redis-module/*.test.ts) check the
// module on redis-server.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cuckoo::redis::host {

// A key's value: a string, or another type (a list: WRONGTYPE), or a stream
// of records.
struct Value {
  int type = 1;  // kKeyString
  std::vector<std::string> records;  // a stream's
  unsigned char* bytes = nullptr;
  std::size_t length = 0;
  Value() = default;
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;
  ~Value();
  void assign(const unsigned char* data, std::size_t count);
  std::string text() const { return std::string(reinterpret_cast<const char*>(bytes), length); }
};

using Keyspace = std::map<std::string, std::unique_ptr<Value>>;

// A reply, parsed: an integer, a status, an error, a bulk string, or an array (or map) of replies.
struct Reply {
  enum class Kind { kInteger, kStatus, kError, kBulk, kArray, kDouble, kNone } kind = Kind::kNone;
  long long integer = 0;
  double real = 0;
  std::string text;
  std::vector<Reply> items;
  bool isError() const noexcept { return kind == Kind::kError; }
};

class Host {
 public:
  // Loads the module (its RedisModule_OnLoad); false when it refused.
  Host();
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  bool loaded() const noexcept { return loaded_; }
  // Runs a command (its name first) as a client would; the module's reply.
  Reply run(const std::vector<std::string>& command);
  // The flags a command was registered with ("" when unknown).
  std::string flags(const std::string& command) const;
  // The key-spec flags SetCommandInfo gave it.
  std::uint64_t keySpecFlags(const std::string& command) const;

  Keyspace& keys() noexcept { return keys_; }
  Keyspace& replica() noexcept { return replica_; }
  // Every key and value of a keyspace, in one string, to compare.
  static std::string dump(const Keyspace& keyspace);
  void setCluster(bool cluster) noexcept { cluster_ = cluster; }
  // How many commands the module replicated so far.
  std::size_t replicated() const noexcept { return replicated_; }

  // The API's implementation (server_api.hpp's table) calls into these.
  struct Impl;
  struct Registered;

 private:
  friend struct Impl;
  bool loaded_ = false;
  bool cluster_ = false;
  Keyspace keys_;
  Keyspace replica_;
  std::size_t replicated_ = 0;
  std::map<std::string, std::unique_ptr<Registered>> commands_;
};

}  // namespace cuckoo::redis::host
