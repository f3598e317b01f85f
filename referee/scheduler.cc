#include "referee/scheduler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "recorder/standings.h"
#include "referee/auth.h"
#include "referee/errors.h"
#include "referee/grpc_status.h"
#include "referee/session_messages.h"
#include "referee/wall_clock.h"
#include "rules/deal.h"
#include "rules/schedule.h"

namespace cassino::service {
namespace {

constexpr int kMaxParticipants = 256;
constexpr int kMaxGamesPerPairing = 1000;
constexpr int kMaxConcurrent = 256;
constexpr int64_t kMaxGraceMs = 24 * 3600 * 1000;
constexpr int64_t kDefaultGraceMs = 60000;
constexpr int64_t kMaxGames = 100000;
constexpr char kRoundRobin[] = "round_robin";
constexpr char kGauntlet[] = "gauntlet";

// A spec field where 0 means `fallback`: else it must be 1 to `max`.
template <typename T>
absl::StatusOr<T> OrDefault(T value, const char* field, T max, T fallback) {
  if (value < 0 || value > max) {
    const std::string path = absl::StrCat("spec.", field);
    return InvalidField(
        path, absl::StrCat(path, " must be 1 to ", max, " (0 means ", fallback,
                           "); ", value, " given"));
  }
  return value == 0 ? fallback : value;
}

// How a tournament's pending game holds its seed (SeedHolds).
std::string SeedHolder(const std::string& tournament, int index) {
  return absl::StrCat("tournament ", tournament, " game ", index);
}

}  // namespace

std::vector<recorder::TournamentGameRow> MakeTournamentSchedule(
    const std::vector<std::string>& participants, bool gauntlet,
    int games_per_pairing, bool duplicate, const Seed& seed) {
  std::vector<recorder::TournamentGameRow> games;
  for (const ScheduledGame& g :
       TournamentSchedule(static_cast<int>(participants.size()), gauntlet,
                          games_per_pairing, duplicate, seed)) {
    games.push_back({g.index,
                     {participants[g.seat[0]], participants[g.seat[1]]},
                     ToHex(g.seed),
                     ""});
  }
  return games;
}

Scheduler::Scheduler(Registry* registry, int absent_batch)
    : registry_(registry),
      recorder_(registry->recorder()),
      absent_batch_(std::max(1, absent_batch)) {}

absl::Status Scheduler::Load() {
  absl::StatusOr<std::vector<recorder::TournamentRow>> rows =
      recorder_->Tournaments();
  if (!rows.ok()) return rows.status();
  {
    absl::MutexLock lock(&mu_);
    for (recorder::TournamentRow& row : *rows) {
      absl::StatusOr<std::vector<recorder::TournamentGameRow>> games =
          recorder_->TournamentGames(row.name);
      if (!games.ok()) return games.status();
      recorder::ListFilter filter;
      filter.label = row.name;
      absl::StatusOr<std::vector<recorder::GameSummary>> recorded =
          recorder_->List(filter);
      if (!recorded.ok()) return recorded.status();
      std::map<std::string, recorder::GameStatus> status;
      for (const recorder::GameSummary& s : *recorded) {
        status[s.game_id] = s.status;
      }
      Tournament& t = tournaments_[row.name];
      for (recorder::TournamentGameRow& g : *games) {
        Scheduled s;
        auto it = g.game_id.empty() ? status.end() : status.find(g.game_id);
        if (it == status.end()) {
          g.game_id.clear();  // never created: pending again
        } else {
          s.state = it->second == recorder::GameStatus::kRunning
                        ? State::kCreated
                        : State::kEnded;
        }
        if (s.state == State::kPending && row.status == "running") {
          registry_->seed_holds().Hold(g.seed, SeedHolder(row.name, g.index));
        }
        s.row = std::move(g);
        t.games.push_back(std::move(s));
      }
      t.row = std::move(row);
    }
  }
  AbortUnstarted();
  registry_->lobby().SetListener([this] { Kick(); });
  registry_->SetLabelGuard(
      [this](const std::string& label) { return CheckLabel(label); });
  Kick();
  return absl::OkStatus();
}

void Scheduler::AbortUnstarted() {
  struct Unstarted {
    std::string tournament;
    int index = 0;
    std::shared_ptr<GameSession> game;
  };
  std::vector<Unstarted> unstarted;
  {
    absl::MutexLock lock(&mu_);
    for (auto& [name, t] : tournaments_) {
      if (t.row.status != "running") continue;
      for (Scheduled& g : t.games) {
        if (g.state != State::kCreated) continue;
        std::shared_ptr<GameSession> game = registry_->Find(g.row.game_id);
        if (game == nullptr || game->over() || game->Info().turn != 0) {
          continue;
        }
        unstarted.push_back({name, g.row.index, std::move(game)});
      }
    }
  }
  for (const Unstarted& u : unstarted) {
    // (FailedPrecondition if its clock ran out meanwhile: that stands.)
    if (!u.game->Abort("the referee restarted before the game's first move")
             .ok()) {
      continue;
    }
    absl::MutexLock lock(&mu_);
    Tournament& t = tournaments_[u.tournament];
    Scheduled& g = t.games[u.index];
    g.state = State::kPending;
    g.row.game_id.clear();
    registry_->seed_holds().Hold(g.row.seed,
                                 SeedHolder(u.tournament, g.row.index));
    // On disk too, so that a later restart finds the game pending.
    recorder_->SetTournamentGame(u.tournament, u.index, "", nullptr);
  }
}

int Scheduler::Running() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(std::count_if(
      tournaments_.begin(), tournaments_.end(),
      [](const auto& t) { return t.second.row.status == "running"; }));
}

