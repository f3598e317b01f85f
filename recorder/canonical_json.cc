#include "recorder/canonical_json.h"

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace cassino::recorder {

using Json = nlohmann::json;

void JsonWriter::AppendEscaped(absl::string_view text) {
  // nlohmann's own escaping, so that texts with escapes and non-ASCII (or
  // invalid UTF-8, replaced by U+FFFD) come out as they always did.
  out_->append(Json(std::string(text))
                   .dump(-1, ' ', /*ensure_ascii=*/false,
                         Json::error_handler_t::replace));
}

bool CanonicalReader::EscapedString(std::string* value) {
  // at_ is on the opening quote. Find the closing one (the byte after a
  // backslash never closes), then decode and write again: the text is
  // canonical if and only if that gives back the same bytes.
  const char* p = at_ + 1;
  while (p < end_ && *p != '"') p += *p == '\\' ? 2 : 1;
  if (p >= end_) return Fail("a string");
  const absl::string_view quoted(at_, static_cast<size_t>(p + 1 - at_));
  const Json decoded =
      Json::parse(quoted, /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (!decoded.is_string()) return Fail("a string");
  std::string again;
  JsonWriter(&again).String(decoded.get_ref<const std::string&>());
  if (again != quoted) return Fail("a string in canonical form");
  *value = decoded.get<std::string>();
  at_ = p + 1;
  return true;
}

absl::Status CanonicalReader::Error(absl::string_view what) const {
  if (!failed_) return absl::OkStatus();
  const size_t offset = static_cast<size_t>(failed_at_ - begin_);
  const size_t length = static_cast<size_t>(end_ - begin_);
  std::string found =
      offset < length
          ? absl::StrCat(
                "'",
                absl::CHexEscape(absl::string_view(
                    failed_at_, std::min<size_t>(12, length - offset))),
                "'")
          : std::string("the end");
  return absl::InvalidArgumentError(
      absl::StrCat(what, " is not in canonical form: expected ", expected_,
                   " at byte ", offset, ", found ", found));
}

}  // namespace cassino::recorder
