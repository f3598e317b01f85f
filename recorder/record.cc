#include "recorder/record.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace cassino::recorder {
namespace {

using Json = nlohmann::json;

// Every payload is written by this one function: compact, keys sorted (the
// json object is a std::map), UTF-8 as is, and invalid UTF-8 (a bot may send
// anything) replaced by U+FFFD rather than throwing.
std::string Dump(const Json& json) {
  return json.dump(-1, ' ', /*ensure_ascii=*/false,
                   Json::error_handler_t::replace);
}

// Parses a stored payload; never throws.
absl::StatusOr<Json> ParsePayload(const Event& event) {
  Json json = Json::parse(event.payload, /*cb=*/nullptr,
                          /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat("event ", event.seq, " (", EventKindName(event.kind),
                     "): payload is not a JSON object"));
  }
  return json;
}

// Typed field access that reports a missing or mistyped field as a Status.
absl::StatusOr<int64_t> IntField(const Json& json, const char* name,
                                 const Event& event) {
  auto it = json.find(name);
  if (it == json.end() || !it->is_number_integer()) {
    return absl::InvalidArgumentError(
        absl::StrCat("event ", event.seq, " (", EventKindName(event.kind),
                     "): field '", name, "' is missing or not an integer"));
  }
  return it->get<int64_t>();
}

absl::StatusOr<std::string> StringField(const Json& json, const char* name,
                                        const Event& event) {
  auto it = json.find(name);
  if (it == json.end() || !it->is_string()) {
    return absl::InvalidArgumentError(
        absl::StrCat("event ", event.seq, " (", EventKindName(event.kind),
                     "): field '", name, "' is missing or not a string"));
  }
  return it->get<std::string>();
}

absl::Status EventError(const Event& event, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(
      "event ", event.seq, " (", EventKindName(event.kind), "): ", what));
}

Json RoundJson(const RoundResult& round) {
  Json items = Json::array();
  for (const ScoreItem& item : round.score.items) {
    Json j = {{"kind", std::string(ScoreItemName(item.kind))},
              {"side", item.side},
              {"points", item.points}};
    if (ScoreItemHasCard(item.kind)) j["card"] = item.card.ToString();
    items.push_back(std::move(j));
  }
  Json sides = Json::array();
  for (const SideTally& t : round.score.sides) {
    sides.push_back({{"cards", t.cards},
                     {"spades", t.spades},
                     {"big_cassino", t.big_cassino},
                     {"little_cassino", t.little_cassino},
                     {"aces", t.aces},
                     {"sweeps", t.sweeps},
                     {"points", t.points}});
  }
  return {{"round", round.round},
          {"dealer", round.dealer},
          {"leftovers", round.leftovers.ToString()},
          {"leftover_side", round.leftover_side},
          {"builds_left", round.builds_left},
          {"all_eleven_side", round.score.all_eleven_side},
          {"items", std::move(items)},
          {"sides", std::move(sides)},
          {"totals_before", round.totals_before},
          {"totals_after", round.totals_after}};
}

}  // namespace

absl::string_view EventKindName(EventKind kind) {
  switch (kind) {
    case EventKind::kCreate:
      return "create";
    case EventKind::kDeal:
      return "deal";
    case EventKind::kMove:
      return "move";
    case EventKind::kReject:
      return "reject";
    case EventKind::kRound:
      return "round";
    case EventKind::kForfeit:
      return "forfeit";
    case EventKind::kEnd:
      return "end";
    case EventKind::kAbort:
      return "abort";
  }
  return "?";
}