grpc::Status Scheduler::CheckLabel(const std::string& label) const {
  if (label.empty()) return grpc::Status::OK;
  absl::MutexLock lock(&mu_);
  if (tournaments_.contains(label) || reserved_.contains(label)) {
    return GrpcError(
        grpc::StatusCode::FAILED_PRECONDITION, Reason::kLabelReserved,
        absl::StrCat("label ", Quote(label),
                     " is the name of a tournament: only the referee's "
                     "scheduler creates games with it"));
  }
  return grpc::Status::OK;
}

// ---------------------------------------------------------------------------
// Organiser calls.

void Scheduler::Create(const v1::TournamentSpec& spec, Reply reply) {
  const v1::TournamentInfo empty;
  auto fail = [&](const grpc::Status& s) { reply(s, empty); };
  recorder::TournamentRow row;
  row.name = spec.name();
  if (!ValidAccountName(row.name)) {  // the same syntax
    return fail(Invalid(
        "spec.name",
        absl::StrCat("spec.name must be 1 to ", kMaxAccountName,
                     " characters, each a letter, a digit, '-', '_' or '.'")));
  }
  if (spec.participants_size() < 2 ||
      spec.participants_size() > kMaxParticipants) {
    return fail(Invalid(
        "spec.participants",
        absl::StrCat("spec.participants must name 2 to ", kMaxParticipants,
                     " bot accounts; ", spec.participants_size(), " given")));
  }
  for (int i = 0; i < spec.participants_size(); ++i) {
    const std::string& p = spec.participants(i);
    for (int j = 0; j < i; ++j) {
      if (spec.participants(j) == p) {
        const std::string field = absl::StrCat("spec.participants[", i, "]");
        return fail(
            Invalid(field, absl::StrCat(field, ": ", Quote(p),
                                        " is already participants[", j, "]")));
      }
    }
    // NOT_FOUND for an unknown account, FAILED_PRECONDITION for a revoked
    // one (as CreateGame's seats).
    if (absl::Status s = registry_->lobby().CheckSeatable(p); !s.ok()) {
      return fail(
          ToGrpc(Prefixed(s, absl::StrCat("spec.participants[", i, "]: "))));
    }
    row.participants.push_back(p);
  }
  switch (spec.format()) {
    case v1::TOURNAMENT_FORMAT_UNSPECIFIED:
    case v1::TOURNAMENT_FORMAT_ROUND_ROBIN:
      row.format = kRoundRobin;
      break;
    case v1::TOURNAMENT_FORMAT_GAUNTLET:
      row.format = kGauntlet;
      break;
    default:
      return fail(Invalid("spec.format",
                          absl::StrCat("spec.format: unknown format ",
                                       static_cast<int>(spec.format()))));
  }
  absl::StatusOr<int> per_pairing = OrDefault(
      spec.games_per_pairing(), "games_per_pairing", kMaxGamesPerPairing, 2);
  if (!per_pairing.ok()) return fail(ToGrpc(per_pairing.status()));
  row.games_per_pairing = *per_pairing;
  row.duplicate = spec.duplicate();
  if (row.duplicate && row.games_per_pairing % 2 == 1) ++row.games_per_pairing;
  absl::StatusOr<RuleSet> rules = GameRules(spec.rules(), 2);
  if (!rules.ok()) {
    return fail(Invalid("spec.rules",
                        absl::StrCat("spec.rules: tournaments are two-player "
                                     "games; ",
                                     rules.status().message())));
  }
  row.rules = rules->ToString();
  absl::StatusOr<recorder::TimeControl> clock =
      ClockOf(spec.clock(), "spec.clock");
  if (!clock.ok()) return fail(ToGrpc(clock.status()));
  row.clock = *clock;
  absl::StatusOr<int> concurrent = OrDefault(
      spec.max_concurrent_games(), "max_concurrent_games", kMaxConcurrent, 4);
  if (!concurrent.ok()) return fail(ToGrpc(concurrent.status()));
  row.max_concurrent = *concurrent;
  absl::StatusOr<int64_t> grace = OrDefault<int64_t>(
      spec.grace_ms(), "grace_ms", kMaxGraceMs, kDefaultGraceMs);
  if (!grace.ok()) return fail(ToGrpc(grace.status()));
  row.grace_ms = *grace;
  Seed seed;
  if (spec.seed().empty()) {
    seed = RandomBytes32();
  } else {
    absl::StatusOr<Seed> parsed = ParseSeed(spec.seed());
    if (!parsed.ok()) {
      return fail(Invalid(
          "spec.seed", absl::StrCat("spec.seed: ", parsed.status().message())));
    }
    seed = *parsed;
  }
  row.seed = ToHex(seed);
  row.commitment = ToHex(SeedCommitment(seed));
  const int64_t n = spec.participants_size();
  const int64_t pairings = row.format == kGauntlet ? n - 1 : n * (n - 1) / 2;
  if (pairings * row.games_per_pairing > kMaxGames) {
    return fail(Invalid("spec.games_per_pairing",
                        absl::StrCat("the schedule would have ",
                                     pairings * row.games_per_pairing,
                                     " games; at most ", kMaxGames)));
  }
  std::vector<recorder::TournamentGameRow> schedule =
      MakeTournamentSchedule(row.participants, row.format == kGauntlet,
                             row.games_per_pairing, row.duplicate, seed);
  row.created_us = UnixMicros();

  // The name must be a new label, so that the label means exactly the
  // tournament's games (`cassino stats --tournament`).
  recorder::ListFilter used;
  used.label = row.name;
  used.limit = 1;
  absl::StatusOr<std::vector<recorder::GameSummary>> labelled =
      recorder_->List(used);
  if (!labelled.ok()) return fail(ToGrpc(labelled.status()));
  {
    absl::MutexLock lock(&mu_);
    if (tournaments_.contains(row.name) || reserved_.contains(row.name)) {
      return fail(GrpcError(
          grpc::StatusCode::ALREADY_EXISTS, Reason::kTournamentExists,
          absl::StrCat("tournament '", row.name, "' already exists")));
    }
    if (!labelled->empty()) {
      return fail(GrpcError(
          grpc::StatusCode::ALREADY_EXISTS, Reason::kTournamentExists,
          absl::StrCat("games labelled '", row.name,
                       "' already exist; a tournament's name must be a new "
                       "label")));
    }
    reserved_.insert(row.name);
  }
  recorder_->InsertTournament(
      row, schedule,
      [this, row, schedule, reply = std::move(reply)](absl::Status s) {
        Tournament copy;
        {
          absl::MutexLock lock(&mu_);
          reserved_.erase(row.name);
          if (s.ok()) {
            Tournament& t = tournaments_[row.name];
            t.row = row;
            for (const recorder::TournamentGameRow& g : schedule) {
              registry_->seed_holds().Hold(g.seed,
                                           SeedHolder(row.name, g.index));
              t.games.push_back({g, State::kPending});
            }
            copy = t;
          }
        }
        Answer(copy, s, "tournament", reply);
        Kick();
      });
}

