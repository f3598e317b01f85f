#include "referee/scheduler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "recorder/standings.h"
#include "referee/auth.h"
#include "referee/errors.h"
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
        if (s.state == State::kPending && row.status == "running" &&
            row.duplicate) {
          registry_->seed_holds().Hold(g.seed, SeedHolder(row.name, g.index));
        }
        s.row = std::move(g);
        t.games.push_back(std::move(s));
      }
      t.written = static_cast<int>(t.games.size());
      // A long schedule is written in parts (WriteSchedule): a stop between
      // them leaves its first rows only. The rest is the same pure
      // function of the spec; it is written again from here.
      absl::StatusOr<Seed> seed = ParseSeed(row.seed);
      if (seed.ok()) {
        std::vector<recorder::TournamentGameRow> whole =
            MakeTournamentSchedule(row.participants, row.format == kGauntlet,
                                   row.games_per_pairing, row.duplicate, *seed);
        for (size_t i = t.games.size(); i < whole.size(); ++i) {
          if (row.status == "running" && row.duplicate) {
            registry_->seed_holds().Hold(whole[i].seed,
                                         SeedHolder(row.name, whole[i].index));
          }
          t.games.push_back({std::move(whole[i]), State::kPending});
        }
      }
      t.row = std::move(row);
    }
  }
  AbortUnstarted();
  registry_->lobby().AddListener([this] { Kick(); });
  registry_->AddLabelGuard(
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
    if (t.row.duplicate) {
      registry_->seed_holds().Hold(g.row.seed,
                                   SeedHolder(u.tournament, g.row.index));
    }
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

absl::Status Scheduler::CheckLabel(const std::string& label) const {
  if (label.empty()) return absl::OkStatus();
  absl::MutexLock lock(&mu_);
  if (tournaments_.contains(label) || reserved_.contains(label)) {
    return Error(
        absl::StatusCode::kFailedPrecondition, Reason::kLabelReserved,
        absl::StrCat("label ", Quote(label),
                     " is the name of a tournament: only the referee's "
                     "scheduler creates games with it"));
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Organiser calls.

void Scheduler::Create(const TournamentSpec& spec, Reply reply) {
  auto fail = [&](const absl::Status& s) { reply(s); };
  recorder::TournamentRow row;
  row.name = spec.name;
  // (The syntax of account names.)
  if (absl::Status s = CheckName(row.name, "spec.name"); !s.ok()) {
    return fail(s);
  }
  const int participants = static_cast<int>(spec.participants.size());
  if (participants < 2 || participants > kMaxParticipants) {
    return fail(InvalidField(
        "spec.participants",
        absl::StrCat("spec.participants must name 2 to ", kMaxParticipants,
                     " bot accounts; ", participants, " given")));
  }
  for (int i = 0; i < participants; ++i) {
    const std::string& p = spec.participants[i];
    for (int j = 0; j < i; ++j) {
      if (spec.participants[j] == p) {
        const std::string field = absl::StrCat("spec.participants[", i, "]");
        return fail(InvalidField(
            field, absl::StrCat(field, ": ", Quote(p),
                                " is already participants[", j, "]")));
      }
    }
    // NOT_FOUND for an unknown account, FAILED_PRECONDITION for a revoked
    // one (as CreateGame's seats).
    if (absl::Status s = registry_->lobby().CheckSeatable(p); !s.ok()) {
      return fail(Prefixed(s, absl::StrCat("spec.participants[", i, "]: ")));
    }
    row.participants.push_back(p);
  }
  row.format =
      spec.format == TournamentFormat::kGauntlet ? kGauntlet : kRoundRobin;
  absl::StatusOr<int> per_pairing = OrDefault(
      spec.games_per_pairing, "games_per_pairing", kMaxGamesPerPairing, 2);
  if (!per_pairing.ok()) return fail(per_pairing.status());
  row.games_per_pairing = *per_pairing;
  row.duplicate = spec.duplicate;
  if (row.duplicate && row.games_per_pairing % 2 == 1) ++row.games_per_pairing;
  absl::StatusOr<RuleSet> rules = GameRules(spec.rules, 2);
  if (!rules.ok()) {
    return fail(InvalidField(
        "spec.rules", absl::StrCat("spec.rules: tournaments are two-player "
                                   "games; ",
                                   rules.status().message())));
  }
  row.rules = rules->ToString();
  absl::StatusOr<recorder::TimeControl> clock =
      ClockOf(spec.clock, "spec.clock");
  if (!clock.ok()) return fail(clock.status());
  row.clock = *clock;
  absl::StatusOr<int> concurrent = OrDefault(
      spec.max_concurrent_games, "max_concurrent_games", kMaxConcurrent, 4);
  if (!concurrent.ok()) return fail(concurrent.status());
  row.max_concurrent = *concurrent;
  absl::StatusOr<int64_t> grace = OrDefault<int64_t>(
      spec.grace_ms, "grace_ms", kMaxGraceMs, kDefaultGraceMs);
  if (!grace.ok()) return fail(grace.status());
  row.grace_ms = *grace;
  Seed seed;
  if (spec.seed.empty()) {
    seed = RandomBytes32();
  } else {
    absl::StatusOr<Seed> parsed = ParseSeed(spec.seed);
    if (!parsed.ok()) {
      return fail(InvalidField(
          "spec.seed", absl::StrCat("spec.seed: ", parsed.status().message())));
    }
    seed = *parsed;
  }
  row.seed = ToHex(seed);
  row.commitment = ToHex(SeedCommitment(seed));
  const int64_t n = participants;
  const int64_t pairings = row.format == kGauntlet ? n - 1 : n * (n - 1) / 2;
  if (pairings * row.games_per_pairing > kMaxGames) {
    return fail(InvalidField("spec.games_per_pairing",
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
  if (!labelled.ok()) return fail(labelled.status());
  {
    absl::MutexLock lock(&mu_);
    if (tournaments_.contains(row.name) || reserved_.contains(row.name)) {
      return fail(
          Error(absl::StatusCode::kAlreadyExists, Reason::kTournamentExists,
                absl::StrCat("tournament '", row.name, "' already exists")));
    }
    if (!labelled->empty()) {
      return fail(Error(
          absl::StatusCode::kAlreadyExists, Reason::kTournamentExists,
          absl::StrCat("games labelled '", row.name,
                       "' already exist; a tournament's name must be a new "
                       "label")));
    }
    reserved_.insert(row.name);
  }
  // The tournament as it will stand, built here rather than in the write's
  // callback: that runs on the recorder's writer thread, which every game's
  // acknowledgements wait for, so it only moves this into the map
  // (issue #27, part 7). Its answer (the whole schedule) is made on the
  // read executor.
  auto made = std::make_shared<Tournament>();
  made->row = row;
  made->games.reserve(schedule.size());
  for (const recorder::TournamentGameRow& g : schedule) {
    made->games.push_back({g, State::kPending});
  }
  // Only the twins of a duplicate pair share a seed: without duplicate no
  // pending game has a seed to keep secret.
  if (row.duplicate) {
    for (const recorder::TournamentGameRow& g : schedule) {
      registry_->seed_holds().Hold(g.seed, SeedHolder(row.name, g.index));
    }
  }
  // The tournament and the first part of its schedule in one transaction;
  // the rest follows part by part (WriteSchedule).
  const size_t first = std::min(schedule.size(), kScheduleRowsPerWrite);
  made->written = static_cast<int>(first);
  recorder_->InsertTournament(
      row,
      std::vector<recorder::TournamentGameRow>(schedule.begin(),
                                               schedule.begin() + first),
      [this, made, reply = std::move(reply)](absl::Status s) {
        const std::string name = made->row.name;
        {
          absl::MutexLock lock(&mu_);
          reserved_.erase(name);
          if (s.ok()) {
            Tournament& t = tournaments_[name] = std::move(*made);
            WriteSchedule(t);
          } else if (made->row.duplicate) {
            for (const Scheduled& g : made->games) {
              registry_->seed_holds().Release(g.row.seed,
                                              SeedHolder(name, g.row.index));
            }
          }
        }
        auto answer = [this, name, s, reply] {
          if (!s.ok()) {
            Answer(Tournament(), s, "tournament", reply);
            return;
          }
          reply(Get(name));
        };
        if (!registry_->reads().Post(answer)) answer();
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
      reply(Error(absl::StatusCode::kNotFound, Reason::kTournamentNotFound,
                  absl::StrCat("no tournament ", Quote(name))));
      return;
    }
    Tournament& t = it->second;
    if (t.row.status != "running" || t.ending) {
      reply(Error(
          absl::StatusCode::kFailedPrecondition, Reason::kTournamentOver,
          absl::StrCat("tournament '", name, "' is already ",
                       t.row.status == "cancelled" ? "cancelled" : "over")));
      return;
    }
    RecordEnd(t, "cancelled", why,
              [this, name, reply = std::move(reply)](const absl::Status& s) {
                if (!s.ok()) {
                  Answer(Tournament(), s, "cancellation", reply);
                  return;
                }
                reply(Get(name));
              });
  }
}

void Scheduler::Answer(const Tournament& t, const absl::Status& recorded,
                       const std::string& what, const Reply& reply) const {
  if (!recorded.ok()) {
    reply(absl::IsAlreadyExists(recorded)
              ? recorded
              : Error(absl::StatusCode::kUnavailable,
                      Reason::kRecordUnavailable,
                      absl::StrCat("the ", what,
                                   " could not be "
                                   "recorded: ",
                                   recorded.message())));
    return;
  }
  reply(Info(t, /*games=*/true));
}

absl::StatusOr<TournamentInfo> Scheduler::Get(const std::string& name) const {
  Tournament copy;
  {
    absl::MutexLock lock(&mu_);
    auto it = tournaments_.find(name);
    if (it == tournaments_.end()) {
      return Error(absl::StatusCode::kNotFound, Reason::kTournamentNotFound,
                   absl::StrCat("no tournament ", Quote(name)));
    }
    copy = it->second;
  }
  return Info(copy, /*games=*/true);
}

absl::StatusOr<std::vector<TournamentInfo>> Scheduler::List() const {
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
  std::vector<TournamentInfo> out;
  out.reserve(copies.size());
  for (const Tournament& t : copies) {
    absl::StatusOr<TournamentInfo> info = Info(t, /*games=*/false);
    if (!info.ok()) return info.status();
    out.push_back(*std::move(info));
  }
  return out;
}

absl::StatusOr<TournamentInfo> Scheduler::Info(const Tournament& t,
                                               bool games) const {
  const recorder::TournamentRow& r = t.row;
  recorder::ListFilter filter;
  filter.label = r.name;
  absl::StatusOr<std::vector<recorder::GameSummary>> recorded =
      recorder_->List(filter);
  if (!recorded.ok()) return recorded.status();
  std::map<std::string, const recorder::GameSummary*> by_id;
  for (const recorder::GameSummary& s : *recorded) by_id[s.game_id] = &s;

  TournamentInfo out;
  TournamentSpec& spec = out.spec;
  spec.name = r.name;
  spec.participants = r.participants;
  spec.format = r.format == kGauntlet ? TournamentFormat::kGauntlet
                                      : TournamentFormat::kRoundRobin;
  spec.games_per_pairing = r.games_per_pairing;
  spec.duplicate = r.duplicate;
  spec.rules = r.rules;
  spec.clock.per_move_ms = r.clock.per_move_ms;
  spec.clock.bank_ms = r.clock.bank_ms;
  spec.clock.max_illegal = r.clock.max_illegal;
  spec.max_concurrent_games = r.max_concurrent;
  spec.grace_ms = r.grace_ms;
  out.status = r.status == "finished"    ? TournamentStatus::kFinished
               : r.status == "cancelled" ? TournamentStatus::kCancelled
                                         : TournamentStatus::kRunning;
  out.seed_commitment = r.commitment;
  out.games_total = static_cast<int>(t.games.size());
  out.created_us = r.created_us;
  out.ended_us = r.ended_us;
  for (const Scheduled& g : t.games) {
    const recorder::GameSummary* s = nullptr;
    if (g.state == State::kCreated || g.state == State::kEnded) {
      auto it = by_id.find(g.row.game_id);
      if (it != by_id.end()) s = it->second;
    }
    if (s == nullptr) {
      // (A game being created counts as running.)
      ++(g.state == State::kStarting ? out.games_running : out.games_pending);
    } else {
      switch (s->status) {
        case recorder::GameStatus::kRunning:
          ++out.games_running;
          break;
        case recorder::GameStatus::kFinished:
          ++out.games_finished;
          break;
        case recorder::GameStatus::kAborted:
          ++out.games_aborted;
          break;
      }
    }
    if (!games) continue;
    TournamentGame& game = out.games.emplace_back();
    game.index = g.row.index;
    game.bots = g.row.seats;
    if (s != nullptr) {
      game.game_id = g.row.game_id;
      game.status = s->status;
      if (s->status != recorder::GameStatus::kRunning) {
        GameOutcome result;
        result.winner = s->winner;
        result.reason = s->end_reason;
        result.totals = s->totals;
        game.result = std::move(result);
      }
    }
  }
  // The seed, once nothing it derives is secret any more.
  if (r.status != "running" && out.games_running == 0) spec.seed = r.seed;

  absl::StatusOr<std::vector<recorder::Standing>> standings =
      recorder::TournamentStandings(*recorder_, r.name, r.participants,
                                    *recorded);
  if (!standings.ok()) return standings.status();
  out.standings = *std::move(standings);
  return out;
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

void Scheduler::RecordEnd(Tournament& t, const std::string& status,
                          const std::string& reason,
                          std::function<void(const absl::Status&)> then) {
  t.ending = true;
  const std::string name = t.row.name;
  const int64_t now = UnixMicros();
  recorder_->EndTournament(
      name, status, reason, now,
      [this, name, status, reason, now,
       then = std::move(then)](absl::Status s) {
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
              if (!t.row.duplicate) break;
              registry_->seed_holds().Release(g.row.seed,
                                              SeedHolder(name, g.row.index));
            }
          }
        }
        // (Off the writer thread: the answer reads the
        // record.)
        if (then && !registry_->reads().Post([then, s] { then(s); })) {
          then(s);
        }
      });
}

void Scheduler::WriteSchedule(Tournament& t) {
  const size_t from = static_cast<size_t>(t.written);
  if (t.writing || from >= t.games.size()) return;
  const size_t to = std::min(t.games.size(), from + kScheduleRowsPerWrite);
  std::vector<recorder::TournamentGameRow> part;
  part.reserve(to - from);
  for (size_t i = from; i < to; ++i) part.push_back(t.games[i].row);
  // (Rows of games not started yet: every game_id is empty.)
  for (recorder::TournamentGameRow& g : part) g.game_id.clear();
  t.writing = true;
  const std::string name = t.row.name;
  recorder_->InsertTournamentGames(
      name, part, [this, name, to](absl::Status s) {
        absl::MutexLock lock(&mu_);
        Tournament& t = tournaments_[name];
        t.writing = false;
        if (!s.ok()) {
          // (Tried again on the next pass.)
          std::fprintf(stderr,
                       "cassino-referee: tournament %s: writing its schedule: "
                       "%s\n",
                       name.c_str(), std::string(s.message()).c_str());
          return;
        }
        t.written = static_cast<int>(to);
        WriteSchedule(t);  // the next part, queued behind what came since
        if (t.written == static_cast<int>(t.games.size())) Kick();
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
      WriteSchedule(t);  // (if a part failed before)
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
        // A game whose schedule row is not on disk yet waits for it: its id
        // goes into that row before the game is created.
        if (g.row.index >= t.written) break;
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
  GameSpec spec;
  spec.rules = start.rules;
  for (const std::string& account : start.row.seats) {
    spec.seats.push_back({"", account});
  }
  // Every field given: the tournament's time control exactly.
  spec.clock.per_move_ms = start.clock.per_move_ms;
  spec.clock.bank_ms = start.clock.bank_ms;
  spec.clock.max_illegal = start.clock.max_illegal;
  spec.seed = start.row.seed;
  spec.label = start.tournament;
  CreateOptions options;
  options.game_id = start.row.game_id;
  options.scheduled = true;
  registry_->CreateGame(
      spec,
      [this, start](absl::StatusOr<CreatedGame> created) {
        // (Possibly under the new game's lock: continue on the timer.)
        registry_->timer()->Schedule(registry_->timer()->Now(),
                                     [this, start, status = created.status()] {
                                       Created(start, status);
                                     });
      },
      options);
}

void Scheduler::Created(const Start& start, const absl::Status& status) {
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
      if (tournaments_[start.tournament].row.duplicate) {
        registry_->seed_holds().Release(
            g.row.seed, SeedHolder(start.tournament, start.index));
      }
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
                 std::string(status.message()).c_str());
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