absl::StatusOr<EventKind> ParseEventKind(absl::string_view name) {
  // The most frequent kinds first (a game is mostly moves).
  for (EventKind kind :
       {EventKind::kMove, EventKind::kDeal, EventKind::kRound,
        EventKind::kCreate, EventKind::kReject, EventKind::kForfeit,
        EventKind::kEnd, EventKind::kAbort}) {
    if (name == EventKindName(kind)) return kind;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown event kind '", name, "'"));
}

absl::string_view GameStatusName(GameStatus status) {
  switch (status) {
    case GameStatus::kRunning:
      return "running";
    case GameStatus::kFinished:
      return "finished";
    case GameStatus::kAborted:
      return "aborted";
  }
  return "?";
}

Digest ChainHash(const Digest& previous, EventKind kind,
                 absl::string_view payload) {
  const absl::string_view name = EventKindName(kind);
  static constexpr uint8_t kZero[1] = {0};
  return Sha256({previous, TextBytes(name), kZero, TextBytes(payload)});
}

std::string CreatePayload(const GameHeader& header) {
  Json seats = Json::array();
  for (const SeatInfo& seat : header.seats) {
    seats.push_back({{"bot_name", seat.bot_name}});
  }
  return Dump({{"game_id", header.game_id},
               {"rules", header.rules},
               {"seats", std::move(seats)},
               {"commitment", header.commitment},
               {"explicit_decks", header.explicit_decks},
               {"clock",
                {{"per_move_ms", header.clock.per_move_ms},
                 {"bank_ms", header.clock.bank_ms},
                 {"max_illegal", header.clock.max_illegal}}},
               {"label", header.label},
               {"created_us", header.created_us}});
}

std::string DealPayload(int round, const Deck& deck) {
  return Dump({{"round", round}, {"deck", DeckToString(deck)}});
}

std::string MovePayload(const PlayedMove& move, int64_t elapsed_ms) {
  return Dump({{"turn", move.turn},
               {"round", move.round},
               {"seat", move.seat},
               {"move", move.move.ToString()},
               {"elapsed_ms", elapsed_ms}});
}

std::string RejectPayload(int turn, int seat, absl::string_view submitted,
                          absl::string_view reason, int64_t elapsed_ms) {
  return Dump({{"turn", turn},
               {"seat", seat},
               {"submitted", std::string(submitted)},
               {"reason", std::string(reason)},
               {"elapsed_ms", elapsed_ms}});
}

std::string RoundPayload(const RoundResult& round) {
  return Dump(RoundJson(round));
}

std::string ForfeitPayload(int seat, absl::string_view reason,
                           absl::string_view detail) {
  return Dump({{"seat", seat},
               {"reason", std::string(reason)},
               {"detail", std::string(detail)}});
}

std::string EndPayload(const GameResult& result, absl::string_view seed_hex) {
  return Dump({{"winner", result.winner},
               {"reason", std::string(GameEndReasonName(result.reason))},
               {"totals", result.totals},
               {"forfeiting_seat", result.forfeiting_seat},
               {"detail", result.detail},
               {"seed", std::string(seed_hex)}});
}

std::string AbortPayload(absl::string_view detail) {
  return Dump({{"detail", std::string(detail)}});
}

std::vector<EventDraft> ConsequenceEvents(const Game& game,
                                          size_t rounds_before,
                                          int round_before,
                                          absl::string_view seed_hex) {
  std::vector<EventDraft> events;
  for (size_t r = rounds_before; r < game.rounds().size(); ++r) {
    events.push_back({EventKind::kRound, RoundPayload(game.rounds()[r])});
  }
  if (game.over()) {
    events.push_back({EventKind::kEnd, EndPayload(*game.result(), seed_hex)});
  } else if (game.round() != round_before) {
    events.push_back(
        {EventKind::kDeal, DealPayload(game.round(), game.deck())});
  }
  return events;
}

absl::StatusOr<RuleSet> HeaderRules(const GameHeader& header) {
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(header.rules);
  if (!rules.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "game ", header.game_id, ": rules: ", rules.status().message()));
  }
  return rules;
}

