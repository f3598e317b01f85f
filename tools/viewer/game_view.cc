#include "tools/viewer/game_view.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "recorder/event_fields.h"
#include "recorder/payload.h"
#include "recorder/record.h"
#include "recorder/replay.h"
#include "rules/card.h"
#include "rules/game.h"
#include "rules/position.h"
#include "rules/rule_set.h"

namespace cassino::viewer {

using nlohmann::json;

namespace {

json Cards(CardSet cards) {
  json out = json::array();
  for (const Card c : cards) out.push_back(c.ToString());
  return out;
}

// "7H 8C" (or "-") as a JSON array of cards.
json CardWords(absl::string_view text) {
  absl::StatusOr<CardSet> cards = CardSet::Parse(text);
  return cards.ok() ? Cards(*cards) : json::array();
}

// "standard", or "standard" and the options that differ from it; the text
// as stored if it does not parse.
std::string RulesShort(const std::string& text) {
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(text);
  if (!rules.ok()) return text;
  const std::string diff = RulesDiff(*rules);
  return diff.empty() ? "standard" : absl::StrCat("standard ", diff);
}

json TotalsArray(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  return j.is_array() ? j : json::array();
}

// The board after an event, as the reveal allows.
json PositionJson(const recorder::ReplayedGame& state, Reveal reveal,
                  int64_t at_us) {
  const Game& g = state.game;
  const Position& p = g.position();
  json table = {{"loose", Cards(p.table.loose)}, {"builds", json::array()}};
  for (const Build& b : p.table.builds) {
    table["builds"].push_back({{"cards", Cards(b.cards)},
                               {"value", b.value},
                               {"controller", b.controller},
                               {"multiple", b.multiple}});
  }
  json sizes = json::array();
  json hands = json::array();
  for (const CardSet hand : p.hands) {
    sizes.push_back(hand.size());
    hands.push_back(Cards(hand));
  }
  json captured = json::array();
  for (const CardSet pile : g.piles()) captured.push_back(pile.size());
  json sweeps = json::array();
  for (size_t side = 0; side < g.piles().size(); ++side) {
    sweeps.push_back(std::count_if(
        g.sweeps().begin(), g.sweeps().end(),
        [&](const Sweep& s) { return s.side == static_cast<int>(side); }));
  }
  json out = {{"turn", g.turn()},
              {"round", g.round()},
              {"deal", g.deal()},
              {"dealer", g.dealer()},
              {"to_move", g.over() ? -1 : g.to_move()},
              {"at_us", at_us},
              {"table", std::move(table)},
              {"hand_sizes", std::move(sizes)},
              {"captured", std::move(captured)},
              {"sweeps", std::move(sweeps)},
              {"stock", g.stock_size()},
              {"totals", g.totals()},
              {"bank_ms", state.bank_left_ms},
              {"rejects_so_far", state.illegal_count}};
  if (reveal == Reveal::kOmniscient) out["hands"] = std::move(hands);
  return out;
}

json RoundJson(const recorder::RoundFields& r) {
  json items = json::array();
  for (const recorder::RoundFields::Item& i : r.items) {
    json item = {{"kind", i.kind}, {"side", i.side}, {"points", i.points}};
    if (!i.card.empty()) item["card"] = i.card;
    items.push_back(std::move(item));
  }
  json sides = json::array();
  for (const recorder::RoundFields::Side& s : r.sides) {
    sides.push_back({{"cards", s.cards},
                     {"spades", s.spades},
                     {"big_cassino", s.big_cassino},
                     {"little_cassino", s.little_cassino},
                     {"aces", s.aces},
                     {"sweeps", s.sweeps},
                     {"points", s.points}});
  }
  return {{"round", r.round},
          {"dealer", r.dealer},
          {"items", std::move(items)},
          {"sides", std::move(sides)},
          {"leftovers", CardWords(r.leftovers)},
          {"leftover_side", r.leftover_side},
          {"builds_left", r.builds_left},
          {"all_eleven_side", r.all_eleven_side},
          {"totals_before", r.totals_before},
          {"totals_after", r.totals_after}};
}

// Walks the replay, collecting positions and what the events say.
class ViewBuilder {
 public:
  explicit ViewBuilder(Reveal reveal) : reveal_(reveal) {}

