// What the native benchmarks, bench/native_bench.cpp and
// bench/paper/paper_native.cpp, share that is not about any one experiment:
// clocks and rates, a small JSON writer, the parsing of command-line lists and
// a parallel loop for the untimed experiments.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

// Keeps the optimiser from dropping lookups whose answers are only counted.
inline volatile std::uint64_t gSink;

// Millions of operations per second.
inline double mops(double operations, double seconds) { return operations / seconds / 1e6; }
inline double mops(std::uint64_t operations, Clock::duration elapsed) {
  return mops(static_cast<double>(operations), std::chrono::duration<double>(elapsed).count());
}

// How long a timed section took, by the wall clock and in CPU time given to
// this process. On a shared machine the scheduler hands the core to other
// processes in the middle of a loop: the wall-clock rate then drops with the
// CPU share, while the CPU-time rate stays close to the undisturbed one.
struct Timing {
  double wall = 0, cpu = 0;
};

// A rate in millions of operations per second, by both clocks.
struct Rate {
  double wall = 0, cpu = 0;
  static Rate of(double operations, Timing t) {
    // A section shorter than the CPU clock's tick reads 0 CPU seconds.
    return Rate{mops(operations, t.wall), mops(operations, t.cpu > 0 ? t.cpu : t.wall)};
  }
};

// Times sections by both clocks and keeps their totals, whose ratio is the
// share of a core the measured code got.
class Stopwatch {
 public:
  template <class Body>
  Timing time(Body&& body) {
    const std::clock_t cpuStart = std::clock();
    const auto start = Clock::now();
    body();
    const Timing t{std::chrono::duration<double>(Clock::now() - start).count(),
                   static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC};
    total_.wall += t.wall;
    total_.cpu += t.cpu;
    return t;
  }
  double cpuShare() const { return total_.cpu / total_.wall; }

 private:
  Timing total_;
};

// Just enough JSON: objects, arrays, numbers, strings without escapes.
class Json {
 public:
  Json& open(char bracket) {
    separate();
    out_ += bracket;
    fresh_ = true;
    return *this;
  }
  Json& close(char bracket) {
    out_ += bracket;
    fresh_ = false;
    return *this;
  }
  Json& key(const char* name) {
    separate();
    out_ += '"';
    out_ += name;
    out_ += "\":";
    fresh_ = true;
    return *this;
  }
  Json& number(double value) {
    separate();
    if (!std::isfinite(value)) {
      out_ += "null";
    } else {
      char text[32];
      std::snprintf(text, sizeof text, "%.9g", value);
      out_ += text;
    }
    return *this;
  }
  Json& integer(std::uint64_t value) {
    separate();
    out_ += std::to_string(value);
    return *this;
  }
  Json& string(const std::string& value) {
    separate();
    out_ += '"' + value + '"';
    return *this;
  }
  Json& boolean(bool value) {
    separate();
    out_ += value ? "true" : "false";
    return *this;
  }
  template <class T>
  Json& field(const char* name, T value) {
    key(name);
    if constexpr (std::is_same_v<T, bool>) {
      return boolean(value);
    } else if constexpr (std::is_integral_v<T>) {
      return integer(static_cast<std::uint64_t>(value));
    } else if constexpr (std::is_floating_point_v<T>) {
      return number(value);
    } else {
      return string(value);
    }
  }
  const std::string& text() const { return out_; }

 private:
  void separate() {
    if (!fresh_ && !out_.empty()) out_ += ',';
    fresh_ = false;
  }
  std::string out_;
  bool fresh_ = true;
};

// The parts of a comma-separated command-line list: "CF,ss-CF".
inline std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// Command-line lists of numbers: "15,20" a list, "2-20" a range, and both can
// mix: "2-5,8". Empty parts are skipped, so "12," is 12 (cuckoo_bench has
// always read it so).
inline std::vector<unsigned> parseUnsignedList(const std::string& text) {
  std::vector<unsigned> values;
  for (const std::string& part : splitList(text)) {
    if (part.empty()) continue;
    const std::size_t dash = part.find('-');
    if (dash == std::string::npos) {
      values.push_back(static_cast<unsigned>(std::stoul(part)));
    } else {
      const unsigned low = static_cast<unsigned>(std::stoul(part.substr(0, dash)));
      const unsigned high = static_cast<unsigned>(std::stoul(part.substr(dash + 1)));
      for (unsigned v = low; v <= high; ++v) values.push_back(v);
    }
  }
  return values;
}

// Runs task(0 .. count-1) on `threads` threads. Only for experiments that
// measure no time: their results do not depend on what else runs.
inline void parallelFor(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& task) {
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<std::size_t>(threads, count); ++t) {
    pool.emplace_back([&] {
      for (std::size_t i = next++; i < count; i = next++) task(i);
    });
  }
  for (std::thread& thread : pool) thread.join();
}

}  // namespace bench
