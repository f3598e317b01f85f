#include "tools/tournament/remote.h"

#include <chrono>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"

namespace cassino::tournament {
namespace {

bool Over(const v1::TournamentInfo& info) {
  return info.status() == v1::TOURNAMENT_STATUS_FINISHED ||
         info.status() == v1::TOURNAMENT_STATUS_CANCELLED;
}

bool Ended(const v1::TournamentGame& game) {
  return game.status() == v1::GAME_STATUS_FINISHED ||
         game.status() == v1::GAME_STATUS_ABORTED;
}

// What a referee that is stopping, restarting or overloaded answers (a
// bound on waiting reads or on requests: RESOURCE_EXHAUSTED): the follower
// waits and asks again.
bool Transient(const absl::Status& s) {
  return s.code() == absl::StatusCode::kUnavailable ||
         s.code() == absl::StatusCode::kCancelled ||
         s.code() == absl::StatusCode::kDeadlineExceeded ||
         s.code() == absl::StatusCode::kResourceExhausted;
}

absl::Status FromGrpc(const grpc::Status& s, const char* call) {
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      absl::StrCat(call, ": ", s.error_message()));
}

}  // namespace

RemoteTournament::RemoteTournament(const std::string& address,
                                   std::string admin_token)
    : admin_token_(std::move(admin_token)),
      stub_(v1::RefereeService::NewStub(
          grpc::CreateChannel(address, grpc::InsecureChannelCredentials()))) {}

absl::StatusOr<v1::TournamentInfo> RemoteTournament::Create(
    const v1::TournamentSpec& spec) {
  v1::CreateTournamentRequest req;
  *req.mutable_spec() = spec;
  v1::CreateTournamentResponse resp;
  const grpc::Status s = stub_->CreateTournament(
      AdminContext(admin_token_, 30000).get(), req, &resp);
  if (!s.ok()) return FromGrpc(s, "CreateTournament");
  return std::move(*resp.mutable_tournament());
}

absl::StatusOr<v1::TournamentInfo> RemoteTournament::Get(
    const std::string& name) {
  v1::GetTournamentRequest req;
  req.set_name(name);
  v1::GetTournamentResponse resp;
  const grpc::Status s =
      stub_->GetTournament(AdminContext(admin_token_, 10000).get(), req, &resp);
  if (!s.ok()) return FromGrpc(s, "GetTournament");
  return std::move(*resp.mutable_tournament());
}

absl::Status RemoteTournament::Cancel(const std::string& name,
                                      const std::string& reason) {
  v1::CancelTournamentRequest req;
  req.set_name(name);
  req.set_reason(reason);
  v1::CancelTournamentResponse resp;
  const grpc::Status s = stub_->CancelTournament(
      AdminContext(admin_token_, 10000).get(), req, &resp);
  if (!s.ok()) return FromGrpc(s, "CancelTournament");
  return absl::OkStatus();
}

absl::StatusOr<v1::TournamentInfo> RemoteTournament::Follow(
    const std::string& name,
    const std::function<void(const v1::TournamentGame&, int, int)>& on_game_end,
    int64_t poll_ms, int64_t reconnect_ms, bool until_settled) {
  std::vector<bool> reported;
  int ended = 0;
  auto unreachable_since = std::chrono::steady_clock::time_point::min();
  while (true) {
    absl::StatusOr<v1::TournamentInfo> info = Get(name);
    if (!info.ok()) {
      if (!Transient(info.status())) return info.status();
      const auto now = std::chrono::steady_clock::now();
      if (unreachable_since == std::chrono::steady_clock::time_point::min()) {
        unreachable_since = now;
      } else if (now - unreachable_since >
                 std::chrono::milliseconds(reconnect_ms)) {
        return info.status();
      }
    } else {
      unreachable_since = std::chrono::steady_clock::time_point::min();
      reported.resize(info->games_size(), false);
      for (const v1::TournamentGame& game : info->games()) {
        const size_t i = static_cast<size_t>(game.index());
        if (i >= reported.size() || reported[i] || !Ended(game)) continue;
        reported[i] = true;
        ++ended;
        if (on_game_end) on_game_end(game, ended, info->games_total());
      }
      if (Over(*info) && (!until_settled || info->games_running() == 0)) {
        return info;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(poll_ms));
  }
}

std::vector<Standing> StandingsFromProto(const v1::TournamentInfo& info) {
  std::vector<Standing> table;
  table.reserve(info.standings_size());
  for (const v1::TournamentStanding& s : info.standings()) {
    Standing row;
    row.rank = s.rank();
    row.bot = s.bot();
    row.games = s.games();
    row.wins = s.wins();
    row.losses = s.losses();
    row.draws = s.draws();
    row.forfeits = s.forfeits();
    row.score = s.score();
    row.points_for = s.points_for();
    row.points_against = s.points_against();
    table.push_back(std::move(row));
  }
  return table;
}

std::string DescribeGame(const v1::TournamentGame& game) {
  const std::string bot0 = game.bots_size() > 0 ? game.bots(0) : "?";
  const std::string bot1 = game.bots_size() > 1 ? game.bots(1) : "?";
  const int totals[2] = {
      game.result().totals_size() > 0 ? game.result().totals(0) : 0,
      game.result().totals_size() > 1 ? game.result().totals(1) : 0};
  const bool aborted = game.status() == v1::GAME_STATUS_ABORTED;
  return DescribeGame(
      game.game_id().empty() ? "-" : game.game_id(), bot0, bot1,
      aborted ? -1 : game.result().winner(),
      aborted ? "aborted: " + game.result().detail() : game.result().reason(),
      totals);
}

}  // namespace cassino::tournament
