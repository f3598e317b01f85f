#include "referee/auth.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace cassino::service {

Seed RandomBytes32() {
  Seed bytes;
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    // Without randomness no secret can be made; continuing would be unsafe.
    std::abort();
  }
  return bytes;
}

std::string NewToken() { return ToHex(RandomBytes32()); }

std::string HashToken(absl::string_view token) {
  const Digest d = Sha256(std::span<const uint8_t>(
      reinterpret_cast<const uint8_t*>(token.data()), token.size()));
  return ToHex(d);
}

bool ConstantTimeEquals(absl::string_view a, absl::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::optional<std::string> BearerToken(
    const std::multimap<grpc::string_ref, grpc::string_ref>& metadata) {
  auto it = metadata.find("authorization");
  if (it == metadata.end()) return std::nullopt;
  absl::string_view value(it->second.data(), it->second.size());
  constexpr absl::string_view kPrefix = "Bearer ";
  if (value.size() <= kPrefix.size() || value.size() > 512 ||
      !absl::StartsWithIgnoreCase(value, kPrefix)) {
    return std::nullopt;
  }
  value.remove_prefix(kPrefix.size());
  return std::string(absl::StripAsciiWhitespace(value));
}

}  // namespace cassino::service
