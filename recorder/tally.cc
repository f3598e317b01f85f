#include "recorder/tally.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "rules/rule_set.h"
#include "rules/scoring.h"

namespace cassino::recorder {
namespace {

using Json = nlohmann::json;

// Item sides 0..3 are always readable (as `cassino stats` reads events);
// games with more sides allow theirs too.
constexpr int kMaxSides = 4;

std::optional<int64_t> IntField(const Json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

// Score item kind name -> TallyItem; kTallyTotal for all_eleven; -1 unknown.
int ItemColumn(const std::string& kind) {
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

// The exact layout MovePayload writes, {"elapsed_ms":N,"move":"...",
// "round":N,"seat":N,...} with plain digits and no escapes in the move,
// read without building a JSON tree (moves are most of a game's events).
// False for anything else: the caller then parses the payload.
bool FastMove(absl::string_view p, int64_t* seat, int64_t* elapsed_ms) {
  size_t i = 0;
  auto expect = [&](absl::string_view literal) {
    if (p.substr(i, literal.size()) != literal) return false;
    i += literal.size();
    return true;
  };
  auto digits = [&](int64_t* v) {
    const size_t start = i;
    int64_t x = 0;
    while (i < p.size() && p[i] >= '0' && p[i] <= '9' && i - start < 15) {
      x = x * 10 + (p[i++] - '0');
    }
    *v = x;
    return i > start && (i >= p.size() || p[i] < '0' || p[i] > '9');
  };
  int64_t round = 0;
  if (!expect("{\"elapsed_ms\":") || !digits(elapsed_ms) ||
      !expect(",\"move\":\"")) {
    return false;
  }
  const size_t close = p.find('"', i);
  if (close == absl::string_view::npos ||
      p.substr(i, close - i).find('\\') != absl::string_view::npos) {
    return false;
  }
  i = close + 1;
  return expect(",\"round\":") && digits(&round) && expect(",\"seat\":") &&
         digits(seat) && i < p.size() && (p[i] == ',' || p[i] == '}');
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
  if (kind != EventKind::kMove && kind != EventKind::kReject &&
      kind != EventKind::kRound && kind != EventKind::kForfeit) {
    return;
  }
  const int players = static_cast<int>(tally_.seats.size());
  if (kind == EventKind::kMove) {
    int64_t seat = -1, elapsed = 0;
    // As `cassino stats` reads move events (the rest of such a payload is
    // not looked at; `cassino verify` checks it).
    if (FastMove(payload, &seat, &elapsed) && seat < players) {
      ++tally_.moves;
      SeatTally& t = tally_.seats[seat];
      ++t.moves;
      ++t.move_ms[elapsed];
      return;
    }
  }
  const Json json = Json::parse(payload, nullptr, /*allow_exceptions=*/false);
  const bool object = !json.is_discarded() && json.is_object();
  auto seat_of = [&]() -> int {
    std::optional<int64_t> seat = IntField(json, "seat");
    return seat.has_value() && *seat >= 0 && *seat < players
               ? static_cast<int>(*seat)
               : -1;
  };
  switch (kind) {
    case EventKind::kMove: {
      const int seat = object ? seat_of() : -1;
      const std::optional<int64_t> elapsed =
          object ? IntField(json, "elapsed_ms") : std::nullopt;
      if (seat < 0 || !elapsed.has_value()) {
        ++tally_.bad_moves;
        return;
      }
      ++tally_.moves;
      SeatTally& t = tally_.seats[seat];
      ++t.moves;
      ++t.move_ms[*elapsed];
      return;
    }
    case EventKind::kReject: {
      const int seat = object ? seat_of() : -1;
      if (seat < 0) {
        ++tally_.bad_events;
        return;
      }
      ++tally_.seats[seat].rejects;
      return;
    }
    case EventKind::kForfeit: {
      const int seat = object ? seat_of() : -1;
      auto reason = object ? json.find("reason") : json.end();
      if (seat < 0 || reason == json.end() || !reason->is_string()) {
        ++tally_.bad_events;
        return;
      }
      SeatTally& t = tally_.seats[seat];
      ++t.forfeits;
      if (reason->get_ref<const std::string&>() == "time") ++t.timeouts;
      return;
    }
    case EventKind::kRound: {
      auto items = object ? json.find("items") : json.end();
      if (items == json.end() || !items->is_array()) {
        ++tally_.bad_events;
        return;
      }
      struct Item {
        int column;
        int side;
        int64_t points;
      };
      std::vector<Item> read;
      for (const Json& item : *items) {
        if (!item.is_object()) {
          ++tally_.bad_events;
          return;
        }
        auto kind_it = item.find("kind");
        const int column =
            kind_it != item.end() && kind_it->is_string()
                ? ItemColumn(kind_it->get_ref<const std::string&>())
                : -1;
        const std::optional<int64_t> side = IntField(item, "side");
        std::optional<int64_t> points = 0;
        if (item.contains("points")) points = IntField(item, "points");
        const int64_t max_sides =
            std::max<int64_t>(kMaxSides, tally_.sides.size());
        if (column < 0 || !side.has_value() || *side < 0 ||
            *side >= max_sides || !points.has_value()) {
          ++tally_.bad_events;
          return;
        }
        read.push_back({column, static_cast<int>(*side), *points});
      }
      ++tally_.rounds;
      for (const Item& item : read) {
        if (item.side >= static_cast<int>(tally_.sides.size())) continue;
        auto& side = tally_.sides[item.side];
        if (item.column != kTallyTotal) side[item.column] += item.points;
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
