// Canonical JSON: the one spelling of JSON that event payloads are written
// in, with a writer and a reader for each kind of value side by side.
//
// The canonical form of a value is what nlohmann::json's dump() writes
// compactly (dump(-1, ' ', /*ensure_ascii=*/false, replace)): no spaces or
// newlines, object keys in byte order (the callers write them so), integers
// in decimal without leading zeros or a plus sign (zero is `0`, never
// `-0`), `true` and `false`, and strings in UTF-8 with only `"`, `\` and
// the control characters below 0x20 escaped (`\b \f \n \r \t`, the others
// as `\u00XX` with lower-case hex digits). Bytes that are not valid UTF-8
// are written as U+FFFD. Every payload the referee ever wrote has this form
// (the earlier builders were nlohmann itself; tests/recorder/payload_test.cc
// checks the writers against it), which is why a record can be hashed, and
// verified, byte for byte.
//
// The reader accepts exactly that form and nothing else: a value read and
// written again gives back the bytes it was read from. Anything else (a
// space, another key order, `1.0`, `01`, an escaped `/`, a `\u0041`) is a
// failure that names the byte where the text leaves the canonical form. The
// usual texts (plain ASCII strings, small integers) are read in one pass
// without copying more than the value; a string with escapes or non-ASCII
// text is decoded by nlohmann and checked by writing it again.
//
// Lifetimes: a CanonicalReader views the text it was given, which must
// outlive it. Not thread-safe; cheap to create.

#ifndef CASSINO_RECORDER_CANONICAL_JSON_H_
#define CASSINO_RECORDER_CANONICAL_JSON_H_

#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace cassino::recorder {

namespace json_internal {
// The bytes a canonical string holds as they are: printable ASCII except
// `"` and `\`.
inline constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x7f; ++c) plain[c] = c != '"' && c != '\\';
  return plain;
}();
}  // namespace json_internal

// Whether `text` is written between quotes as it is (no escapes, ASCII).
inline bool IsPlainJsonText(absl::string_view text) {
  for (char c : text) {
    if (!json_internal::kPlain[static_cast<unsigned char>(c)]) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Writing: appends canonical values to a string.

class JsonWriter {
 public:
  explicit JsonWriter(std::string* out) : out_(out) {}

  // Bytes as they are: punctuation and quoted keys, e.g. `,"seat":`.
  JsonWriter& Raw(absl::string_view text) {
    out_->append(text.data(), text.size());
    return *this;
  }
  template <typename Integer>
  requires(std::is_integral_v<Integer> &&
           !std::is_same_v<Integer, bool>) JsonWriter& Int(Integer value) {
    char digits[24];
    const std::to_chars_result r =
        std::to_chars(digits, digits + sizeof(digits), value);
    out_->append(digits, r.ptr);
    return *this;
  }
  JsonWriter& Bool(bool value) { return Raw(value ? "true" : "false"); }
  // A quoted, escaped string.
  JsonWriter& String(absl::string_view text) {
    if (IsPlainJsonText(text)) {
      out_->push_back('"');
      out_->append(text.data(), text.size());
      out_->push_back('"');
    } else {
      AppendEscaped(text);
    }
    return *this;
  }
  // `[1,2,3]`.
  JsonWriter& IntArray(std::span<const int> values) {
    out_->push_back('[');
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out_->push_back(',');
      Int(values[i]);
    }
    out_->push_back(']');
    return *this;
  }
  // `["a","b"]`.
  JsonWriter& StringArray(std::span<const std::string> values) {
    out_->push_back('[');
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out_->push_back(',');
      String(values[i]);
    }
    out_->push_back(']');
    return *this;
  }

 private:
  // A string that needs escapes or holds non-ASCII bytes.
  void AppendEscaped(absl::string_view text);

  std::string* out_;
};

// ---------------------------------------------------------------------------
// Reading: a cursor over a canonical text. Each step reads one value or
// piece of punctuation and returns false, remembering where and what it
// expected, if the text does not continue in canonical form; later steps
// then fail too, so a reader is written as one && chain ending in End().

class CanonicalReader {
 public:
  explicit CanonicalReader(absl::string_view text)
      : begin_(text.data()),
        at_(text.data()),
        end_(text.data() + text.size()) {}

