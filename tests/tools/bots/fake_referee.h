// A tiny in-process stand-in for the referee, for testing bots: one
// two-seat game with fixed tokens, the bot half of the API (Play, GetTurn,
// SubmitMove) over the rules engine, and two injectable faults:
//
//   reject_turn  the first submission for this turn is rejected with
//                INVALID_ARGUMENT even if legal (the bot must pick again);
//   drop_turn    the first Play stream to reach this turn is ended with
//                UNAVAILABLE before YourTurn is sent (the bot must
//                reconnect).
//
// It follows the proto's contract as far as the bots observe it; it is no
// replacement for the real referee (no clocks, no records, no spectators).

#ifndef CASSINO_TESTS_TOOLS_BOTS_FAKE_REFEREE_H_
#define CASSINO_TESTS_TOOLS_BOTS_FAKE_REFEREE_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "rules/game.h"

namespace cassino::bots::testing {

struct FakeOptions {
  int reject_turn = -1;
  int drop_turn = -1;
  uint8_t seed_byte = 5;
};

class FakeReferee final : public v1::RefereeService::Service {
 public:
  static constexpr const char* kGameId = "fake-1";
  static constexpr const char* kTokens[2] = {"token-seat-0", "token-seat-1"};

  // Starts serving on 127.0.0.1 (any free port).
  explicit FakeReferee(FakeOptions options);
  ~FakeReferee() override;

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  // Blocks until the game is over; false after `seconds`.
  bool WaitOver(int seconds);
  Game game();  // a copy, under the lock

  grpc::Status Play(grpc::ServerContext* ctx,
                    grpc::ServerReaderWriter<v1::PlayResponse, v1::PlayRequest>*
                        stream) override;
  grpc::Status GetTurn(grpc::ServerContext* ctx, const v1::GetTurnRequest* req,
                       v1::GetTurnResponse* resp) override;
  grpc::Status SubmitMove(grpc::ServerContext* ctx,
                          const v1::SubmitMoveRequest* req,
                          v1::SubmitMoveResponse* resp) override;

 private:
  int SeatOf(grpc::ServerContext* ctx) const;
  v1::GameStarted Started(int seat) const;
  v1::YourTurn TurnFor(int seat) const;  // mu_ held
  v1::GameEnded Ended() const;           // mu_ held
  // Validates and plays; fills the verdict. Returns the status code the
  // unary API answers with.
  grpc::StatusCode Submit(int seat, int turn, const v1::Move& move,
                          v1::MoveVerdict* verdict);

  FakeOptions options_;
  std::mutex mu_;
  std::condition_variable cv_;
  Game game_;
  bool rejected_once_ = false;
  bool dropped_once_ = false;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

}  // namespace cassino::bots::testing

#endif  // CASSINO_TESTS_TOOLS_BOTS_FAKE_REFEREE_H_
