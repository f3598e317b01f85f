#include "rules/position.h"

#include <algorithm>
#include <bit>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "rules/values.h"

namespace cassino {
namespace {

absl::Status PositionError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("position: ", what));
}

// Parses `[5S 3H]=8@0` or `[5C 3D 2H]=5m@1`; `text` starts after '['.
absl::StatusOr<Build> ParseBuild(absl::string_view inside,
                                 absl::string_view suffix) {
  Build b;
  absl::StatusOr<CardSet> cards = CardSet::Parse(inside);
  if (!cards.ok()) return cards.status();
  b.cards = *cards;
  if (!absl::ConsumePrefix(&suffix, "=")) {
    return PositionError(
        absl::StrCat("build [", inside, "] needs its value, e.g. [5S 3H]=8@0"));
  }
  auto at = suffix.find('@');
  if (at == absl::string_view::npos) {
    return PositionError(
        absl::StrCat("build [", inside, "] needs its controller, e.g. =8@0"));
  }
  absl::string_view value_text = suffix.substr(0, at);
  if (absl::ConsumeSuffix(&value_text, "m")) b.multiple = true;
  if (!absl::SimpleAtoi(value_text, &b.value) ||
      !absl::SimpleAtoi(suffix.substr(at + 1), &b.controller)) {
    return PositionError(absl::StrCat("build [", inside, "]", suffix,
                                      ": expected =V@P or =Vm@P"));
  }
  return b;
}

absl::StatusOr<Table> ParseTable(absl::string_view text) {
  Table table;
  absl::string_view rest = absl::StripAsciiWhitespace(text);
  while (!rest.empty()) {
    if (rest.front() == '[') {
      auto close = rest.find(']');
      if (close == absl::string_view::npos)
        return PositionError("unclosed '['");
      auto end = rest.find_first_of(" \t", close);
      if (end == absl::string_view::npos) end = rest.size();
      absl::StatusOr<Build> b = ParseBuild(
          rest.substr(1, close - 1), rest.substr(close + 1, end - close - 1));
      if (!b.ok()) return b.status();
      table.AddBuild(*b);
      rest = absl::StripLeadingAsciiWhitespace(rest.substr(end));
    } else {
      auto end = rest.find_first_of(" \t");
      if (end == absl::string_view::npos) end = rest.size();
      absl::string_view word = rest.substr(0, end);
      if (word != "-") {
        absl::StatusOr<Card> c = Card::Parse(word);
        if (!c.ok()) return c.status();
        if (table.loose.contains(*c)) {
          return PositionError(
              absl::StrCat(c->ToString(), " is on the table twice"));
        }
        table.loose.insert(*c);
      }
      rest = absl::StripLeadingAsciiWhitespace(rest.substr(end));
    }
  }
  return table;
}

}  // namespace

std::string Build::ToString() const {
  return absl::StrCat("[", cards.ToString(), "]=", value, multiple ? "m" : "",
                      "@", controller);
}

CardSet Table::AllCards() const {
  CardSet all = loose;
  for (const Build& b : builds) all |= b.cards;
  return all;
}

void Table::AddBuild(const Build& build) {
  auto it = std::find_if(builds.begin(), builds.end(), [&](const Build& b) {
    return b.cards.first() > build.cards.first();
  });
  builds.insert(it, build);
}

std::string Table::ToString() const {
  if (empty()) return "-";
  std::string out = loose.empty() ? "" : loose.ToString();
  for (const Build& b : builds) {
    if (!out.empty()) out.push_back(' ');
    out += b.ToString();
  }
  return out;
}

std::string RulesDiff(const RuleSet& rules) {
  const std::vector<std::string> mine = absl::StrSplit(rules.ToString(), ' ');
  const std::vector<std::string> standard =
      absl::StrSplit(RuleSet::Standard().ToString(), ' ');
  std::string out;
  for (size_t i = 0; i < mine.size(); ++i) {
    if (i < standard.size() && mine[i] == standard[i]) continue;
    if (!out.empty()) out.push_back(' ');
    out += mine[i];
  }
  return out;
}