  // Replay has read every payload it passes on; one that does not read
  // adds nothing here.
  void Observe(const recorder::Event& e, const recorder::ReplayedGame& state) {
    last_at_us_ = e.at_us;
    if (e.kind == recorder::EventKind::kCreate) {
      positions_.push_back(PositionJson(state, reveal_, e.at_us));
      sides_ = static_cast<int>(state.game.totals().size());
      return;
    }
    if (!f_.Read(e.kind, e.payload).ok()) return;
    switch (e.kind) {
      case recorder::EventKind::kCreate:
        break;
      case recorder::EventKind::kDeal:
        decks_.push_back({{"round", f_.deal.round}, {"deck", f_.deal.deck}});
        break;
      case recorder::EventKind::kReject: {
        json r = {{"seat", f_.reject.seat},
                  {"elapsed_ms", f_.reject.elapsed_ms}};
        // A refused submission may name a card its seat holds (and the
        // reason may say why it cannot be played).
        if (reveal_ == Reveal::kOmniscient) {
          r["submitted"] = f_.reject.submitted;
          r["reason"] = f_.reject.reason;
        }
        rejects_.push_back(std::move(r));
        break;
      }
      case recorder::EventKind::kMove: {
        json pos = PositionJson(state, reveal_, e.at_us);
        pos["move"] = {{"seat", f_.move.seat},
                       {"text", f_.move.move},
                       {"round", f_.move.round},
                       {"elapsed_ms", f_.move.elapsed_ms}};
        pos["rejects"] = std::exchange(rejects_, json::array());
        positions_.push_back(std::move(pos));
        break;
      }
      case recorder::EventKind::kRound:
        rounds_.push_back(RoundJson(f_.round));
        break;
      case recorder::EventKind::kForfeit:
        forfeit_json_ = {{"seat", f_.forfeit.seat},
                         {"reason", f_.forfeit.reason},
                         {"detail", f_.forfeit.detail},
                         {"at_us", e.at_us}};
        positions_.back()["to_move"] = -1;
        // The submissions refused since the last move count too.
        positions_.back()["rejects_so_far"] = state.illegal_count;
        break;
      case recorder::EventKind::kEnd:
        result_ = {{"winner", f_.end.winner},
                   {"reason", f_.end.reason},
                   {"totals", f_.end.totals},
                   {"forfeiting_seat", f_.end.forfeiting_seat},
                   {"detail", f_.end.detail}};
        seed_ = f_.end.seed;
        positions_.back()["to_move"] = -1;
        break;
      case recorder::EventKind::kAbort:
        result_ = {{"winner", -1},
                   {"reason", "aborted"},
                   {"totals", state.game.totals()},
                   {"forfeiting_seat", -1},
                   {"detail", f_.abort.detail}};
        positions_.back()["to_move"] = -1;
        positions_.back()["rejects_so_far"] = state.illegal_count;
        break;
    }
  }

  void Fill(json& out) {
    out["positions"] = std::move(positions_);
    out["rounds"] = std::move(rounds_);
    out["result"] = std::move(result_);
    out["forfeit"] = std::move(forfeit_json_);
    out["sides"] = sides_;
    out["last_event_us"] = last_at_us_;
    // Submissions refused at the turn now being played.
    out["pending_rejects"] = std::move(rejects_);
    if (reveal_ == Reveal::kOmniscient) {
      out["decks"] = std::move(decks_);
      if (!seed_.empty()) out["seed"] = seed_;
    }
  }

