// What the native benchmarks (bench/native_bench.cpp, bench/paper/paper_native.cpp)
// share that is not about any one experiment: a small JSON writer.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

namespace bench {

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

}  // namespace bench
