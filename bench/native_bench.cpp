// The native core's timing table (`npm run bench:native`; node-bench.mjs
// reads --json): for each shape and size, Table 3's metrics (items at the
// first failure, the insert that leaves its victim in the stash; load, bits
// per item, insert, lookup and delete rates, false-positive rate) for the
// filter's own kernel per call and batched and for the generic kernel per
// call, beside the random-read limit of a buffer of the table's size.
//
//   cuckoo_bench [--log2-buckets 16,22] [--bits 12] [--bucket-size 4] [--semi-bits 13|none] [--json]
//
// Variants run interleaved (each run of every variant, then the next run), so
// that noise from other processes falls on all of them alike; ratios are of
// medians. A program, not a test: it prints figures and never fails on them.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "support/bench_support.hpp"

namespace {

using bench::Clock;
using bench::mops;
using bench::parseUnsignedList;

struct Shape {
  bool semiSort;
  unsigned bits;
  unsigned bucketSize;
  unsigned log2Buckets;
  std::uint64_t bucketCount() const { return std::uint64_t{1} << log2Buckets; }
};

struct Variant {
  const char* api;  // "call" or "batch"
  bool generic;
};
constexpr Variant kVariants[] = {{"call", false}, {"batch", false}, {"call", true}};

struct Row {
  Shape shape;
  Variant variant;
  std::string kernel;
  std::uint64_t items;
  double load;
  double bitsPerItem;
  double constructMops;
  double positiveLookupMops;
  double negativeLookupMops;
  double deleteMops;
  double measuredFpr;
  double expectedFpr;
  double randomReadMops;  // independent 8-byte reads from a buffer of the table's size
};

// Independent random 8-byte reads from a buffer of `bytes`: what memory allows.
double randomReadMops(std::size_t bytes) {
  std::vector<std::uint64_t> buffer(std::max<std::size_t>(bytes / 8, 1), 1);
  const auto words = static_cast<std::uint32_t>(buffer.size());
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  std::uint64_t sum = 0;
  constexpr std::uint64_t kReads = std::uint64_t{1} << 24;
  const auto start = Clock::now();
  for (std::uint64_t i = 0; i < kReads; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    sum += buffer[(static_cast<std::uint64_t>(static_cast<std::uint32_t>(state)) * words) >> 32];
  }
  const double rate = mops(kReads, Clock::now() - start);
  bench::gSink = sum;
  return rate;
}

std::vector<std::uint64_t> randomKeys(std::uint64_t count, std::uint64_t seed) {
  cuckoo::SplitMix64 stream(seed);
  std::vector<std::uint64_t> keys(count);
  for (auto& k : keys) k = stream.next();
  return keys;
}

cuckoo::FilterParams paramsOf(const Shape& shape, std::uint64_t seed) {
  cuckoo::FilterParams params;
  params.semiSort = shape.semiSort;
  params.fingerprintBits = shape.bits;
  params.bucketSize = shape.bucketSize;
  params.bucketCount = shape.bucketCount();
  params.seed = seed;
  return params;
}

// `firstFailure`: for the batch, how many items a single-item fill of the
// same seed stored (the batch has no stash to watch between items).
Row measure(const Shape& shape, const Variant& variant, std::uint64_t seed, std::uint64_t firstFailure) {
  const cuckoo::FilterParams params = paramsOf(shape, seed);
  cuckoo::CuckooFilter filter;
  if (cuckoo::CuckooFilter::create(params, filter) != cuckoo::Status::kOk) {
    std::fprintf(stderr, "cannot create f=%u b=%u m=%llu%s\n", shape.bits, shape.bucketSize,
                 static_cast<unsigned long long>(params.bucketCount), shape.semiSort ? " semi-sorted" : "");
    std::exit(2);
  }
  if (variant.generic) filter.useGenericKernel();
  const bool batch = std::string(variant.api) == "batch";
  // Random 64-bit keys, generated before timing, as in the paper's setup. A
  // second stream for absent keys: a collision with a stored key has odds ~2^-40.
  const std::uint64_t slots = params.bucketCount * shape.bucketSize;
  const std::vector<std::uint64_t> keys = randomKeys(slots + 1, seed * 31 + 7);
  const std::vector<std::uint64_t> absent = randomKeys(slots, ~seed);
  std::vector<unsigned char> answers(batch ? slots + 1 : 0);

  // Filled to the paper's first failure: the insert whose walk ran out and
  // left its victim in the stash (it is stored). Later inserts that find room
  // would still succeed, so the single-item fill watches the stash, and the
  // batch is given exactly the items that fill stored.
  auto start = Clock::now();
  std::uint64_t stored = 0;
  if (batch) {
    stored = filter.insertMany(cuckoo::ItemBatch::fixed(keys.data(), 8, firstFailure));
  } else {
    while (stored < keys.size() && !filter.stash().occupied && filter.insert(&keys[stored], 8)) ++stored;
  }
  const auto constructTime = Clock::now() - start;
  if (!filter.stash().occupied) std::fprintf(stderr, "BUG: filled without reaching the first failure\n");

  std::uint64_t hits = 0;
  start = Clock::now();
  if (batch) {
    filter.containsMany(cuckoo::ItemBatch::fixed(keys.data(), 8, stored), answers.data());
    for (std::uint64_t i = 0; i < stored; ++i) hits += answers[i];
  } else {
    for (std::uint64_t i = 0; i < stored; ++i) hits += filter.contains(&keys[i], 8);
  }
  const auto positiveTime = Clock::now() - start;
  bench::gSink = hits;
  if (hits != stored) std::fprintf(stderr, "BUG: %llu false negatives\n", static_cast<unsigned long long>(stored - hits));

  std::uint64_t falsePositives = 0;
  start = Clock::now();
  if (batch) {
    filter.containsMany(cuckoo::ItemBatch::fixed(absent.data(), 8, absent.size()), answers.data());
    for (std::uint64_t i = 0; i < absent.size(); ++i) falsePositives += answers[i];
  } else {
    for (const std::uint64_t k : absent) falsePositives += filter.contains(&k, 8);
  }
  const auto negativeTime = Clock::now() - start;
  bench::gSink = falsePositives;

  const cuckoo::FilterStats stats = filter.stats();
  start = Clock::now();
  std::uint64_t deleted = 0;
  if (batch) {
    deleted = filter.eraseMany(cuckoo::ItemBatch::fixed(keys.data(), 8, stored));
  } else {
    for (std::uint64_t i = 0; i < stored; ++i) deleted += filter.erase(&keys[i], 8);
  }
  const auto deleteTime = Clock::now() - start;
  if (deleted != stored) std::fprintf(stderr, "BUG: %llu deletes failed\n", static_cast<unsigned long long>(stored - deleted));

  return Row{shape,
             variant,
             filter.kernelName(),
             stored,
             stats.loadFactor,
             stats.bitsPerItem,
             mops(stored, constructTime),
             mops(stored, positiveTime),
             mops(absent.size(), negativeTime),
             mops(stored, deleteTime),
             static_cast<double>(falsePositives) / static_cast<double>(absent.size()),
             stats.expectedFalsePositiveRate,
             0};
}

// Every variant of `shape`, `runs` times interleaved; one row per variant
// with the median rates (other columns from the first run: they depend only
// on the seed), and the random-read limit of the table's size beside them.
std::vector<Row> measureShape(const Shape& shape, int runs) {
  const std::size_t variants = sizeof kVariants / sizeof kVariants[0];
  std::vector<std::vector<Row>> runsOf(variants);
  std::vector<double> reads;
  std::size_t tableBytes = 0;
  for (int r = 0; r < runs; ++r) {
    // kVariants[0], a single-item fill, runs first and gives the batch its count.
    for (std::size_t v = 0; v < variants; ++v) {
      runsOf[v].push_back(measure(shape, kVariants[v], 1 + r, v == 0 ? 0 : runsOf[0].back().items));
    }
    if (tableBytes == 0) {
      cuckoo::CuckooFilter sized;
      cuckoo::CuckooFilter::create(paramsOf(shape, 0), sized);
      tableBytes = sized.tableByteLength();
    }
    reads.push_back(randomReadMops(tableBytes));
  }
  const auto medianOf = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<Row> rows;
  for (const std::vector<Row>& measured : runsOf) {
    const auto median = [&](double Row::*field) {
      std::vector<double> v;
      for (const Row& row : measured) v.push_back(row.*field);
      return medianOf(v);
    };
    Row row = measured.front();
    row.constructMops = median(&Row::constructMops);
    row.positiveLookupMops = median(&Row::positiveLookupMops);
    row.negativeLookupMops = median(&Row::negativeLookupMops);
    row.deleteMops = median(&Row::deleteMops);
    row.randomReadMops = medianOf(reads);
    rows.push_back(row);
  }
  return rows;
}

std::string tableName(const Shape& s) { return s.semiSort ? "semi-sorted" : "plain"; }
std::string bucketsLabel(const Shape& s) { return "2^" + std::to_string(s.log2Buckets); }

const Row* find(const std::vector<Row>& rows, const Shape& shape, const char* api, bool generic) {
  for (const Row& r : rows) {
    const Shape& s = r.shape;
    if (s.semiSort == shape.semiSort && s.bits == shape.bits && s.bucketSize == shape.bucketSize &&
        s.log2Buckets == shape.log2Buckets && std::string(r.variant.api) == api && r.variant.generic == generic) {
      return &r;
    }
  }
  return nullptr;
}

void printRatios(const std::vector<Row>& rows) {
  std::printf("\nRatios, same run (medians):\n");
  for (const Row& r : rows) {
    if (r.variant.generic || std::string(r.variant.api) != "call") continue;
    const Row* generic = find(rows, r.shape, "call", true);
    const Row* batch = find(rows, r.shape, "batch", false);
    if (generic == nullptr || batch == nullptr) continue;
    const double lookupLimit = r.randomReadMops / 2;  // a lookup reads two buckets
    std::printf("  %s f=%u b=%u %s (%s):\n", tableName(r.shape).c_str(), r.shape.bits, r.shape.bucketSize,
                bucketsLabel(r.shape).c_str(), r.kernel.c_str());
    std::printf("    specialised / generic, per call: insert %.2f, lookup + %.2f, lookup - %.2f, delete %.2f\n",
                r.constructMops / generic->constructMops, r.positiveLookupMops / generic->positiveLookupMops,
                r.negativeLookupMops / generic->negativeLookupMops, r.deleteMops / generic->deleteMops);
    std::printf("    batch / generic per call:        insert %.2f, lookup + %.2f, lookup - %.2f, delete %.2f\n",
                batch->constructMops / generic->constructMops, batch->positiveLookupMops / generic->positiveLookupMops,
                batch->negativeLookupMops / generic->negativeLookupMops, batch->deleteMops / generic->deleteMops);
    std::printf("    batch lookups / random-read limit (%.1f M random reads/s = %.1f M two-bucket lookups/s): + %.2f, - %.2f\n",
                r.randomReadMops, lookupLimit, batch->positiveLookupMops / lookupLimit,
                batch->negativeLookupMops / lookupLimit);
  }
  for (const Row& semi : rows) {
    if (!semi.shape.semiSort || semi.variant.generic) continue;
    for (const Row& plain : rows) {
      if (plain.shape.semiSort || plain.variant.generic || plain.shape.bits + 1 != semi.shape.bits ||
          plain.shape.log2Buckets != semi.shape.log2Buckets || std::string(plain.variant.api) != semi.variant.api) {
        continue;
      }
      std::printf("  semi-sorted f=%u / plain f=%u, %s, %s: lookup + %.2f, lookup - %.2f\n", semi.shape.bits,
                  plain.shape.bits, bucketsLabel(semi.shape).c_str(), semi.variant.api,
                  semi.positiveLookupMops / plain.positiveLookupMops, semi.negativeLookupMops / plain.negativeLookupMops);
    }
  }
}

void printJson(const std::vector<Row>& rows) {
  bench::Json json;
  json.open('[');
  for (const Row& r : rows) {
    const Shape& s = r.shape;
    json.open('{').field("semiSort", s.semiSort).field("fingerprintBits", s.bits).field("bucketSize", s.bucketSize);
    json.field("log2Buckets", s.log2Buckets).field("bucketCount", s.bucketCount()).field("api", r.variant.api);
    json.field("generic", r.variant.generic).field("kernel", r.kernel).field("items", r.items).field("loadFactor", r.load);
    json.field("bitsPerItem", r.bitsPerItem).field("constructMops", r.constructMops);
    json.field("positiveLookupMops", r.positiveLookupMops).field("negativeLookupMops", r.negativeLookupMops);
    json.field("deleteMops", r.deleteMops).field("measuredFpr", r.measuredFpr).field("expectedFpr", r.expectedFpr);
    json.field("randomReadMops", r.randomReadMops).close('}');
  }
  std::printf("%s\n", json.close(']').text().c_str());
}

void printTable(const std::vector<Row>& rows) {
  std::printf("| table | f | b | buckets | kernel | API | items at first failure | load | bits/item | construct (M keys/s) "
              "| lookup + (M ops/s) | lookup - (M ops/s) | delete (M ops/s) | FPR measured | FPR expected |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    std::printf("| %s | %u | %u | %s | %s | %s | %llu | %.4f | %.2f | %.2f | %.2f | %.2f | %.2f | %.4f%% | %.4f%% |\n",
                tableName(r.shape).c_str(), r.shape.bits, r.shape.bucketSize, bucketsLabel(r.shape).c_str(),
                r.kernel.c_str(), r.variant.api, static_cast<unsigned long long>(r.items), r.load, r.bitsPerItem,
                r.constructMops, r.positiveLookupMops, r.negativeLookupMops, r.deleteMops, 100 * r.measuredFpr,
                100 * r.expectedFpr);
  }
  printRatios(rows);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> log2BucketList = {16, 22};
  std::vector<unsigned> bitsList = {12};
  std::vector<unsigned> bucketSizeList = {4};
  std::vector<unsigned> semiBitsList = {13};
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--log2-buckets" && hasValue) {
      log2BucketList = parseUnsignedList(argv[++i]);
    } else if (arg == "--bits" && hasValue) {
      bitsList = parseUnsignedList(argv[++i]);
    } else if (arg == "--bucket-size" && hasValue) {
      bucketSizeList = parseUnsignedList(argv[++i]);
    } else if (arg == "--semi-bits" && hasValue) {
      const std::string value = argv[++i];
      semiBitsList = value == "none" ? std::vector<unsigned>{} : parseUnsignedList(value);
    } else if (arg == "--json") {
      json = true;
    } else {
      std::fprintf(stderr,
                   "usage: cuckoo_bench [--log2-buckets 16,22] [--bits 12] [--bucket-size 4] [--semi-bits 13|none] [--json]\n");
      return 2;
    }
  }

  std::vector<Shape> shapes;
  for (unsigned log2Buckets : log2BucketList) {
    for (unsigned bucketSize : bucketSizeList) {
      for (unsigned bits : bitsList) shapes.push_back({false, bits, bucketSize, log2Buckets});
    }
    for (unsigned bits : semiBitsList) shapes.push_back({true, bits, 4, log2Buckets});
  }
  std::vector<Row> rows;
  for (const Shape& shape : shapes) {
    // Small tables are timed several times; a 2^22-bucket table once.
    for (const Row& row : measureShape(shape, shape.log2Buckets <= 18 ? 5 : 1)) rows.push_back(row);
  }
  if (json) {
    printJson(rows);
  } else {
    printTable(rows);
  }
  return 0;
}
