#include "tools/tournament/tournament.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "cassino/v1/referee_service.grpc.pb.h"
#include "competition/bradley_terry.h"
#include "competition/finishing_order.h"
#include "grpcpp/grpcpp.h"
#include "recorder/display_text.h"
#include "rules/rule_set.h"
#include "rules/schedule.h"
#include "tools/playout/random_playout.h"
#include "tools/tournament/process.h"
#include "tools/tournament/run_game.h"

namespace cassino::tournament {

namespace v1 = ::cassino::v1;

namespace {

bool Unreachable(grpc::StatusCode code) {
  return code == grpc::StatusCode::UNAVAILABLE ||
         code == grpc::StatusCode::DEADLINE_EXCEEDED;
}

}  // namespace

// The reason ForfeitSeat records for a bot process that ended: display
// text (escaped) of at most 200 bytes, cut on a character boundary.
std::string ForfeitReason(const std::string& how) {
  std::string reason = recorder::EscapeDisplay(
      absl::StrCat("the bot process ", how, " before the end of the game"));
  if (reason.size() > 200) {
    size_t cut = 200;
    while (cut > 0 && (static_cast<unsigned char>(reason[cut]) & 0xC0) == 0x80)
      --cut;
    reason.resize(cut);
  }
  return reason;
}

// Until `game_over`: polls the bot processes every 50 ms, and asks the
// referee to forfeit the seat of each one that has ended (and of each seat
// in `exits` already, whose bot could not be started), retrying every
// second while the referee cannot be reached. A forfeit refused because the
// game is over means the process ended after the game: it is dropped from
// `exits`.
void WatchBotExits(const TournamentOptions& o, v1::RefereeService::Stub& stub,
                   const std::string& game_id,
                   std::vector<std::optional<Process>>& bots,
                   std::vector<BotExit>* exits,
                   const std::atomic<bool>& game_over) {
  const int seats = static_cast<int>(bots.size());
  std::vector<bool> seen(seats, false);
  for (const BotExit& e : *exits) seen[e.seat] = true;
  // Indices into `exits` of the forfeits still to ask for.
  std::vector<size_t> to_forfeit;
  for (size_t i = 0; i < exits->size(); ++i) to_forfeit.push_back(i);
  std::vector<size_t> after_end;
  auto next_try = std::chrono::steady_clock::now();
  while (!game_over) {
    for (int seat = 0; seat < seats; ++seat) {
      int status = 0;
      if (seen[seat] || !bots[seat] ||
          !bots[seat]->Wait(std::chrono::milliseconds(0), &status)) {
        continue;
      }
      seen[seat] = true;
      BotExit exit;
      exit.seat = seat;
      exit.how = DescribeWaitStatus(status);
      exits->push_back(std::move(exit));
      to_forfeit.push_back(exits->size() - 1);
      next_try = std::chrono::steady_clock::now();
    }
    if (!to_forfeit.empty() && std::chrono::steady_clock::now() >= next_try) {
      std::vector<size_t> retry;
      for (size_t i : to_forfeit) {
        BotExit& e = (*exits)[i];
        v1::ForfeitSeatRequest req;
        req.set_game_id(game_id);
        req.set_seat(e.seat);
        req.set_reason(ForfeitReason(e.how));
        v1::ForfeitSeatResponse resp;
        const grpc::Status s = stub.ForfeitSeat(
            AdminContext(o.admin_token, 5000).get(), req, &resp);
        if (s.ok()) {
          e.forfeited = true;
        } else if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
          after_end.push_back(i);  // the game was over: a normal exit
        } else if (Unreachable(s.error_code())) {
          retry.push_back(i);
        }
      }
      to_forfeit = std::move(retry);
      next_try = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::sort(after_end.rbegin(), after_end.rend());
  for (size_t i : after_end) exits->erase(exits->begin() + i);
}

GameOutcome RunGame(const TournamentOptions& o, const std::string& address,
                    v1::RefereeService::Stub& stub, const GameSpec& spec,
                    bool* unreachable) {
  if (unreachable != nullptr) *unreachable = false;
  GameOutcome out;
  out.spec = spec;
  out.address = address;
  const int seats = static_cast<int>(spec.bot.size());
  v1::CreateGameRequest req;
  req.set_rules(o.rules);
  for (int seat = 0; seat < seats; ++seat) {
    req.add_seats()->set_bot_name(o.bots[spec.bot[seat]].name);
  }
  req.mutable_clock()->set_per_move_ms(o.per_move_ms);
  req.mutable_clock()->set_bank_ms(std::max<int64_t>(o.bank_ms, 0));  // 0: none
  req.set_seed(ToHex(spec.seed));
  req.set_label(o.label);
  v1::CreateGameResponse created;
  grpc::Status s =
      stub.CreateGame(AdminContext(o.admin_token, 10000).get(), req, &created);
  if (!s.ok()) {
    // Only UNAVAILABLE (no connection) means no game was created. After
    // DEADLINE_EXCEEDED the referee may still create it, late: playing it
    // again elsewhere could record it twice, so it is an error instead.
    if (unreachable != nullptr) {
      *unreachable = s.error_code() == grpc::StatusCode::UNAVAILABLE;
    }
    out.error =
        absl::StrCat("CreateGame on ", address, ": ", s.error_message());
    return out;
  }
  out.game_id = created.game_id();

  // Watch before starting the bots, so the end cannot be missed.
  const int64_t limit_ms = o.per_move_ms * 600 + o.bank_ms * 2 + 60000;
  const auto deadline =
      std::chrono::system_clock::now() + std::chrono::milliseconds(limit_ms);
  v1::WatchGameRequest watch_req;
  watch_req.set_game_id(created.game_id());
  auto watch_ctx = std::make_unique<grpc::ClientContext>();
  watch_ctx->set_deadline(deadline);
  auto watch = stub.WatchGame(watch_ctx.get(), watch_req);

  // Each seat's bot process; a seat whose command could not be started has
  // none, and its exit is reported at once.
  std::vector<std::optional<Process>> bots(seats);
  std::vector<BotExit> exits;
  for (int seat = 0; seat < seats; ++seat) {
    const std::string token = created.tokens(seat).token();
    const std::string command = absl::StrReplaceAll(
        o.bots[spec.bot[seat]].command, {{"{address}", address},
                                         {"{game}", created.game_id()},
                                         {"{token}", token},
                                         {"{seat}", std::to_string(seat)}});
    absl::StatusOr<Process> p = Process::Start(
        command,
        {{"CASSINO_ADDRESS", address},
         {"CASSINO_GAME", created.game_id()},
         {"CASSINO_TOKEN", token},
         {"CASSINO_SEAT", std::to_string(seat)}},
        o.log_dir.empty() ? ""
                          : absl::StrCat(o.log_dir, "/", created.game_id(),
                                         "-seat", seat, ".log"));
    if (p.ok()) {
      bots[seat].emplace(std::move(*p));
    } else {
      BotExit exit;
      exit.seat = seat;
      exit.how = absl::StrCat("could not be started: ", p.status().message());
      exits.push_back(std::move(exit));
    }
  }
  // While the game runs, a bot process that ends forfeits its seat at once.
  std::atomic<bool> game_over{false};
  std::thread monitor([&] {
    WatchBotExits(o, stub, created.game_id(), bots, &exits, game_over);
  });

  bool ended = false;
  std::string watch_error;
  for (int attempt = 0;; ++attempt) {
    v1::WatchGameResponse event;
    while (watch->Read(&event)) {
      if (event.has_game_ended()) {
        const v1::GameResult& r = event.game_ended().result();
        out.winner = r.winner();
        out.reason = r.reason();
        out.totals.assign(r.totals().begin(), r.totals().end());
        out.forfeiting_seat = r.forfeiting_seat();
        ended = true;
        watch_ctx->TryCancel();
        break;
      }
    }
    const grpc::Status finished = watch->Finish();
    if (ended) break;
    // The stream broke before the end: the referee went down (it resumes
    // the game when it is back; the bots retry on their own) or the time
    // limit passed. Watch again, after a pause, until the limit.
    watch_error = finished.error_message();
    if (!Unreachable(finished.error_code()) &&
        finished.error_code() != grpc::StatusCode::CANCELLED &&
        finished.error_code() != grpc::StatusCode::OK) {
      break;  // NOT_FOUND and the like: watching again will not help
    }
    if (std::chrono::system_clock::now() >= deadline) break;
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::min(250 << std::min(attempt, 5), 5000)));
    watch_ctx = std::make_unique<grpc::ClientContext>();
    watch_ctx->set_deadline(deadline);
    watch = stub.WatchGame(watch_ctx.get(), watch_req);
  }
  game_over = true;
  monitor.join();
  if (!ended) {
    out.error = absl::StrCat("the game did not end in time",
                             watch_error.empty() ? "" : ": ", watch_error);
  }
  // Bots exit once they see the end; give them a moment, then stop them.
  for (std::optional<Process>& p : bots) {
    if (p && !p->Wait(std::chrono::milliseconds(3000))) p->Kill();
  }
  for (BotExit& e : exits) {
    if (bots[e.seat]) e.stderr_tail = bots[e.seat]->StderrTail();
  }
  out.exits = std::move(exits);
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

namespace {

TableScheduleSpec ScheduleSpec(const TournamentOptions& o) {
  TableScheduleSpec spec;
  spec.participants = static_cast<int>(o.bots.size());
  spec.players = o.players;
  spec.partnerships = o.partnerships;
  spec.gauntlet = o.schedule == Schedule::kGauntlet;
  spec.games_per_table = o.games_per_pairing;
  spec.duplicate = o.duplicate;
  return spec;
}

}  // namespace

std::vector<GameSpec> MakeSchedule(const TournamentOptions& o) {
  std::vector<GameSpec> games;
  for (TableGame& t : TableSchedule(ScheduleSpec(o), o.seed)) {
    games.push_back({t.index, std::move(t.seat), t.seed});
  }
  return games;
}

namespace {

// A counted game: played to its end (not aborted).
bool Counted(const GameOutcome& g) {
  return g.error.empty() && g.reason != "aborted" && !g.totals.empty();
}

}  // namespace

std::vector<Standing> ComputeStandings(const std::vector<BotSpec>& bots,
                                       const std::vector<GameOutcome>& games) {
  std::vector<std::string> names;
  for (const BotSpec& b : bots) names.push_back(b.name);
  std::vector<recorder::StandingGame> played;
  for (const GameOutcome& g : games) {
    if (!Counted(g)) continue;
    recorder::StandingGame r;
    for (int b : g.spec.bot) r.bots.push_back(names[b]);
    r.forfeits.assign(g.spec.bot.size(), 0);
    if (g.forfeiting_seat >= 0 &&
        g.forfeiting_seat < static_cast<int>(r.forfeits.size())) {
      r.forfeits[g.forfeiting_seat] = 1;
    } else if (g.reason == "forfeit" && g.spec.bot.size() == 2 &&
               g.winner >= 0 && g.winner < 2) {
      r.forfeits[1 - g.winner] = 1;
    }
    r.winner = g.winner;
    r.totals = g.totals;
    played.push_back(std::move(r));
  }
  return recorder::ComputeStandings(names, played);
}

std::vector<Rating> ComputeRatings(const std::vector<BotSpec>& bots,
                                   const std::vector<GameOutcome>& games) {
  const size_t n = bots.size();
  std::vector<std::vector<double>> wins(n, std::vector<double>(n, 0));
  for (const GameOutcome& g : games) {
    if (!Counted(g)) continue;
    const int sides = static_cast<int>(g.totals.size());
    const int seats = static_cast<int>(g.spec.bot.size());
    // Side of a seat: the seat, or seat mod 2 for teams.
    std::vector<std::vector<int>> members(sides);
    for (int seat = 0; seat < seats; ++seat) {
      members[seat % sides].push_back(g.spec.bot[seat]);
    }
    for (const competition::PairwiseResult& r :
         competition::PairwiseResults(g.winner, g.totals)) {
      for (int a : members[r.a]) {
        for (int b : members[r.b]) {
          if (a == b) continue;
          wins[a][b] += r.score;
          wins[b][a] += 1 - r.score;
        }
      }
    }
  }
  const competition::Ratings fit =
      competition::FitBradleyTerry(wins, /*prior_draws=*/1.0);
  std::vector<Rating> out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back({bots[i].name, i < fit.elo.size() ? fit.elo[i] : 1500,
                   i < fit.se.size() ? fit.se[i] : std::nan("")});
  }
  return out;
}

