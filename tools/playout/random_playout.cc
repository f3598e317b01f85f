#include "tools/playout/random_playout.h"

#include <array>

#include "rules/game_moves.h"

namespace cassino {

namespace {
uint64_t FirstWord(const Seed& seed) {
  uint64_t w = 0;
  for (int i = 0; i < 8; ++i) w = (w << 8) | seed[i];
  return w;
}
}  // namespace

RandomPlayer::RandomPlayer(const Seed& seed) : rng_(FirstWord(seed)) {
  moves_.reserve(64);  // one allocation rather than one per doubling
}

Move RandomPlayer::Choose(const Game& game) {
  GenerateGameMoves(game.position(), generator_, &moves_);  // no allocation
  // Skip the call-out (always first), which would end a random game at once.
  const size_t first =
      !moves_.empty() && moves_.front().kind == MoveKind::kCallOut ? 1 : 0;
  std::uniform_int_distribution<size_t> pick(0, moves_.size() - 1 - first);
  return moves_[first + pick(rng_)];
}

int PlayRandomly(Game& game, RandomPlayer& player, PlayUntil until) {
  return PlayOut(game, player, until);
}

Game PlayRandomGame(const RuleSet& rules, const Seed& seed) {
  Game game = *Game::Create(rules, DeckSource::FromSeed(seed));
  RandomPlayer player(seed);
  PlayRandomly(game, player, PlayUntil::kGameEnd);
  return game;
}

}  // namespace cassino
