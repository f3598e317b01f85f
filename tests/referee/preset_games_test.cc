// Every rule-set preset, played to the end through the referee.
//
// For each name in RuleSet::PresetNames() the test creates a game with that
// preset (and the preset's own number of seats) on an in-process referee,
// plays every seat with random legal moves over the unary API, submitting
// the structured form of each move (no notation, so the conversion of every
// move field is exercised), and then checks the record: it replays to the
// same end and passes the independent verifier. A preset the referee, the
// conversions, the recorder or the verifier cannot carry fails here.

#include <thread>

#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "rules/rule_set.h"
#include "tests/referee/test_referee.h"
#include "tools/verify/verifier.h"

namespace cassino::testing {
namespace {

class PresetGameTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PresetGameTest, PlaysToTheEndAndVerifies) {
  const std::string preset = GetParam();
  absl::StatusOr<RuleSet> rules = RuleSet::Preset(preset);
  ASSERT_TRUE(rules.ok()) << rules.status();
  const int seats = rules->players;

  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  v1::CreateGameResponse game = referee.Create(
      preset, seats,
      "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed");
  ASSERT_EQ(game.tokens_size(), seats);

  std::vector<int> moves(seats);
  std::vector<std::thread> bots;
  for (int seat = 0; seat < seats; ++seat) {
    bots.emplace_back([&, seat] {
      moves[seat] = PlayUnarySeat(referee.stub(), game.tokens(seat).token(),
                                  game.game_id(), 17 * seat + 1);
    });
  }
  for (std::thread& t : bots) t.join();

  const v1::GameInfo info = referee.Info(game.game_id());
  EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED);
  int total = 0;
  for (int m : moves) total += m;
  EXPECT_EQ(total, info.turn());

  referee.Stop();
  absl::StatusOr<std::unique_ptr<recorder::Recorder>> store =
      recorder::Recorder::Open((dir / "cassino.db").string(),
                               recorder::Durability::kNormal);
  ASSERT_TRUE(store.ok()) << store.status();
  absl::StatusOr<recorder::GameRecord> record = (*store)->Load(game.game_id());
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->status, recorder::GameStatus::kFinished);
  absl::StatusOr<recorder::ReplayedGame> replayed = recorder::Replay(*record);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  ASSERT_TRUE(replayed->game.over());
  EXPECT_EQ(replayed->game.turn(), total);
  EXPECT_EQ(replayed->game.rules(), *rules);
  EXPECT_EQ(replayed->game.result()->winner, info.result().winner());
  const std::optional<verify::Failure> failure = verify::VerifyRecord(*record);
  EXPECT_FALSE(failure.has_value()) << failure->ToString();
  store->reset();
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetGameTest,
                         ::testing::ValuesIn(RuleSet::PresetNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace cassino::testing
