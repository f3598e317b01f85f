// The round's history a compact Play stream's reader keeps.
//
// In the compact play mode (referee_service.proto, Play and YourTurn) only a
// stream's first YourTurn carries observation.round_history; every later one
// sets round_history_omitted and carries the moves since the seat's previous
// YourTurn in since_last. RoundHistory keeps the history from them and puts
// it back into each YourTurn, so what a bot reads is the same in both modes.

#ifndef CASSINO_TOOLS_BOTS_CLIENT_ROUND_HISTORY_H_
#define CASSINO_TOOLS_BOTS_CLIENT_ROUND_HISTORY_H_

#include <vector>

#include "cassino/v1/referee_service.pb.h"

namespace cassino::bots {

class RoundHistory {
 public:
  // Keeps `turn`'s history, and fills a left-out round_history in (clearing
  // round_history_omitted): the one kept so far extended by since_last, the
  // moves of observation.round only. A YourTurn with its round_history
  // (the first of a stream, any in the full mode) replaces what was kept.
  void Complete(v1::YourTurn* turn);

 private:
  std::vector<v1::PlayedMove> moves_;
};

}  // namespace cassino::bots

#endif  // CASSINO_TOOLS_BOTS_CLIENT_ROUND_HISTORY_H_