absl::StatusOr<DeckSource> HeaderDecks(const GameHeader& header) {
  if (!header.seed.empty() && !header.explicit_decks.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "game ", header.game_id, " has both a seed and explicit decks"));
  }
  if (!header.explicit_decks.empty()) {
    std::vector<Deck> decks;
    for (size_t i = 0; i < header.explicit_decks.size(); ++i) {
      absl::StatusOr<Deck> deck = ParseDeck(header.explicit_decks[i]);
      if (!deck.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("game ", header.game_id, ": explicit deck ", i + 1,
                         ": ", deck.status().message()));
      }
      decks.push_back(*std::move(deck));
    }
    return DeckSource::Explicit(std::move(decks));
  }
  if (header.seed.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("game ", header.game_id,
                     " has neither a seed (it may still be secret) nor "
                     "explicit decks"));
  }
  absl::StatusOr<Seed> seed = ParseSeed(header.seed);
  if (!seed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", header.game_id, ": ", seed.status().message()));
  }
  if (!header.commitment.empty() && absl::AsciiStrToLower(header.commitment) !=
                                        ToHex(SeedCommitment(*seed))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "game ", header.game_id, ": the seed does not match the commitment"));
  }
  return DeckSource::FromSeed(*seed);
}

absl::StatusOr<ReplayedGame> Replay(const GameRecord& record) {
  const GameHeader& header = record.header;
  absl::StatusOr<RuleSet> rules = HeaderRules(header);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<DeckSource> decks = HeaderDecks(header);
  if (!decks.ok()) return decks.status();
  absl::StatusOr<Game> game = Game::Create(*rules, *std::move(decks));
  if (!game.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", header.game_id, ": ", game.status().message()));
  }
  const int players = rules->players;
  ReplayedGame out{*std::move(game),
                   std::vector<int64_t>(players, header.clock.bank_ms),
                   std::vector<int>(players, 0), header.created_us};
  Game& g = out.game;

  // Charges the time beyond the free per-move time to the seat's bank. Only
  // accepted moves are charged, with the time from the turn's start: a
  // rejected submission is retried within the same turn's clock.
  auto charge = [&](int seat, int64_t elapsed_ms) {
    out.bank_left_ms[seat] -=
        std::max<int64_t>(0, elapsed_ms - header.clock.per_move_ms);
  };
  auto check_seat = [&](const Event& event,
                        int64_t seat) -> absl::StatusOr<int> {
    if (seat < 0 || seat >= players) {
      return EventError(event, absl::StrCat("seat ", seat, " out of range"));
    }
    return static_cast<int>(seat);
  };

  for (size_t i = 0; i < record.events.size(); ++i) {
    const Event& event = record.events[i];
    if (event.seq != static_cast<int64_t>(i)) {
      return absl::InvalidArgumentError(
          absl::StrCat("event ", i, " has seq ", event.seq, "; expected ", i));
    }
    if ((i == 0) != (event.kind == EventKind::kCreate)) {
      return EventError(event, i == 0 ? "the first event must be create"
                                      : "create may only be the first event");
    }
    out.last_event_us = event.at_us;
    if (event.kind == EventKind::kCreate) continue;
    absl::StatusOr<Json> json = ParsePayload(event);
    if (!json.ok()) return json.status();

    switch (event.kind) {
      case EventKind::kCreate:
        break;
      case EventKind::kDeal: {
        absl::StatusOr<int64_t> round = IntField(*json, "round", event);
        if (!round.ok()) return round.status();
        absl::StatusOr<std::string> deck = StringField(*json, "deck", event);
        if (!deck.ok()) return deck.status();
        if (g.over()) return EventError(event, "deal after the game ended");
        if (*round != g.round()) {
          return EventError(
              event, absl::StrCat("deal for round ", *round,
                                  " but the game is in round ", g.round()));
        }
        if (*deck != DeckToString(g.deck())) {
          return EventError(event,
                            absl::StrCat("the recorded deck of round ", *round,
                                         " differs from the engine's"));
        }
        break;
      }
      case EventKind::kMove: {
        absl::StatusOr<int64_t> turn = IntField(*json, "turn", event);
        if (!turn.ok()) return turn.status();
        absl::StatusOr<int64_t> seat = IntField(*json, "seat", event);
        if (!seat.ok()) return seat.status();
        absl::StatusOr<int64_t> elapsed = IntField(*json, "elapsed_ms", event);
        if (!elapsed.ok()) return elapsed.status();
        absl::StatusOr<std::string> text = StringField(*json, "move", event);
        if (!text.ok()) return text.status();
        absl::StatusOr<Move> move = Move::Parse(*text);
        if (!move.ok()) {
          return EventError(
              event,
              absl::StrCat("move '", *text, "': ", move.status().message()));
        }
        if (*turn != g.turn()) {
          return EventError(
              event, absl::StrCat("turn ", *turn, " but the game is at turn ",
                                  g.turn()));
        }
        if (*seat != g.to_move()) {
          return EventError(event,
                            absl::StrCat("seat ", *seat, " moved but seat ",
                                         g.to_move(), " is to move"));
        }
        if (auto r = json->find("round"); r != json->end() &&
                                          r->is_number_integer() &&
                                          r->get<int64_t>() != g.round()) {
          return EventError(
              event, absl::StrCat("round ", r->get<int64_t>(),
                                  " but the game is in round ", g.round()));
        }
        if (absl::Status s = g.Play(*move); !s.ok()) {
          return EventError(
              event, absl::StrCat("illegal move '", *text, "': ", s.message()));
        }
        charge(static_cast<int>(*seat), *elapsed);
        break;
      }
      case EventKind::kReject: {
        absl::StatusOr<int64_t> seat_field = IntField(*json, "seat", event);
        if (!seat_field.ok()) return seat_field.status();
        absl::StatusOr<int> seat = check_seat(event, *seat_field);
        if (!seat.ok()) return seat.status();
        ++out.illegal_count[*seat];
        break;
      }
      case EventKind::kRound: {
        absl::StatusOr<int64_t> round = IntField(*json, "round", event);
        if (!round.ok()) return round.status();
        if (*round < 1 || *round > static_cast<int64_t>(g.rounds().size())) {
          return EventError(
              event, absl::StrCat("round ", *round, " has not been played"));
        }
        if (*json != RoundJson(g.rounds()[*round - 1])) {
          return EventError(event,
                            absl::StrCat("the recorded score of round ", *round,
                                         " differs from the engine's"));
        }
        break;
      }
      case EventKind::kForfeit: {
        absl::StatusOr<int64_t> seat_field = IntField(*json, "seat", event);
        if (!seat_field.ok()) return seat_field.status();
        absl::StatusOr<int> seat = check_seat(event, *seat_field);
        if (!seat.ok()) return seat.status();
        std::string detail;
        if (auto d = json->find("detail"); d != json->end() && d->is_string()) {
          detail = d->get<std::string>();
        }
        if (g.over()) return EventError(event, "forfeit after the game ended");
        g.Forfeit(*seat, std::move(detail));
        break;
      }
      case EventKind::kEnd: {
        if (!g.over()) {
          return EventError(event, "end recorded but the game is not over");
        }
        const GameResult& result = *g.result();
        absl::StatusOr<int64_t> winner = IntField(*json, "winner", event);
        if (!winner.ok()) return winner.status();
        absl::StatusOr<std::string> reason =
            StringField(*json, "reason", event);
        if (!reason.ok()) return reason.status();
        auto totals = json->find("totals");
        if (*winner != result.winner ||
            *reason != GameEndReasonName(result.reason) ||
            totals == json->end() || *totals != Json(result.totals)) {
          return EventError(
              event, absl::StrCat("the recorded result differs from the "
                                  "engine's (winner ",
                                  result.winner, ", ",
                                  GameEndReasonName(result.reason), ")"));
        }
        break;
      }
      case EventKind::kAbort: {
        std::string detail;
        if (auto d = json->find("detail"); d != json->end() && d->is_string()) {
          detail = d->get<std::string>();
        }
        g.Abort(std::move(detail));
        break;
      }
    }
  }
  return out;
}

}  // namespace cassino::recorder
