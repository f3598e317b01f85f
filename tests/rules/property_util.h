// Helpers shared by the seeded random-game property tests.

#ifndef CASSINO_TESTS_REFEREE_RULES_PROPERTY_UTIL_H_
#define CASSINO_TESTS_REFEREE_RULES_PROPERTY_UTIL_H_

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/game.h"

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

// The enumerated `moves` of `g` against its validator: no move is listed
// twice; with `validate_all`, every listed move validates (done on a sample
// of positions, to keep the tests fast); and three identities drawn by
// `random_identity(g)` validate exactly when they are listed. Adds the
// rejected ones to `*rejected`. Call through ASSERT_NO_FATAL_FAILURE.
template <typename RandomIdentity>
void ExpectMovesMatchValidation(const Game& g, const std::vector<Move>& moves,
                                bool validate_all,
                                RandomIdentity&& random_identity,
                                long* rejected) {
  std::set<std::string> listed;
  for (const Move& m : moves) listed.insert(m.ToString());
  ASSERT_EQ(listed.size(), moves.size()) << "duplicate moves";
  if (validate_all) {
    for (const Move& m : moves) {
      ASSERT_TRUE(g.Validate(m).ok())
          << m.ToString() << " in " << g.position().ToString() << ": "
          << g.Validate(m);
    }
  }
  // Random identities not enumerated are rejected; enumerated accepted.
  for (int k = 0; k < 3; ++k) {
    const Move m = random_identity(g);
    const bool ok = g.Validate(m).ok();
    ASSERT_EQ(ok, listed.count(m.ToString()) == 1)
        << m.ToString() << " in " << g.position().ToString();
    *rejected += !ok;
  }
}

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_REFEREE_RULES_PROPERTY_UTIL_H_
