// Lower-case hex for the hot paths that read or compare millions of
// hashes (RecordReader, GameVerifier): a table of every byte's two digits,
// so a byte costs one two-byte copy. Elsewhere absl::BytesToHexString does.

#ifndef CASSINO_RECORDER_HEX_PAIRS_H_
#define CASSINO_RECORDER_HEX_PAIRS_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"

namespace cassino::recorder {

// Byte b as two lower-case hex digits at [2 * b] and [2 * b + 1].
inline constexpr std::array<char, 512> kHexPairs = [] {
  constexpr char kDigits[] = "0123456789abcdef";
  std::array<char, 512> pairs{};
  for (int b = 0; b < 256; ++b) {
    pairs[2 * b] = kDigits[b >> 4];
    pairs[2 * b + 1] = kDigits[b & 15];
  }
  return pairs;
}();

// Lower-case hex of `bytes` into `out`, reusing its buffer.
inline void AssignHex(absl::string_view bytes, std::string* out) {
  out->resize(2 * bytes.size());
  // (Held here: a char written through out->data() may alias the string's
  // own pointer, which the loop would otherwise load again for each byte.)
  char* const digits = out->data();
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::memcpy(digits + 2 * i, &kHexPairs[2 * static_cast<uint8_t>(bytes[i])],
                2);
  }
}

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_HEX_PAIRS_H_