std::string FormatStandings(const std::vector<Standing>& standings,
                            const std::vector<Rating>& ratings) {
  std::string out = absl::StrFormat("%-4s %-20s %6s %5s %5s %5s %8s %7s %9s",
                                    "rank", "bot", "games", "won", "lost",
                                    "drawn", "forfeits", "score", "points");
  if (!ratings.empty()) absl::StrAppend(&out, "  rating");
  out += "\n";
  for (const Standing& s : standings) {
    absl::StrAppendFormat(&out, "%-4d %-20s %6d %5d %5d %5d %8d %7.1f %4d-%-4d",
                          s.rank, s.bot, s.games, s.wins, s.losses, s.draws,
                          s.forfeits, s.score, s.points_for, s.points_against);
    for (const Rating& r : ratings) {
      if (r.bot != s.bot) continue;
      absl::StrAppendFormat(&out, "  %.0f", r.elo);
      if (std::isfinite(r.se))
        absl::StrAppendFormat(&out, " ±%.0f", 1.96 * r.se);
      break;
    }
    out += "\n";
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

std::string DescribeGame(const GameOutcome& g,
                         const std::vector<BotSpec>& bots) {
  const std::string id = g.game_id.empty() ? "-" : g.game_id;
  const int seats = static_cast<int>(g.spec.bot.size());
  if (seats == 2) {
    const int totals[2] = {g.totals.size() > 0 ? g.totals[0] : 0,
                           g.totals.size() > 1 ? g.totals[1] : 0};
    return DescribeGame(id, bots[g.spec.bot[0]].name, bots[g.spec.bot[1]].name,
                        g.winner, g.reason, totals, g.error);
  }
  // Sides: seat s is on side s mod sides (teams: 0+2, 1+3).
  const int sides =
      g.totals.empty() ? seats : static_cast<int>(g.totals.size());
  std::vector<std::string> side_names(sides);
  for (int seat = 0; seat < seats; ++seat) {
    std::string& name = side_names[seat % sides];
    absl::StrAppend(&name, name.empty() ? "" : "+",
                    bots[g.spec.bot[seat]].name);
  }
  std::string what;
  if (!g.error.empty()) {
    what = "error: " + g.error;
  } else {
    what = g.winner >= 0 && g.winner < sides
               ? absl::StrCat(side_names[g.winner], " wins",
                              g.reason == "forfeit" ? " by forfeit" : "")
               : absl::StrCat("no winner (", g.reason, ")");
    absl::StrAppend(&what, ", totals ", absl::StrJoin(g.totals, "-"));
  }
  return recorder::EscapeDisplay(
      absl::StrCat(id, " ", absl::StrJoin(side_names, " vs "), ": ", what));
}

std::vector<std::string> DescribeExits(const GameOutcome& g,
                                       const std::vector<BotSpec>& bots) {
  std::vector<std::string> lines;
  for (const BotExit& e : g.exits) {
    const std::string name =
        e.seat >= 0 && e.seat < static_cast<int>(g.spec.bot.size())
            ? bots[g.spec.bot[e.seat]].name
            : "?";
    lines.push_back(recorder::EscapeDisplay(absl::StrCat(
        "  seat ", e.seat, " (", name, ") ", e.how, " before the end: ",
        e.forfeited ? "it forfeits"
                    : "the referee could not be told (it loses on time)",
        e.stderr_tail.empty() ? "; nothing on stderr"
                              : "; its last lines on stderr:")));
    for (const std::string& line : e.stderr_tail) {
      lines.push_back("    | " + recorder::EscapeDisplay(line));
    }
  }
  return lines;
}

namespace {

// The shared state of a run over several referees: the queue of games not
// yet created, and each referee's retry state.
class Runner {
 public:
  Runner(const TournamentOptions& o, std::vector<GameSpec> schedule,
         std::function<void(const GameOutcome&, int, int)> progress)
      : o_(o), schedule_(std::move(schedule)), progress_(std::move(progress)) {
    absl::MutexLock lock(&mu_);
    for (size_t i = 0; i < schedule_.size(); ++i) queue_.push_back(i);
    outcomes_.resize(schedule_.size());
    referees_.resize(o.addresses.size());
    for (size_t r = 0; r < o.addresses.size(); ++r) {
      referees_[r].stub = v1::RefereeService::NewStub(grpc::CreateChannel(
          o.addresses[r], grpc::InsecureChannelCredentials()));
    }
  }

  std::vector<GameOutcome> Run() {
    std::vector<std::thread> workers;
    const int per_referee = std::max(1, o_.concurrency);
    for (size_t r = 0; r < o_.addresses.size(); ++r) {
      for (int w = 0; w < per_referee; ++w) {
        workers.emplace_back([this, r] { Work(r); });
      }
    }
    for (std::thread& t : workers) t.join();
    absl::MutexLock lock(&mu_);
    // Left over: every referee was given up.
    for (size_t i : queue_) {
      outcomes_[i].spec = schedule_[i];
      outcomes_[i].error = "no referee could be reached";
      ++done_;
      if (progress_) {
        progress_(outcomes_[i], done_, static_cast<int>(schedule_.size()));
      }
    }
    queue_.clear();
    return outcomes_;
  }

 private:
  struct Referee {
    std::unique_ptr<v1::RefereeService::Stub> stub;
    absl::Time retry_at = absl::InfinitePast();
    absl::Time down_since = absl::InfiniteFuture();
    int failures = 0;
    bool given_up = false;
  };

  void Work(size_t r) {
    while (true) {
      size_t i;
      {
        absl::MutexLock lock(&mu_);
        // Wait for a game, or for the end of every game in flight (one may
        // come back to the queue), or for this referee's retry time.
        while (true) {
          if (referees_[r].given_up) return;
          if (queue_.empty() && in_flight_ == 0) return;
          const absl::Time now = absl::Now();
          if (!queue_.empty() && now >= referees_[r].retry_at) break;
          // At most a second: a game may come back to the queue while this
          // referee waits for its retry time.
          const absl::Time until = std::min(
              now + absl::Seconds(1),
              queue_.empty() ? absl::InfiniteFuture() : referees_[r].retry_at);
          auto changed = [this, r]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
            return (queue_.empty() && in_flight_ == 0) ||
                   (!queue_.empty() && absl::Now() >= referees_[r].retry_at);
          };
          mu_.AwaitWithDeadline(absl::Condition(&changed), until);
        }
        i = queue_.front();
        queue_.pop_front();
        ++in_flight_;
      }
      bool unreachable = false;
      GameOutcome outcome = RunGame(o_, o_.addresses[r], *referees_[r].stub,
                                    schedule_[i], &unreachable);
      absl::MutexLock lock(&mu_);
      --in_flight_;
      Referee& ref = referees_[r];
      if (unreachable) {
        // No game was created: the game goes back for any referee, and
        // this one is tried again later.
        queue_.push_front(i);
        const absl::Time now = absl::Now();
        if (ref.failures == 0) ref.down_since = now;
        ++ref.failures;
        ref.retry_at = now + std::min(absl::Seconds(1) *
                                          (1 << std::min(ref.failures - 1, 5)),
                                      absl::Seconds(30));
        if (now - ref.down_since >= absl::Milliseconds(o_.referee_retry_ms)) {
          ref.given_up = true;
        }
        if (o_.notice) {
          o_.notice(
              ref.given_up
                  ? absl::StrCat("referee ", o_.addresses[r],
                                 " given up: unreachable for ",
                                 absl::FormatDuration(now - ref.down_since),
                                 " (", outcome.error, ")")
                  : absl::StrCat("referee ", o_.addresses[r], " unreachable (",
                                 outcome.error,
                                 "); its game goes back to the queue, retry "
                                 "in ",
                                 absl::FormatDuration(ref.retry_at - now)));
        }
        continue;
      }
      if (ref.failures > 0 && o_.notice) {
        o_.notice(absl::StrCat("referee ", o_.addresses[r], " answers again"));
      }
      ref.failures = 0;
      ref.down_since = absl::InfiniteFuture();
      if (outcome.error.empty() && !outcome.game_id.empty()) {
        // Ids are 80 random bits per referee (docs/tournaments.md); a
        // collision across referees would merge two games' records.
        if (!ids_.insert(outcome.game_id).second) {
          outcome.error = absl::StrCat("game id ", outcome.game_id,
                                       " already used on another referee");
        }
      }
      outcomes_[i] = std::move(outcome);
      ++done_;
      if (progress_) {
        progress_(outcomes_[i], done_, static_cast<int>(schedule_.size()));
      }
    }
  }

  const TournamentOptions& o_;
  const std::vector<GameSpec> schedule_;
  const std::function<void(const GameOutcome&, int, int)> progress_;
  absl::Mutex mu_;
  std::deque<size_t> queue_ ABSL_GUARDED_BY(mu_);
  int in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  int done_ ABSL_GUARDED_BY(mu_) = 0;
  std::set<std::string> ids_ ABSL_GUARDED_BY(mu_);
  std::vector<GameOutcome> outcomes_ ABSL_GUARDED_BY(mu_);
  // The vector is sized once; a worker's stub is used without the lock.
  std::vector<Referee> referees_;
};

}  // namespace

absl::StatusOr<TournamentResult> RunTournament(
    const TournamentOptions& options,
    std::function<void(const GameOutcome&, int done, int total)> progress) {
  TournamentOptions o = options;
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(o.rules);
  if (!rules.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("rules: ", rules.status().message()));
  }
  if (absl::Status valid = rules->Validate(); !valid.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("rules: ", valid.message()));
  }
  o.players = rules->players;
  o.partnerships = rules->partnerships;
  if (static_cast<int>(o.bots.size()) < std::max(2, o.players)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the rules seat ", o.players, " players: a tournament needs at least ",
        std::max(2, o.players), " bots, got ", o.bots.size()));
  }
  if (o.addresses.empty()) {
    return absl::InvalidArgumentError("no referee address");
  }
  // The schedule's size before it is made: C(n, P) grows fast.
  if (const int64_t games = TableScheduleSize(ScheduleSpec(o));
      games > 100000) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the schedule would have %d games (at most 100000)", games));
  }
  std::vector<GameSpec> schedule = MakeSchedule(o);
  Runner runner(o, std::move(schedule), std::move(progress));
  TournamentResult result;
  result.games = runner.Run();
  result.standings = ComputeStandings(o.bots, result.games);
  result.ratings = ComputeRatings(o.bots, result.games);
  return result;
}

}  // namespace cassino::tournament
