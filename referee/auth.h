// Secrets: seat tokens, the admin token, and how calls present them.
//
// A token is 32 bytes from OpenSSL's CSPRNG written as 64 hex digits. The
// referee keeps only SHA-256 hashes of tokens (hex), in memory and in the
// records; a token is shown once, in the CreateGame response. Comparisons of
// secrets run in constant time. Tokens are never logged.

#ifndef CASSINO_REFEREE_AUTH_H_
#define CASSINO_REFEREE_AUTH_H_

#include <map>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "grpcpp/grpcpp.h"
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

// The token of `authorization: Bearer <token>` metadata, if present and
// well formed.
std::optional<std::string> BearerToken(
    const std::multimap<grpc::string_ref, grpc::string_ref>& metadata);

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_AUTH_H_