void Scheduler::Cancel(const std::string& name, const std::string& reason,
                       Reply reply) {
  const std::string why =
      reason.empty() ? "cancelled by the organiser" : reason.substr(0, 256);
  {
    absl::MutexLock lock(&mu_);
    auto it = tournaments_.find(name);
    if (it == tournaments_.end()) {
      reply(GrpcError(grpc::StatusCode::NOT_FOUND, Reason::kTournamentNotFound,
                      absl::StrCat("no tournament ", Quote(name))),
            v1::TournamentInfo());
      return;
    }
    Tournament& t = it->second;
    if (t.row.status != "running" || t.ending) {
      reply(
          GrpcError(
              grpc::StatusCode::FAILED_PRECONDITION, Reason::kTournamentOver,
              absl::StrCat("tournament '", name, "' is already ",
                           t.row.status == "cancelled" ? "cancelled" : "over")),
          v1::TournamentInfo());
      return;
    }
    RecordEnd(t, "cancelled", why,
              [this, reply = std::move(reply)](const Tournament& ended,
                                               const absl::Status& s) {
                Answer(ended, s, "cancellation", reply);
              });
  }
}

void Scheduler::Answer(const Tournament& t, const absl::Status& recorded,
                       const std::string& what, const Reply& reply) const {
  if (!recorded.ok()) {
    reply(absl::IsAlreadyExists(recorded)
              ? ToGrpc(recorded)
              : GrpcError(grpc::StatusCode::UNAVAILABLE,
                          Reason::kRecordUnavailable,
                          absl::StrCat("the ", what,
                                       " could not be "
                                       "recorded: ",
                                       recorded.message())),
          v1::TournamentInfo());
    return;
  }
  v1::TournamentInfo info;
  grpc::Status status = Info(t, /*games=*/true, &info);
  reply(status, info);
}

