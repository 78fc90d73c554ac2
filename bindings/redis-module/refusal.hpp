#pragma once
// Why a command is refused: a code, the first word of the Redis error reply
// (the codes RedisCuckooFilter's errors carry: NOT_FOUND, EXISTS, BAD_MAGIC,
// TRUNCATED, INCONSISTENT, BAD_PARAMETERS, UNSUPPORTED_VERSION; or ERR for
// arguments, WRONGTYPE for a key of another type), and a message naming the
// problem. Refusals are rare: recording one is a cold call.

#include <string>

namespace cuckoo::redis {

struct Refusal {
  const char* code = nullptr;
  std::string message;

  bool refused() const noexcept { return code != nullptr; }
  // Records the refusal (the first one stays) and returns false, so that a
  // check reads `return refusal.refuse(...)`.
  [[gnu::cold, gnu::noinline]] bool refuse(const char* why, std::string text) {
    if (code == nullptr) {
      code = why;
      message = std::move(text);
    }
    return false;
  }
  // "CODE message", as a Redis error reply.
  std::string reply() const { return std::string(code) + " " + message; }
};

// The reply Redis gives for a key of another type.
inline constexpr const char* kWrongTypeMessage = "Operation against a key holding the wrong kind of value";

}  // namespace cuckoo::redis
