#include "recorder/replay.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "recorder/event_fields.h"
#include "recorder/payload.h"

namespace cassino::recorder {

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
  absl::StatusOr<RuleSet> rules = RuleSet::ParseRecorded(header.rules);
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
    // Each deck holds exactly the cards of the rules' pack.
    absl::StatusOr<RuleSet> rules = HeaderRules(header);
    if (!rules.ok()) return rules.status();
    const CardSet pack = rules->Pack();
    std::vector<Deck> decks;
    for (size_t i = 0; i < header.explicit_decks.size(); ++i) {
      absl::StatusOr<Deck> deck = ParseDeck(header.explicit_decks[i], pack);
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

namespace {

absl::Status EventError(const Event& event, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(
      "event ", event.seq, " (", EventKindName(event.kind), "): ", what));
}

// Plays one event (not create) into `out`; the header gives the clock.
absl::Status ReplayEvent(const GameHeader& header, const Event& event,
                         EventFields& f, ReplayedGame& out) {
  Game& g = out.game;
  const int players = static_cast<int>(out.bank_left_ms.size());
  auto unreadable = [&](const absl::Status& s) {
    return EventError(event, s.message());
  };
  auto seat_in_range = [&](int seat) {
    return seat >= 0 && seat < players
               ? absl::OkStatus()
               : EventError(event,
                            absl::StrCat("seat ", seat, " out of range"));
  };
  switch (event.kind) {
    case EventKind::kCreate:
      return EventError(event, "create may only be the first event");
    case EventKind::kDeal: {
      if (absl::Status s = ParseDealPayload(event.payload, &f.deal); !s.ok()) {
        return unreadable(s);
      }
      if (g.over()) return EventError(event, "deal after the game ended");
      if (f.deal.round != g.round()) {
        return EventError(
            event, absl::StrCat("deal for round ", f.deal.round,
                                " but the game is in round ", g.round()));
      }
      if (f.deal.deck != DeckToString(g.deck())) {
        return EventError(
            event, absl::StrCat("the recorded deck of round ", f.deal.round,
                                " differs from the engine's"));
      }
      return absl::OkStatus();
    }
    case EventKind::kMove: {
      const MoveFields& m = f.move;
      if (absl::Status s = ParseMovePayload(event.payload, &f.move); !s.ok()) {
        return unreadable(s);
      }
      absl::StatusOr<Move> move = Move::Parse(m.move);
      if (!move.ok()) {
        return EventError(event, absl::StrCat("move '", m.move,
                                              "': ", move.status().message()));
      }
      if (m.turn != g.turn()) {
        return EventError(
            event, absl::StrCat("turn ", m.turn, " but the game is at turn ",
                                g.turn()));
      }
      if (m.seat != g.to_move()) {
        return EventError(event,
                          absl::StrCat("seat ", m.seat, " moved but seat ",
                                       g.to_move(), " is to move"));
      }
      if (m.round != g.round()) {
        return EventError(
            event, absl::StrCat("round ", m.round, " but the game is in round ",
                                g.round()));
      }
      if (absl::Status s = g.Play(*move); !s.ok()) {
        return EventError(
            event, absl::StrCat("illegal move '", m.move, "': ", s.message()));
      }
      // Only accepted moves charge the bank, with the time from the turn's
      // start: a rejected submission is retried within the same turn.
      out.bank_left_ms[m.seat] -=
          std::max<int64_t>(0, m.elapsed_ms - header.clock.per_move_ms);
      return absl::OkStatus();
    }
    case EventKind::kReject: {
      if (absl::Status s = ParseRejectPayload(event.payload, &f.reject);
          !s.ok()) {
        return unreadable(s);
      }
      if (absl::Status s = seat_in_range(f.reject.seat); !s.ok()) return s;
      ++out.illegal_count[f.reject.seat];
      return absl::OkStatus();
    }
    case EventKind::kRound: {
      if (absl::Status s = ParseRoundPayload(event.payload, &f.round);
          !s.ok()) {
        return unreadable(s);
      }
      const int round = f.round.round;
      if (round < 1 || round > static_cast<int>(g.rounds().size())) {
        return EventError(
            event, absl::StrCat("round ", round, " has not been played"));
      }
      if (event.payload != RoundPayload(g.rounds()[round - 1])) {
        return EventError(event,
                          absl::StrCat("the recorded score of round ", round,
                                       " differs from the engine's"));
      }
      return absl::OkStatus();
    }
    case EventKind::kForfeit: {
      if (absl::Status s = ParseForfeitPayload(event.payload, &f.forfeit);
          !s.ok()) {
        return unreadable(s);
      }
      if (absl::Status s = seat_in_range(f.forfeit.seat); !s.ok()) return s;
      if (g.over()) return EventError(event, "forfeit after the game ended");
      g.Forfeit(f.forfeit.seat, f.forfeit.detail);
      return absl::OkStatus();
    }
    case EventKind::kEnd: {
      if (absl::Status s = ParseEndPayload(event.payload, &f.end); !s.ok()) {
        return unreadable(s);
      }
      if (!g.over()) {
        return EventError(event, "end recorded but the game is not over");
      }
      const GameResult& result = *g.result();
      if (f.end.winner != result.winner ||
          f.end.reason != GameEndReasonName(result.reason) ||
          f.end.totals != result.totals) {
        return EventError(event,
                          absl::StrCat("the recorded result differs from the "
                                       "engine's (winner ",
                                       result.winner, ", ",
                                       GameEndReasonName(result.reason), ")"));
      }
      return absl::OkStatus();
    }
    case EventKind::kAbort: {
      if (absl::Status s = ParseAbortPayload(event.payload, &f.abort);
          !s.ok()) {
        return unreadable(s);
      }
      g.Abort(f.abort.detail);
      return absl::OkStatus();
    }
  }
  return EventError(event, "unknown kind");
}

}  // namespace

absl::StatusOr<ReplayedGame> Replay(const GameRecord& record,
                                    const ReplayObserver& observer) {
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
  EventFields fields;
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
    if (i != 0) {
      if (absl::Status s = ReplayEvent(header, event, fields, out); !s.ok()) {
        return s;
      }
    }
    if (observer) observer(event, out);
  }
  return out;
}

}  // namespace cassino::recorder
