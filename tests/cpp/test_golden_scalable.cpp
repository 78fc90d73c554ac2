// The growable filter's golden fixture (tests/fixtures/golden-scalable-*):
// the core rebuilds its committed bytes from the recipe, loads them, and
// answers every recorded probe, false positives included. A change to hash id
// 3, to format version 3 or to how the filter places and grows entries fails
// here; such a change needs a new hash id or version, never an edit.

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "golden_recipe.hpp"

namespace cuckoo {
namespace {

std::vector<unsigned char> readFixture(const std::string& name) {
  std::ifstream in(std::string(CUCKOO_FIXTURE_DIR) + "/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string jsonOf(const std::string& fixtureName) {
  const std::vector<unsigned char> raw = readFixture(fixtureName.substr(0, fixtureName.size() - 3) + ".json");
  return {raw.begin(), raw.end()};
}

TEST(GoldenScalable, CoreRebuildsTheCommittedBytes) {
  const std::vector<unsigned char> committed = readFixture(fixture::kGoldenScalableFile);
  ASSERT_FALSE(committed.empty());
  ScalableCuckooFilter rebuilt;
  ASSERT_TRUE(fixture::buildGoldenScalable(rebuilt));
  std::vector<unsigned char> bytes(rebuilt.serializedSize());
  rebuilt.serialize(bytes.data());
  ASSERT_EQ(bytes.size(), committed.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) ASSERT_EQ(bytes[i], committed[i]) << "first difference at byte " << i;
}

TEST(GoldenScalable, CommittedFileLoadsAndAnswersEveryProbe) {
  const std::vector<unsigned char> committed = readFixture(fixture::kGoldenScalableFile);
  ScalableCuckooFilter loaded;
  ASSERT_EQ(ScalableCuckooFilter::deserialize(committed.data(), committed.size(), loaded), Status::kOk);
  EXPECT_EQ(committed[4], 3);  // format version
  EXPECT_EQ(committed[6], 3);  // hash id
  const std::string json = jsonOf(fixture::kGoldenScalableFile);
  EXPECT_NE(json.find("\"bucketCount\": " + std::to_string(loaded.shape().bucketCount())), std::string::npos);
  EXPECT_NE(json.find("\"itemCount\": " + std::to_string(loaded.itemCount())), std::string::npos);
  std::size_t probes = 0;
  for (std::size_t at = json.find("\"item\": \""); at != std::string::npos; at = json.find("\"item\": \"", at + 1)) {
    const std::size_t start = at + 9;
    const std::string item = json.substr(start, json.find('"', start) - start);
    const bool expected = json.compare(json.find("\"contains\": ", start) + 12, 4, "true") == 0;
    EXPECT_EQ(loaded.contains(item.data(), item.size()), expected) << '"' << item << '"';
    ++probes;
  }
  EXPECT_GE(probes, 20U);
  for (int i = fixture::kGoldenErased; i < fixture::kGoldenInserted; ++i) {
    const std::string item = fixture::goldenItem(i);
    ASSERT_TRUE(loaded.contains(item.data(), item.size())) << item;
  }
}

}  // namespace
}  // namespace cuckoo
