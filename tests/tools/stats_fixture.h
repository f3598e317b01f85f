// Test helper: plays engine games with chosen policies per seat and records
// them through the Recorder exactly as the referee does (create, deal,
// reject, move, round, forfeit, end / abort), returning what was played so
// that tests can compute the statistics they expect independently.

#ifndef CASSINO_TESTS_TOOLS_STATS_FIXTURE_H_
#define CASSINO_TESTS_TOOLS_STATS_FIXTURE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "recorder/payload.h"
#include "recorder/record.h"
#include "recorder/recorder.h"
#include "recorder/replay.h"
#include "rules/deal.h"
#include "rules/game.h"

namespace cassino::stats::testing {

// Chooses a legal move for the seat to move.
using Policy = std::function<Move(const Game&, std::mt19937_64&)>;

// Uniformly random legal move.
inline Move RandomMove(const Game& game, std::mt19937_64& rng) {
  std::vector<Move> legal = game.LegalMoves();
  return legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)];
}

// The capture taking the most table cards; without one, a random move.
inline Move GreedyMove(const Game& game, std::mt19937_64& rng) {
  std::vector<Move> legal = game.LegalMoves();
  const Move* best = nullptr;
  for (const Move& m : legal) {
    if (m.kind != MoveKind::kCapture) continue;
    if (best == nullptr || m.table.size() > best->table.size()) best = &m;
  }
  if (best != nullptr) return *best;
  return legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)];
}

struct SeatPlan {
  std::string bot;
  Policy policy = RandomMove;
  int64_t elapsed_base_ms = 100;  // move i of the seat takes base + i*37%100
  int reject_every = 0;           // a rejected submission before every Nth move
};

struct GamePlan {
  std::string game_id;
  std::string label;
  std::string rules = "standard";  // RuleSet::Parse text (players= added)
  std::vector<SeatPlan> seats;
  Seed seed{};
  bool explicit_decks = false;  // the seed's first 3 decks, given explicitly
  int64_t created_us = 0;
  uint64_t rng_seed = 1;
  // Ending early: after `stop_after_moves` moves (-1: play out), the game
  // is forfeited by `forfeit_seat` with `forfeit_reason`, aborted, or left
  // running.
  enum class Stop { kForfeit, kAbort, kRunning };
  int stop_after_moves = -1;
  Stop stop = Stop::kForfeit;
  int forfeit_seat = 0;
  std::string forfeit_reason = "time";
};

struct PlayedGame {
  GamePlan plan;
  recorder::GameStatus status = recorder::GameStatus::kRunning;
  std::optional<GameResult> result;
  std::vector<RoundResult> rounds;
  std::vector<std::pair<int, int64_t>> moves;  // (seat, elapsed_ms)
  std::vector<int> rejects;                    // per seat
};

