// The golden patches (tests/fixtures/golden-patch-*.cfp, FORMAT.md
// "Patches"): diff writes their committed bytes exactly from the recipe, and
// applying them to the base gives the result exactly. A change to the patch
// format, or to the filter formats it carries, fails here; it needs a new
// patch format version, never an edit.

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "golden_recipe.hpp"

namespace cuckoo {
namespace fixture {

void PrintTo(const GoldenPatch& golden, std::ostream* out) { *out << golden.fileName; }

}  // namespace fixture

namespace {

using Bytes = std::vector<unsigned char>;

Bytes readFixture(const std::string& name) {
  std::ifstream in(std::string(CUCKOO_FIXTURE_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << name;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string hex(std::uint64_t value) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

template <class Filter>
Bytes serialized(const Filter& filter) {
  Bytes bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}

template <class Filter>
void checkGoldenPatch(const fixture::GoldenPatch& golden) {
  const Bytes committed = readFixture(golden.fileName);
  const Bytes raw = readFixture(std::string(golden.fileName).substr(0, std::string(golden.fileName).size() - 4) + ".json");
  const std::string json(raw.begin(), raw.end());
  Filter base;
  Filter result;
  PatchBytes rebuilt;
  ASSERT_TRUE(fixture::buildGoldenPatch(golden, base, result, rebuilt));
  ASSERT_EQ(rebuilt.size(), committed.size());
  for (std::size_t i = 0; i < committed.size(); ++i) ASSERT_EQ(rebuilt.data()[i], committed[i]) << "first difference at byte " << i;

  PatchSummary summary;
  ASSERT_EQ(describePatch(committed.data(), committed.size(), summary), Status::kOk);
  EXPECT_EQ(summary.wholeTable, golden.wholeTable);
  EXPECT_NE(json.find("\"byteLength\": " + std::to_string(committed.size())), std::string::npos);
  EXPECT_NE(json.find("\"changedSlots\": " + std::to_string(summary.changedSlots)), std::string::npos);
  EXPECT_NE(json.find("\"baseChecksum\": \"" + hex(summary.baseChecksum) + "\""), std::string::npos);
  EXPECT_NE(json.find("\"resultChecksum\": \"" + hex(summary.resultChecksum) + "\""), std::string::npos);
  EXPECT_NE(json.find(golden.wholeTable ? "\"body\": \"whole table\"" : "\"body\": \"changed slots\""), std::string::npos);
  // The base's bytes end with the base checksum; applied, the result's bytes.
  const Bytes baseBytes = serialized(base);
  EXPECT_EQ(hex(summary.baseChecksum), hex(stateChecksum(base)));
  EXPECT_EQ(baseBytes[baseBytes.size() - 8], summary.baseChecksum & 0xff);
  ASSERT_EQ(applyPatch(base, committed.data(), committed.size()), Status::kOk);
  EXPECT_EQ(serialized(base), serialized(result));
  EXPECT_EQ(stateChecksum(base), summary.resultChecksum);
}

class GoldenPatchTest : public ::testing::TestWithParam<fixture::GoldenPatch> {};
INSTANTIATE_TEST_SUITE_P(Files, GoldenPatchTest, ::testing::ValuesIn(fixture::kGoldenPatches), [](const auto& info) {
  std::string name;
  for (const char c : std::string(info.param.fileName)) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
});

TEST_P(GoldenPatchTest, DiffRebuildsTheCommittedBytesAndTheyApply) {
  if (fixture::isScalablePatch(GetParam())) {
    checkGoldenPatch<ScalableCuckooFilter>(GetParam());
  } else {
    checkGoldenPatch<CuckooFilter>(GetParam());
  }
}

}  // namespace
}  // namespace cuckoo
