// What the referee tells seats and spectators under the flow options whose
// state is not visible from the table alone: `draw` (the drawn card is
// private to its mover), `initial_pairs` (the capture at the deal is
// public) and `pluck` (who has plucked this deal is public). The engine's
// replay of the game's record is the truth each message is checked against.

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "proto/convert.h"
#include "recorder/payload.h"
#include "recorder/record.h"
#include "recorder/replay.h"
#include "rules/game.h"
#include "tests/referee/test_referee.h"

namespace cassino::testing {
namespace {

// The game as the engine replays it from the referee's record (the referee
// must be stopped first).
Game GameFromRecord(const std::filesystem::path& db, const std::string& id) {
  absl::StatusOr<recorder::GameRecord> record = LoadRecord(db, id);
  EXPECT_TRUE(record.ok()) << record.status();
  absl::StatusOr<recorder::ReplayedGame> replayed = recorder::Replay(*record);
  EXPECT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_TRUE(replayed->game.over());
  return std::move(replayed->game);
}

// The engine's position before each turn of a finished game, replayed move
// by move from the same rules and decks.
std::vector<Position> PositionsBeforeEachTurn(const Game& done) {
  Game game = *Game::Create(done.rules(), done.decks());
  std::vector<Position> out;
  for (const PlayedMove& m : done.history()) {
    out.push_back(game.position());
    EXPECT_TRUE(game.Play(m.move).ok()) << m.move.ToString();
  }
  return out;
}

// Plays every seat of `game` to the end through the unary calls, each on
// its own thread (seat s with seed `seed + s`); returns what each was told.
std::vector<UnarySeatLog> PlayEverySeatUnary(TestReferee& referee,
                                             const v1::CreateGameResponse& game,
                                             uint64_t seed) {
  std::vector<UnarySeatLog> seats(game.tokens_size());
  std::vector<std::thread> bots;
  for (int seat = 0; seat < game.tokens_size(); ++seat) {
    bots.emplace_back([&, seat] {
      PlayUnarySeat(referee.stub(), game.tokens(seat).token(), game.game_id(),
                    seed + seat, nullptr, &seats[seat]);
    });
  }
  for (std::thread& t : bots) t.join();
  return seats;
}

// `truth` is a capture that took cards.
void ExpectInitialCapture(const v1::InitialCapture& proto,
                          const InitialCapture& truth,
                          const std::string& where) {
  std::vector<std::string> cards;
  for (Card c : truth.cards) cards.push_back(c.ToString());
  EXPECT_EQ(
      std::vector<std::string>(proto.cards().begin(), proto.cards().end()),
      cards)
      << where;
  EXPECT_EQ(proto.side(), truth.side) << where;
  EXPECT_EQ(proto.sweep(), truth.sweep) << where;
}

TEST(DrawApiTest, OnlyTheMoverIsToldTheCardItDrew) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  const v1::CreateGameResponse g = referee.Create("draw", 2, SeedHex(300));
  // Seat 0 plays over the Play stream, seat 1 over the unary calls, and a
  // spectator watches.
  SeatLog stream;
  UnarySeatLog unary;
  std::vector<v1::WatchGameResponse> watched;
  std::thread watcher(
      [&] { watched = WatchToEnd(referee.stub(), g.game_id()); });
  std::thread a(
      [&] { stream = PlayStreamSeat(referee.stub(), g.tokens(0).token(), 1); });
  std::thread b([&] {
    PlayUnarySeat(referee.stub(), g.tokens(1).token(), g.game_id(), 2, nullptr,
                  &unary);
  });
  a.join();
  b.join();
  watcher.join();
  referee.Stop();
  const Game done = GameFromRecord(dir / "cassino.db", g.game_id());
  const std::vector<PlayedMove>& truth = done.history();
  int drew = 0, stock_ran_out = 0;
  for (const PlayedMove& m : truth) (m.drew ? drew : stock_ran_out)++;
  ASSERT_GT(drew, 0);
  ASSERT_GT(stock_ran_out, 0);

