// A game's tally: what `cassino stats` needs from a game's events, reduced
// to one row of the `game_tallies` table (schemas/002_game_tallies.sql,
// docs/record_format.md).
//
// A tally is a pure function of a game's header (its seat count and rules)
// and its events; the recorder writes it in the same transaction as the
// game's `end` or `abort` event, `cassino import` re-derives it, and
// `cassino verify` recomputes it from its own replay and compares. What is
// counted, per event kind (other kinds are only counted in `events`). A
// payload is read with its reader in recorder/payload.h, so it counts only
// if it is in the canonical form the referee writes:
//
//   move     a move payload whose seat is 0..players-1: `moves`, the
//            seat's move count and its move-time histogram (elapsed_ms);
//            otherwise `bad_moves`.
//   reject   a reject payload whose seat is in range: the seat's rejects;
//            otherwise `bad_events`.
//   round    a round payload whose every item is of a kind the engine
//            scores (ScoreItemName) for a side from 0 to 3 (or to the
//            game's sides - 1 if more): `rounds`, and each item's points
//            added to its side's item column (cards, spades, big_cassino,
//            little_cassino, ace, sweep) and total (any other kind, e.g.
//            all_eleven or the variants' face and diamonds, to the total
//            only); items of a side the game does not have are dropped.
//            Otherwise `bad_events` (the whole round).
//   forfeit  a forfeit payload whose seat is in range: the seat's
//            forfeits, and its timeouts when the reason is "time";
//            otherwise `bad_events`.
//
// The three text columns are compact JSON (no spaces), one array element per
// side or seat:
//   points   [[cards, spades, big_cassino, little_cassino, aces, sweeps,
//            total], ...]
//   conduct  [[moves, rejects, forfeits, timeouts], ...]
//   move_ms  [[ms, count, ms, count, ...], ...] with ms strictly ascending:
//            the exact multiset of the seat's elapsed_ms values.
//
// Lifetimes: values; nothing here touches SQLite.

#ifndef CASSINO_RECORDER_TALLY_H_
#define CASSINO_RECORDER_TALLY_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "recorder/canonical_json.h"
#include "recorder/payload.h"
#include "recorder/record.h"

namespace cassino::recorder {

// Columns of a side's points.
enum TallyItem {
  kTallyCards,
  kTallySpades,
  kTallyBigCassino,
  kTallyLittleCassino,
  kTallyAces,
  kTallySweeps,
  kTallyTotal,  // every item, all_eleven included
  kTallyItems
};

struct SeatTally {
  int64_t moves = 0;
  int64_t rejects = 0;
  int64_t forfeits = 0;
  int64_t timeouts = 0;                // forfeits with reason "time"
  std::map<int64_t, int64_t> move_ms;  // elapsed_ms -> moves that took it
  friend bool operator==(const SeatTally&, const SeatTally&) = default;
};

struct GameTally {
  int64_t events = 0;
  int64_t rounds = 0;
  int64_t moves = 0;
  int64_t bad_moves = 0;
  int64_t bad_events = 0;
  std::vector<std::array<int64_t, kTallyItems>> sides;  // per side
  std::vector<SeatTally> seats;                         // per seat
  friend bool operator==(const GameTally&, const GameTally&) = default;

  // The text columns (see the file comment).
  std::string PointsText() const;
  std::string ConductText() const;
  std::string MoveMsText() const;
};

// The number of sides of a game with `players` seats and these rules (a
// RuleSet::ToString text): RuleSet::Sides() (2 in partnerships), or
// `players` when the rules do not parse or name another player count.
int TallySides(absl::string_view rules, int players);

// Builds a tally one event at a time. Never fails: unreadable payloads are
// counted as bad.
class TallyBuilder {
 public:
  TallyBuilder(int players, int sides);
  void Add(EventKind kind, absl::string_view payload);
  void Add(absl::string_view kind, absl::string_view payload);
  const GameTally& tally() const { return tally_; }
  GameTally Take() { return std::move(tally_); }
  // Goes on from `tally`, one this class built (its seats and sides sized),
  // keeping the readers' buffers: one builder serves many games in turn,
  // each game's tally moved in, added to and taken out again.
  void Resume(GameTally tally) { tally_ = std::move(tally); }

 private:
  GameTally tally_;
  // The payload readers' fields, reused from event to event.
  MoveFields move_;
  RejectFields reject_;
  ForfeitFields forfeit_;
  RoundFields round_;
};

// The tally of a whole record.
GameTally TallyOf(const GameRecord& record);

// Reads a text column as its writer above writes it (compact, one array of
// integers per side or seat), calling `row(r)` as row r opens and
// `value(r, i, v)` for its i-th integer; either may return false to refuse
// the text. Returns the number of rows, or -1 if the text is refused or is
// not in that form. Inline: `cassino stats` reads three columns a game.
template <typename Row, typename Value>
int ReadTallyRows(absl::string_view text, Row&& row, Value&& value) {
  CanonicalReader r(text);
  if (!r.Literal("[")) return -1;
  int rows = 0;
  if (!r.Peek(']')) {
    do {
      if (!r.Literal("[") || !row(rows)) return -1;
      if (!r.Peek(']')) {
        int i = 0;
        do {
          int64_t v = 0;
          if (!r.Int(&v) || !value(rows, i++, v)) return -1;
        } while (r.Next(','));
      }
      if (!r.Literal("]")) return -1;
      ++rows;
    } while (r.Next(','));
  }
  return r.Literal("]") && r.End() ? rows : -1;
}

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_TALLY_H_
