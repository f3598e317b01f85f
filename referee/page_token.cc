#include "referee/page_token.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cstdlib>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "referee/errors.h"
#include "referee/wall_clock.h"

namespace cassino::service {
namespace {

// Tokens are web-safe base64 of length-prefixed parts (a version, the
// list, the query's parts, then the key's parts) followed by the first
// kMacBytes bytes of their HMAC-SHA256 under the referee's page key, so a
// client can neither forge a token nor alter one.
constexpr char kVersion[] = "p2";
constexpr size_t kMacBytes = 16;

// The page key: random, made once per process. Tokens therefore stop
// working when the referee restarts (docs/referee.md, "Lists and pages").
const std::string& PageKeyBytes() {
  static const std::string* key = [] {
    auto* k = new std::string(32, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(k->data()),
                   static_cast<int>(k->size())) != 1) {
      std::abort();  // no randomness: nothing else would be safe either
    }
    return k;
  }();
  return *key;
}

std::string Mac(absl::string_view raw) {
  const std::string& key = PageKeyBytes();
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(raw.data()), raw.size(), mac,
       &size);
  return std::string(reinterpret_cast<const char*>(mac), kMacBytes);
}

void AppendPart(std::string* out, absl::string_view part) {
  absl::StrAppend(out, part.size(), ":", part);
}

// The parts of `text`; false if it is not a sequence of parts.
bool SplitParts(absl::string_view text, std::vector<std::string>* parts) {
  while (!text.empty()) {
    const size_t colon = text.find(':');
    size_t size = 0;
    if (colon == absl::string_view::npos || colon > 9 ||
        !absl::SimpleAtoi(text.substr(0, colon), &size) ||
        size > text.size() - colon - 1) {
      return false;
    }
    parts->emplace_back(text.substr(colon + 1, size));
    text.remove_prefix(colon + 1 + size);
  }
  return true;
}

absl::Status BadToken(absl::string_view why) {
  return InvalidField("page_token", absl::StrCat("page_token: ", why));
}

}  // namespace

absl::StatusOr<int> PageSize(int requested) {
  if (requested < 0 || requested > kMaxPageSize) {
    return InvalidField(
        "page_size",
        absl::StrCat("page_size must be 0 (", kDefaultPageSize, ") to ",
                     kMaxPageSize, "; ", requested, " given"));
  }
  return requested == 0 ? kDefaultPageSize : requested;
}

std::string PageToken(absl::string_view list,
                      absl::Span<const std::string> query,
                      absl::Span<const std::string> key) {
  std::string raw;
  AppendPart(&raw, kVersion);
  AppendPart(&raw, list);
  for (const std::string& q : query) AppendPart(&raw, q);
  for (const std::string& k : key) AppendPart(&raw, k);
  return absl::WebSafeBase64Escape(absl::StrCat(raw, Mac(raw)));
}

absl::StatusOr<std::vector<std::string>> PageKey(
    absl::string_view token, absl::string_view list,
    absl::Span<const std::string> query, size_t key_parts) {
  std::string raw;
  std::vector<std::string> parts;
  if (!absl::WebSafeBase64Unescape(token, &raw) || raw.size() < kMacBytes) {
    return BadToken("not a page token of this referee");
  }
  const std::string mac = raw.substr(raw.size() - kMacBytes);
  raw.resize(raw.size() - kMacBytes);
  // (Compared in constant time: a client learns nothing from how long a
  // wrong token takes.)
  if (CRYPTO_memcmp(mac.data(), Mac(raw).data(), kMacBytes) != 0) {
    return BadToken(
        "not a page token of this referee, or altered, or made before the "
        "referee restarted (start again from the first page)");
  }
  if (!SplitParts(raw, &parts) ||
      parts.size() != 2 + query.size() + key_parts || parts[0] != kVersion) {
    return BadToken("not a page token of this referee");
  }
  if (parts[1] != list) {
    return BadToken(
        absl::StrCat("a page token of another list, not of ", list));
  }
  for (size_t i = 0; i < query.size(); ++i) {
    if (parts[2 + i] != query[i]) {
      return BadToken(
          "the token comes from a query with other filters; repeat them "
          "unchanged (only page_size may change)");
    }
  }
  return std::vector<std::string>(parts.begin() + 2 + query.size(),
                                  parts.end());
}

}  // namespace cassino::service
