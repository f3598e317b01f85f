#include "referee/bearer.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace cassino::service {

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
