#include "tools/bots/client/round_history.h"

namespace cassino::bots {

void RoundHistory::Complete(v1::YourTurn* turn) {
  v1::Observation* obs = turn->mutable_observation();
  if (!turn->round_history_omitted()) {
    moves_.assign(obs->round_history().begin(), obs->round_history().end());
    return;
  }
  moves_.insert(moves_.end(), turn->since_last().begin(),
                turn->since_last().end());
  std::erase_if(moves_, [round = obs->round()](const v1::PlayedMove& m) {
    return m.round() != round;
  });
  obs->mutable_round_history()->Assign(moves_.begin(), moves_.end());
  turn->set_round_history_omitted(false);
}

}  // namespace cassino::bots
