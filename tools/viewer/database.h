// The web viewer's read-only access to one record database
// (docs/record_format.md): game listings with keyset pagination, one game as
// stored, the facts that decide how much of a game may be shown, and
// tournaments with their schedules.
//
// The file is opened read-only through an SQLite URI (`file:...?mode=ro`),
// so the viewer can run beside a referee writing the same database in WAL
// mode: every call reads one consistent snapshot and sees everything
// committed before it began. Nothing here writes.
//
// Secrets: the `seed` columns (games, tournaments, tournament_games) and
// `token_hash` are read only to decide what to reveal (database.cc never
// returns them, except a game's seed inside StoredGame, which game_view.h
// must not print).
//
// Thread-safety: a ViewerDatabase is thread-safe (one connection behind a
// mutex); calls are serialised.

#ifndef CASSINO_TOOLS_VIEWER_DATABASE_H_
#define CASSINO_TOOLS_VIEWER_DATABASE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "recorder/recorder.h"
#include "recorder/stored_game.h"

namespace cassino::viewer {

// The `file:` URI that opens `path` read-only (characters SQLite's URI
// syntax reserves are percent-encoded).
std::string ReadOnlyUri(absl::string_view path);

// Which games to list (as recorder::GameSummary rows). Empty / zero fields
// match everything.
struct GameQuery {
  std::string status;  // running, finished or aborted
  std::string bot;     // a seat's bot name, exact
  std::string label;   // exact
  std::string rules;   // the complete rule set text (RuleSet::ToString)
  std::optional<int64_t> from_us;  // created at or after
  std::optional<int64_t> to_us;    // created before (an empty range: none)
  // Keyset pagination, newest first: only games strictly after this one in
  // (created_us, game_id) descending order. `after_id` empty: from the top.
  int64_t after_created_us = 0;
  std::string after_id;
  int limit = 50;  // at most this many (1 .. 500)
};

// What decides a finished game's reveal (reveal.h) beyond its own status:
// another game dealt the same decks (the same seed, the same explicit
// decks) that has not ended, or a tournament game scheduled with the same
// seed that has not been created yet.
struct TwinState {
  bool unfinished_twin = false;
  std::string twin_game_id;  // the unfinished twin, if created
};

struct TournamentListing {
  std::string name;
  std::vector<std::string> participants;
  // round_robin or gauntlet (a tournament the referee scheduled), or
  // `label`: the games sharing a label, e.g. a `cassino tournament` run,
  // shown as a tournament of the bots that played them.
  std::string format;
  int games_per_pairing = 0;
  bool duplicate = false;
  std::string rules;
  std::string status;
  std::string reason;
  int64_t created_us = 0;
  int64_t ended_us = 0;
  int64_t scheduled = 0;  // schedule rows
};

// One scheduled game with what the games table says of it.
struct ScheduledGame {
  int index = 0;
  std::vector<std::string> seats;  // bot accounts
  std::string game_id;             // '' while pending
  std::string status;              // '' while pending (no games row)
  int winner = -1;
  std::string totals;  // JSON array as stored; '' unless finished
  // A running game's totals after the rounds scored so far; empty before
  // its first round ends (and for any other status).
  std::vector<int> running_totals{};
  // Forfeits per seat (the tally's conduct column); empty without a tally.
  std::vector<int> forfeits;
};

class ViewerDatabase {
 public:
  // Opens `path` read-only: NotFound if it does not exist,
  // FailedPrecondition if it is not a record database.
  static absl::StatusOr<std::unique_ptr<ViewerDatabase>> Open(
      const std::string& path);
  ~ViewerDatabase();
  ViewerDatabase(const ViewerDatabase&) = delete;
  ViewerDatabase& operator=(const ViewerDatabase&) = delete;

  const std::string& path() const { return path_; }

  // Running games' `totals` are those after the rounds scored so far
  // (empty before the first round ends).
  absl::StatusOr<std::vector<recorder::GameSummary>> ListGames(
      const GameQuery& query) const;
  // The game as stored; NotFound if this database has no such game.
  absl::StatusOr<recorder::StoredGame> LoadGame(
      const std::string& game_id) const;
  // How many events the game has and its status: what a live page polls.
  // NotFound if there is no such game.
  struct Head {
    int64_t events = 0;
    std::string status;
  };
  absl::StatusOr<Head> GameHead(const std::string& game_id) const;
  // `game` as LoadGame returned it.
  absl::StatusOr<TwinState> Twins(const recorder::StoredGame& game) const;

  // Newest first: the scheduled tournaments, then the labels of games
  // that are no tournament's (format `label`; participants left empty,
  // `scheduled` their number of games, no `ended_us`), at most 200.
  absl::StatusOr<std::vector<TournamentListing>> Tournaments() const;
  // A scheduled tournament, else the label `name` as one; NotFound if
  // neither exists.
  absl::StatusOr<TournamentListing> Tournament(const std::string& name) const;
  // The schedule of a scheduled tournament; of a label, its games in the
  // order they were created (participants: every bot that played one,
  // sorted).
  absl::StatusOr<std::vector<ScheduledGame>> Schedule(
      const std::string& name) const;

 private:
  class Impl;
  ViewerDatabase(std::string path, std::unique_ptr<Impl> impl);
  std::string path_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_DATABASE_H_
