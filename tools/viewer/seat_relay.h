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
// Thread-safety: thread-safe (the stub is).

#ifndef CASSINO_TOOLS_VIEWER_SEAT_RELAY_H_
#define CASSINO_TOOLS_VIEWER_SEAT_RELAY_H_

#include <memory>
#include <string>

#include "absl/time/time.h"
#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace cassino::viewer {

// A relayed answer: the HTTP status and the JSON body.
struct RelayAnswer {
  int status = 200;
  std::string body;
};

class SeatRelay {
 public:
  SeatRelay(std::shared_ptr<grpc::Channel> channel, absl::Duration timeout);

  // `authorization` is the request's Authorization header.
  RelayAnswer Turn(const std::string& authorization) const;
  RelayAnswer Move(const std::string& authorization,
                   const std::string& body) const;

 private:
  std::unique_ptr<v1::RefereeService::Stub> stub_;
  absl::Duration timeout_;
};

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_SEAT_RELAY_H_
