#include "tools/tournament/tournament.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/synchronization/mutex.h"
#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "recorder/display_text.h"
#include "rules/schedule.h"
#include "tools/playout/random_playout.h"
#include "tools/tournament/process.h"
#include "tools/tournament/run_game.h"

namespace cassino::tournament {

namespace v1 = ::cassino::v1;

GameOutcome RunGame(const TournamentOptions& o, v1::RefereeService::Stub& stub,
                    const GameSpec& spec) {
  GameOutcome out;
  out.spec = spec;
  v1::CreateGameRequest req;
  req.set_rules(o.rules);
  for (int seat = 0; seat < 2; ++seat) {
    req.add_seats()->set_bot_name(o.bots[spec.bot[seat]].name);
  }
  req.mutable_clock()->set_per_move_ms(o.per_move_ms);
  req.mutable_clock()->set_bank_ms(o.bank_ms > 0 ? o.bank_ms : -1);
  req.set_seed(ToHex(spec.seed));
  req.set_label(o.label);
  v1::CreateGameResponse created;
  grpc::Status s =
      stub.CreateGame(AdminContext(o.admin_token, 10000).get(), req, &created);
  if (!s.ok()) {
    out.error = absl::StrCat("CreateGame: ", s.error_message());
    return out;
  }
  out.game_id = created.game_id();

  // Watch before starting the bots, so the end cannot be missed.
  auto watch_ctx = std::make_unique<grpc::ClientContext>();
  const int64_t limit_ms = o.per_move_ms * 600 + o.bank_ms * 2 + 60000;
  watch_ctx->set_deadline(std::chrono::system_clock::now() +
                          std::chrono::milliseconds(limit_ms));
  v1::WatchGameRequest watch_req;
  watch_req.set_game_id(created.game_id());
  auto watch = stub.WatchGame(watch_ctx.get(), watch_req);

  std::vector<Process> bots;
  for (int seat = 0; seat < 2; ++seat) {
    const std::string token = created.tokens(seat).token();
    const std::string command = absl::StrReplaceAll(
        o.bots[spec.bot[seat]].command, {{"{address}", o.address},
                                         {"{game}", created.game_id()},
                                         {"{token}", token},
                                         {"{seat}", std::to_string(seat)}});
    absl::StatusOr<Process> p = Process::Start(
        command,
        {{"CASSINO_ADDRESS", o.address},
         {"CASSINO_GAME", created.game_id()},
         {"CASSINO_TOKEN", token},
         {"CASSINO_SEAT", std::to_string(seat)}},
        o.log_dir.empty() ? ""
                          : absl::StrCat(o.log_dir, "/", created.game_id(),
                                         "-seat", seat, ".log"));
    if (p.ok()) {
      bots.push_back(std::move(*p));
    }  // a bot that cannot start loses on time
  }

  v1::WatchGameResponse event;
  bool ended = false;
  while (watch->Read(&event)) {
    if (event.has_game_ended()) {
      const v1::GameResult& r = event.game_ended().result();
      out.winner_seat = r.winner();  // 2 players: side == seat
      out.reason = r.reason();
      for (int i = 0; i < 2 && i < r.totals_size(); ++i) {
        out.totals[i] = r.totals(i);
      }
      ended = true;
      watch_ctx->TryCancel();
      break;
    }
  }
  watch->Finish();
  if (!ended) out.error = "the game did not end in time";
  // Bots exit once they see the end; give them a moment, then stop them.
  for (Process& p : bots) {
    if (!p.Wait(std::chrono::milliseconds(3000))) p.Kill();
  }
  return out;
}

std::unique_ptr<grpc::ClientContext> AdminContext(const std::string& token,
                                                  int64_t timeout_ms) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->AddMetadata("authorization", "Bearer " + token);
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::milliseconds(timeout_ms));
  return ctx;
}

