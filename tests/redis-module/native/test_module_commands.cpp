// The module's command handlers in the in-process host: registered with
// their flags and key specs; making CuckooFilter's choices (the same answers,
// and the same table, stash, count and PRNG, read here field by field in
// BITFIELD order); replicating writes a server without the module applies to
// the same bytes.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/sizing.hpp"
#include "module_host.hpp"
#include "server_api.hpp"

namespace {

using cuckoo::redis::host::Host;
using cuckoo::redis::host::Reply;

// A field of `width` bits at `bit`, most significant bit first (BITFIELD order), read bit by bit.
std::uint64_t bitfieldAt(const unsigned char* bytes, std::uint64_t bit, unsigned width) {
  std::uint64_t value = 0;
  for (unsigned k = 0; k < width; ++k) value = value << 1 | ((bytes[(bit + k) / 8] >> (7 - (bit + k) % 8)) & 1U);
  return value;
}

// The same in FORMAT.md's order: least significant bit first.
std::uint64_t formatAt(const unsigned char* bytes, std::uint64_t bit, unsigned width) {
  std::uint64_t value = 0;
  for (unsigned k = 0; k < width; ++k) value |= std::uint64_t{(bytes[(bit + k) / 8] >> ((bit + k) % 8)) & 1U} << k;
  return value;
}

std::uint64_t bigEndian(const unsigned char* bytes, unsigned count) {
  std::uint64_t value = 0;
  for (unsigned k = 0; k < count; ++k) value = value << 8 | bytes[k];
  return value;
}

long long integerOf(const Reply& reply) {
  EXPECT_EQ(reply.kind, Reply::Kind::kInteger) << reply.text;
  return reply.integer;
}

// The shard's table (one chunk) against an in-process filter: every field, then the state.
void expectSameFilter(Host& host, const std::string& chunk, const cuckoo::CuckooFilter& local) {
  const auto& value = *host.keys().at(chunk);
  const unsigned char* header = value.bytes;
  const cuckoo::FilterParams& params = local.params();
  const unsigned f = params.fingerprintBits;
  std::vector<unsigned> widths;
  if (params.semiSort) {
    widths = {12, f - 4, f - 4, f - 4, f - 4};
  } else {
    widths.assign(params.bucketSize, f);
  }
  std::uint64_t bit = 0;
  for (std::uint64_t bucket = 0; bucket < params.bucketCount; ++bucket) {
    for (const unsigned width : widths) {
      ASSERT_EQ(bitfieldAt(header, 8 * 76 + bit, width), formatAt(local.tableData(), bit, width)) << "bucket " << bucket;
      bit += width;
    }
  }
  EXPECT_EQ(bigEndian(header + 52, 4), local.stash().occupied ? local.stash().fingerprint : 0);
  EXPECT_EQ(bigEndian(header + 56, 4), local.stash().occupied ? local.stash().bucket : 0);
  EXPECT_EQ(bigEndian(header + 60, 8), local.itemCount());
  EXPECT_EQ(bigEndian(header + 68, 8), local.state().prng.state());
}

TEST(RedisModuleHost, RegistersEveryCommandWithItsFlagsAndKeySpec) {
  Host host;
  ASSERT_TRUE(host.loaded());
  using namespace cuckoo::redis;
  for (const char* write : {"cuckoo.add", "cuckoo.addnx", "cuckoo.madd", "cuckoo.reserve"}) EXPECT_EQ(host.flags(write), "write deny-oom");
  EXPECT_EQ(host.flags("cuckoo.del"), "write");
  for (const char* read : {"cuckoo.exists", "cuckoo.mexists", "cuckoo.count"}) {
    EXPECT_EQ(host.flags(read), "readonly fast");
    EXPECT_EQ(host.keySpecFlags(read), kKeyReadOnly | kKeyAccess);
  }
  EXPECT_EQ(host.keySpecFlags("cuckoo.madd"), kKeyReadWrite | kKeyAccess | kKeyUpdate);
  EXPECT_EQ(host.keySpecFlags("cuckoo.reserve"), kKeyOverwrite | kKeyInsert);
  EXPECT_EQ(host.flags("cuckoo.info"), "readonly");
}

struct Shape {
  const char* name;
  std::vector<std::string> options;
};

class RedisModuleAgainstCore : public ::testing::TestWithParam<Shape> {};

// Adds (one by one and in batches) until refusals, deletes, copies: every
// answer as CuckooFilter's, the same bytes after each step, and a replica
// applying what was replicated holds them too.
TEST_P(RedisModuleAgainstCore, SameAnswersSameBytesSameReplica) {
  Host host;
  std::vector<std::string> reserve = {"CUCKOO.RESERVE", "f", "600", "0.02", "SEED", "77"};
  reserve.insert(reserve.end(), GetParam().options.begin(), GetParam().options.end());
  ASSERT_EQ(host.run(reserve).text, "OK");
  cuckoo::FilterParams params;
  params.seed = 77;
  for (std::size_t k = 0; k + 1 < GetParam().options.size(); ++k) {
    if (GetParam().options[k] == "MAXKICKS") params.maxKicks = static_cast<std::uint32_t>(std::stoul(GetParam().options[k + 1]));
  }
  for (const std::string& option : GetParam().options) {
    params.semiSort = params.semiSort || option == "SEMISORT";
    params.keyedHash = params.keyedHash || option == "KEYEDHASH";
  }
  ASSERT_EQ(cuckoo::paramsForCapacity(600, 0.02, params), cuckoo::Status::kOk);
  cuckoo::CuckooFilter local;
  ASSERT_EQ(cuckoo::CuckooFilter::create(params, local), cuckoo::Status::kOk);
  const std::string chunk = "{f:0:0}:0";
  ASSERT_EQ(host.keys().count(chunk), 1U) << "one chunk";
  expectSameFilter(host, chunk, local);

  unsigned refusals = 0;
  std::vector<std::string> added;
  for (int k = 0; refusals < 3 && k < 5000; ++k) {
    const std::string item = "item-" + std::to_string(k);
    const std::size_t replicated = host.replicated();
    const bool placed = integerOf(host.run({"CUCKOO.ADD", "f", item})) == 1;
    ASSERT_EQ(placed, local.insert(item.data(), item.size())) << item;
    if (placed) {
      added.push_back(item);
    } else {
      ++refusals;
      // A refused add (its walk undone, if it walked) changed nothing, so it sent nothing.
      EXPECT_EQ(host.replicated(), replicated) << item;
    }
  }
  expectSameFilter(host, chunk, local);
  for (std::size_t k = 0; k < added.size(); k += 7) {
    ASSERT_EQ(integerOf(host.run({"CUCKOO.DEL", "f", added[k]})), local.erase(added[k].data(), added[k].size()) ? 1 : 0);
  }
  expectSameFilter(host, chunk, local);
  std::vector<std::string> batch = {"CUCKOO.MADD", "f"};
  for (int k = 0; k < 200; ++k) batch.push_back("batch-" + std::to_string(k));
  std::size_t inserted = 0;
  while (inserted < 200 && local.insert(batch[2 + inserted].data(), batch[2 + inserted].size())) ++inserted;
  EXPECT_EQ(integerOf(host.run(batch)), static_cast<long long>(inserted));
  expectSameFilter(host, chunk, local);
  for (const std::string& item : {added.front(), std::string("absent"), batch[2]}) {
    EXPECT_EQ(integerOf(host.run({"CUCKOO.COUNT", "f", item})), local.count(item.data(), item.size()));
    EXPECT_EQ(integerOf(host.run({"CUCKOO.EXISTS", "f", item})), local.contains(item.data(), item.size()) ? 1 : 0);
  }
  EXPECT_GT(host.replicated(), 0U);
  EXPECT_EQ(Host::dump(host.replica()), Host::dump(host.keys()));
}

INSTANTIATE_TEST_SUITE_P(Shapes, RedisModuleAgainstCore,
                         ::testing::Values(Shape{"plain", {}}, Shape{"semisorted", {"SEMISORT"}},
                                           Shape{"fewkicks", {"MAXKICKS", "3"}}, Shape{"nokicks", {"MAXKICKS", "0"}},
                                           Shape{"keyed", {"KEYEDHASH"}}, Shape{"keyedsemisorted", {"KEYEDHASH", "SEMISORT"}}),
                         [](const ::testing::TestParamInfo<Shape>& info) { return std::string(info.param.name); });

}  // namespace
