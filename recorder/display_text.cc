#include "recorder/display_text.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace cassino::recorder {
namespace {

constexpr char32_t kInvalid = 0xFFFFFFFF;

// The code point at text[*at] (advancing *at past it), or kInvalid
// (advancing one byte) for a byte that does not start valid UTF-8.
char32_t Decode(absl::string_view text, size_t* at) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t b0 = byte(*at);
  int n = 0;
  char32_t c = 0;
  if (b0 < 0x80) {
    ++*at;
    return b0;
  } else if ((b0 & 0xE0) == 0xC0) {
    n = 1;
    c = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 2;
    c = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 3;
    c = b0 & 0x07;
  } else {
    ++*at;
    return kInvalid;
  }
  if (*at + n >= text.size()) {  // cut short
    ++*at;
    return kInvalid;
  }
  for (int i = 1; i <= n; ++i) {
    const uint8_t b = byte(*at + i);
    if ((b & 0xC0) != 0x80) {
      ++*at;
      return kInvalid;
    }
    c = (c << 6) | (b & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid.
  static constexpr char32_t kMin[] = {0, 0x80, 0x800, 0x10000};
  if (c < kMin[n] || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) {
    ++*at;
    return kInvalid;
  }
  *at += n + 1;
  return c;
}

bool IsControl(char32_t c) {
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x061C ||
         c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029;
}

}  // namespace

absl::Status CheckDisplayText(absl::string_view text, absl::string_view field,
                              size_t max_chars) {
  size_t chars = 0;
  for (size_t at = 0; at < text.size();) {
    const char32_t c = Decode(text, &at);
    if (c == kInvalid) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, " is not valid UTF-8"));
    }
    if (IsControl(c)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, " contains a control character (U+",
                       absl::StrFormat("%04X", static_cast<uint32_t>(c)),
                       "); names, labels and contacts are plain text"));
    }
    if (++chars > max_chars) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, " is too long: at most ", max_chars, " characters"));
    }
  }
  return absl::OkStatus();
}

std::string EscapeDisplay(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    const size_t start = at;
    const char32_t c = Decode(text, &at);
    if (c == kInvalid) {
      absl::StrAppend(
          &out, absl::StrFormat("\\x%02X", static_cast<uint8_t>(text[start])));
    } else if (c == '\\' || IsControl(c)) {
      absl::StrAppend(
          &out, c < 0x80
                    ? absl::StrFormat("\\x%02X", static_cast<uint32_t>(c))
                    : absl::StrFormat("\\u{%04X}", static_cast<uint32_t>(c)));
    } else {
      out.append(text.data() + start, at - start);
    }
  }
  return out;
}

}  // namespace cassino::recorder
