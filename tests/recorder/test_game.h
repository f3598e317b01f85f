// Helpers shared by the recorder tests: headers and games played through the
// engine, with their events written the way the referee writes them.

#ifndef CASSINO_TESTS_RECORDER_TEST_GAME_H_
#define CASSINO_TESTS_RECORDER_TEST_GAME_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "recorder/payload.h"
#include "recorder/record.h"
#include "recorder/replay.h"
#include "rules/deal.h"
#include "rules/game.h"

namespace cassino::recorder::testing {

inline Seed TestSeed(uint8_t fill) {
  Seed seed;
  seed.fill(fill);
  return seed;
}

// A two-player standard game with a seed (or, with explicit=true, the
// seed's first two decks given explicitly).
inline GameHeader MakeHeader(const std::string& game_id, uint8_t fill = 7,
                             bool explicit_decks = false) {
  GameHeader h;
  h.game_id = game_id;
  h.rules = RuleSet::Standard().ToString();
  h.seats = {{"alpha", "aa11"}, {"beta", "bb22"}};
  const Seed seed = TestSeed(fill);
  if (explicit_decks) {
    h.explicit_decks = {DeckToString(ShuffledDeck(seed, 1)),
                        DeckToString(ShuffledDeck(seed, 2))};
  } else {
    h.seed = ToHex(seed);
    h.commitment = ToHex(SeedCommitment(seed));
  }
  h.clock = {1000, 5000, 3};
  h.label = "test-match";
  h.created_us = 1'700'000'000'000'000;
  return h;
}

struct PendingEvent {
  EventKind kind;
  int64_t at_us;
  std::string payload;
};

// Plays the header's game through the engine with a fixed policy and
// returns the events after `create` as the referee writes them: deal,
// moves, round results, the next deal, ..., end. Stops after `max_moves`
// moves (-1: play to the end). Every third move is preceded by a rejected
// submission; move i takes 400 + 300 * (i % 5) ms.
inline std::vector<PendingEvent> PlayEvents(const GameHeader& header,
                                            int max_moves = -1,
                                            Game* final_state = nullptr) {
  std::vector<PendingEvent> events;
  absl::StatusOr<RuleSet> rules = HeaderRules(header);
  absl::StatusOr<DeckSource> decks = HeaderDecks(header);
  EXPECT_TRUE(rules.ok() && decks.ok());
  absl::StatusOr<Game> created = Game::Create(*rules, *decks);
  EXPECT_TRUE(created.ok()) << created.status();
  Game game = *std::move(created);
  int64_t now = header.created_us;
  auto add = [&](EventKind kind, std::string payload) {
    now += 1000;
    events.push_back({kind, now, std::move(payload)});
  };
  add(EventKind::kDeal, DealPayload(game.round(), game.deck()));
  int moves = 0;
  while (!game.over() && (max_moves < 0 || moves < max_moves)) {
    const int64_t elapsed = 400 + 300 * (moves % 5);
    if (moves % 3 == 0) {
      add(EventKind::kReject, RejectPayload(game.turn(), game.to_move(),
                                            "take ZZ", "bad card", 1500));
    }
    std::vector<Move> legal = game.LegalMoves();
    // Prefer captures so that rounds score something interesting.
    const Move* pick = &legal[(moves * 7) % legal.size()];
    for (const Move& m : legal) {
      if (m.kind == MoveKind::kCapture) {
        pick = &m;
        break;
      }
    }
    const size_t rounds_before = game.rounds().size();
    const int round_before = game.round();
    EXPECT_TRUE(game.Play(*pick).ok());
    ++moves;
    add(EventKind::kMove, MovePayload(game.history().back(), elapsed));
    for (EventDraft& e :
         ConsequenceEvents(game, rounds_before, round_before, header.seed)) {
      add(e.kind, std::move(e.payload));
    }
  }
  if (final_state != nullptr) *final_state = std::move(game);
  return events;
}

// A whole record with hashes, as the recorder would store it.
inline GameRecord MakeRecord(const GameHeader& header,
                             const std::vector<PendingEvent>& events) {
  GameRecord r;
  r.header = header;
  Digest prev{};
  if (!header.commitment.empty()) prev = *ParseSeed(header.commitment);
  auto push = [&](EventKind kind, int64_t at_us, const std::string& payload) {
    prev = ChainHash(prev, kind, payload);
    r.events.push_back({static_cast<int64_t>(r.events.size()), kind, at_us,
                        payload, ToHex(prev)});
  };
  push(EventKind::kCreate, header.created_us, CreatePayload(header));
  for (const PendingEvent& e : events) push(e.kind, e.at_us, e.payload);
  for (const Event& e : r.events) {
    if (e.kind == EventKind::kEnd) r.status = GameStatus::kFinished;
    if (e.kind == EventKind::kAbort) r.status = GameStatus::kAborted;
  }
  return r;
}

}  // namespace cassino::recorder::testing

#endif  // CASSINO_TESTS_RECORDER_TEST_GAME_H_