  // The card `viewer` (a seat, or -1) must be told for `m`: the mover's
  // draw to the mover, nothing to anybody else.
  auto expected_drawn = [&](int turn, int viewer) {
    const PlayedMove& t = truth[turn];
    return t.drew && viewer == t.seat ? t.drawn.ToString() : std::string();
  };
  // Copies checked of moves that drew: the mover's own, another seat's, a
  // spectator's.
  int own = 0, other_seats = 0, spectators = 0;
  auto check = [&](const v1::PlayedMove& m, int viewer,
                   const std::string& where) {
    ASSERT_GE(m.turn(), 0);
    ASSERT_LT(m.turn(), static_cast<int>(truth.size()));
    const PlayedMove& t = truth[m.turn()];
    EXPECT_EQ(m.seat(), t.seat) << where;
    EXPECT_EQ(m.drew(), t.drew) << where << " turn " << m.turn();
    EXPECT_EQ(m.drawn(), expected_drawn(m.turn(), viewer))
        << where << ": turn " << m.turn() << " of seat " << t.seat
        << " as seen by " << viewer;
    if (t.drew) {
      ++(viewer == t.seat ? own : viewer >= 0 ? other_seats : spectators);
    }
  };
  int own_verdicts = 0;
  for (const v1::PlayResponse& m : stream.messages) {
    if (m.has_move_played()) check(m.move_played(), 0, "move_played");
    if (m.has_your_turn()) {
      for (const v1::PlayedMove& h :
           m.your_turn().observation().round_history()) {
        check(h, 0, "YourTurn round_history");
      }
      EXPECT_EQ(m.your_turn().observation().plucked_size(), 0);
    }
    if (m.has_verdict()) {
      EXPECT_EQ(m.verdict().drawn(), expected_drawn(m.verdict().turn(), 0))
          << "stream verdict of turn " << m.verdict().turn();
      own_verdicts += !m.verdict().drawn().empty();
    }
  }
  for (const v1::GetTurnResponse& t : unary.turns) {
    for (const v1::PlayedMove& h : t.observation().round_history()) {
      check(h, 1, "GetTurn round_history");
    }
  }
  for (const v1::SubmitMoveResponse& r : unary.answers) {
    EXPECT_EQ(r.verdict().drawn(), expected_drawn(r.verdict().turn(), 1))
        << "SubmitMove verdict of turn " << r.verdict().turn();
    own_verdicts += !r.verdict().drawn().empty();
  }
  bool ended = false;
  int spectator_moves = 0;
  for (const v1::WatchGameResponse& e : watched) {
    ended |= e.has_game_ended() || e.has_record();
    if (!ended && e.has_move_played()) {
      check(e.move_played(), convert::kSpectator, "spectator move_played");
      ++spectator_moves;
    }
  }
  EXPECT_EQ(spectator_moves, static_cast<int>(truth.size()));
  // Every kind of copy was seen with a drawn card in play.
  EXPECT_GT(own, 0);
  EXPECT_GT(other_seats, 0);
  EXPECT_GT(spectators, 0);
  EXPECT_GT(own_verdicts, 0);
}

TEST(InitialPairsApiTest, TheCaptureAtTheDealIsPublic) {
  // A seed whose first deal puts a pair on the table.
  int i = 0;
  for (;; ++i) {
    ASSERT_LT(i, 100);
    Game probe = *Game::Create(*RuleSet::Parse("initial_pairs"),
                               DeckSource::FromSeed(*ParseSeed(SeedHex(i))));
    if (!probe.initial_capture().cards.empty()) break;
  }
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  const v1::CreateGameResponse g =
      referee.Create("initial_pairs", 2, SeedHex(i));
  std::vector<v1::WatchGameResponse> watched;
  std::thread watcher(
      [&] { watched = WatchToEnd(referee.stub(), g.game_id()); });
  const std::vector<UnarySeatLog> seats = PlayEverySeatUnary(referee, g, 5);
  watcher.join();
  referee.Stop();
  const Game done = GameFromRecord(dir / "cassino.db", g.game_id());
  const InitialCapture& first = done.rounds()[0].initial_capture;
  ASSERT_FALSE(first.cards.empty());

  // Both seats see round 1's capture in their first observation.
  for (int seat = 0; seat < 2; ++seat) {
    const v1::Observation& obs = seats[seat].turns.front().observation();
    ASSERT_EQ(obs.round(), 1);
    ASSERT_TRUE(obs.has_initial_capture());
    ExpectInitialCapture(obs.initial_capture(), first,
                         "seat " + std::to_string(seat) + " observation");
    // It is counted in the side's captured cards (before the first move,
    // they are all it has).
    const int taken = static_cast<int>(first.cards.size());
    if (obs.turn() == 0) {
      EXPECT_EQ(obs.sides(first.side).captured(), taken);
    } else {
      EXPECT_GE(obs.sides(first.side).captured(), taken);
    }
  }
  // The spectator sees each round's capture with the round's first deal,
  // and every round result carries it.
  int deals = 0, results = 0, captures = 0;
  for (const v1::WatchGameResponse& e : watched) {
    if (e.has_deal() && e.deal().deal() == 1) {
      const int r = e.deal().round();
      ASSERT_LE(r, static_cast<int>(done.rounds().size()));
      const InitialCapture& truth = done.rounds()[r - 1].initial_capture;
      ++deals;
      captures += !truth.cards.empty();
      ASSERT_EQ(e.deal().has_initial_capture(), !truth.cards.empty())
          << "round " << r;
      if (truth.cards.empty()) continue;
      ExpectInitialCapture(e.deal().initial_capture(), truth,
                           "deal of round " + std::to_string(r));
      for (Card c : truth.cards) {
        EXPECT_EQ(std::count(e.deal().table().loose().begin(),
                             e.deal().table().loose().end(), c.ToString()),
                  0)
            << c.ToString() << " was taken but is still on the table";
      }
    }
    if (e.has_round_ended()) {
      const int r = e.round_ended().round();
      const InitialCapture& truth = done.rounds()[r - 1].initial_capture;
      ++results;
      ASSERT_EQ(e.round_ended().has_initial_capture(), !truth.cards.empty())
          << "round " << r;
      if (truth.cards.empty()) continue;
      ExpectInitialCapture(e.round_ended().initial_capture(), truth,
                           "result of round " + std::to_string(r));
    }
  }
  EXPECT_EQ(deals, static_cast<int>(done.rounds().size()));
  EXPECT_EQ(results, static_cast<int>(done.rounds().size()));
  EXPECT_GT(captures, 0);
}

TEST(PluckApiTest, ObservationsSayWhoHasPluckedThisDeal) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  const v1::CreateGameResponse g = referee.Create("pluck", 3, SeedHex(400));
  const std::vector<UnarySeatLog> seats = PlayEverySeatUnary(referee, g, 40);
  referee.Stop();
  const Game done = GameFromRecord(dir / "cassino.db", g.game_id());
  const std::vector<Position> before = PositionsBeforeEachTurn(done);
  int plucked_seen = 0, checked = 0, stock_empty_seen = 0;
  for (int seat = 0; seat < 3; ++seat) {
    for (const v1::GetTurnResponse& t : seats[seat].turns) {
      if (!t.your_turn()) continue;
      const v1::Observation& obs = t.observation();
      ASSERT_LT(obs.turn(), static_cast<int>(before.size()));
      const Position& truth = before[obs.turn()];
      ASSERT_EQ(obs.plucked_size(), 3);
      for (int s = 0; s < 3; ++s) {
        EXPECT_EQ(obs.plucked(s), (truth.plucked >> s & 1) != 0)
            << "turn " << obs.turn() << " seat " << s;
        plucked_seen += obs.plucked(s);
      }
      // stock_empty, when nobody may pluck, is what stock_size 0 says.
      EXPECT_EQ(obs.stock_size() == 0, truth.stock_empty)
          << "turn " << obs.turn();
      stock_empty_seen += truth.stock_empty;
      ++checked;
    }
  }
  EXPECT_EQ(checked, static_cast<int>(done.history().size()));
  EXPECT_GT(plucked_seen, 0);
  EXPECT_GT(stock_empty_seen, 0);
}