 private:
  const Reveal reveal_;
  json positions_ = json::array();
  json rounds_ = json::array();
  json decks_ = json::array();
  json rejects_ = json::array();
  json result_ = nullptr;
  json forfeit_json_ = nullptr;
  std::string seed_;
  int sides_ = 0;
  int64_t last_at_us_ = 0;
  recorder::EventFields f_;
};

}  // namespace

std::string DumpJson(const json& value) {
  const std::string text =
      value.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xe2' && i + 2 < text.size() && text[i + 1] == '\x80' &&
               (text[i + 2] == '\xa8' || text[i + 2] == '\xa9')) {
      out += text[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

json ListingJson(const recorder::GameSummary& g) {
  json seats = json::array();
  for (size_t s = 0; s < g.bots.size(); ++s) {
    seats.push_back({{"bot", g.bots[s]},
                     {"account", s < g.accounts.size() ? g.accounts[s] : ""}});
  }
  json out = {{"game_id", g.game_id},
              {"label", g.label},
              {"rules", g.rules},
              {"rules_short", RulesShort(g.rules)},
              {"seats", std::move(seats)},
              {"status", std::string(recorder::GameStatusName(g.status))},
              {"created_us", g.created_us},
              {"finished_us", g.finished_us}};
  if (g.status != recorder::GameStatus::kRunning) {
    out["winner"] = g.winner;
    out["end_reason"] = g.end_reason;
    out["totals"] = g.totals;
  } else if (!g.totals.empty()) {
    out["totals"] = g.totals;  // after the rounds scored so far
  }
  return out;
}

json GameJson(const recorder::StoredGame& game, const RevealDecision& reveal,
              const std::optional<verify::Failure>& verdict) {
  // Seats a person played: the create event says so.
  recorder::GameHeader created;
  if (game.events.empty() || game.events[0].kind != "create" ||
      !recorder::ParseCreatePayload(game.events[0].payload, &created).ok()) {
    created.seats.clear();
  }
  json seats = json::array();
  for (size_t s = 0; s < game.bots.size(); ++s) {
    json seat = {{"bot", game.bots[s]},
                 {"account", s < game.accounts.size() ? game.accounts[s] : ""}};
    if (s < created.seats.size() && created.seats[s].human) {
      seat["human"] = true;
    }
    seats.push_back(std::move(seat));
  }
  json out = {
      {"game_id", game.game_id},
      {"label", game.label},
      {"rules", game.rules},
      {"rules_short", RulesShort(game.rules)},
      {"seats", std::move(seats)},
      {"clock",
       {{"per_move_ms", game.per_move_ms},
        {"bank_ms", game.bank_ms},
        {"max_illegal", game.max_illegal}}},
      {"status", game.status},
      {"created_us", game.created_us},
      {"finished_us", game.finished_us.value_or(0)},
      {"commitment", game.commitment},
      {"events", game.events.size()},
      {"view", RevealName(reveal.reveal)},
      {"hidden_reason", reveal.why},
  };
  json verified = {{"ok", !verdict.has_value()}};
  if (verdict.has_value()) {
    verified["what"] = verdict->what;
    verified["seq"] = verdict->seq;
    verified["round"] = verdict->round;
    verified["turn"] = verdict->turn;
    // The compared values may be a deck or a seed.
    if (reveal.reveal == Reveal::kOmniscient) {
      verified["expected"] = verdict->expected;
      verified["recorded"] = verdict->recorded;
    }
  }
  out["verified"] = std::move(verified);

  ViewBuilder builder(reveal.reveal);
  std::string error;
  absl::StatusOr<recorder::GameRecord> record = recorder::ToRecord(game);
  if (!record.ok()) {
    error = std::string(record.status().message());
  } else {
    // The engine deals from the seed the database keeps (or the end
    // event's); what it deals is shown only as the reveal allows.
    absl::StatusOr<recorder::ReplayedGame> replayed = recorder::Replay(
        *record,
        [&](const recorder::Event& e, const recorder::ReplayedGame& state) {
          builder.Observe(e, state);
        });
    if (!replayed.ok()) error = std::string(replayed.status().message());
  }
  builder.Fill(out);
  if (!error.empty()) out["replay_error"] = error;
  return out;
}

json TournamentJson(const TournamentListing& t,
                    const std::vector<ScheduledGame>& schedule,
                    const SchedulePage& page) {
  json games = json::array();
  json games_next = nullptr;
  std::vector<recorder::StandingGame> finished;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < t.participants.size(); ++i) {
    index.emplace(t.participants[i], i);
  }
  const size_t n = t.participants.size();
  // [i][j] = {wins, draws, losses} of i against j.
  std::vector<std::vector<std::array<int, 3>>> cross(
      n, std::vector<std::array<int, 3>>(n, {0, 0, 0}));
  // Duplicate pairs: games 2m and 2m+1 deal the same cards with the seats
  // swapped. pairs[i][j] = {wins, draws, losses} of participant i's pairs
  // against j (a pair won: more points, a win 1 and a draw 1/2, over its
  // two games).
  std::vector<std::vector<std::array<int, 3>>> pairs(
      n, std::vector<std::array<int, 3>>(n, {0, 0, 0}));
  const ScheduledGame* first_of_pair = nullptr;
  int done = 0;
  int running = 0;
  for (const ScheduledGame& g : schedule) {
    const std::string status = g.status.empty() ? "pending" : g.status;
    json entry = {{"index", g.index},
                  {"seats", g.seats},
                  {"game_id", g.game_id},
                  {"status", status}};
    running += status == "running";
    if (status == "running" && !g.running_totals.empty()) {
      entry["totals"] = g.running_totals;  // after the rounds scored so far
    }
    if (t.duplicate) {
      entry["pair"] = g.index / 2;
      if (g.index % 2 == 0) {
        first_of_pair = status == "finished" ? &g : nullptr;
      } else if (first_of_pair != nullptr && status == "finished" &&
                 first_of_pair->index + 1 == g.index && g.seats.size() == 2 &&
                 first_of_pair->seats.size() == 2 &&
                 g.seats[0] == first_of_pair->seats[1] &&
                 g.seats[1] == first_of_pair->seats[0]) {
        // Points of the first game's seat 0 over the pair, in halves.
        const auto halves = [](int winner, int seat) {
          return winner == seat ? 2 : winner < 0 ? 1 : 0;
        };
        const int a = halves(first_of_pair->winner, 0) + halves(g.winner, 1);
        const auto ia = index.find(first_of_pair->seats[0]);
        const auto ib = index.find(first_of_pair->seats[1]);
        if (ia != index.end() && ib != index.end()) {
          const int outcome = a > 2 ? 0 : a == 2 ? 1 : 2;
          ++pairs[ia->second][ib->second][outcome];
          ++pairs[ib->second][ia->second][2 - outcome];
        }
        entry["pair_points"] = {a / 2.0, 2 - a / 2.0};
      }
    }
    if (status == "finished") {
      ++done;
      entry["winner"] = g.winner;
      entry["totals"] = TotalsArray(g.totals);
      recorder::StandingGame sg{g.seats, g.forfeits, g.winner, {}};
      for (const json& v : entry["totals"]) {
        sg.totals.push_back(v.is_number_integer() ? v.get<int>() : 0);
      }
      if (sg.forfeits.size() != g.seats.size()) {
        sg.forfeits.assign(g.seats.size(), 0);
      }
      finished.push_back(std::move(sg));
      // The crosstable pairs two-seat games.
      const auto a = g.seats.size() == 2 ? index.find(g.seats[0]) : index.end();
      const auto b = g.seats.size() == 2 ? index.find(g.seats[1]) : index.end();
      if (a != index.end() && b != index.end() && a->second != b->second) {
        const int outcome_a = g.winner == 0 ? 0 : g.winner == 1 ? 2 : 1;
        ++cross[a->second][b->second][outcome_a];
        ++cross[b->second][a->second][2 - outcome_a];
      }
    } else if (status == "aborted") {
      ++done;
    }
    if (g.index > page.after) {
      if (static_cast<int>(games.size()) < page.limit) {
        games.push_back(std::move(entry));
      } else if (games_next.is_null()) {
        games_next = games.back()["index"];
      }
    }
  }
  json standings = json::array();
  for (const recorder::Standing& s :
       recorder::ComputeStandings(t.participants, finished)) {
    standings.push_back({{"rank", s.rank},
                         {"bot", s.bot},
                         {"games", s.games},
                         {"wins", s.wins},
                         {"losses", s.losses},
                         {"draws", s.draws},
                         {"forfeits", s.forfeits},
                         {"score", s.score},
                         {"points_for", s.points_for},
                         {"points_against", s.points_against}});
  }
  const auto table = [n](const auto& cells) {
    json out = json::array();
    for (size_t i = 0; i < n; ++i) {
      json row = json::array();
      for (size_t j = 0; j < n; ++j) {
        row.push_back({{"wins", cells[i][j][0]},
                       {"draws", cells[i][j][1]},
                       {"losses", cells[i][j][2]}});
      }
      out.push_back(std::move(row));
    }
    return out;
  };
  json crosstable = table(cross);
  json out = {{"name", t.name},
              {"participants", t.participants},
              {"format", t.format},
              {"games_per_pairing", t.games_per_pairing},
              {"duplicate", t.duplicate},
              {"rules", t.rules},
              {"rules_short", t.rules.empty() ? "" : RulesShort(t.rules)},
              {"status", t.status},
              {"reason", t.reason},
              {"created_us", t.created_us},
              {"ended_us", t.ended_us},
              {"scheduled", t.scheduled},
              {"ended_games", done},
              {"running_games", running},
              {"games", std::move(games)},
              {"games_next", std::move(games_next)},
              {"games_total", schedule.size()},
              {"standings", std::move(standings)},
              {"crosstable", std::move(crosstable)}};
  if (t.duplicate) out["pair_crosstable"] = table(pairs);
  return out;
}

}  // namespace cassino::viewer
