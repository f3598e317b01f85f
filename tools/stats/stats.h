// Statistics over a database of game records: what `cassino stats` prints.
//
// ReadStats() reads a recorder database (docs/record_format.md) with a few
// streaming queries — the games joined with their seats, then, by two
// threads over disjoint ranges of game ids in primary-key order, each
// finished game's tally (one `game_tallies` row, schema version 2; see
// recorder/tally.h) — and never loads games one by one. A game without a
// usable tally (a database the recorder has not opened since migration 002,
// or a row that does not fit the game) is read from its `move`, `reject`,
// `round` and `forfeit` events instead, with the same results; a database of
// schema version 1 is read from its events throughout. Events are tallied
// exactly as the recorder tallies them (recorder/tally.h, with the payload
// readers of recorder/payload.h), and the tally added as a stored one is;
// a payload that does not read is counted in `Summary::bad_events` and
// skipped, never fatal.
//
// What counts (the contract the formatters and tests rely on):
//  * Only finished games are analysed. Running and aborted games matching
//    the filter are counted in the summary and otherwise ignored.
//  * A bot's game is one finished game in which it plays on exactly one
//    side (in partnerships a bot may hold both seats of its team). A game in
//    which a bot plays on two or more sides (self-play) is counted in
//    `self_play` for that bot and left out of its results, its points and
//    the ratings; its moves, rejects and forfeits still count.
//  * Win / loss / draw: the bot's side won / another side won / the game
//    finished with no winner (winner -1). Win rate = wins / games with a
//    95% Wilson score interval.
//  * Pairwise results (head-to-head, ratings): every pair of bots on
//    different sides gets one result. Two sides: the game's win, loss, or
//    draw when nobody won. More sides: the finishing order
//    (finishing_order.h: the winner first, then by final total; equal
//    totals draw), so a 3-player game gives 3 results; without recorded
//    totals, the winning side beats every other side and the others do not
//    score against each other.
//  * Ratings: Bradley–Terry over the pairwise results
//  (competition/bradley_terry.h),
//    with Options::prior_draws virtual draws per bot (default 1); the
//    interval is ±1.96·SE.
//  * Points per round by item: the points of each score item of the `round`
//    events credited to the bot's side, divided by the rounds the bot
//    played. `aces` and `sweeps` add up every ace and sweep item;
//    `all_eleven` bonuses and the variants' other
//    items (face, diamonds, ...) count in `total` only.
//  * Seat advantage: per player count and seat, how often the side holding
//    that seat won, against the 1/sides expected by symmetry.
//  * Forfeits (`forfeit` events, by seat): all reasons; `timeouts` those
//    with reason "time"; `rejects` the `reject` events (illegal or malformed
//    submissions). Move times: nearest-rank p50 / p95 of the `move` events'
//    elapsed_ms.
//  * Duplicate pairs: two finished games with the same decks (the same
//    non-empty commitment, or the same explicit decks), the same rules, two
//    sides each held by one bot, and the same two bots with the sides
//    swapped. Games are paired in (created_us, game_id) order within each
//    such group; a game pairs at most once. The pair goes to the bot that
//    won both games; when they split, to the bot with more points over the
//    two games (final totals); equal points make a drawn pair. Pairs are
//    reported separately; the per-game tables still count each game.
//    DuplicateResult::penta also counts each pair by its games' results
//    alone (no points), as the SPRT does (sprt.h).
//
// Lifetimes: Stats is a value. ReadStats opens its own read-only
// connections and closes them before returning.

#ifndef CASSINO_TOOLS_STATS_STATS_H_
#define CASSINO_TOOLS_STATS_STATS_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "competition/bradley_terry.h"

