// Hostile arguments and damaged keys in the in-process host (under
// AddressSanitizer in the sanitized build): an error reply naming the
// problem, never a crash or a read past a key's end, and nothing written.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/sizing.hpp"
#include "module_host.hpp"
#include "shard_layout.hpp"

namespace {

using cuckoo::redis::host::Host;
using cuckoo::redis::host::Reply;

std::vector<std::string> items(const std::string& command, const std::string& key, int count) {
  std::vector<std::string> out = {command, key};
  for (int k = 0; k < count; ++k) out.push_back("item-" + std::to_string(k));
  return out;
}

// The command is refused with an error starting `code`, and the keyspace is as it was.
void expectRefused(Host& host, const std::vector<std::string>& command, const std::string& code) {
  const std::string before = Host::dump(host.keys());
  const Reply reply = host.run(command);
  ASSERT_TRUE(reply.isError()) << command[0] << " " << (command.size() > 1 ? command[1] : "");
  EXPECT_EQ(reply.text.substr(0, code.size()), code) << reply.text;
  EXPECT_EQ(Host::dump(host.keys()), before) << reply.text;
}

TEST(RedisModuleHostile, ArgumentsAreRefusedByName) {
  Host host;
  ASSERT_EQ(host.run({"CUCKOO.RESERVE", "f", "1000", "0.01"}).text, "OK");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"CUCKOO.ADD", "f"}, "ERR wrong number of arguments"},
      {{"CUCKOO.ADD", "f", "a", "b"}, "ERR wrong number of arguments"},
      {{"CUCKOO.EXISTS", "nothing", "a"}, "NOT_FOUND"},
      {{"CUCKOO.RESERVE", "f", "10", "0.1"}, "EXISTS"},
      {{"CUCKOO.RESERVE", "g", "", "0.1"}, "ERR capacity"},
      {{"CUCKOO.RESERVE", "g", "10", ""}, "ERR fpr"},
      {{"CUCKOO.RESERVE", "g", "10", "nan"}, "ERR fpr"},
      {{"CUCKOO.RESERVE", "g", "10", "0.1", "SHARDS"}, "ERR option SHARDS needs a value"},
      {{"CUCKOO.RESERVE", "g", "10", "0.1", "SEED", "18446744073709551616"}, "ERR SEED"},
      {{"CUCKOO.RESERVE", "g", "10", "0.1", "MAXKICKS", "-1"}, "ERR MAXKICKS"},
      {{"CUCKOO.RESERVE", "g}", "10", "0.1"}, "ERR name"},
      {{"CUCKOO.EXISTS", "{f:0:0}:0", "x", "a"}, "ERR a shard's key is followed by the filter id"},
      {{"CUCKOO.EXISTS", "{f:0:0}:0", "1", "a"}, "NOT_FOUND"},
      {{"CUCKOO.EXISTS", "{f:0:0}:0", std::string(52, 'C'), "a"}, "ERR a shard's key"},
  };
  for (const auto& [command, code] : cases) expectRefused(host, command, code);
  // A binary item, an empty one, and 64 KiB of one: stored and found.
  EXPECT_EQ(host.run({"CUCKOO.MADD", "f", std::string("\0\xff\r\n", 4), "", std::string(1 << 16, 'x')}).integer, 3);
  EXPECT_EQ(host.run({"CUCKOO.MEXISTS", "f", std::string("\0\xff\r\n", 4), "", std::string(1 << 16, 'x')}).items.size(), 3U);
}

