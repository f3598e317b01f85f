// Secrets: seat tokens, the admin token, bot keys.
//
// A token is 32 bytes from OpenSSL's CSPRNG written as 64 hex digits. The
// referee keeps only SHA-256 hashes of tokens (hex), in memory and in the
// records; a token is shown once, in the CreateGame response. Comparisons of
// secrets run in constant time. Tokens are never logged. How a call
// presents a token is the edge's business (bearer.h).

#ifndef CASSINO_REFEREE_AUTH_H_
#define CASSINO_REFEREE_AUTH_H_

#include <string>

#include "absl/strings/string_view.h"
#include "rules/deal.h"

namespace cassino::service {

// 32 fresh random bytes.
Seed RandomBytes32();
// A new token (64 hex digits).
std::string NewToken();
// Hex SHA-256 of a token, as stored.
std::string HashToken(absl::string_view token);
// Constant-time equality of two strings of equal length (false otherwise).
bool ConstantTimeEquals(absl::string_view a, absl::string_view b);

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_AUTH_H_