absl::StatusOr<Position> Position::Parse(absl::string_view text) {
  Position pos;
  absl::string_view table_text, hands_text, to_move_text, rules_text;
  absl::string_view plucked_text, stock_empty_text;
  for (absl::string_view section :
       absl::StrSplit(text, ';', absl::SkipWhitespace())) {
    section = absl::StripAsciiWhitespace(section);
    auto colon = section.find(':');
    if (colon == absl::string_view::npos) {
      return PositionError(
          absl::StrCat("section '", section,
                       "' lacks 'name:' (table, hands, to_move, rules)"));
    }
    absl::string_view name =
        absl::StripAsciiWhitespace(section.substr(0, colon));
    absl::string_view body = section.substr(colon + 1);
    if (name == "table") {
      table_text = body;
    } else if (name == "hands" || name == "hand") {
      hands_text = body;
    } else if (name == "to_move") {
      to_move_text = body;
    } else if (name == "rules") {
      rules_text = body;
    } else if (name == "plucked") {
      plucked_text = body;
    } else if (name == "stock_empty") {
      stock_empty_text = body;
    } else {
      return PositionError(absl::StrCat(
          "unknown section '", name,
          "' (table, hands, to_move, rules, plucked, stock_empty)"));
    }
  }
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(rules_text);
  if (!rules.ok()) return rules.status();
  pos.rules = *rules;
  absl::StatusOr<Table> table = ParseTable(table_text);
  if (!table.ok()) return table.status();
  pos.table = *table;
  pos.hands.assign(pos.rules.players, CardSet());
  int seat = 0;
  if (!absl::StripAsciiWhitespace(hands_text).empty()) {
    for (absl::string_view hand : absl::StrSplit(hands_text, '/')) {
      if (seat >= pos.rules.players) {
        return PositionError(
            absl::StrCat("more hands than players=", pos.rules.players,
                         " (set players= in the rules section)"));
      }
      hand = absl::StripAsciiWhitespace(hand);
      if (hand != "?") {
        absl::StatusOr<CardSet> cards = CardSet::Parse(hand);
        if (!cards.ok()) return cards.status();
        pos.hands[seat] = *cards;
      }
      ++seat;
    }
  }
  to_move_text = absl::StripAsciiWhitespace(to_move_text);
  if (!to_move_text.empty() && !absl::SimpleAtoi(to_move_text, &pos.to_move)) {
    return PositionError(
        absl::StrCat("to_move '", to_move_text, "' is not a seat"));
  }
  for (absl::string_view seat_text :
       absl::StrSplit(plucked_text, ' ', absl::SkipWhitespace())) {
    int plucker = 0;
    if (!absl::SimpleAtoi(seat_text, &plucker) || plucker < 0 ||
        plucker >= pos.rules.players) {
      return PositionError(
          absl::StrCat("plucked: '", seat_text, "' is not a seat"));
    }
    pos.plucked |= uint32_t{1} << plucker;
  }
  stock_empty_text = absl::StripAsciiWhitespace(stock_empty_text);
  if (stock_empty_text == "on") {
    pos.stock_empty = true;
  } else if (!stock_empty_text.empty() && stock_empty_text != "off") {
    return PositionError(
        absl::StrCat("stock_empty: '", stock_empty_text, "' is not on or off"));
  }
  absl::Status valid = pos.Validate();
  if (!valid.ok()) return valid;
  return pos;
}

