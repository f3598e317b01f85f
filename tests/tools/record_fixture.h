// Test databases of game records written the way the referee writes them:
// engine games with seeded decks and random legal moves (RandomPlayer),
// events built with the recorder's payload builders and appended through
// Recorder::CreateGameSync / Append.

#ifndef CASSINO_TESTS_TOOLS_RECORD_FIXTURE_H_
#define CASSINO_TESTS_TOOLS_RECORD_FIXTURE_H_

#include <sqlite3.h>

#include <cstdint>
#include <future>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "recorder/payload.h"
#include "recorder/record.h"
#include "recorder/recorder.h"
#include "recorder/replay.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "tests/recorder/sql_util.h"
#include "tools/playout/random_playout.h"

namespace cassino::tools_testing {

using recorder::EventKind;

struct PendingEvent {
  EventKind kind;
  int64_t at_us;
  std::string payload;
};

// How a fixture game is played.
struct FixtureOptions {
  std::string rules = "players=2";  // RuleSet text (or a preset)
  uint8_t seed_fill = 1;            // seed: 32 bytes of this value...
  uint32_t seed_index = 0;          // ...hashed with this index
  bool explicit_decks = false;      // give the first decks explicitly
  int reject_every = 0;    // a rejected submission before every k-th move
  int stop_after = -1;     // stop after this many moves (game left running)
  int forfeit_after = -1;  // after this many moves the seat to move forfeits
  bool forfeit_illegal = false;  // ...by max_illegal illegal submissions
  int abort_after = -1;          // after this many moves the game is aborted
  // Per seat, the bot account playing it ("" or missing: none). The
  // accounts must exist in the database the game is written to.
  std::vector<std::string> accounts{};
  // Per seat, whether a person plays it (marked in the create event).
  std::vector<bool> humans{};
};

struct FixtureGame {
  recorder::GameHeader header;
  std::vector<PendingEvent> events;  // after `create`
};

inline Seed FixtureSeed(uint8_t fill, uint32_t index) {
  Seed base;
  base.fill(fill);
  return BatchGameSeed(base, index);
}

// Plays a game as the referee would record it.
inline FixtureGame PlayFixtureGame(const std::string& game_id,
                                   const FixtureOptions& opt) {
  FixtureGame out;
  recorder::GameHeader& h = out.header;
  h.game_id = game_id;
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(opt.rules);
  if (!rules.ok()) rules = RuleSet::Preset(opt.rules);
  h.rules = rules->ToString();
  for (int s = 0; s < rules->players; ++s) {
    h.seats.push_back(
        {absl::StrCat("bot", s), absl::StrCat("token", s),
         s < static_cast<int>(opt.accounts.size()) ? opt.accounts[s] : "",
         s < static_cast<int>(opt.humans.size()) && opt.humans[s]});
  }
  const Seed seed = FixtureSeed(opt.seed_fill, opt.seed_index);
  if (opt.explicit_decks) {
    for (uint32_t r = 1; r <= 3; ++r) {
      h.explicit_decks.push_back(
          DeckToString(ShuffledDeck(seed, r, rules->Pack())));
    }
  } else {
    h.seed = ToHex(seed);
    h.commitment = ToHex(SeedCommitment(seed));
  }
  h.clock = {1000, 5000, 5};
  h.label = "fixture";
  h.created_us = 1'700'000'000'000'000 + opt.seed_index;

  absl::StatusOr<DeckSource> decks = recorder::HeaderDecks(h);
  Game game = *Game::Create(*rules, *decks);
  RandomPlayer player(seed);
  int64_t now = h.created_us;
  auto add = [&](EventKind kind, std::string payload) {
    now += 1000;
    out.events.push_back({kind, now, std::move(payload)});
  };
  // What the referee writes after a change of state.
  auto consequences = [&](size_t rounds_before, int round_before) {
    for (recorder::EventDraft& e : recorder::ConsequenceEvents(
             game, rounds_before, round_before, h.seed)) {
      add(e.kind, std::move(e.payload));
    }
  };
  add(EventKind::kDeal, recorder::DealPayload(game.round(), game.deck()));
  int moves = 0;
  std::vector<int> rejects(rules->players, 0);
  while (!game.over()) {
    if (moves == opt.stop_after) return out;
    const int seat = game.to_move();
    if (moves == opt.abort_after) {
      game.Abort("aborted by the organiser");
      add(EventKind::kAbort,
          recorder::AbortPayload("aborted by the organiser"));
      return out;
    }
    if (moves == opt.forfeit_after) {
      const size_t rounds = game.rounds().size();
      const int round = game.round();
      if (opt.forfeit_illegal) {
        for (int i = rejects[seat]; i < h.clock.max_illegal; ++i) {
          add(EventKind::kReject,
              recorder::RejectPayload(game.turn(), seat, "take ZZ", "bad card",
                                      100));
        }
        const std::string detail =
            absl::StrCat("seat ", seat, " made ", h.clock.max_illegal,
                         " illegal submissions");
        game.Forfeit(seat, detail);
        add(EventKind::kForfeit,
            recorder::ForfeitPayload(seat, "illegal", detail));
      } else {
        const std::string detail =
            absl::StrCat("seat ", seat, " ran out of time");
        game.Forfeit(seat, detail);
        add(EventKind::kForfeit,
            recorder::ForfeitPayload(seat, "time", detail));
      }
      consequences(rounds, round);
      return out;
    }
    // Rejects count over the whole game; stay below the forfeit limit.
    if (opt.reject_every > 0 && moves % opt.reject_every == 0 &&
        rejects[seat] + 1 < h.clock.max_illegal) {
      ++rejects[seat];
      // A well-formed but illegal move: trailing a card the seat lacks.
      Card lacking;
      const CardSet visible =
          game.position().hands[seat] | game.position().table.AllCards();
      for (int i = 0; i < kDeckSize; ++i) {
        if (!visible.contains(Card::FromIndex(i))) {
          lacking = Card::FromIndex(i);
          break;
        }
      }
      add(EventKind::kReject,
          recorder::RejectPayload(game.turn(), seat,
                                  absl::StrCat("trail ", lacking.ToString()),
                                  "you do not hold that card", 300));
    }
    const Move move = player.Choose(game);
    const size_t rounds = game.rounds().size();
    const int round = game.round();
    game.PlayUnchecked(move);
    ++moves;
    add(EventKind::kMove,
        recorder::MovePayload(game.history().back(), 200 + moves % 7 * 50));
    consequences(rounds, round);
  }
  return out;
}

// Writes a game through the recorder, as the referee does.
inline absl::Status WriteGame(recorder::Recorder& rec, const FixtureGame& g) {
  if (absl::Status s = rec.CreateGameSync(g.header); !s.ok()) return s;
  std::vector<std::future<absl::Status>> done;
  for (const PendingEvent& e : g.events) {
    auto promise = std::make_shared<std::promise<absl::Status>>();
    done.push_back(promise->get_future());
    rec.Append(g.header.game_id, e.kind, e.at_us, e.payload,
               [promise](absl::Status s) { promise->set_value(std::move(s)); });
  }
  for (auto& f : done) {
    if (absl::Status s = f.get(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// Runs SQL on a database file directly (to corrupt it); returns the error.
inline std::string ExecSql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  char* err = nullptr;
  sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  std::string message = err != nullptr ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  return message;
}

// (Tests that tamper with event rows in SQL call UnpackToRows first.)
using ::cassino::recorder::testing::UnpackToRows;

// Recomputes and rewrites every hash of a game from its stored payloads (a
// forger who re-chains after editing).
inline void Rechain(const std::string& path, const std::string& game_id) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(db, "SELECT commitment FROM games WHERE game_id = ?1", -1,
                     &q, nullptr);
  sqlite3_bind_text(q, 1, game_id.c_str(), -1, SQLITE_TRANSIENT);
  Digest prev{};
  if (sqlite3_step(q) == SQLITE_ROW) {
    const std::string c =
        reinterpret_cast<const char*>(sqlite3_column_text(q, 0));
    if (!c.empty()) prev = *ParseSeed(c);
  }
  sqlite3_finalize(q);
  std::vector<std::pair<int64_t, std::string>> hashes;
  sqlite3_prepare_v2(
      db,
      "SELECT seq, kind, payload FROM events WHERE game_id = ?1 ORDER BY seq",
      -1, &q, nullptr);
  sqlite3_bind_text(q, 1, game_id.c_str(), -1, SQLITE_TRANSIENT);
  while (sqlite3_step(q) == SQLITE_ROW) {
    const std::string kind =
        reinterpret_cast<const char*>(sqlite3_column_text(q, 1));
    const std::string payload(
        reinterpret_cast<const char*>(sqlite3_column_text(q, 2)),
        sqlite3_column_bytes(q, 2));
    std::vector<uint8_t> bytes(prev.begin(), prev.end());
    bytes.insert(bytes.end(), kind.begin(), kind.end());
    bytes.push_back(0);
    bytes.insert(bytes.end(), payload.begin(), payload.end());
    prev = Sha256(bytes);
    hashes.emplace_back(sqlite3_column_int64(q, 0), ToHex(prev));
  }
  sqlite3_finalize(q);
  sqlite3_prepare_v2(
      db, "UPDATE events SET hash = ?3 WHERE game_id = ?1 AND seq = ?2", -1, &q,
      nullptr);
  for (const auto& [seq, hash] : hashes) {
    sqlite3_reset(q);
    sqlite3_bind_text(q, 1, game_id.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 2, seq);
    sqlite3_bind_text(q, 3, hash.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_step(q);
  }
  sqlite3_finalize(q);
  sqlite3_close(db);
}

}  // namespace cassino::tools_testing

#endif  // CASSINO_TESTS_TOOLS_RECORD_FIXTURE_H_
