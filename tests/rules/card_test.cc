#include "rules/card.h"

#include "gtest/gtest.h"

namespace cassino {
namespace {

TEST(CardTest, CanonicalIndexIsSuitTimes13PlusRankMinus1) {
  EXPECT_EQ(Card::Of(kAce, Suit::kSpades).index(), 0);
  EXPECT_EQ(Card::Of(kKing, Suit::kSpades).index(), 12);
  EXPECT_EQ(Card::Of(kAce, Suit::kHearts).index(), 13);
  EXPECT_EQ(kBigCassino.index(), 2 * 13 + 9);
  EXPECT_EQ(kLittleCassino.index(), 1);
  EXPECT_EQ(Card::Of(kKing, Suit::kClubs).index(), 51);
}

TEST(CardTest, ParseAndPrintEveryCard) {
  for (int i = 0; i < kDeckSize; ++i) {
    Card c = Card::FromIndex(i);
    absl::StatusOr<Card> parsed = Card::Parse(c.ToString());
    ASSERT_TRUE(parsed.ok()) << c.ToString();
    EXPECT_EQ(*parsed, c);
  }
  EXPECT_EQ(Card::Parse("td")->ToString(), "TD");
  EXPECT_EQ(Card::Parse("10D")->ToString(), "TD");
}

TEST(CardTest, ParseRejectsNonsenseWithReason) {
  EXPECT_FALSE(Card::Parse("").ok());
  EXPECT_FALSE(Card::Parse("1S").ok());
  EXPECT_FALSE(Card::Parse("7X").ok());
  EXPECT_FALSE(Card::Parse("77H").ok());
  EXPECT_NE(Card::Parse("7X").status().message().find("suit"),
            absl::string_view::npos);
  EXPECT_NE(Card::Parse("ZH").status().message().find("rank"),
            absl::string_view::npos);
}

// Regression: bytes >= 0x80 reached std::toupper as negative chars.
TEST(CardTest, ParseRejectsNonAsciiBytes) {
  EXPECT_FALSE(Card::Parse("\xe9S").ok());
  EXPECT_FALSE(Card::Parse("7\xff").ok());
  EXPECT_FALSE(Card::Parse("\xc3\xa9").ok());
  EXPECT_FALSE(CardSet::Parse("2C \x80H").ok());
}

TEST(CardSetTest, IteratesAndPrintsInDeckOrder) {
  absl::StatusOr<CardSet> s = CardSet::Parse("2C 8H 6D 5S");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->ToString(), "5S 8H 6D 2C");
  EXPECT_EQ(s->size(), 4);
  EXPECT_EQ(CardSet().ToString(), "-");
  EXPECT_FALSE(CardSet::Parse("2C 2C").ok());
  EXPECT_EQ(CardSet::OfSuit(Suit::kSpades).size(), 13);
  EXPECT_EQ(CardSet::OfRank(kQueen).ToString(), "QS QH QD QC");
}

}  // namespace
}  // namespace cassino