namespace cassino::stats {

// Which games to read. Empty / zero fields match everything.
struct Filter {
  std::string tournament;  // games.label, exact
  std::string bot;         // games with this bot in any seat
  int64_t from_us = 0;     // created at or after
  int64_t to_us = 0;       // created before
  // A rule set (`royal`, `standard target=11`): only games whose rules are
  // equal to it, option by option. Empty: every rule set.
  std::string rules{};
};

// "YYYY-MM-DD" as the Unix time in microseconds of 00:00 UTC that day.
absl::StatusOr<int64_t> ParseDate(absl::string_view date);
// Microseconds in a day (--to DATE includes the whole day).
inline constexpr int64_t kDayUs = 86'400'000'000;

struct Options {
  double prior_draws = 1.0;  // virtual draws per bot vs a 1500 opponent
  int threads = 2;           // event-scan threads
  // Read the `move` events (move counts and times). They are nearly all the
  // rows of a database; without them a read is about 1.5 times as fast and
  // BotStats::moves / move_p50_ms / move_p95_ms and Summary::moves are 0.
  bool move_times = true;
  // Read each ended game's tally (game_tallies, schema version 2) instead of
  // its events where there is one. The results are the same either way
  // (tests/tools/stats_test.cc checks it); false forces the event scan.
  bool use_tallies = true;
};

// A proportion with its 95% Wilson score interval.
struct Proportion {
  int64_t successes = 0;
  int64_t trials = 0;
  double rate = 0;  // successes / trials; 0 when trials == 0
  double low = 0;
  double high = 1;
};
// Wilson score interval for `successes` out of `trials` (z = 1.96 gives
// 95%). With no trials: rate 0, interval [0, 1].
Proportion Wilson(int64_t successes, int64_t trials, double z = 1.96);

// The score items of docs/rules.md, *Scoring* as stats reports them.
enum ItemKind {
  kCards,
  kSpades,
  kBigCassino,
  kLittleCassino,
  kAces,
  kSweeps,
  kItemKinds
};
// "cards", "spades", "big_cassino", "little_cassino", "aces", "sweeps".
absl::string_view ItemName(int kind);

struct BotStats {
  std::string name;
  int64_t games = 0;  // finished games on exactly one side
  int64_t wins = 0;
  int64_t losses = 0;
  int64_t draws = 0;
  int64_t self_play = 0;  // games on two or more sides (left out above)
  Proportion win_rate;    // wins / games
  double rating = 1500;   // Elo scale, mean 1500
  double rating_se = 0;   // standard error; interval ±1.96·SE
  int64_t rounds = 0;     // rounds played in its games
  std::array<double, kItemKinds> points_per_round{};  // mean, by item
  double total_per_round = 0;  // every item, all_eleven included
  int64_t forfeits = 0;
  int64_t timeouts = 0;  // forfeits with reason "time"
  int64_t rejects = 0;   // rejected submissions
  int64_t moves = 0;
  double move_p50_ms = 0;
  double move_p95_ms = 0;
  // Duplicate pairs (see the file comment).
  int64_t dup_pairs = 0;
  int64_t dup_wins = 0;
  int64_t dup_losses = 0;
  int64_t dup_draws = 0;
};

// Pairwise results of bot i against bot j (indices into Stats::bots).
struct HeadToHead {
  int64_t wins = 0;
  int64_t losses = 0;
  int64_t draws = 0;
};

// Duplicate pairs between bots a < b (indices into Stats::bots).
struct DuplicateResult {
  int a = 0;
  int b = 0;
  int64_t pairs = 0;
  int64_t a_wins = 0;
  int64_t b_wins = 0;
  int64_t draws = 0;
  // The pairs by a's half points over the two games (a game: 2 won, 1
  // finished without a winner, 0 lost): [0] LL, [1] LD, [2] WL or DD,
  // [3] WD, [4] WW. The pentanomial counts of the SPRT (sprt.h).
  std::array<int64_t, 5> penta{};
};

struct SeatStats {
  int players = 0;
  int sides = 0;
  int seat = 0;
  Proportion win_rate;  // games where the seat's side won / games
  double expected = 0;  // 1 / sides
};

struct Summary {
  int64_t games = 0;     // matching the filter, any status
  int64_t finished = 0;  // analysed
  int64_t running = 0;
  int64_t aborted = 0;
  int64_t skipped_games = 0;  // finished but unreadable (seat rows amiss)
  int64_t rounds = 0;
  int64_t moves = 0;
  int64_t duplicate_pairs = 0;
  int64_t bad_events = 0;     // payloads that could not be read
  int64_t tallied_games = 0;  // finished games read from their tally row
  double seconds = 0;         // time ReadStats took
};

// How many finished games one rule set has.
struct RuleSetCount {
  std::string rules;  // the options that differ from standard; "standard"
  int64_t games = 0;
};

struct Stats {
  Filter filter;
  Summary summary;
  // The finished games grouped by rule set, most games first. Ratings mix
  // every game selected: use Filter::rules to rate one rule set alone.
  std::vector<RuleSetCount> rule_sets;
  // Sorted by rating (highest first), then name.
  std::vector<BotStats> bots;
  // head_to_head[i][j]: bot i against bot j; [i][i] is empty.
  std::vector<std::vector<HeadToHead>> head_to_head;
  // los[i][j]: likelihood that bot i is stronger than bot j; [i][i] = 0.5.
  std::vector<std::vector<double>> los;
  std::vector<DuplicateResult> duplicates;  // by (a, b)
  std::vector<SeatStats> seats;             // by (players, seat)
  int rating_iterations = 0;
  bool rating_converged = true;
  bool move_times = true;  // Options::move_times: were move events read
};

// Reads the databases at `paths` (read-only; one, or the record set of
// several referees, recorder/record_set.h) into Stats, as one set of
// games: bots are matched by name across the databases, and duplicate pairs
// may span them. NotFound if a file is missing; FailedPrecondition if one
// is not a recorder database, or if a game id is held by two of them (a
// database listed under two names, or a copy: the games would count twice).
// Errors name the database.
absl::StatusOr<Stats> ReadStats(std::span<const std::string> paths,
                                const Filter& filter,
                                const Options& options = {});
absl::StatusOr<Stats> ReadStats(const std::string& path, const Filter& filter,
                                const Options& options = {});

// Output formats. Every formatter returns the whole document.
enum class Format { kText, kCsv, kJson, kHtml };
absl::StatusOr<Format> ParseFormat(absl::string_view name);
std::string FormatText(const Stats& stats);
// Sections `summary`, `bots`, `points`, `conduct`, `head_to_head` (with
// LOS), `seats`, `duplicates`: each a `# name` line, a header row and data
// rows; sections are separated by a blank line. Fields are quoted when needed
// (RFC 4180).
std::string FormatCsv(const Stats& stats);
// One JSON object with keys in a fixed order.
std::string FormatJson(const Stats& stats);
// One self-contained HTML page: inline CSS and SVG, no scripts, no
// external references.
std::string FormatHtml(const Stats& stats);
// The ratings chart of FormatHtml on its own: an SVG element (with its
// namespace, so it is also a standalone image/svg+xml document) drawing
// each bot's rating with its 95% interval; names are escaped. A <p> saying
// so when no bot is rated. The web viewer's tournament page shows it.
std::string RatingsChart(const Stats& stats);
std::string FormatAs(const Stats& stats, Format format);

}  // namespace cassino::stats

#endif  // CASSINO_TOOLS_STATS_STATS_H_
