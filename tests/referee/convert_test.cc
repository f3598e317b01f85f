#include "proto/convert.h"

#include "gtest/gtest.h"

namespace cassino::convert {
namespace {

TEST(ConvertTest, MoveRoundTripsBothForms) {
  const Move move = *Move::Parse("build 8 3D 5S 8H 6D 2C");
  v1::Move proto;
  ToProto(move, &proto);
  EXPECT_EQ(proto.notation(), "build 8 3D 5S 8H 6D 2C");
  EXPECT_EQ(proto.kind(), v1::MOVE_KIND_BUILD);
  EXPECT_EQ(proto.card(), "3D");
  EXPECT_EQ(proto.value(), 8);
  EXPECT_EQ(proto.table_cards_size(), 4);
  EXPECT_EQ(*FromProto(proto), move);
  v1::Move structured = proto;
  structured.clear_notation();
  EXPECT_EQ(*FromProto(structured), move);
  v1::Move text;
  text.set_notation("take 8c 2c 6d");
  EXPECT_EQ(FromProto(text)->ToString(), "take 8C 6D 2C");
}

TEST(ConvertTest, MalformedMovesSayWhy) {
  v1::Move empty;
  EXPECT_NE(FromProto(empty).status().message().find("empty"),
            std::string::npos);
  v1::Move bad_card;
  bad_card.set_kind(v1::MOVE_KIND_TRAIL);
  bad_card.set_card("XX");
  EXPECT_NE(FromProto(bad_card).status().message().find("move.card"),
            std::string::npos);
  v1::Move disagree;
  disagree.set_kind(v1::MOVE_KIND_TRAIL);
  disagree.set_card("7H");
  disagree.set_notation("trail 8H");
  EXPECT_NE(FromProto(disagree).status().message().find("disagree"),
            std::string::npos);
  // A kind beside a notation that is another kind's: said so (issue #25:
  // it was "move.card: '' is not a card").
  v1::Move kind_and_notation;
  kind_and_notation.set_kind(v1::MOVE_KIND_CAPTURE);
  kind_and_notation.set_notation("trail 8H");
  const absl::Status mismatch = FromProto(kind_and_notation).status();
  EXPECT_EQ(SubmissionErrorField(mismatch), "move.kind");
  EXPECT_NE(mismatch.message().find("move.kind MOVE_KIND_CAPTURE disagrees "
                                    "with move.notation \"trail 8H\", which "
                                    "is a trail"),
            std::string::npos)
      << mismatch.message();
  v1::Move twice;
  twice.set_kind(v1::MOVE_KIND_CAPTURE);
  twice.set_card("7H");
  twice.add_table_cards("7S");
  twice.add_table_cards("7S");
  EXPECT_FALSE(FromProto(twice).ok());
}

TEST(ConvertTest, PairCaptureCarriesTheSecondCard) {
  const Move move = *Move::Parse("take 6H+5S JC");
  v1::Move proto;
  ToProto(move, &proto);
  EXPECT_EQ(proto.notation(), "take 5S+6H JC");
  EXPECT_EQ(proto.card(), "5S");
  EXPECT_EQ(proto.second_card(), "6H");
  v1::Move structured = proto;
  structured.clear_notation();
  EXPECT_EQ(*FromProto(structured), move);
  // Either order of the two hand cards is the same move.
  structured.set_card("6H");
  structured.set_second_card("5S");
  EXPECT_EQ(*FromProto(structured), move);
  v1::Move two_taken = proto;
  two_taken.add_table_cards("2D");
  two_taken.clear_notation();
  EXPECT_NE(FromProto(two_taken).status().message().find("one table card"),
            std::string::npos);
  v1::Move trail;
  trail.set_kind(v1::MOVE_KIND_TRAIL);
  trail.set_card("7H");
  trail.set_second_card("8H");
  EXPECT_NE(FromProto(trail).status().message().find("second_card"),
            std::string::npos);
}

TEST(ConvertTest, DeclaredValuesAndPlucksSurviveBothForms) {
  for (const char* text : {"take AC=14 KS AH", "build 11 TD=11 AH",
                           "pluck 7H, trail 3D", "take 8C 8H, pluck 4S"}) {
    const Move move = *Move::Parse(text);
    v1::Move proto;
    ToProto(move, &proto);
    EXPECT_EQ(proto.notation(), move.ToString());
    v1::Move structured = proto;
    structured.clear_notation();
    absl::StatusOr<Move> back = FromProto(structured);
    ASSERT_TRUE(back.ok()) << text << ": " << back.status();
    EXPECT_EQ(*back, move) << text;
  }
  v1::Move ace;
  ace.set_kind(v1::MOVE_KIND_CAPTURE);
  ace.set_card("AC");
  ace.add_table_cards("AH");
  ace.set_declared_value(1);  // the rank itself: the default
  EXPECT_EQ(FromProto(ace)->ToString(), "take AC AH");
  v1::Move trail;
  trail.set_kind(v1::MOVE_KIND_TRAIL);
  trail.set_card("AC");
  trail.set_declared_value(14);
  EXPECT_NE(FromProto(trail).status().message().find("declared_value"),
            std::string::npos);
  v1::Move after_alone = trail;
  after_alone.clear_declared_value();
  after_alone.set_pluck_after(true);
  EXPECT_NE(FromProto(after_alone).status().message().find("pluck_card"),
            std::string::npos);
}

TEST(ConvertTest, ADrawnCardIsShownToItsMoverOnly) {
  Game game =
      *Game::Create(*RuleSet::Parse("draw"),
                    DeckSource::FromSeed(*ParseSeed(std::string(64, '7'))));
  const int mover = game.to_move();
  const int other = 1 - mover;
  ASSERT_TRUE(game.Play(game.LegalMoves().front()).ok());
  const PlayedMove& played = game.history().back();
  ASSERT_TRUE(played.drew);
  const std::string card = played.drawn.ToString();
  for (const auto& [viewer, expected] :
       {std::pair{mover, card}, std::pair{other, std::string()},
        std::pair{kSpectator, std::string()}}) {
    v1::PlayedMove proto;
    ToProto(played, viewer, &proto);
    EXPECT_TRUE(proto.drew()) << viewer;
    EXPECT_EQ(proto.drawn(), expected) << viewer;
    // The same in each seat's observation of the round.
    if (viewer == kSpectator) continue;
    v1::Observation obs;
    ToProto(Observe(game, viewer), &obs);
    ASSERT_EQ(obs.round_history_size(), 1);
    EXPECT_EQ(obs.round_history(0).drawn(), expected) << viewer;
    EXPECT_TRUE(obs.round_history(0).drew()) << viewer;
  }
}

TEST(ConvertTest, PluckedIsPerSeatAndOnlyUnderPluck) {
  Game game =
      *Game::Create(*RuleSet::Parse("pluck players=3"),
                    DeckSource::FromSeed(*ParseSeed(std::string(64, '3'))));
  v1::Observation obs;
  ToProto(Observe(game, 0), &obs);
  ASSERT_EQ(obs.plucked_size(), 3);
  for (bool p : obs.plucked()) EXPECT_FALSE(p);
  // The first legal pluck (the first table has one).
  bool plucked = false;
  for (const Move& m : game.LegalMoves()) {
    if (!m.has_pluck()) continue;
    plucked = true;
    const int seat = game.to_move();
    ASSERT_TRUE(game.Play(m).ok());
    obs.Clear();
    ToProto(Observe(game, 0), &obs);
    ASSERT_EQ(obs.plucked_size(), 3);
    for (int s = 0; s < 3; ++s) EXPECT_EQ(obs.plucked(s), s == seat) << s;
    break;
  }
  EXPECT_TRUE(plucked);
  Game standard =
      *Game::Create(*RuleSet::Parse("standard"),
                    DeckSource::FromSeed(*ParseSeed(std::string(64, '3'))));
  obs.Clear();
  ToProto(Observe(standard, 0), &obs);
  EXPECT_EQ(obs.plucked_size(), 0);
}

TEST(ConvertTest, AnObservationWithItsRulesTextMadeOnceIsTheSame) {
  const RuleSet rules = *RuleSet::Parse("standard draw=on pluck=on");
  Game game = *Game::Create(
      rules, DeckSource::FromSeed(*ParseSeed(std::string(64, '5'))));
  v1::Observation made_here, made_once;
  ToProto(Observe(game, 1), &made_here);
  ToProto(Observe(game, 1), rules.ToString(), &made_once);
  EXPECT_EQ(made_here.rules(), rules.ToString());
  EXPECT_EQ(made_once.SerializeAsString(), made_here.SerializeAsString());
}

}  // namespace
}  // namespace cassino::convert
