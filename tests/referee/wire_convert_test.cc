// The edge's conversions between cassino.v1 messages and the core's types.

#include "referee/wire_convert.h"

#include "gtest/gtest.h"
#include "referee/errors.h"

namespace cassino::service {
namespace {

TEST(WireConvertTest, AClockFieldIsSetOnlyWhenTheMessageHasIt) {
  v1::Clock clock;
  ClockSpec spec = ClockSpecOf(clock);
  EXPECT_FALSE(spec.per_move_ms.has_value());
  EXPECT_FALSE(spec.bank_ms.has_value());
  EXPECT_FALSE(spec.max_illegal.has_value());
  // A bank of 0 given is not a bank left unset.
  clock.set_bank_ms(0);
  clock.set_max_illegal(7);
  spec = ClockSpecOf(clock);
  EXPECT_FALSE(spec.per_move_ms.has_value());
  EXPECT_EQ(spec.bank_ms, 0);
  EXPECT_EQ(spec.max_illegal, 7);
}

TEST(WireConvertTest, CreateGameRequestBecomesASpec) {
  v1::CreateGameRequest request;
  request.set_rules("standard draw=on");
  request.add_seats()->set_bot_name("north");
  request.add_seats()->set_account("alice");
  request.mutable_clock()->set_per_move_ms(1000);
  request.set_seed("ab");
  request.add_decks("d1");
  request.set_label("league");
  const GameSpec spec = GameSpecOf(request);
  EXPECT_EQ(spec.rules, "standard draw=on");
  ASSERT_EQ(spec.seats.size(), 2u);
  EXPECT_EQ(spec.seats[0].bot_name, "north");
  EXPECT_EQ(spec.seats[0].account, "");
  EXPECT_EQ(spec.seats[1].bot_name, "");
  EXPECT_EQ(spec.seats[1].account, "alice");
  EXPECT_EQ(spec.clock.per_move_ms, 1000);
  EXPECT_FALSE(spec.clock.bank_ms.has_value());
  EXPECT_EQ(spec.seed, "ab");
  EXPECT_EQ(spec.decks, std::vector<std::string>{"d1"});
  EXPECT_EQ(spec.label, "league");
}

TEST(WireConvertTest, CreatedGameBecomesAResponse) {
  CreatedGame created;
  created.game_id = "g";
  created.seed_commitment = "c";
  created.rules = "r";
  created.clock = {100, 0, 2};
  created.seats = {{0, "north", "", "tok"}, {1, "alice", "alice", ""}};
  v1::CreateGameResponse out;
  CreatedGameToProto(created, &out);
  EXPECT_EQ(out.game_id(), "g");
  EXPECT_EQ(out.seed_commitment(), "c");
  EXPECT_EQ(out.rules(), "r");
  EXPECT_EQ(out.clock().per_move_ms(), 100);
  EXPECT_TRUE(out.clock().has_bank_ms());
  EXPECT_EQ(out.clock().bank_ms(), 0);
  EXPECT_EQ(out.clock().max_illegal(), 2);
  ASSERT_EQ(out.tokens_size(), 2);
  EXPECT_EQ(out.tokens(0).token(), "tok");
  EXPECT_EQ(out.tokens(1).seat(), 1);
  EXPECT_EQ(out.tokens(1).account(), "alice");
  EXPECT_EQ(out.tokens(1).token(), "");
}

TEST(WireConvertTest, AnUnknownGameStatusIsRefusedAfterThePageSize) {
  v1::ListGamesRequest request;
  request.set_status(v1::GAME_STATUS_FINISHED);
  request.set_label("x");
  request.set_page_size(5);
  request.set_page_token("t");
  absl::StatusOr<GameQuery> query = GameQueryOf(request);
  ASSERT_TRUE(query.ok()) << query.status();
  EXPECT_EQ(query->status, recorder::GameStatus::kFinished);
  EXPECT_EQ(query->label, "x");
  EXPECT_EQ(query->page_size, 5);
  EXPECT_EQ(query->page_token, "t");

  request.set_status(static_cast<v1::GameStatus>(9));
  query = GameQueryOf(request);
  ASSERT_FALSE(query.ok());
  EXPECT_EQ(query.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(query.status().message(), "status: unknown game status 9");
  ASSERT_EQ(DetailsOf(query.status()).fields.size(), 1u);
  EXPECT_EQ(DetailsOf(query.status()).fields[0].first, "status");
  // (A bad page size is named first, as the core checks it first.)
  request.set_page_size(-1);
  query = GameQueryOf(request);
  ASSERT_FALSE(query.ok());
  EXPECT_EQ(DetailsOf(query.status()).fields[0].first, "page_size");
}

TEST(WireConvertTest, AnUnknownTournamentFormatIsRefused) {
  v1::TournamentSpec spec;
  spec.set_name("cup");
  spec.add_participants("a");
  spec.add_participants("b");
  spec.set_format(v1::TOURNAMENT_FORMAT_GAUNTLET);
  spec.mutable_clock()->set_bank_ms(0);
  absl::StatusOr<TournamentSpec> converted = TournamentSpecOf(spec);
  ASSERT_TRUE(converted.ok()) << converted.status();
  EXPECT_EQ(converted->format, TournamentFormat::kGauntlet);
  EXPECT_EQ(converted->participants, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(converted->clock.bank_ms, 0);

  spec.set_format(static_cast<v1::TournamentFormat>(7));
  converted = TournamentSpecOf(spec);
  ASSERT_FALSE(converted.ok());
  EXPECT_EQ(converted.status().message(), "spec.format: unknown format 7");
  EXPECT_EQ(DetailsOf(converted.status()).fields[0].first, "spec.format");
}

}  // namespace
}  // namespace cassino::service
