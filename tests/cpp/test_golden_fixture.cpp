// The committed golden fixtures (tests/fixtures): the core rebuilds their bytes
// exactly from the recipe, and loads them to answer as their .json describes.

#include <cstdint>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "byte_format.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "golden_recipe.hpp"

namespace cuckoo {
namespace fixture {

// Names a fixture by its file in test listings. The default printer dumps the
// struct's bytes, a pointer among them, so the test names changed with every build.
void PrintTo(const GoldenFixture& golden, std::ostream* out) { *out << golden.fileName; }

}  // namespace fixture

namespace {

using testing::Bytes;
using testing::deserializeInto;
using testing::serialized;

std::string fixturePath(const std::string& name) { return std::string(CUCKOO_FIXTURE_DIR) + "/" + name; }

Bytes readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The few facts the test needs from the fixture's .json, read with plain
// string search (the file is written by hand in a fixed shape).
std::uint64_t jsonNumber(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\":");
  EXPECT_NE(at, std::string::npos) << key;
  if (at == std::string::npos) return 0;
  return std::stoull(json.substr(json.find(':', at) + 1));
}

struct Probe {
  std::string item;
  bool contains;
};

std::vector<Probe> jsonProbes(const std::string& json) {
  std::vector<Probe> probes;
  const std::string itemKey = "\"item\": \"";
  const std::string containsKey = "\"contains\": ";
  for (std::size_t at = json.find(itemKey); at != std::string::npos; at = json.find(itemKey, at)) {
    const std::size_t start = at + itemKey.size();
    const std::size_t end = json.find('"', start);
    const std::size_t answer = json.find(containsKey, end) + containsKey.size();
    probes.push_back(Probe{json.substr(start, end - start), json.compare(answer, 4, "true") == 0});
    at = end;
  }
  return probes;
}

class GoldenFixtureTest : public ::testing::TestWithParam<fixture::GoldenFixture> {};
INSTANTIATE_TEST_SUITE_P(Files, GoldenFixtureTest, ::testing::ValuesIn(fixture::kGoldenFixtures),
                         [](const auto& info) {
                           const auto& p = info.param.params;
                           return std::string(p.semiSort ? "SemiSorted" : "Packed") + "M" + std::to_string(p.bucketCount) +
                                  (p.keyedHash ? "Keyed" : "");
                         });

std::string descriptionName(const std::string& fileName) { return fileName.substr(0, fileName.size() - 3) + ".json"; }

TEST_P(GoldenFixtureTest, CoreRebuildsTheCommittedBytes) {
  const Bytes committed = readFile(fixturePath(GetParam().fileName));
  CuckooFilter rebuilt;
  ASSERT_TRUE(fixture::buildGoldenFilter(GetParam(), rebuilt));
  const Bytes bytes = serialized(rebuilt);
  ASSERT_EQ(bytes.size(), committed.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) ASSERT_EQ(bytes[i], committed[i]) << "first difference at byte " << i;
}

TEST_P(GoldenFixtureTest, CommittedFileLoadsAndAnswersAsDescribed) {
  const Bytes committed = readFile(fixturePath(GetParam().fileName));
  const std::string json = [] {
    const Bytes raw = readFile(fixturePath(descriptionName(GetParam().fileName)));
    return std::string(raw.begin(), raw.end());
  }();
  CuckooFilter loaded;
  ASSERT_EQ(deserializeInto(committed, loaded), Status::kOk);
  CuckooFilter rebuilt;
  ASSERT_TRUE(fixture::buildGoldenFilter(GetParam(), rebuilt));

  EXPECT_EQ(jsonNumber(json, "byteLength"), committed.size());
  // A power-of-two bucket count is format version 1 with hash id 1, any other version 2 with hash id 2;
  // keyed, version 4 with hash id 4 or 5.
  const bool powerOfTwo = isPowerOfTwo(loaded.params().bucketCount);
  const bool keyed = GetParam().params.keyedHash;
  const unsigned version = keyed ? 4U : powerOfTwo ? 1U : 2U;
  const unsigned hashId = (keyed ? 3U : 0U) + (powerOfTwo ? 1U : 2U);
  EXPECT_EQ(loaded.params().keyedHash, keyed);
  EXPECT_EQ(jsonNumber(json, "formatVersion"), version);
  EXPECT_EQ(jsonNumber(json, "hashId"), hashId);
  EXPECT_EQ(testing::readField(committed, testing::kVersionAt, 1), version);
  EXPECT_EQ(testing::readField(committed, testing::kHashIdAt, 1), hashId);
  EXPECT_EQ(jsonNumber(json, "fingerprintBits"), loaded.params().fingerprintBits);
  EXPECT_EQ(jsonNumber(json, "bucketSize"), loaded.params().bucketSize);
  EXPECT_EQ(jsonNumber(json, "bucketCount"), loaded.params().bucketCount);
  EXPECT_EQ(jsonNumber(json, "maxKicks"), loaded.params().maxKicks);
  EXPECT_EQ(jsonNumber(json, "seed"), loaded.params().seed);
  EXPECT_EQ(jsonNumber(json, "itemCount"), loaded.itemCount());
  EXPECT_EQ(json.find("\"stashOccupied\": false") != std::string::npos, !loaded.stash().occupied);
  EXPECT_EQ(json.find("\"semiSort\": true") != std::string::npos, loaded.semiSorted());

  const std::vector<Probe> probes = jsonProbes(json);
  ASSERT_GE(probes.size(), 20U);
  for (const Probe& probe : probes) {
    EXPECT_EQ(loaded.contains(probe.item.data(), probe.item.size()), probe.contains) << '"' << probe.item << '"';
    EXPECT_EQ(rebuilt.contains(probe.item.data(), probe.item.size()), probe.contains) << '"' << probe.item << '"';
  }
  // Every member answers true, as the recipe promises.
  for (int i = fixture::kGoldenErased; i < fixture::kGoldenInserted; ++i) {
    const std::string item = fixture::goldenItem(i);
    ASSERT_TRUE(loaded.contains(item.data(), item.size())) << item;
  }
}

}  // namespace
}  // namespace cuckoo
