// tools/tournament/progress.h: the status texts, and what reaches a
// terminal and a pipe.

#include "tools/tournament/progress.h"

#include <cstdio>
#include <string>

#include "gtest/gtest.h"

namespace cassino::tournament {
namespace {

std::string Written(bool live) {
  FILE* f = std::tmpfile();
  {
    ProgressLine p(f, live);
    p.Event("[1/3] g1 a vs b: a wins 21-9");
    p.Status(GamesProgress(1, 3, 2.0));
    p.Event("[2/3] g2 b vs a: b wins 21-3");
    p.Status(GamesProgress(2, 3, 4.0));
  }  // Finish() on destruction
  std::rewind(f);
  std::string out;
  char buf[512];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

TEST(ProgressTest, Texts) {
  EXPECT_EQ(GamesProgress(0, 40, 0), "0/40 games");
  EXPECT_EQ(GamesProgress(10, 40, 4.0), "10/40 games, 2.5 games/s, ETA 12 s");
  EXPECT_EQ(GamesProgress(10, 400, 4.0), "10/400 games, 2.5 games/s, ETA 2:36");
  EXPECT_EQ(GamesProgress(1, 4000, 4.0),
            "1/4000 games, 0.25 games/s, ETA 4:26:36");
  EXPECT_EQ(GamesProgress(40, 40, 16.0), "40/40 games, 2.5 games/s");
  EXPECT_EQ(SprtProgress(1.234, -2.944, 2.944, 24, 30.0),
            "LLR 1.23 (-2.94, 2.94), 24 pairs, 0.8 pairs/s");
}

TEST(ProgressTest, PipeGetsPlainLines) {
  EXPECT_EQ(Written(false),
            "[1/3] g1 a vs b: a wins 21-9\n[2/3] g2 b vs a: b wins 21-3\n");
}

TEST(ProgressTest, TerminalGetsAStatusLineRedrawnBelowTheEvents) {
  const std::string clear = "\r\x1b[2K";
  const std::string s1 = "1/3 games, 0.5 games/s, ETA 4 s";
  const std::string s2 = "2/3 games, 0.5 games/s, ETA 2 s";
  EXPECT_EQ(Written(true), "[1/3] g1 a vs b: a wins 21-9\n" + clear + s1 +
                               clear + "[2/3] g2 b vs a: b wins 21-3\n" + s1 +
                               clear + s2 + clear);
}

}  // namespace
}  // namespace cassino::tournament
