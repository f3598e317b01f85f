#include "referee/auth.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <cstdlib>

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

}  // namespace cassino::service