  // Exactly these bytes (a string constant: punctuation and quoted keys).
  template <size_t N>
  bool Literal(const char (&literal)[N]) {
    constexpr size_t n = N - 1;
    if (static_cast<size_t>(end_ - at_) < n ||
        std::memcmp(at_, literal, n) != 0) {
      return Fail(literal);
    }
    at_ += n;
    return true;
  }

  // An integer in int64 range.
  bool Int(int64_t* value) {
    const char* p = at_;  // (a local: a char store may alias at_)
    const bool negative = p < end_ && *p == '-';
    if (negative) ++p;
    const char* const digits = p;
    uint64_t x = 0;
    for (unsigned d;
         p < end_ && (d = static_cast<unsigned char>(*p) - unsigned{'0'}) <= 9;
         ++p) {
      x = x * 10 + d;  // (wraps past 19 digits, which fail below)
    }
    const size_t n = static_cast<size_t>(p - digits);
    // Canonical: digits, no leading zero, no "-0", within int64 (19 digits
    // cannot wrap the uint64 above).
    constexpr uint64_t kMax = (uint64_t{1} << 63) - 1;
    if (n == 0 || n > 19 || (*digits == '0' && (n > 1 || negative)) ||
        x > kMax + (negative ? 1 : 0)) {
      return Fail("an integer");
    }
    *value = negative ? static_cast<int64_t>(0 - x) : static_cast<int64_t>(x);
    at_ = p;
    return true;
  }
  // An integer in int range.
  bool Int(int* value) {
    const char* const start = at_;
    int64_t v = 0;
    if (!Int(&v)) return false;
    if (v < INT32_MIN || v > INT32_MAX) {
      at_ = start;
      return Fail("an integer in 32-bit range");
    }
    *value = static_cast<int>(v);
    return true;
  }

  bool Bool(bool* value) {
    if (static_cast<size_t>(end_ - at_) >= 4 &&
        std::memcmp(at_, "true", 4) == 0) {
      at_ += 4;
      *value = true;
      return true;
    }
    if (static_cast<size_t>(end_ - at_) >= 5 &&
        std::memcmp(at_, "false", 5) == 0) {
      at_ += 5;
      *value = false;
      return true;
    }
    return Fail("true or false");
  }

  // A quoted string, decoded into `value`.
  bool String(std::string* value) {
    const char* p = at_;
    if (p == end_ || *p != '"') return Fail("a string");
    const char* const start = ++p;
    while (p < end_ && json_internal::kPlain[static_cast<unsigned char>(*p)]) {
      ++p;
    }
    if (p < end_ && *p == '"') {
      value->assign(start, static_cast<size_t>(p - start));
      at_ = p + 1;
      return true;
    }
    return EscapedString(value);
  }

  // `[1,2]` of integers in int range.
  bool IntArray(std::vector<int>* values) {
    values->clear();
    if (!Literal("[")) return false;
    if (at_ < end_ && *at_ == ']') return Literal("]");
    do {
      int v = 0;
      if (!Int(&v)) return false;
      values->push_back(v);
    } while (Next(','));
    return Literal("]");
  }
  // `["a","b"]`.
  bool StringArray(std::vector<std::string>* values) {
    values->clear();
    if (!Literal("[")) return false;
    if (at_ < end_ && *at_ == ']') return Literal("]");
    do {
      if (!String(&values->emplace_back())) return false;
    } while (Next(','));
    return Literal("]");
  }

  // Whether the next byte is `c` (consumed if so); never fails.
  bool Next(char c) {
    if (failed_ || at_ == end_ || *at_ != c) return false;
    ++at_;
    return true;
  }
  // Whether the next byte is `c` (not consumed); never fails.
  bool Peek(char c) const { return !failed_ && at_ < end_ && *at_ == c; }

  // The whole text has been read.
  bool End() { return !failed_ && (at_ == end_ || Fail("the end")); }

  // Why the steps failed: InvalidArgument "<what> is not in canonical form:
  // expected <x> at byte <n>" (OK if none failed).
  absl::Status Error(absl::string_view what) const;

 private:
  bool Fail(const char* expected) {
    if (!failed_) {
      failed_ = true;
      failed_at_ = at_;
      expected_ = expected;
    }
    at_ = end_;  // every later step fails
    return false;
  }
  // The slow path of String: escapes, or bytes outside printable ASCII.
  bool EscapedString(std::string* value);

  const char* begin_;
  const char* at_;
  const char* end_;
  bool failed_ = false;
  const char* failed_at_ = nullptr;
  const char* expected_ = "";
};

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_CANONICAL_JSON_H_
