#include "rules/move.h"

#include "gtest/gtest.h"

namespace cassino {
namespace {

TEST(MoveTest, CanonicalFormSortsTableCardsByDeckIndex) {
  EXPECT_EQ(Move::Parse("take 8C 2C 6D 8H")->ToString(), "take 8C 8H 6D 2C");
  EXPECT_EQ(Move::Parse("BUILD 8 3d 2C 6D 8H 5S")->ToString(),
            "build 8 3D 5S 8H 6D 2C");
  EXPECT_EQ(Move::Parse("capture 8C 8H")->ToString(), "take 8C 8H");
  EXPECT_EQ(Move::Parse("trail 7H")->ToString(), "trail 7H");
  EXPECT_EQ(Move::Parse("call")->ToString(), "call");
}

TEST(MoveTest, IdentityIgnoresCardOrder) {
  EXPECT_EQ(*Move::Parse("take 8C 6D 2C"), *Move::Parse("take 8C 2C 6D"));
  EXPECT_NE(*Move::Parse("take 8C 6D 2C"), *Move::Parse("take 8C 8H"));
}

TEST(MoveTest, SyntaxErrorsSayWhatWasExpected) {
  for (const char* bad :
       {"", "trail", "trail 7H 8H", "take 8C", "build 8 3D", "build x 3D 5S",
        "fold 7H", "take 8C 8C", "take 8C 8H 8H", "build 8 3D 3D"}) {
    absl::StatusOr<Move> m = Move::Parse(bad);
    EXPECT_FALSE(m.ok()) << bad;
    EXPECT_FALSE(m.status().message().empty()) << bad;
  }
}

TEST(MoveKindNameTest, NamesEachKindAsTheSdksDo) {
  EXPECT_EQ(MoveKindName(MoveKind::kTrail), "trail");
  EXPECT_EQ(MoveKindName(MoveKind::kCapture), "capture");
  EXPECT_EQ(MoveKindName(MoveKind::kBuild), "build");
  EXPECT_EQ(MoveKindName(MoveKind::kCallOut), "call_out");
}

}  // namespace
}  // namespace cassino
