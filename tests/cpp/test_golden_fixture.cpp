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

// A probe's bytes: an item's ("item": its text), or a 64-bit key's ("key":
// the key in decimal, as a string; its 8 bytes little-endian).
struct Probe {
  std::string item;
  bool contains;
  bool isKey;
};

std::vector<Probe> jsonProbes(const std::string& json) {
  std::vector<Probe> probes;
  const std::string itemKey = "\"item\": \"";
  const std::string keyKey = "\"key\": \"";
  const std::string containsKey = "\"contains\": ";
  for (std::size_t at = 0;;) {
    const std::size_t item = json.find(itemKey, at);
    const std::size_t key = json.find(keyKey, at);
    if (item == std::string::npos && key == std::string::npos) break;
    const bool isKey = key < item;
    const std::size_t start = isKey ? key + keyKey.size() : item + itemKey.size();
    const std::size_t end = json.find('"', start);
    const std::size_t answer = json.find(containsKey, end) + containsKey.size();
    std::string bytes = json.substr(start, end - start);
    if (isKey) {
      const auto little = fixture::goldenKey(std::stoull(bytes));
      bytes.assign(little.begin(), little.end());
    }
    probes.push_back(Probe{bytes, json.compare(answer, 4, "true") == 0, isKey});
    at = end;
  }
  return probes;
}

// The probe as the failure message shows it: an item in quotes, a key as its 8 bytes.
std::string shown(const Probe& probe) {
  if (!probe.isKey) return '"' + probe.item + '"';
  std::string text = "key bytes";
  for (const char byte : probe.item) text += ' ' + std::to_string(static_cast<unsigned char>(byte));
  return text;
}

class GoldenFixtureTest : public ::testing::TestWithParam<fixture::GoldenFixture> {};
INSTANTIATE_TEST_SUITE_P(Files, GoldenFixtureTest, ::testing::ValuesIn(fixture::kGoldenFixtures),
                         [](const auto& info) {
                           const auto& p = info.param.params;
                           return std::string(p.semiSort ? "SemiSorted" : "Packed") + "M" + std::to_string(p.bucketCount) +
                                  (p.keyedHash ? "Keyed" : "") + (p.multiplyShiftHash ? "MulShift" : "") +
                                  (p.multiplyShiftHash && p.keyHash == KeyHash::kMixedMultiplyShift ? "Mixed" : "") +
                                  (p.multiplyShiftHash && p.keyHash == KeyHash::kSeededMix ? "Mix64" : "");
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
  // keyed, version 4 with hash id 4 or 5; multiply-shift, version 5 with hash id 6 or 7, and with the
  // keys mixed version 6 with hash id 8 or 9, with the seeded mix version 7 with hash id 10 or 11.
  const bool powerOfTwo = isPowerOfTwo(loaded.params().bucketCount);
  const bool keyed = GetParam().params.keyedHash;
  const bool multiplyShift = GetParam().params.multiplyShiftHash;
  const bool mixed = multiplyShift && GetParam().params.keyHash == KeyHash::kMixedMultiplyShift;
  const bool seededMix = multiplyShift && GetParam().params.keyHash == KeyHash::kSeededMix;
  const unsigned version = seededMix ? 7U : mixed ? 6U : multiplyShift ? 5U : keyed ? 4U : powerOfTwo ? 1U : 2U;
  const unsigned hashId = (seededMix ? 9U : mixed ? 7U : multiplyShift ? 5U : keyed ? 3U : 0U) + (powerOfTwo ? 1U : 2U);
  EXPECT_EQ(loaded.params().keyedHash, keyed);
  EXPECT_EQ(loaded.params().multiplyShiftHash, multiplyShift);
  if (multiplyShift) {
    EXPECT_EQ(loaded.params().keyHash, GetParam().params.keyHash);
  }
  EXPECT_EQ(loaded.hashId(), hashId);
  EXPECT_EQ(json.find("\"multiplyShiftHash\": true") != std::string::npos, multiplyShift);
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
    EXPECT_EQ(loaded.contains(probe.item.data(), probe.item.size()), probe.contains) << shown(probe);
    EXPECT_EQ(rebuilt.contains(probe.item.data(), probe.item.size()), probe.contains) << shown(probe);
  }
  // Every member answers true, as the recipe promises.
  if (GetParam().recipe == fixture::GoldenRecipe::kKeysAndItems) {
    for (int i = fixture::kGoldenKeysErased; i < fixture::kGoldenKeysInserted; ++i) {
      const auto key = fixture::goldenKey(static_cast<std::uint64_t>(i));
      ASSERT_TRUE(loaded.contains(key.data(), key.size())) << "key " << i;
    }
    for (int i = fixture::kGoldenStringsErased; i < fixture::kGoldenStringsInserted; ++i) {
      const std::string item = fixture::goldenItem(i);
      ASSERT_TRUE(loaded.contains(item.data(), item.size())) << item;
    }
    return;
  }
  for (int i = fixture::kGoldenErased; i < fixture::kGoldenInserted; ++i) {
    const std::string item = fixture::goldenItem(i);
    ASSERT_TRUE(loaded.contains(item.data(), item.size())) << item;
  }
}

TEST_P(GoldenFixtureTest, CommittedFileLoadsAndSerializesToTheSameBytes) {
  const Bytes committed = readFile(fixturePath(GetParam().fileName));
  CuckooFilter loaded;
  ASSERT_EQ(deserializeInto(committed, loaded), Status::kOk);
  const Bytes again = serialized(loaded);
  ASSERT_EQ(again.size(), committed.size());
  for (std::size_t i = 0; i < again.size(); ++i) ASSERT_EQ(again[i], committed[i]) << "first difference at byte " << i;
}

}  // namespace
}  // namespace cuckoo