// Plays `plan` and writes it to `rec`. Writes are queued asynchronously and
// the last one waited for, so the recorder commits them in groups.
inline absl::StatusOr<PlayedGame> PlayAndRecord(recorder::Recorder& rec,
                                                const GamePlan& plan) {
  using recorder::EventKind;
  PlayedGame out;
  out.plan = plan;
  out.rejects.assign(plan.seats.size(), 0);
  absl::StatusOr<RuleSet> rules =
      RuleSet::Parse(absl::StrCat(plan.rules, " players=", plan.seats.size()));
  if (!rules.ok()) return rules.status();
  recorder::GameHeader header;
  header.game_id = plan.game_id;
  header.rules = rules->ToString();
  for (const SeatPlan& s : plan.seats) {
    header.seats.push_back({s.bot, "00"});
  }
  if (plan.explicit_decks) {
    for (uint32_t r = 1; r <= 3; ++r) {
      header.explicit_decks.push_back(DeckToString(ShuffledDeck(plan.seed, r)));
    }
  } else {
    header.seed = ToHex(plan.seed);
    header.commitment = ToHex(SeedCommitment(plan.seed));
  }
  header.clock = {5000, 30000, 3};
  header.label = plan.label;
  header.created_us = plan.created_us;
  absl::StatusOr<DeckSource> decks = recorder::HeaderDecks(header);
  if (!decks.ok()) return decks.status();
  absl::StatusOr<Game> created = Game::Create(*rules, *decks);
  if (!created.ok()) return created.status();
  Game game = *std::move(created);
  if (absl::Status s = rec.CreateGameSync(header); !s.ok()) return s;

  // The events after `create`, written once the game has been played: all
  // queued but the last, which is written synchronously so that all are
  // committed when this returns.
  std::vector<recorder::EventDraft> events;
  auto append = [&](EventKind kind, std::string payload) {
    events.push_back({kind, std::move(payload)});
  };
  std::mt19937_64 rng(plan.rng_seed);
  std::vector<int> seat_moves(plan.seats.size(), 0);
  append(EventKind::kDeal, recorder::DealPayload(game.round(), game.deck()));
  int moves = 0;
  while (!game.over() &&
         (plan.stop_after_moves < 0 || moves < plan.stop_after_moves)) {
    const int seat = game.to_move();
    const SeatPlan& sp = plan.seats[seat];
    const int k = seat_moves[seat]++;
    if (sp.reject_every > 0 && k % sp.reject_every == 0) {
      append(EventKind::kReject,
             recorder::RejectPayload(game.turn(), seat, "take \"seat\":0 ZZ",
                                     "bad card", 50));
      ++out.rejects[seat];
    }
    const int64_t elapsed = sp.elapsed_base_ms + (k * 37) % 100;
    const Move move = sp.policy(game, rng);
    const size_t rounds_before = game.rounds().size();
    const int round_before = game.round();
    if (absl::Status s = game.Play(move); !s.ok()) return s;
    ++moves;
    out.moves.push_back({seat, elapsed});
    append(EventKind::kMove,
           recorder::MovePayload(game.history().back(), elapsed));
    for (recorder::EventDraft& e : recorder::ConsequenceEvents(
             game, rounds_before, round_before, header.seed)) {
      events.push_back(std::move(e));
    }
  }
  if (!game.over()) {
    switch (plan.stop) {
      case GamePlan::Stop::kForfeit: {
        const size_t rounds_before = game.rounds().size();
        const int round_before = game.round();
        append(EventKind::kForfeit,
               recorder::ForfeitPayload(plan.forfeit_seat, plan.forfeit_reason,
                                        "test forfeit"));
        game.Forfeit(plan.forfeit_seat, "test forfeit");
        for (recorder::EventDraft& e : recorder::ConsequenceEvents(
                 game, rounds_before, round_before, header.seed)) {
          events.push_back(std::move(e));
        }
        break;
      }
      case GamePlan::Stop::kAbort:
        game.Abort("test abort");
        append(EventKind::kAbort, recorder::AbortPayload("test abort"));
        break;
      case GamePlan::Stop::kRunning:
        // A last event to write synchronously.
        append(EventKind::kReject,
               recorder::RejectPayload(game.turn(), game.to_move(), "x", "bad",
                                       1));
        ++out.rejects[game.to_move()];
        break;
    }
  }
  if (game.over() && game.result()->reason == GameEndReason::kAborted) {
    out.status = recorder::GameStatus::kAborted;
  } else if (game.over()) {
    out.status = recorder::GameStatus::kFinished;
    out.result = game.result();
  }
  int64_t now = plan.created_us;
  absl::Status first_error;
  for (size_t i = 0; i + 1 < events.size(); ++i) {
    rec.Append(plan.game_id, events[i].kind, now += 1000,
               std::move(events[i].payload), [&first_error](absl::Status s) {
                 if (!s.ok() && first_error.ok()) first_error = s;
               });
  }
  const absl::Status last = rec.AppendSync(plan.game_id, events.back().kind,
                                           now + 1000, events.back().payload);
  if (!last.ok()) return last;
  if (!first_error.ok()) return first_error;
  out.rounds = game.rounds();
  return out;
}

}  // namespace cassino::stats::testing

#endif  // CASSINO_TESTS_TOOLS_STATS_FIXTURE_H_