absl::Status Position::Validate() const {
  if (static_cast<int>(hands.size()) != rules.players) {
    return PositionError("one hand per player is needed");
  }
  if (to_move < 0 || to_move >= rules.players) {
    return PositionError(absl::StrCat("to_move ", to_move, " is not a seat of ",
                                      rules.players, " players"));
  }
  if (plucked >> rules.players != 0) {
    return PositionError("plucked names a seat that does not play");
  }
  CardSet seen;
  auto claim = [&](CardSet cards, absl::string_view where) -> absl::Status {
    if (seen.intersects(cards)) {
      return PositionError(absl::StrCat((seen & cards).first().ToString(),
                                        " appears twice (again in ", where,
                                        ")"));
    }
    seen |= cards;
    return absl::OkStatus();
  };
  absl::Status s = claim(table.loose, "the table");
  if (!s.ok()) return s;
  if (rules.game != GameKind::kCassino && !table.builds.empty()) {
    return PositionError(absl::StrCat(
        "build ", table.builds[0].ToString(), ": ",
        rules.game == GameKind::kCallabra ? "Callabra" : "Tablanette",
        " has no builds"));
  }
  for (const Build& b : table.builds) {
    std::string where = absl::StrCat("build ", b.ToString());
    if (s = claim(b.cards, where); !s.ok()) return s;
    if (b.cards.size() < 2)
      return PositionError(absl::StrCat(where, " has fewer than 2 cards"));
    if (b.controller < 0 || b.controller >= rules.players) {
      return PositionError(absl::StrCat(where, ": controller is not a seat"));
    }
    if (IsFaceBuild(rules, b)) {
      const int rank = b.cards.first().rank();
      if (rules.face_capture != FaceCapture::kFour &&
          rules.face_capture != FaceCapture::kAny) {
        return PositionError(
            absl::StrCat(where, ": face builds need face_capture=four or any"));
      }
      if (!(b.cards - CardSet::OfRank(rank)).empty() || b.value != rank ||
          b.multiple) {
        return PositionError(absl::StrCat(
            where,
            ": a face build holds cards of one rank, its value is the "
            "rank (J=11, Q=12, K=13) and it is never multiple"));
      }
      continue;
    }
    if (b.value < 1 || b.value > rules.MaxBuild()) {
      return PositionError(absl::StrCat(where, ": value out of range"));
    }
    for (Card c : b.cards) {
      if (rules.CardValue(c) == 0) {
        return PositionError(
            absl::StrCat(where, " holds a card with no value"));
      }
    }
    // Single: the cards can sum to the value; multiple: to a multiple of it
    // (flexible cards counting as needed; a build that could be either is
    // what the move that made it said).
    const bool fits =
        b.multiple
            ? AnyValueChoice(rules, b.cards,
                             [&](const ValueCounts&, int sum) {
                               return sum > b.value && sum % b.value == 0;
                             })
            : CanSumTo(rules, b.cards, b.value);
    if (!fits) {
      return PositionError(
          absl::StrCat(where, ": its cards do not fit its value and kind"));
    }
  }
  for (size_t i = 0; i < hands.size(); ++i) {
    if (s = claim(hands[i], absl::StrCat("hand ", i)); !s.ok()) return s;
  }
  if (const CardSet outside = seen - rules.Pack(); !outside.empty()) {
    const Card c = outside.first();
    return PositionError(
        absl::StrCat(c.ToString(), " is not in the pack of these rules (",
                     rules.removed.contains(c) ? "remove= takes it out"
                                               : "pack=40 has no J, Q, K",
                     ")"));
  }
  return absl::OkStatus();
}

std::string Position::ToString() const {
  std::string hands_text;
  for (size_t i = 0; i < hands.size(); ++i) {
    if (i) hands_text += " / ";
    hands_text += hands[i].ToString();
  }
  std::string out =
      absl::StrCat("table: ", table.ToString(), "; hands: ", hands_text,
                   "; to_move: ", to_move);
  std::string diff = RulesDiff(rules);
  if (!diff.empty()) absl::StrAppend(&out, "; rules: ", diff);
  if (plucked != 0) {
    std::string seats;
    for (uint32_t m = plucked; m; m &= m - 1) {
      absl::StrAppend(&seats, seats.empty() ? "" : " ", std::countr_zero(m));
    }
    absl::StrAppend(&out, "; plucked: ", seats);
  }
  if (stock_empty) absl::StrAppend(&out, "; stock_empty: on");
  return out;
}

}  // namespace cassino