// Issue #23: CreateGame parses explicit decks against the rules' pack, so a
// reduced pack takes exactly its own cards and a game dealt from them plays
// to the end and replays from its record.
TEST(ExplicitDeckApiTest, ReducedPacksTakeExactlyTheirCards) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  for (const char* text :
       {"diamond", "five_players", "remove=2H+2D+2C+2S+3H+3D+3C+3S"}) {
    SCOPED_TRACE(text);
    const RuleSet rules = *RuleSet::Parse(text);
    v1::CreateGameRequest req;
    req.set_rules(text);
    for (int i = 0; i < rules.players; ++i) {
      req.add_seats()->set_bot_name("bot" + std::to_string(i));
    }
    req.add_decks(DeckToString(CanonicalDeck()));
    v1::CreateGameResponse resp;
    grpc::Status s = referee.stub().CreateGame(
        TestReferee::Context(kAdminToken).get(), req, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(s.error_message().find("is not in the pack"), std::string::npos)
        << s.error_message();

    req.set_decks(
        0, DeckToString(ShuffledDeck(*ParseSeed(SeedHex(5)), 1, rules.Pack())));
    s = referee.stub().CreateGame(TestReferee::Context(kAdminToken).get(), req,
                                  &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
    PlayEverySeatUnary(referee, resp, 40);
  }
}

}  // namespace
}  // namespace cassino::testing