grpc::Status Scheduler::Get(const std::string& name,
                            v1::TournamentInfo* out) const {
  Tournament copy;
  {
    absl::MutexLock lock(&mu_);
    auto it = tournaments_.find(name);
    if (it == tournaments_.end()) {
      return GrpcError(grpc::StatusCode::NOT_FOUND, Reason::kTournamentNotFound,
                       absl::StrCat("no tournament ", Quote(name)));
    }
    copy = it->second;
  }
  return Info(copy, /*games=*/true, out);
}

grpc::Status Scheduler::List(v1::ListTournamentsResponse* out) const {
  std::vector<Tournament> copies;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [name, t] : tournaments_) copies.push_back(t);
  }
  std::sort(copies.begin(), copies.end(),
            [](const Tournament& a, const Tournament& b) {
              return a.row.created_us != b.row.created_us
                         ? a.row.created_us > b.row.created_us
                         : a.row.name > b.row.name;
            });
  for (const Tournament& t : copies) {
    if (grpc::Status s = Info(t, /*games=*/false, out->add_tournaments());
        !s.ok()) {
      return s;
    }
  }
  return grpc::Status::OK;
}

grpc::Status Scheduler::Info(const Tournament& t, bool games,
                             v1::TournamentInfo* out) const {
  const recorder::TournamentRow& r = t.row;
  recorder::ListFilter filter;
  filter.label = r.name;
  absl::StatusOr<std::vector<recorder::GameSummary>> recorded =
      recorder_->List(filter);
  if (!recorded.ok()) return ToGrpc(recorded.status());
  std::map<std::string, const recorder::GameSummary*> by_id;
  for (const recorder::GameSummary& s : *recorded) by_id[s.game_id] = &s;

  v1::TournamentSpec* spec = out->mutable_spec();
  spec->set_name(r.name);
  for (const std::string& p : r.participants) spec->add_participants(p);
  spec->set_format(r.format == kGauntlet ? v1::TOURNAMENT_FORMAT_GAUNTLET
                                         : v1::TOURNAMENT_FORMAT_ROUND_ROBIN);
  spec->set_games_per_pairing(r.games_per_pairing);
  spec->set_duplicate(r.duplicate);
  spec->set_rules(r.rules);
  spec->mutable_clock()->set_per_move_ms(r.clock.per_move_ms);
  spec->mutable_clock()->set_bank_ms(r.clock.bank_ms);
  spec->mutable_clock()->set_max_illegal(r.clock.max_illegal);
  spec->set_max_concurrent_games(r.max_concurrent);
  spec->set_grace_ms(r.grace_ms);
  out->set_status(r.status == "finished"    ? v1::TOURNAMENT_STATUS_FINISHED
                  : r.status == "cancelled" ? v1::TOURNAMENT_STATUS_CANCELLED
                                            : v1::TOURNAMENT_STATUS_RUNNING);
  out->set_seed_commitment(r.commitment);
  out->set_games_total(static_cast<int>(t.games.size()));
  out->set_created_unix_ms(r.created_us / 1000);
  out->set_ended_unix_ms(r.ended_us / 1000);
  int pending = 0, running = 0, finished = 0, aborted = 0;
  for (const Scheduled& g : t.games) {
    const recorder::GameSummary* s = nullptr;
    if (g.state == State::kCreated || g.state == State::kEnded) {
      auto it = by_id.find(g.row.game_id);
      if (it != by_id.end()) s = it->second;
    }
    v1::GameStatus status = s ? ProtoStatus(s->status)
                            : g.state == State::kStarting
                                ? v1::GAME_STATUS_RUNNING
                                : v1::GAME_STATUS_UNSPECIFIED;
    switch (status) {
      case v1::GAME_STATUS_RUNNING:
        ++running;
        break;
      case v1::GAME_STATUS_FINISHED:
        ++finished;
        break;
      case v1::GAME_STATUS_ABORTED:
        ++aborted;
        break;
      default:
        ++pending;
    }
    if (!games) continue;
    v1::TournamentGame* out_game = out->add_games();
    out_game->set_index(g.row.index);
    for (const std::string& bot : g.row.seats) out_game->add_bots(bot);
    if (s != nullptr) {
      out_game->set_game_id(g.row.game_id);
      out_game->set_status(status);
      if (s->status != recorder::GameStatus::kRunning) {
        v1::GameResult* result = out_game->mutable_result();
        result->set_winner(s->winner);
        result->set_reason(s->end_reason);
        for (int total : s->totals) result->add_totals(total);
      }
    }
  }
  out->set_games_pending(pending);
  out->set_games_running(running);
  out->set_games_finished(finished);
  out->set_games_aborted(aborted);
  // The seed, once nothing it derives is secret any more.
  if (r.status != "running" && running == 0) spec->set_seed(r.seed);

  absl::StatusOr<std::vector<recorder::Standing>> standings =
      recorder::TournamentStandings(*recorder_, r.name, r.participants,
                                    *recorded);
  if (!standings.ok()) return ToGrpc(standings.status());
  for (const recorder::Standing& s : *standings) {
    v1::TournamentStanding* o = out->add_standings();
    o->set_rank(s.rank);
    o->set_bot(s.bot);
    o->set_games(s.games);
    o->set_wins(s.wins);
    o->set_losses(s.losses);
    o->set_draws(s.draws);
    o->set_forfeits(s.forfeits);
    o->set_score(s.score);
    o->set_points_for(static_cast<int32_t>(s.points_for));
    o->set_points_against(static_cast<int32_t>(s.points_against));
  }
  return grpc::Status::OK;
}