TEST(RedisModuleHostile, DamagedKeysAreRefusedWithNothingWritten) {
  Host host;
  ASSERT_EQ(host.run({"CUCKOO.RESERVE", "big", "1000000", "0.001", "SEED", "1"}).text, "OK");
  ASSERT_EQ(host.run(items("CUCKOO.MADD", "big", 1000)).integer, 1000);
  auto& keys = host.keys();
  ASSERT_EQ(keys.count("{big:0:0}:1"), 1U);
  // Every length of the later chunk but its own, and of chunk 0 up to past its header.
  const std::string later = keys.at("{big:0:0}:1")->text();
  for (const std::size_t length : {std::size_t{0}, std::size_t{1}, later.size() - 1, later.size() + 1}) {
    std::string cut = later;
    cut.resize(length, '\0');
    keys.at("{big:0:0}:1")->assign(reinterpret_cast<const unsigned char*>(cut.data()), cut.size());
    expectRefused(host, items("CUCKOO.MADD", "big", 3000), length < later.size() ? "TRUNCATED" : "INCONSISTENT");
    expectRefused(host, items("CUCKOO.MEXISTS", "big", 3000), length < later.size() ? "TRUNCATED" : "INCONSISTENT");
  }
  keys.at("{big:0:0}:1")->assign(reinterpret_cast<const unsigned char*>(later.data()), later.size());
  const std::string zero = keys.at("{big:0:0}:0")->text();
  for (std::size_t length = 0; length < 80; ++length) {
    keys.at("{big:0:0}:0")->assign(reinterpret_cast<const unsigned char*>(zero.data()), length);
    const Reply reply = host.run(items("CUCKOO.MADD", "big", 10));
    EXPECT_TRUE(reply.isError()) << length;
  }
  keys.at("{big:0:0}:0")->assign(reinterpret_cast<const unsigned char*>(zero.data()), zero.size());
  // Each header byte of chunk 0 and of the root changed in turn: refused, or answered as before.
  const std::string root = keys.at("big")->text();
  for (const char* key : {"big", "{big:0:0}:0"}) {
    const std::string original = keys.at(key)->text();
    for (std::size_t at = 0; at < (std::string(key) == "big" ? 52U : 76U); ++at) {
      std::string changed = original;
      changed[at] = static_cast<char>(changed[at] ^ 0x5a);
      keys.at(key)->assign(reinterpret_cast<const unsigned char*>(changed.data()), changed.size());
      const std::string before = Host::dump(keys);
      const Reply reply = host.run(items("CUCKOO.MADD", "big", 5));
      if (reply.isError()) {
        EXPECT_EQ(Host::dump(keys), before) << key << " byte " << at << ": " << reply.text;
      }
      keys.at(key)->assign(reinterpret_cast<const unsigned char*>(original.data()), original.size());
    }
  }
  // A stash with no item counted (found by the fuzzer: INFO's load then overflowed).
  std::string stashed = zero;
  stashed[55] = 1;
  stashed.replace(60, 8, std::string(8, '\0'));
  keys.at("{big:0:0}:0")->assign(reinterpret_cast<const unsigned char*>(stashed.data()), stashed.size());
  expectRefused(host, {"CUCKOO.INFO", "big"}, "INCONSISTENT key '{big:0:0}:0' has a damaged item count");
  keys.at("{big:0:0}:0")->assign(reinterpret_cast<const unsigned char*>(zero.data()), zero.size());
  // A key of another type.
  keys["{big:0:0}:1"]->type = 2;
  expectRefused(host, items("CUCKOO.MADD", "big", 3000), "WRONGTYPE");
}

