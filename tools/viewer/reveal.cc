#include "tools/viewer/reveal.h"

#include "absl/strings/str_cat.h"

namespace cassino::viewer {

RevealDecision DecideReveal(absl::string_view status, const TwinState& twins) {
  if (status == "aborted") {
    return {Reveal::kPublic,
            "the game was aborted: its seed and unplayed cards stay secret"};
  }
  if (status != "finished") {
    return {Reveal::kPublic, "the game is running: hands are hidden"};
  }
  if (twins.unfinished_twin) {
    return {Reveal::kPublic,
            twins.twin_game_id.empty()
                ? std::string("a game dealt the same cards has not been "
                              "played yet: hands are hidden")
                : absl::StrCat("game ", twins.twin_game_id,
                               " was dealt the same cards and is still "
                               "running: hands are hidden")};
  }
  return {Reveal::kOmniscient, ""};
}

absl::string_view RevealName(Reveal reveal) {
  return reveal == Reveal::kOmniscient ? "omniscient" : "public";
}

}  // namespace cassino::viewer
