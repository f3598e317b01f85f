// The viewer over one or more record databases: what each JSON endpoint of
// `cassino serve` answers (docs/viewer.md), independent of HTTP.
//
// Games are looked up in the databases in the order given (the first that
// has the id answers); listings merge the databases newest first with one
// keyset cursor, so a page costs one indexed query per database whatever
// the page number. Every answer is JSON text from DumpJson (safe to inline
// in HTML).
//
// Thread-safety: thread-safe (each database serialises its own reads).

#ifndef CASSINO_TOOLS_VIEWER_VIEWER_H_
#define CASSINO_TOOLS_VIEWER_VIEWER_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/viewer/database.h"

namespace cassino::viewer {

// URL query parameters, decoded.
using Params = std::map<std::string, std::string>;

// The GameQuery of a listing's parameters: status, bot, label, rules (a
// preset name or rule text, compared as the complete rule set), from / to
// (YYYY-MM-DD, UTC; `to` includes the day), after (the `next` cursor of the
// previous page), limit. InvalidArgument naming a parameter that does not
// read.
absl::StatusOr<GameQuery> ParseGameQuery(const Params& params);

class Viewer {
 public:
  // Opens every database read-only; fails on the first that does not open.
  static absl::StatusOr<std::unique_ptr<Viewer>> Open(
      const std::vector<std::string>& paths);

  // {"games": [...], "next": cursor or null}
  absl::StatusOr<std::string> GamesJson(const Params& params) const;
  // The game view (game_view.h); NotFound for an unknown id.
  absl::StatusOr<std::string> GameJson(const std::string& game_id) const;
  // The game's record as `cassino export` writes it (docs/export_format.md),
  // only once its view is omniscient (reveal.h): before that the record
  // holds secret decks. FailedPrecondition (why) before, NotFound for an
  // unknown id.
  absl::StatusOr<std::string> GameRecordJson(const std::string& game_id) const;
  // The self-contained page of `cassino replay --format html`.
  absl::StatusOr<std::string> GamePageHtml(const std::string& game_id) const;
  // {"events": n, "status": s, "now_us": the server's clock}: cheap, for
  // live pages to poll.
  absl::StatusOr<std::string> GameHeadJson(const std::string& game_id) const;
  // {"tournaments": [...]}
  absl::StatusOr<std::string> TournamentsJson() const;
  // The tournament view with one page of its schedule (`games_after`, an
  // index, and `games_limit`, 1 to 500, default 100); NotFound for an
  // unknown name, InvalidArgument for a parameter that does not read.
  absl::StatusOr<std::string> TournamentJson(const std::string& name,
                                             const Params& params = {}) const;
  // The tournament's ratings chart (stats' RatingsChart over its games).
  absl::StatusOr<std::string> TournamentRatingsSvg(
      const std::string& name) const;
  // The databases' paths, in the order given (the ladder page reads them:
  // ladder_view.h).
  std::vector<std::string> paths() const;

 private:
  explicit Viewer(std::vector<std::unique_ptr<ViewerDatabase>> databases);
  // The database holding the game / tournament, or NotFound.
  absl::StatusOr<const ViewerDatabase*> FindGame(const std::string& id) const;
  absl::StatusOr<const ViewerDatabase*> FindTournament(
      const std::string& name) const;

  const std::vector<std::unique_ptr<ViewerDatabase>> databases_;
};

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_VIEWER_H_
