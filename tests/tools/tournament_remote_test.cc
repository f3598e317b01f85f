// RemoteTournament::Follow against a stand-in referee: which answers it
// waits out and which end the follow.

#include <atomic>
#include <memory>
#include <string>

#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tools/tournament/remote.h"

namespace cassino::tournament {
namespace {

// Answers GetTournament with `refusal` for the first `refusals` calls, then
// with a finished tournament of one ended game.
class StandInReferee final : public v1::RefereeService::Service {
 public:
  StandInReferee(grpc::Status refusal, int refusals)
      : refusal_(std::move(refusal)), refusals_(refusals) {}

  grpc::Status GetTournament(grpc::ServerContext*,
                             const v1::GetTournamentRequest* req,
                             v1::GetTournamentResponse* resp) override {
    if (calls_.fetch_add(1) < refusals_) return refusal_;
    v1::TournamentInfo* t = resp->mutable_tournament();
    t->mutable_spec()->set_name(req->name());
    t->set_status(v1::TOURNAMENT_STATUS_FINISHED);
    t->set_games_total(1);
    v1::TournamentGame* game = t->add_games();
    game->set_index(0);
    game->set_status(v1::GAME_STATUS_FINISHED);
    return grpc::Status::OK;
  }

  int calls() const { return calls_.load(); }

 private:
  const grpc::Status refusal_;
  const int refusals_;
  std::atomic<int> calls_{0};
};

struct Followed {
  absl::StatusOr<v1::TournamentInfo> info;
  int games_reported = 0;
  int calls = 0;
};

Followed FollowStandIn(grpc::Status refusal, int refusals) {
  StandInReferee service(std::move(refusal), refusals);
  int port = 0;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  Followed out;
  if (server == nullptr) {
    out.info = absl::InternalError("the stand-in referee did not start");
    return out;
  }
  RemoteTournament remote("127.0.0.1:" + std::to_string(port), "token");
  out.info = remote.Follow(
      "cup", [&](const v1::TournamentGame&, int, int) { ++out.games_reported; },
      /*poll_ms=*/5, /*reconnect_ms=*/60000, /*until_settled=*/false);
  out.calls = service.calls();
  server->Shutdown();
  return out;
}

// A referee over a bound ("too many reads are waiting; try again in a
// moment") or stopping is waited out: the follow goes on to the end.
TEST(RemoteTournamentTest, FollowWaitsOutAnOverloadedOrStoppingReferee) {
  for (grpc::StatusCode code :
       {grpc::StatusCode::RESOURCE_EXHAUSTED, grpc::StatusCode::UNAVAILABLE}) {
    const Followed f = FollowStandIn(grpc::Status(code, "try again"), 2);
    ASSERT_TRUE(f.info.ok()) << code << ": " << f.info.status();
    EXPECT_EQ(f.info->status(), v1::TOURNAMENT_STATUS_FINISHED);
    EXPECT_EQ(f.games_reported, 1);
    EXPECT_EQ(f.calls, 3);
  }
}

// Any other refusal ends the follow at once, with the referee's answer.
TEST(RemoteTournamentTest, FollowEndsAtAnyOtherError) {
  const Followed f =
      FollowStandIn(grpc::Status(grpc::StatusCode::NOT_FOUND, "no cup"), 1);
  EXPECT_EQ(f.info.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(f.games_reported, 0);
  EXPECT_EQ(f.calls, 1);
}

}  // namespace
}  // namespace cassino::tournament
