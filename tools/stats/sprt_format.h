// The text and JSON forms of an SPRT result (competition/sprt.h), as
// `cassino stats --sprt` and `cassino tournament --sprt` print them.

#ifndef CASSINO_TOOLS_STATS_SPRT_FORMAT_H_
#define CASSINO_TOOLS_STATS_SPRT_FORMAT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "competition/sprt.h"

namespace cassino::stats {

// Text: the verdict line and the figures, one per line, e.g.
//   SPRT elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized
//   verdict  H1 accepted
//   LLR      3.02 (-2.94, 2.94)
//   ...
// `a` and `b` name the bots.
std::string FormatSprtText(const competition::SprtResult& r,
                           absl::string_view a, absl::string_view b);
// One JSON object, keys in a fixed order.
std::string FormatSprtJson(const competition::SprtResult& r,
                           absl::string_view a, absl::string_view b);

}  // namespace cassino::stats

#endif  // CASSINO_TOOLS_STATS_SPRT_FORMAT_H_