// ---------------------------------------------------------------------------
// Scheduling.

void Scheduler::Kick() {
  if (kick_pending_.exchange(true)) return;
  registry_->timer()->Schedule(registry_->timer()->Now(), [this] { Run(); });
}

void Scheduler::Refresh(Tournament& t) {
  for (Scheduled& g : t.games) {
    if (g.state != State::kCreated) continue;
    // A running game is never evicted, so a game not in memory has ended.
    std::shared_ptr<GameSession> game = registry_->Find(g.row.game_id);
    if (game == nullptr || game->over()) g.state = State::kEnded;
  }
}

void Scheduler::RecordEnd(
    Tournament& t, const std::string& status, const std::string& reason,
    std::function<void(const Tournament&, const absl::Status&)> then) {
  t.ending = true;
  const std::string name = t.row.name;
  const int64_t now = UnixMicros();
  recorder_->EndTournament(name, status, reason, now,
                           [this, name, status, reason, now,
                            then = std::move(then)](absl::Status s) {
                             Tournament copy;
                             {
                               absl::MutexLock lock(&mu_);
                               Tournament& t = tournaments_[name];
                               t.ending = false;
                               if (s.ok()) {
                                 t.row.status = status;
                                 t.row.reason = reason;
                                 t.row.ended_us = now;
                                 // No pending game will be dealt now.
                                 for (const Scheduled& g : t.games) {
                                   registry_->seed_holds().Release(
                                       g.row.seed,
                                       SeedHolder(name, g.row.index));
                                 }
                               }
                               if (then) copy = t;
                             }
                             if (then) then(copy, s);
                           });
}

