#include "rules/position.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cassino {
namespace {

TEST(PositionTest, ParsesBuildsHandsAndRules) {
  absl::StatusOr<Position> p = Position::Parse(
      "table: 8D 2C AH [5S 3H]=8@0 [4C 2H]=6@1; hands: 8C 4D TS / ?; "
      "to_move: 0; rules: builder_obligation=v2");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->table.loose.ToString(), "AH 8D 2C");
  ASSERT_EQ(p->table.builds.size(), 2u);
  EXPECT_EQ(p->table.builds[0].value, 8);
  EXPECT_EQ(p->table.builds[0].controller, 0);
  EXPECT_FALSE(p->table.builds[0].multiple);
  EXPECT_EQ(p->rules.builder_obligation, BuilderObligation::kV2);
  EXPECT_EQ(p->hands[0].ToString(), "TS 4D 8C");  // deck-index order
  EXPECT_TRUE(p->hands[1].empty());
}

TEST(PositionTest, ToStringRoundTrips) {
  const char* text =
      "table: AD [5C 3D 2H]=5m@1; hands: AS 6D 5H / 2S; to_move: 1; rules: "
      "players=2 face_capture=all";
  absl::StatusOr<Position> p = Position::Parse(text);
  ASSERT_TRUE(p.ok()) << p.status();
  absl::StatusOr<Position> again = Position::Parse(p->ToString());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*p, *again);
  EXPECT_EQ(p->ToString(),
            "table: AD [2H 3D 5C]=5m@1; hands: AS 5H 6D / 2S; to_move: 1; "
            "rules: face_capture=all");
}

TEST(PositionTest, RejectsInconsistentPositions) {
  for (const char* bad : {
           "table: 8D 8D",                 // duplicate
           "table: 8D; hands: 8D",         // card twice
           "table: [5S 3H]=9@0",           // wrong value
           "table: [5S 3H]=8m@0",          // not multiple
           "table: [5S 3H]=8@5",           // no such seat
           "table: [5S KH]=5@0",           // face card in build
           "table: 5S; hands: - / - / -",  // 3 hands, 2 players
           "table: 5S; to_move: 2",        // no such seat
           "table: 5S; colour: red",       // unknown section
           "table: 5S; rules: builder_obligation=v9",
       }) {
    EXPECT_FALSE(Position::Parse(bad).ok()) << bad;
  }
}

// A position may hold only cards of the rule set's pack, and the error
// names the card and why it is missing.
TEST(PositionTest, RefusesCardsThePackRemoves) {
  absl::StatusOr<Position> p =
      Position::Parse("table: 5C 2H; hands: 7D / ?; rules: five_players");
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(
      p.status().message(),
      ::testing::HasSubstr(
          "2H is not in the pack of these rules (remove= takes it out)"));
  p = Position::Parse("table: 5C; hands: 7D KS / ?; rules: diamond");
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(),
              ::testing::HasSubstr(
                  "KS is not in the pack of these rules (pack=40 has no J"));
  // The cards the pack keeps are fine: 2S stays in five_players.
  EXPECT_TRUE(
      Position::Parse("table: 2S 5C; hands: 7D; rules: five_players").ok());
  EXPECT_TRUE(Position::Parse("table: 5C; hands: 7D TS; rules: diamond").ok());
}

// Callabra and Tablanette have no builds, so their positions hold none.
TEST(PositionTest, RelatedGamesRefuseBuilds) {
  for (const char* game : {"callabra", "tablanette"}) {
    absl::StatusOr<Position> p = Position::Parse(
        absl::StrCat("table: [5S 3H]=8@0; hands: 8C; rules: ", game));
    ASSERT_FALSE(p.ok()) << game;
    EXPECT_THAT(p.status().message(), ::testing::HasSubstr("has no builds"));
  }
}

}  // namespace
}  // namespace cassino
