// A person's seat in the browser (`cassino serve --referee ADDR`): the
// viewer relays the page's requests to the referee over gRPC with the
// seat's token, like any bot. The relay is a client of the API, nothing
// more: what the page shows of the game is the referee's own GetTurn
// answer for that seat (its Observation and, on its turn, its YourTurn with
// the legal moves), never the database, so the page can show nothing the
// seat may not see.
//
// The token arrives in the request's `Authorization: Bearer` header (never
// in a URL), is passed on as the call's metadata and is neither kept,
// logged nor echoed. Each relayed call has a deadline, so a slow referee
// holds a worker thread at most that long.
//
//   Turn(token)                     GetTurn: {"status", "your_turn",
//                                   "turn", "observation", "ended", "game"}
//                                   (protobuf's JSON mapping, proto field
//                                   names), plus "now_ms", the relay's clock
//   Move(token, body)               SubmitMove of {"turn": N, "notation": S}:
//                                   {"accepted": true, "verdict", ...} or
//                                   {"accepted": false, "error", "reason",
//                                   "code"}
//
// When the organiser allows challenges (Challenges: the admin token and the
// bot accounts a person may challenge), a person may also start a game
// against one of them:
//
//   ChallengeOptions()              {"bots": [...], "rules", "per_move_ms",
//                                   "bank_ms"}; 404 when not allowed
//   Challenge(body)                 CreateGame of {"name": S, "bot": S}:
//                                   seat 0 the person (human, seated by
//                                   token), seat 1 the account (through its
//                                   lobby); {"game_id", "token", "seat"},
//                                   the token for the person alone. At most
//                                   max_running challenges run at a time
//                                   (429 beyond).
//
// Thread-safety: thread-safe (the stub is; challenges are serialised).

#ifndef CASSINO_TOOLS_VIEWER_SEAT_RELAY_H_
#define CASSINO_TOOLS_VIEWER_SEAT_RELAY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace cassino::viewer {

// A relayed answer: the HTTP status and the JSON body.
struct RelayAnswer {
  int status = 200;
  std::string body;
};

// What the organiser allows of challenges (`cassino serve --challenge`).
struct Challenges {
  std::string admin_token;
  std::vector<std::string> bots;  // bot accounts; empty: no challenges
  std::string rules = "standard";
  int64_t per_move_ms = 120000;  // a person thinks longer than a bot
  int64_t bank_ms = 60000;
  int max_running = 4;
};

class SeatRelay {
 public:
  SeatRelay(std::shared_ptr<grpc::Channel> channel, absl::Duration timeout,
            Challenges challenges = {});

  // `authorization` is the request's Authorization header.
  RelayAnswer Turn(const std::string& authorization) const;
  RelayAnswer Move(const std::string& authorization,
                   const std::string& body) const;
  RelayAnswer ChallengeOptions() const;
  RelayAnswer Challenge(const std::string& body) const;

 private:
  std::unique_ptr<v1::RefereeService::Stub> stub_;
  const absl::Duration timeout_;
  const Challenges challenges_;
  mutable absl::Mutex mu_;
  // Challenge games this relay created that may still run.
  mutable std::vector<std::string> running_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_SEAT_RELAY_H_
