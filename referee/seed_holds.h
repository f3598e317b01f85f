// Which seeds must stay secret because a game dealt from them is not over.
//
// Contract: a holder (a running game, by its id; a tournament's pending
// game, by a name the scheduler gives it) holds a seed from the time it is
// dealt from it, or will be, until it ends. A game's seed may be revealed
// (GameEnded, GetGame, WatchGame, the record's end event) only when no
// holder other than the game itself holds it: the twin of a duplicate pair
// that is still running or pending keeps its partner's seed secret.
// Hold and Release are idempotent. Thread-safe; its lock is a leaf (taken
// under a game's or the scheduler's lock, never the other way round).

#ifndef CASSINO_REFEREE_SEED_HOLDS_H_
#define CASSINO_REFEREE_SEED_HOLDS_H_

#include <map>
#include <set>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace cassino::service {

class SeedHolds {
 public:
  // An empty seed (explicit decks) is never held.
  void Hold(absl::string_view seed, absl::string_view holder);
  void Release(absl::string_view seed, absl::string_view holder);
  // Whether a holder other than `holder` holds `seed`.
  bool HeldByOthers(absl::string_view seed, absl::string_view holder) const;

 private:
  mutable absl::Mutex mu_;
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>>
      holders_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_SEED_HOLDS_H_