void Scheduler::Run() {
  kick_pending_.store(false);
  std::vector<Start> starts;
  const int64_t now = UnixMicros();
  {
    absl::MutexLock lock(&mu_);
    int64_t wake = 0;  // the next grace expiry, if any
    // The lobby's view of each account, asked once per pass.
    std::map<std::string, Lobby::Presence> presence;
    auto presence_of = [&](const std::string& account) {
      auto it = presence.find(account);
      if (it == presence.end()) {
        it = presence.emplace(account, registry_->lobby().PresenceOf(account))
                 .first;
      }
      return it->second;
    };
    auto inflight = [&](const std::string& account)
                        ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
                          auto it = inflight_.find(account);
                          return it == inflight_.end() ? 0 : it->second;
                        };
    for (auto& [name, t] : tournaments_) {
      if (t.row.status != "running" || t.ending) continue;
      Refresh(t);
      int running = 0;
      bool all_ended = true;
      for (const Scheduled& g : t.games) {
        if (g.state == State::kStarting || g.state == State::kCreated) {
          ++running;
        }
        if (g.state != State::kEnded) all_ended = false;
      }
      if (all_ended) {
        RecordEnd(t, "finished", "", nullptr);  // (on failure: again next Run)
        continue;
      }
      const int64_t grace_us = t.row.grace_ms * 1000;
      // Seeds of games in play: the twin of a duplicate pair waits until
      // its partner has ended (both bots would hold each other's hands).
      std::set<std::string> in_play;
      for (const Scheduled& g : t.games) {
        if (g.state == State::kStarting || g.state == State::kCreated) {
          in_play.insert(g.row.seed);
        }
      }
      for (Scheduled& g : t.games) {
        if (g.state != State::kPending || in_play.contains(g.row.seed)) {
          continue;
        }
        Lobby::Presence p[2];
        bool ready[2], absent[2];
        for (int seat = 0; seat < 2; ++seat) {
          const std::string& account = g.row.seats[seat];
          p[seat] = presence_of(account);
          ready[seat] =
              p[seat].connected && p[seat].free_slots - inflight(account) > 0;
          const int64_t since =
              std::max(t.row.created_us, p[seat].absent_since_us);
          absent[seat] = !p[seat].connected && now - since >= grace_us;
          if (!p[seat].connected && !absent[seat]) {
            const int64_t expiry = since + grace_us;
            wake = wake == 0 ? expiry : std::min(wake, expiry);
          }
        }
        Start start{name,        g.row.index, g.row,
                    t.row.rules, t.row.clock, kNoneAbsent};
        if ((absent[0] || absent[1]) && absent_inflight_ >= absent_batch_) {
          continue;  // the next batch when this one is recorded (Created)
        }
        if (absent[0] && absent[1]) {
          start.absent = kBothAbsent;
          ++absent_inflight_;
        } else if (absent[0] || absent[1]) {
          start.absent = absent[0] ? 0 : 1;
          ++absent_inflight_;
        } else if (ready[0] && ready[1] && running < t.row.max_concurrent) {
          ++running;
          for (const std::string& account : g.row.seats) ++inflight_[account];
        } else {
          continue;
        }
        g.state = State::kStarting;
        in_play.insert(g.row.seed);
        g.row.game_id = NewGameId();
        start.row.game_id = g.row.game_id;
        starts.push_back(std::move(start));
      }
    }
    // One timer entry per distinct expiry: a Run at the earliest one
    // schedules the next.
    if (wake != 0 && (wake_us_ <= now || wake < wake_us_)) {
      wake_us_ = wake;
      registry_->timer()->Schedule(registry_->timer()->Now() +
                                       std::chrono::microseconds(wake - now) +
                                       std::chrono::milliseconds(1),
                                   [this] { Kick(); });
    }
  }
  for (Start& s : starts) Launch(std::move(s));
}