// Hash ids 6 and 7 (multiplyShiftHash, FORMAT.md version 5) have no Redis
// filters: RESERVE has no option for them, a header naming one is refused as
// unsupported (not as a hash id that disagrees with the bucket count), and a
// key holding a CuckooFilter's own bytes is named as such.
TEST(RedisModuleHostile, MultiplyShiftHashIsRefusedAsSuch) {
  Host host;
  const std::string unsupported = "Redis filters do not support multiplyShiftHash (hash ids 6 to 11, format versions 5 to 7)";
  expectRefused(host, {"CUCKOO.RESERVE", "m", "1000", "0.01", "multiplyShiftHash"},
                "ERR option MULTIPLYSHIFTHASH is not supported: " + unsupported);
  EXPECT_EQ(host.keys().count("m"), 0U);
  ASSERT_EQ(host.run({"CUCKOO.RESERVE", "f", "1000", "0.01", "SEED", "3"}).text, "OK");
  ASSERT_EQ(host.run(items("CUCKOO.MADD", "f", 10)).integer, 10);
  auto& keys = host.keys();
  for (const char* key : {"f", "{f:0:0}:0"}) {
    const std::string original = keys.at(key)->text();
    for (const unsigned char hashId : {6, 7, 8, 9, 10, 11}) {
      std::string changed = original;
      changed[6] = static_cast<char>(hashId);
      keys.at(key)->assign(reinterpret_cast<const unsigned char*>(changed.data()), changed.size());
      const std::string refusal = "UNSUPPORTED_VERSION key '" + std::string(key) + "' has hash id " +
                                  std::to_string(hashId) + ": " + unsupported;
      expectRefused(host, items("CUCKOO.MADD", "f", 3), refusal);
      expectRefused(host, items("CUCKOO.MEXISTS", "f", 3), refusal);
      expectRefused(host, {"CUCKOO.INFO", "f"}, refusal);
    }
    keys.at(key)->assign(reinterpret_cast<const unsigned char*>(original.data()), original.size());
  }
  // Addressed by the shard's key and the filter id: its own header is read first.
  const std::string shard = keys.at("{f:0:0}:0")->text();
  const std::string filterId = std::to_string(cuckoo::redis::readBigEndian(reinterpret_cast<const unsigned char*>(shard.data()) + 44, 6));
  ASSERT_EQ(host.run({"CUCKOO.EXISTS", "{f:0:0}:0", filterId, "item-1"}).integer, 1);
  std::string changed = shard;
  changed[6] = 6;
  keys.at("{f:0:0}:0")->assign(reinterpret_cast<const unsigned char*>(changed.data()), changed.size());
  expectRefused(host, {"CUCKOO.ADD", "{f:0:0}:0", filterId, "x"}, "UNSUPPORTED_VERSION key '{f:0:0}:0' has hash id 6: " + unsupported);
  keys.at("{f:0:0}:0")->assign(reinterpret_cast<const unsigned char*>(shard.data()), shard.size());
  ASSERT_EQ(host.run({"CUCKOO.ADD", "f", "after"}).integer, 1);

  // A CuckooFilter's bytes where a filter's root belongs: version 7, and version 1.
  for (const bool multiplyShift : {true, false}) {
    cuckoo::FilterParams params;
    params.bucketCount = 64;
    params.seed = 9;
    params.multiplyShiftHash = multiplyShift;
    cuckoo::CuckooFilter local;
    ASSERT_EQ(cuckoo::CuckooFilter::create(params, local), cuckoo::Status::kOk);
    std::vector<unsigned char> bytes(local.serializedSize());
    local.serialize(bytes.data());
    ASSERT_EQ(bytes[4], multiplyShift ? 7 : 1);
    keys["local"] = std::make_unique<cuckoo::redis::host::Value>();
    keys.at("local")->assign(bytes.data(), bytes.size());
    const std::string refusal = "BAD_MAGIC key 'local' holds a CuckooFilter's bytes (format version " +
                                std::string(multiplyShift ? "7" : "1") + "), not a Redis filter: " +
                                (multiplyShift ? unsupported : "RedisCuckooFilter.fromBytes makes a Redis filter of them");
    expectRefused(host, {"CUCKOO.ADD", "local", "x"}, refusal);
    expectRefused(host, {"CUCKOO.INFO", "local"}, refusal);
  }
}

TEST(RedisModuleHostile, ABatchMeetingADamagedBucketIsUndone) {
  Host host;
  ASSERT_EQ(host.run({"CUCKOO.RESERVE", "s", "1000", "0.001", "SEMISORT", "SEED", "2"}).text, "OK");
  // An item whose first bucket is bucket 0, whose rank is then made to name no bucket.
  cuckoo::FilterParams params;
  params.semiSort = true;
  params.seed = 2;
  ASSERT_EQ(cuckoo::paramsForCapacity(1000, 0.001, params), cuckoo::Status::kOk);
  std::string aimed;
  for (int k = 0; aimed.empty(); ++k) {
    const std::string candidate = "aim-" + std::to_string(k);
    std::uint32_t where[4];
    cuckoo::CuckooFilter::locateEach(params, cuckoo::ItemBatch::fixed(candidate.data(), static_cast<std::uint32_t>(candidate.size()), 1), where);
    if (where[1] == 0) aimed = candidate;
  }
  unsigned char* chunk = host.keys().at("{s:0:0}:0")->bytes;
  chunk[76] = 0xff;
  chunk[77] |= 0xf0;
  std::vector<std::string> batch = items("CUCKOO.MADD", "s", 200);
  batch.push_back(aimed);
  const std::size_t replicated = host.replicated();
  expectRefused(host, batch, "INCONSISTENT bucket 0 of shard 0 has rank 4095");
  EXPECT_EQ(host.replicated(), replicated) << "nothing replicated";
}

}  // namespace
