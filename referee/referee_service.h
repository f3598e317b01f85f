// The gRPC face of the referee: one callback-API service whose handlers
// authenticate the caller, hand the request to the Registry or a
// GameSession, and stream what the game sends back. No handler blocks on
// I/O: replies that wait for the record are sent from commit callbacks.

#ifndef CASSINO_REFEREE_REFEREE_SERVICE_H_
#define CASSINO_REFEREE_REFEREE_SERVICE_H_

#include "cassino/v1/referee_service.grpc.pb.h"
#include "referee/ladder.h"
#include "referee/registry.h"
#include "referee/scheduler.h"

namespace cassino::service {

class RefereeServiceImpl final : public v1::RefereeService::CallbackService {
 public:
  // `registry`, `scheduler` and `ladders` must outlive the service.
  // (Play is served from raw bytes: referee_service.cc, PlayReactor.)
  RefereeServiceImpl(Registry* registry, Scheduler* scheduler,
                     Ladders* ladders);

  grpc::ServerUnaryReactor* CreateGame(
      grpc::CallbackServerContext* context,
      const v1::CreateGameRequest* request,
      v1::CreateGameResponse* response) override;
  grpc::ServerUnaryReactor* GetGame(grpc::CallbackServerContext* context,
                                    const v1::GetGameRequest* request,
                                    v1::GetGameResponse* response) override;
  grpc::ServerUnaryReactor* ListGames(grpc::CallbackServerContext* context,
                                      const v1::ListGamesRequest* request,
                                      v1::ListGamesResponse* response) override;
  grpc::ServerUnaryReactor* AbortGame(grpc::CallbackServerContext* context,
                                      const v1::AbortGameRequest* request,
                                      v1::AbortGameResponse* response) override;
  grpc::ServerUnaryReactor* ForfeitSeat(
      grpc::CallbackServerContext* context,
      const v1::ForfeitSeatRequest* request,
      v1::ForfeitSeatResponse* response) override;
  grpc::ServerUnaryReactor* GetTurn(grpc::CallbackServerContext* context,
                                    const v1::GetTurnRequest* request,
                                    v1::GetTurnResponse* response) override;
  grpc::ServerUnaryReactor* SubmitMove(
      grpc::CallbackServerContext* context,
      const v1::SubmitMoveRequest* request,
      v1::SubmitMoveResponse* response) override;
  grpc::ServerUnaryReactor* RegisterBot(
      grpc::CallbackServerContext* context,
      const v1::RegisterBotRequest* request,
      v1::RegisterBotResponse* response) override;
  grpc::ServerUnaryReactor* RotateBotKey(
      grpc::CallbackServerContext* context,
      const v1::RotateBotKeyRequest* request,
      v1::RotateBotKeyResponse* response) override;
  grpc::ServerUnaryReactor* RevokeBot(grpc::CallbackServerContext* context,
                                      const v1::RevokeBotRequest* request,
                                      v1::RevokeBotResponse* response) override;
  grpc::ServerUnaryReactor* GetBot(grpc::CallbackServerContext* context,
                                   const v1::GetBotRequest* request,
                                   v1::GetBotResponse* response) override;
  grpc::ServerUnaryReactor* ListBots(grpc::CallbackServerContext* context,
                                     const v1::ListBotsRequest* request,
                                     v1::ListBotsResponse* response) override;
  grpc::ServerWriteReactor<v1::LobbyResponse>* Lobby(
      grpc::CallbackServerContext* context,
      const v1::LobbyRequest* request) override;
  grpc::ServerUnaryReactor* CreateTournament(
      grpc::CallbackServerContext* context,
      const v1::CreateTournamentRequest* request,
      v1::CreateTournamentResponse* response) override;
  grpc::ServerUnaryReactor* GetTournament(
      grpc::CallbackServerContext* context,
      const v1::GetTournamentRequest* request,
      v1::GetTournamentResponse* response) override;
  grpc::ServerUnaryReactor* ListTournaments(
      grpc::CallbackServerContext* context,
      const v1::ListTournamentsRequest* request,
      v1::ListTournamentsResponse* response) override;
  grpc::ServerUnaryReactor* CancelTournament(
      grpc::CallbackServerContext* context,
      const v1::CancelTournamentRequest* request,
      v1::CancelTournamentResponse* response) override;
  grpc::ServerWriteReactor<v1::WatchGameResponse>* WatchGame(
      grpc::CallbackServerContext* context,
      const v1::WatchGameRequest* request) override;
  grpc::ServerUnaryReactor* CreateLadder(
      grpc::CallbackServerContext* context,
      const v1::CreateLadderRequest* request,
      v1::CreateLadderResponse* response) override;
  grpc::ServerUnaryReactor* GetLadder(grpc::CallbackServerContext* context,
                                      const v1::GetLadderRequest* request,
                                      v1::GetLadderResponse* response) override;
  grpc::ServerUnaryReactor* ListLadders(
      grpc::CallbackServerContext* context,
      const v1::ListLaddersRequest* request,
      v1::ListLaddersResponse* response) override;
  grpc::ServerUnaryReactor* PauseLadder(
      grpc::CallbackServerContext* context,
      const v1::PauseLadderRequest* request,
      v1::PauseLadderResponse* response) override;
  grpc::ServerUnaryReactor* ResumeLadder(
      grpc::CallbackServerContext* context,
      const v1::ResumeLadderRequest* request,
      v1::ResumeLadderResponse* response) override;
  grpc::ServerUnaryReactor* CloseLadder(
      grpc::CallbackServerContext* context,
      const v1::CloseLadderRequest* request,
      v1::CloseLadderResponse* response) override;
  grpc::ServerUnaryReactor* GetLeaderboard(
      grpc::CallbackServerContext* context,
      const v1::GetLeaderboardRequest* request,
      v1::GetLeaderboardResponse* response) override;
  // (referee_info.cc)
  grpc::ServerUnaryReactor* GetRefereeInfo(
      grpc::CallbackServerContext* context,
      const v1::GetRefereeInfoRequest* request,
      v1::GetRefereeInfoResponse* response) override;

 private:
  Registry* const registry_;
  Scheduler* const scheduler_;
  Ladders* const ladders_;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_REFEREE_SERVICE_H_
