// Helpers shared by the seeded random-game property tests.

#ifndef CASSINO_TESTS_REFEREE_RULES_PROPERTY_UTIL_H_
#define CASSINO_TESTS_REFEREE_RULES_PROPERTY_UTIL_H_

#include <algorithm>
#include <cstdlib>

#include "gtest/gtest.h"
#include "referee/rules/game.h"

namespace cassino::testing {

// Games per configuration: `normal`, or fewer when CASSINO_PROPERTY_GAMES
// says so (the sanitizer pass of scripts/test.sh: instrumented code is ~20x
// slower).
inline int GamesPerConfig(int normal = 2500) {
  const char* env = std::getenv("CASSINO_PROPERTY_GAMES");
  const int n = env ? std::atoi(env) : 0;
  return n > 0 ? std::min(n, normal) : normal;
}

// Every card of the pack is in exactly one place: a hand, the table, a
// pile or the stock.
inline void ExpectAllCardsAccounted(const Game& g) {
  CardSet seen;
  int count = 0;
  auto add = [&](CardSet s) {
    ASSERT_FALSE(seen.intersects(s)) << "a card is in two places";
    seen |= s;
    count += s.size();
  };
  for (CardSet h : g.position().hands) add(h);
  add(g.position().table.AllCards());
  for (CardSet p : g.piles()) add(p);
  for (int i = g.deck().size() - g.stock_size();
       i < static_cast<int>(g.deck().size()); ++i) {
    add(CardSet::Of(g.deck()[i]));
  }
  if (!g.over()) {
    EXPECT_EQ(count, g.rules().Pack().size());
    EXPECT_EQ(seen, g.rules().Pack());
  }
}

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_REFEREE_RULES_PROPERTY_UTIL_H_
