// Page tokens of the list calls (ListGames, ListBots): opaque to clients,
// bound to the query they came from, and carrying the key of the last item
// of their page (the next page starts after it, so every item is listed
// once even while items are added).

#ifndef CASSINO_REFEREE_PAGE_TOKEN_H_
#define CASSINO_REFEREE_PAGE_TOKEN_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace cassino::service {

// Page sizes: 0 asks for the default; at most the cap.
inline constexpr int kDefaultPageSize = 100;
inline constexpr int kMaxPageSize = 1000;

// The page size of a request's `page_size`; InvalidArgument (a BadRequest
// violation of `page_size`) for a negative value or one above the cap.
absl::StatusOr<int> PageSize(int requested);

// A token for the page after the item whose key is `key`, in the listing
// `list` (e.g. "games") of the query `query` (the request's filters, as
// strings).
std::string PageToken(absl::string_view list,
                      absl::Span<const std::string> query,
                      absl::Span<const std::string> key);

// The key of `token`, which must come from PageToken with the same `list`
// and `query` and a key of `key_parts` parts; InvalidArgument (a BadRequest
// violation of `page_token`) for a token that does not.
absl::StatusOr<std::vector<std::string>> PageKey(
    absl::string_view token, absl::string_view list,
    absl::Span<const std::string> query, size_t key_parts);

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_PAGE_TOKEN_H_
