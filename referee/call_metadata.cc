#include "referee/call_metadata.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "referee/errors.h"

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

absl::StatusOr<PlayMode> PlayModeOf(
    const std::multimap<grpc::string_ref, grpc::string_ref>& metadata) {
  auto it = metadata.find("cassino-play-mode");
  if (it == metadata.end()) return PlayMode::kFull;
  const absl::string_view value(it->second.data(), it->second.size());
  if (value == "full") return PlayMode::kFull;
  if (value == "compact") return PlayMode::kCompact;
  return Error(absl::StatusCode::kInvalidArgument, Reason::kInvalidRequest,
               absl::StrCat("cassino-play-mode: unknown mode ", Quote(value),
                            "; 'full' or 'compact'"));
}

}  // namespace cassino::service
