// The Redis module's commands, arguments and keys fuzzed in the in-process
// host (tests/redis-module/native): any arguments and any damage to a
// filter's keys give a reply, never a crash; a refused command and every
// read leave the keys as they were; and the commands the module replicates
// keep a replica (a server without the module) byte for byte the same.
//
// Input: a program. Three filters are made first (plain "p", semi-sorted "s",
// two shards "h"); then each step is a byte choosing a command (or damage),
// a byte choosing its key, a byte giving how many arguments follow, and per
// argument a byte choosing its kind (an item of a small universe, a number,
// an option word, the filter id, a shard's fixed header, raw bytes).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "byte_reader.hpp"
#include "fuzz_check.hpp"
#include "module_host.hpp"

namespace {

using cuckoo::redis::host::Host;
using cuckoo::redis::host::Reply;

const char* const kCommands[] = {"CUCKOO.ADD", "CUCKOO.ADDNX", "CUCKOO.MADD", "CUCKOO.EXISTS", "CUCKOO.MEXISTS",
                                 "CUCKOO.COUNT", "CUCKOO.DEL", "CUCKOO.INFO", "CUCKOO.RESERVE"};
constexpr unsigned kCommandCount = sizeof kCommands / sizeof kCommands[0];
const char* const kWords[] = {"SEED", "MAXKICKS", "SEMISORT", "SHARDS", "seed", "0", "1", "-1", "0.5", "1e-9", "inf",
                              "18446744073709551615", "4294967296", "1025", "{}", ""};

bool writes(const std::string& command) {
  return command == "CUCKOO.ADD" || command == "CUCKOO.ADDNX" || command == "CUCKOO.MADD" || command == "CUCKOO.DEL" ||
         command == "CUCKOO.RESERVE";
}

std::string keyOf(Host& host, std::uint8_t choice, ByteReader& input) {
  static const char* const kKeys[] = {"p", "s", "h", "{p:0:0}:0", "{s:0:0}:0", "{h:0:0}:0", "{h:1:1}:0", "{p:0:0}:1",
                                      "missing", "p:0:0", "{p:0:0}", "new"};
  constexpr unsigned kKeyCount = sizeof kKeys / sizeof kKeys[0];
  if (choice % (kKeyCount + 1) < kKeyCount) return kKeys[choice % (kKeyCount + 1)];
  std::string raw;
  for (unsigned k = input.next() % 12; k > 0; --k) raw.push_back(static_cast<char>(input.next()));
  static_cast<void>(host);
  return raw;
}

std::string argumentOf(Host& host, ByteReader& input) {
  const std::uint8_t kind = input.next();
  switch (kind % 6) {
    case 0:
    case 1:
      return "item-" + std::to_string(input.next() % 40);
    case 2:
      return std::to_string(static_cast<int>(input.next()) * static_cast<int>(input.next()) - 300);
    case 3:
      return kWords[input.next() % (sizeof kWords / sizeof kWords[0])];
    case 4: {
      // The id of a filter, or a shard's 52 fixed header bytes.
      const char* const shards[] = {"{p:0:0}:0", "{s:0:0}:0", "{h:0:0}:0", "{h:1:1}:0"};
      const auto found = host.keys().find(shards[input.next() % 4]);
      if (found == host.keys().end() || found->second->length < 52) return "1";
      const std::string header = found->second->text().substr(0, 52);
      if ((kind & 8) != 0) return header;
      std::uint64_t id = 0;
      for (int k = 44; k < 50; ++k) id = id << 8 | static_cast<unsigned char>(header[static_cast<std::size_t>(k)]);
      return std::to_string(id);
    }
    default: {
      std::string raw;
      for (unsigned k = input.next() % 16; k > 0; --k) raw.push_back(static_cast<char>(input.next()));
      return raw;
    }
  }
}

// A byte of a key changed, in the host and in its replica alike.
void damage(Host& host, ByteReader& input) {
  if (host.keys().empty()) return;
  auto it = host.keys().begin();
  for (unsigned k = input.next() % host.keys().size(); k > 0; --k) ++it;
  auto& value = *it->second;
  if (value.length == 0 || value.type != 1) return;
  const std::size_t at = (static_cast<std::size_t>(input.next()) << 8 | input.next()) % value.length;
  const auto flip = static_cast<unsigned char>(input.next() | 1);
  value.bytes[at] ^= flip;
  const auto mirrored = host.replica().find(it->first);
  if (mirrored != host.replica().end() && mirrored->second->length == value.length) mirrored->second->bytes[at] ^= flip;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Host host;
  FUZZ_REQUIRE(host.loaded(), "the module did not load");
  FUZZ_REQUIRE(host.run({"CUCKOO.RESERVE", "p", "60", "0.05", "SEED", "1", "MAXKICKS", "20"}).text == "OK", "p");
  FUZZ_REQUIRE(host.run({"CUCKOO.RESERVE", "s", "60", "0.01", "SEED", "2", "SEMISORT"}).text == "OK", "s");
  FUZZ_REQUIRE(host.run({"CUCKOO.RESERVE", "h", "100", "0.05", "SHARDS", "2", "SEED", "3"}).text == "OK", "h");
  ByteReader input(data, size);
  for (unsigned step = 0; step < 200 && !input.empty(); ++step) {
    const std::uint8_t choice = input.next();
    if (choice % (kCommandCount + 1) == kCommandCount) {
      damage(host, input);
      continue;
    }
    std::vector<std::string> command = {kCommands[choice % (kCommandCount + 1)]};
    command.push_back(keyOf(host, input.next(), input));
    for (unsigned k = input.next() % 8; k > 0; --k) command.push_back(argumentOf(host, input));
    const std::string before = Host::dump(host.keys());
    const Reply reply = host.run(command);
    const std::string after = Host::dump(host.keys());
    if (reply.isError() || !writes(command[0])) {
      FUZZ_REQUIRE(after == before, "%s changed the keys (reply: %s)", command[0].c_str(), reply.text.c_str());
    }
    FUZZ_REQUIRE(Host::dump(host.replica()) == after, "after %s the replica differs", command[0].c_str());
  }
  return 0;
}