void Scheduler::Launch(Start start) {
  // The id goes to the schedule first (the writer keeps the order), so a
  // restart finds the game rather than creating another.
  recorder_->SetTournamentGame(start.tournament, start.index, start.row.game_id,
                               nullptr);
  v1::CreateGameRequest request;
  request.set_rules(start.rules);
  for (const std::string& account : start.row.seats) {
    request.add_seats()->set_account(account);
  }
  request.mutable_clock()->set_per_move_ms(start.clock.per_move_ms);
  // (Set, so a bank of 0 means no bank: game.proto, Clock.)
  request.mutable_clock()->set_bank_ms(start.clock.bank_ms);
  request.mutable_clock()->set_max_illegal(start.clock.max_illegal);
  request.set_seed(start.row.seed);
  request.set_label(start.tournament);
  CreateOptions options;
  options.game_id = start.row.game_id;
  options.scheduled = true;
  registry_->CreateGame(
      request,
      [this, start](const grpc::Status& status, const v1::CreateGameResponse&) {
        // (Possibly under the new game's lock: continue on the timer.)
        registry_->timer()->Schedule(
            registry_->timer()->Now(),
            [this, start, status] { Created(start, status); });
      },
      options);
}

void Scheduler::Created(const Start& start, const grpc::Status& status) {
  {
    absl::MutexLock lock(&mu_);
    // (Its forfeit or abort is queued below, before the next Run.)
    if (start.absent != kNoneAbsent) --absent_inflight_;
    if (start.absent == kNoneAbsent) {
      for (const std::string& account : start.row.seats) {
        if (--inflight_[account] <= 0) inflight_.erase(account);
      }
    }
    Scheduled& g = tournaments_[start.tournament].games[start.index];
    if (status.ok()) {
      g.state = State::kCreated;
      // The game holds its seed itself now.
      registry_->seed_holds().Release(
          g.row.seed, SeedHolder(start.tournament, start.index));
    } else {
      // Pending again; the schedule row names a game that does not exist,
      // which reads as pending too.
      g.state = State::kPending;
      g.row.game_id.clear();
    }
  }
  if (!status.ok()) {
    std::fprintf(stderr, "cassino-referee: tournament %s game %d: %s\n",
                 start.tournament.c_str(), start.index,
                 status.error_message().c_str());
    // Retried on the next event, not at once (the cause may persist).
    return;
  }
  if (start.absent != kNoneAbsent) {
    if (std::shared_ptr<GameSession> game =
            registry_->Find(start.row.game_id)) {
      if (start.absent == kBothAbsent) {
        game->Abort("both bots absent").IgnoreError();
      } else {
        const int seat = start.absent;
        game->Forfeit(seat, "absent",
                      absl::StrCat("bot account '", start.row.seats[seat],
                                   "' was not connected to the lobby"))
            .IgnoreError();
      }
    }
  }
  Kick();
}

}  // namespace cassino::service