std::vector<GameSpec> MakeSchedule(const TournamentOptions& o) {
  std::vector<GameSpec> games;
  for (const ScheduledGame& g : TournamentSchedule(
           static_cast<int>(o.bots.size()), o.schedule == Schedule::kGauntlet,
           o.games_per_pairing, o.duplicate, o.seed)) {
    games.push_back({g.index, {g.seat[0], g.seat[1]}, g.seed});
  }
  return games;
}

std::vector<Standing> ComputeStandings(const std::vector<BotSpec>& bots,
                                       const std::vector<GameOutcome>& games) {
  std::vector<std::string> names;
  for (const BotSpec& b : bots) names.push_back(b.name);
  std::vector<recorder::StandingGame> played;
  for (const GameOutcome& g : games) {
    if (!g.error.empty()) continue;
    recorder::StandingGame r;
    r.bots = {names[g.spec.bot[0]], names[g.spec.bot[1]]};
    r.forfeits = {0, 0};
    if (g.reason == "forfeit" && g.winner_seat >= 0) {
      r.forfeits[1 - g.winner_seat] = 1;
    }
    r.winner = g.winner_seat;
    r.totals = {g.totals[0], g.totals[1]};
    played.push_back(std::move(r));
  }
  return recorder::ComputeStandings(names, played);
}

std::string FormatStandings(const std::vector<Standing>& standings) {
  std::string out = absl::StrFormat("%-4s %-20s %6s %5s %5s %5s %8s %7s %9s\n",
                                    "rank", "bot", "games", "won", "lost",
                                    "drawn", "forfeits", "score", "points");
  for (const Standing& s : standings) {
    absl::StrAppendFormat(&out,
                          "%-4d %-20s %6d %5d %5d %5d %8d %7.1f %4d-%-4d\n",
                          s.rank, s.bot, s.games, s.wins, s.losses, s.draws,
                          s.forfeits, s.score, s.points_for, s.points_against);
  }
  return out;
}

std::string DescribeGame(const std::string& game_id, const std::string& bot0,
                         const std::string& bot1, int winner_seat,
                         const std::string& reason, const int totals[2],
                         const std::string& error) {
  std::string what;
  if (!error.empty()) {
    what = "error: " + error;
  } else if (winner_seat < 0 || winner_seat > 1) {
    what = absl::StrCat("no winner (", reason, ")");
  } else {
    what = absl::StrCat(winner_seat == 0 ? bot0 : bot1, " wins ",
                        totals[winner_seat], "-", totals[1 - winner_seat],
                        reason == "forfeit" ? " by forfeit" : "");
  }
  // Names and reasons may come from a referee's record: escaped.
  return recorder::EscapeDisplay(
      absl::StrCat(game_id, " ", bot0, " vs ", bot1, ": ", what));
}

absl::StatusOr<TournamentResult> RunTournament(
    const TournamentOptions& o,
    std::function<void(const GameOutcome&, int done, int total)> progress) {
  if (o.bots.size() < 2) {
    return absl::InvalidArgumentError("a tournament needs at least two bots");
  }
  auto channel =
      grpc::CreateChannel(o.address, grpc::InsecureChannelCredentials());
  auto stub = v1::RefereeService::NewStub(channel);
  const std::vector<GameSpec> schedule = MakeSchedule(o);
  TournamentResult result;
  result.games.resize(schedule.size());
  std::atomic<size_t> next{0};
  absl::Mutex mu;
  int done = 0;
  std::vector<std::thread> workers;
  const int k = std::max(1, std::min<int>(o.concurrency, schedule.size()));
  for (int w = 0; w < k; ++w) {
    workers.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1)) < schedule.size();) {
        GameOutcome outcome = RunGame(o, *stub, schedule[i]);
        absl::MutexLock lock(&mu);
        result.games[i] = outcome;
        ++done;
        if (progress)
          progress(outcome, done, static_cast<int>(schedule.size()));
      }
    });
  }
  for (std::thread& t : workers) t.join();
  result.standings = ComputeStandings(o.bots, result.games);
  return result;
}

}  // namespace cassino::tournament
