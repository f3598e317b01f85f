#include "recorder/tally.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "rules/rule_set.h"
#include "rules/scoring.h"

namespace cassino::recorder {
namespace {

// Item sides 0..3 are always readable (as `cassino stats` always read
// events); games with more sides allow theirs too.
constexpr int kMaxSides = 4;

// Score item kind name -> TallyItem; kTallyTotal for all_eleven; -1 unknown.
int ItemColumn(absl::string_view kind) {
  if (kind == "cards") return kTallyCards;
  if (kind == "spades") return kTallySpades;
  if (kind == "big_cassino") return kTallyBigCassino;
  if (kind == "little_cassino") return kTallyLittleCassino;
  if (kind == "ace") return kTallyAces;
  if (kind == "sweep") return kTallySweeps;
  // Every other item the engine scores (all_eleven, the variants' face,
  // diamonds, card, all_aces, spade, ...) counts in the total only.
  for (int k = 0; k <= static_cast<int>(ScoreItemKind::kSpade); ++k) {
    if (kind == ScoreItemName(static_cast<ScoreItemKind>(k))) {
      return kTallyTotal;
    }
  }
  return -1;
}

}  // namespace

std::string GameTally::PointsText() const {
  std::string out = "[";
  for (size_t s = 0; s < sides.size(); ++s) {
    if (s > 0) out.push_back(',');
    out.push_back('[');
    for (int k = 0; k < kTallyItems; ++k) {
      if (k > 0) out.push_back(',');
      absl::StrAppend(&out, sides[s][k]);
    }
    out.push_back(']');
  }
  out.push_back(']');
  return out;
}

std::string GameTally::ConductText() const {
  std::string out = "[";
  for (size_t s = 0; s < seats.size(); ++s) {
    const SeatTally& t = seats[s];
    absl::StrAppend(&out, s > 0 ? "," : "", "[", t.moves, ",", t.rejects, ",",
                    t.forfeits, ",", t.timeouts, "]");
  }
  out.push_back(']');
  return out;
}

std::string GameTally::MoveMsText() const {
  std::string out = "[";
  for (size_t s = 0; s < seats.size(); ++s) {
    if (s > 0) out.push_back(',');
    out.push_back('[');
    bool first = true;
    for (const auto& [ms, count] : seats[s].move_ms) {
      absl::StrAppend(&out, first ? "" : ",", ms, ",", count);
      first = false;
    }
    out.push_back(']');
  }
  out.push_back(']');
  return out;
}

int TallySides(absl::string_view rules, int players) {
  absl::StatusOr<RuleSet> parsed = RuleSet::Parse(rules);
  return parsed.ok() && parsed->players == players ? parsed->Sides() : players;
}

TallyBuilder::TallyBuilder(int players, int sides) {
  tally_.seats.resize(players);
  tally_.sides.resize(sides);
}

void TallyBuilder::Add(absl::string_view kind, absl::string_view payload) {
  absl::StatusOr<EventKind> parsed = ParseEventKind(kind);
  if (!parsed.ok()) {
    ++tally_.events;
    return;
  }
  Add(*parsed, payload);
}

void TallyBuilder::Add(EventKind kind, absl::string_view payload) {
  ++tally_.events;
  const int players = static_cast<int>(tally_.seats.size());
  auto seat_ok = [players](int seat) { return seat >= 0 && seat < players; };
  switch (kind) {
    case EventKind::kMove: {
      if (!ParseMovePayload(payload, &move_).ok() || !seat_ok(move_.seat)) {
        ++tally_.bad_moves;
        return;
      }
      ++tally_.moves;
      SeatTally& t = tally_.seats[move_.seat];
      ++t.moves;
      ++t.move_ms[move_.elapsed_ms];
      return;
    }
    case EventKind::kReject: {
      if (!ParseRejectPayload(payload, &reject_).ok() ||
          !seat_ok(reject_.seat)) {
        ++tally_.bad_events;
        return;
      }
      ++tally_.seats[reject_.seat].rejects;
      return;
    }
    case EventKind::kForfeit: {
      if (!ParseForfeitPayload(payload, &forfeit_).ok() ||
          !seat_ok(forfeit_.seat)) {
        ++tally_.bad_events;
        return;
      }
      SeatTally& t = tally_.seats[forfeit_.seat];
      ++t.forfeits;
      if (forfeit_.reason == "time") ++t.timeouts;
      return;
    }
    case EventKind::kRound: {
      if (!ParseRoundPayload(payload, &round_).ok()) {
        ++tally_.bad_events;
        return;
      }
      const int max_sides =
          std::max(kMaxSides, static_cast<int>(tally_.sides.size()));
      for (const RoundFields::Item& item : round_.items) {
        if (ItemColumn(item.kind) < 0 || item.side < 0 ||
            item.side >= max_sides) {
          ++tally_.bad_events;
          return;
        }
      }
      ++tally_.rounds;
      for (const RoundFields::Item& item : round_.items) {
        if (item.side >= static_cast<int>(tally_.sides.size())) continue;
        auto& side = tally_.sides[item.side];
        const int column = ItemColumn(item.kind);
        if (column != kTallyTotal) side[column] += item.points;
        side[kTallyTotal] += item.points;
      }
      return;
    }
    default:
      return;
  }
}

GameTally TallyOf(const GameRecord& record) {
  const int players = static_cast<int>(record.header.seats.size());
  TallyBuilder builder(players, TallySides(record.header.rules, players));
  for (const Event& e : record.events) builder.Add(e.kind, e.payload);
  return builder.Take();
}

}  // namespace cassino::recorder
