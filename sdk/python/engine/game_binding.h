// The C++ side of cassino._engine.Game (game_binding.cc).

#ifndef CASSINO_SDK_PYTHON_ENGINE_GAME_BINDING_H_
#define CASSINO_SDK_PYTHON_ENGINE_GAME_BINDING_H_

#include <atomic>
#include <cstdint>
#include <utility>

#include "rules/game.h"
#include "rules/legal_moves.h"
#include "tools/playout/playout_policy.h"

namespace cassino::py_engine {

// A Game and its move-generation scratch. A playout runs without the GIL;
// while it does, every other use of this object from another thread
// raises RuntimeError instead of racing (copies are independent).
class PyGame {
 public:
  explicit PyGame(Game game) : game_(std::move(game)) {}
  PyGame(const PyGame& other);

  // The game; RuntimeError while a playout runs on it.
  const Game& Get() const;
  Game& Mutable() {
    Get();
    return game_;
  }
  MoveGenerator& generator() { return generator_; }

  // PlaySeeded (tools/playout) with the GIL released.
  int Playout(uint64_t seed, PlayUntil until, PlayoutPolicy policy);

 private:
  Game game_;
  MoveGenerator generator_;
  std::atomic<bool> busy_{false};
};

}  // namespace cassino::py_engine

#endif  // CASSINO_SDK_PYTHON_ENGINE_GAME_BINDING_H_
