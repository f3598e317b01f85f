// Ladders at play (ladder.h): the matchmaking passes, creating the games,
// and what their ends change (slots, duplicate twins, faults and
// probation, ratings).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "recorder/ladder_record.h"
#include "referee/auth.h"
#include "referee/errors.h"
#include "referee/ladder.h"
#include "rules/deal.h"

namespace cassino::service {
namespace {

// How a twin's seed hold is named in SeedHolds.
std::string TwinHolder(const std::string& twin_id) {
  return absl::StrCat("ladder twin ", twin_id);
}

constexpr int64_t kMaxProbationUs = int64_t{7} * 24 * 3600 * 1'000'000;

}  // namespace

void Ladders::Kick() {
  if (kick_pending_.exchange(true)) return;
  registry_->timer()->Schedule(registry_->timer()->Now(), [this] { Run(); });
}

void Ladders::Run() {
  kick_pending_.store(false);
  std::vector<std::string> ended;
  {
    absl::MutexLock lock(&ended_mu_);
    ended.swap(ended_);
  }
  std::vector<Launch> launches;
  {
    absl::MutexLock lock(&mu_);
    if (!loaded_) {
      // (Before Load: kept for the first pass after it.)
      absl::MutexLock requeue(&ended_mu_);
      ended_.insert(ended_.begin(), ended.begin(), ended.end());
      return;
    }
    const auto began = std::chrono::steady_clock::now();
    for (const std::string& id : ended) Ended(id);
    const int64_t now = options_.now_us();
    for (auto& [name, ladder] : ladders_) Match(*ladder, now, &launches);
    const int64_t us = std::chrono::duration_cast<std::chrono::microseconds>(
                           std::chrono::steady_clock::now() - began)
                           .count();
    ++stats_.passes;
    stats_.total_us += us;
    stats_.max_us = std::max(stats_.max_us, us);
    stats_.max_creating = std::max(stats_.max_creating, creating_);
    // What time alone changes (a pair's or a bot's window moving on, a
    // probation served, a twin's wait over) is seen by a pass at least
    // every kHeartbeat while a ladder is open or a twin is due.
    bool wanted = false;
    for (const auto& [name, ladder] : ladders_) {
      wanted |= ladder->row.status == "open" || !ladder->twins.empty();
    }
    if (wanted && !heartbeat_) {
      heartbeat_ = true;
      registry_->timer()->Schedule(registry_->timer()->Now() + kHeartbeat,
                                   [this] {
                                     {
                                       absl::MutexLock lock(&mu_);
                                       heartbeat_ = false;
                                     }
                                     Kick();
                                   });
    }
  }
  for (Launch& launch : launches) Start(std::move(launch));
}

void Ladders::Match(Ladder& l, int64_t now, std::vector<Launch>* launches) {
  PostRatings(l);  // (if an earlier post was refused)
  l.history.Expire(now);
  l.table.Settle(now - options_.settle.count() * 1000);
  if (l.row.status != "open") return;
  const std::string& name = l.row.name;

  // The members who may play now.
  std::map<std::string, Lobby::Presence> present;
  for (auto& [account, p] : registry_->lobby().LadderMembers(name)) {
    Bot& b = l.bots[account];
    b.health.ladder = name;
    b.health.account = account;
    const std::string& version = p.ladder.version;
    if (!b.versions.contains(version)) {
      // Recorded before it plays (its history starts there).
      if (b.versions_pending.insert(version).second) {
        recorder::LadderVersionRow row{name, account, version, now};
        recorder_->InsertLadderVersion(row, [this, row](absl::Status s) {
          absl::MutexLock lock(&mu_);
          auto it = ladders_.find(row.ladder);
          if (it == ladders_.end()) return;
          Bot& bot = it->second->bots[row.account];
          bot.versions_pending.erase(row.version);
          if (s.ok() && bot.versions.insert(row.version).second) {
            ++it->second->versions;
          }
          Kick();
        });
      }
      continue;
    }
    if (b.health.probation_us != 0) {
      // Back (a new connection since the probation began) and the time
      // served: released.
      if (now < b.health.until_us || p.connected_us <= b.health.probation_us) {
        continue;
      }
      b.health.probation_us = 0;
      b.health.until_us = 0;
      b.health.faults = 0;
      b.fault_notes.clear();
      std::fprintf(stderr,
                   "cassino-referee: ladder %s: bot account %s is off "
                   "probation\n",
                   name.c_str(), account.c_str());
      SaveHealth(l, b, /*notify=*/true);
    }
    present.emplace(account, std::move(p));
  }

  int budget = std::min(
      options_.max_creating - creating_,
      l.settings.max_concurrent_games - static_cast<int>(l.running.size()));
  auto room = [&](const std::string& account) {
    auto p = present.find(account);
    return p == present.end() ? 0
                              : p->second.free_slots - l.bots[account].creating;
  };

  // The second games of duplicate pairs first: their bots are waiting.
  std::vector<std::string> due;
  for (const auto& [id, t] : l.twins) {
    if (t.first_ended) due.push_back(id);
  }
  for (const std::string& id : due) {
    Twin& t = l.twins[id];
    if (now - t.due_us > options_.twin_wait.count() * 1000) {
      DropTwin(l, id);
      continue;
    }
    bool ready = budget > 0;
    for (size_t seat = 0; ready && seat < t.accounts.size(); ++seat) {
      auto p = present.find(t.accounts[seat]);
      ready = p != present.end() &&
              competition::LadderBotName(
                  t.accounts[seat], p->second.ladder.version) == t.bots[seat] &&
              room(t.accounts[seat]) > 0;
    }
    if (!ready) continue;
    Launch launch;
    launch.ladder = name;
    launch.game_id = id;
    launch.spec.rules = l.row.rules;
    for (size_t seat = 0; seat < t.bots.size(); ++seat) {
      launch.spec.seats.push_back({t.bots[seat], t.accounts[seat]});
    }
    launch.spec.seed = t.seed;
    Running r;
    r.bots = t.bots;
    r.accounts = t.accounts;
    r.held_seed = t.seed;
    for (const std::string& a : t.accounts) ++l.bots[a].creating;
    l.running[id] = std::move(r);
    l.twins.erase(id);  // (its seed stays held until the game holds it)
    ++creating_;
    --budget;
    launches->push_back(std::move(launch));
  }
  if (budget <= 0) return;

  std::vector<competition::Candidate> candidates;
  for (const auto& [account, p] : present) {
    Bot& b = l.bots[account];
    const int free =
        std::min(room(account), l.settings.max_games_per_bot - b.running);
    if (free <= 0) continue;
    competition::Candidate c;
    c.account = account;
    c.bot = competition::LadderBotName(account, p.ladder.version);
    c.free_slots = free;
    c.rating = l.table.RatingOf(c.bot);
    std::optional<competition::Standing> s = l.table.Find(c.bot);
    c.rated_games = s.has_value() ? s->games : 0;
    c.seat_balance = b.seat_balance;
    candidates.push_back(std::move(c));
  }
  const std::vector<competition::Match> matches = competition::MakeMatches(
      MatchSettingsOf(l.settings, l.players, l.partnerships), l.table.model(),
      std::move(candidates), l.history, budget);
  for (const competition::Match& m : matches) {
    Launch launch;
    launch.ladder = name;
    launch.game_id = NewGameId();
    const std::string seed = ToHex(RandomBytes32());
    launch.rows.push_back({name, launch.game_id, now, ""});
    launch.spec.rules = l.row.rules;
    for (size_t seat = 0; seat < m.seats.size(); ++seat) {
      launch.spec.seats.push_back({m.seats[seat], m.accounts[seat]});
    }
    launch.spec.seed = seed;
    Running r;
    r.bots = m.seats;
    r.accounts = m.accounts;
    l.history.Started(now, m.accounts, m.seats);
    if (l.row.duplicate) {
      // The pair: its second game is written now and created later.
      Twin t;
      t.first = launch.game_id;
      t.seed = seed;
      t.bots = {m.seats[1], m.seats[0]};
      t.accounts = {m.accounts[1], m.accounts[0]};
      r.twin = NewGameId();
      launch.rows.push_back({name, r.twin, now, launch.game_id});
      registry_->seed_holds().Hold(seed, TwinHolder(r.twin));
      for (const std::string& a : m.accounts) ++l.bots[a].running;
      l.history.Started(now, t.accounts, t.bots);
      l.twins[r.twin] = std::move(t);
    } else if (l.players == 2) {
      ++l.bots[m.accounts[0]].seat_balance;
      --l.bots[m.accounts[1]].seat_balance;
    }
    for (const std::string& a : m.accounts) {
      ++l.bots[a].running;
      ++l.bots[a].creating;
    }
    l.running[launch.game_id] = std::move(r);
    ++creating_;
    launches->push_back(std::move(launch));
  }
}

Ladders::PassStats Ladders::pass_stats() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

void Ladders::Start(Launch launch) {
  // The rows first (the writer keeps the order): the recorder creates a
  // game labelled with a ladder's name only if its row is there.
  if (!launch.rows.empty()) recorder_->InsertLadderGames(launch.rows, nullptr);
  GameSpec& spec = launch.spec;
  spec.label = launch.ladder;
  {
    absl::MutexLock lock(&mu_);
    auto it = ladders_.find(launch.ladder);
    if (it != ladders_.end()) {
      const recorder::TimeControl& c = it->second->row.clock;
      spec.clock.per_move_ms = c.per_move_ms;
      spec.clock.bank_ms = c.bank_ms;
      spec.clock.max_illegal = c.max_illegal;
    }
  }
  CreateOptions options;
  options.game_id = launch.game_id;
  options.scheduled = true;
  registry_->CreateGame(
      spec,
      [this, ladder = launch.ladder,
       id = launch.game_id](absl::StatusOr<CreatedGame> created) {
        // (Possibly under the new game's lock: continue on the timer.)
        registry_->timer()->Schedule(
            registry_->timer()->Now(),
            [this, ladder, id, status = created.status()] {
              Created(ladder, id, status);
            });
      },
      options);
}

void Ladders::Created(const std::string& ladder, const std::string& game_id,
                      const absl::Status& status) {
  {
    absl::MutexLock lock(&mu_);
    --creating_;
    auto it = ladders_.find(ladder);
    if (it == ladders_.end()) return;
    Ladder& l = *it->second;
    auto r = l.running.find(game_id);
    if (r != l.running.end()) {
      for (const std::string& a : r->second.accounts) --l.bots[a].creating;
      // A twin: the game holds its seed itself now (or never will).
      if (!r->second.held_seed.empty()) {
        registry_->seed_holds().Release(r->second.held_seed,
                                        TwinHolder(game_id));
        r->second.held_seed.clear();
      }
      if (status.ok()) {
        r->second.created = true;
      } else {
        std::fprintf(stderr, "cassino-referee: ladder %s game %s: %s\n",
                     ladder.c_str(), game_id.c_str(),
                     std::string(status.message()).c_str());
        for (const std::string& a : r->second.accounts) --l.bots[a].running;
        const std::string twin = r->second.twin;
        l.running.erase(r);
        if (!twin.empty() && l.twins.contains(twin)) DropTwin(l, twin);
        recorder_->DropLadderGame(ladder, game_id, nullptr);
      }
    }
  }
  Kick();
}

void Ladders::DropTwin(Ladder& l, const std::string& twin_id) {
  auto it = l.twins.find(twin_id);
  if (it == l.twins.end()) return;
  registry_->seed_holds().Release(it->second.seed, TwinHolder(twin_id));
  for (const std::string& a : it->second.accounts) --l.bots[a].running;
  recorder_->DropLadderGame(l.row.name, twin_id, nullptr);
  l.twins.erase(it);
}

void Ladders::Ended(const std::string& game_id) {
  for (auto& [name, ladder] : ladders_) {
    Ladder& l = *ladder;
    auto it = l.running.find(game_id);
    if (it == l.running.end()) continue;
    const Running r = std::move(it->second);
    l.running.erase(it);
    for (const std::string& a : r.accounts) --l.bots[a].running;
    std::shared_ptr<GameSession> game = registry_->Find(game_id);
    if (game == nullptr) {  // (evicted already: its rating only)
      Rate(name, game_id);
      return;
    }
    const GameInfo info = game->Info();
    const bool finished = info.status == recorder::GameStatus::kFinished;
    const int64_t now = options_.now_us();
    if (!r.twin.empty()) {
      auto t = l.twins.find(r.twin);
      if (t != l.twins.end()) {
        if (finished) {
          t->second.first_ended = true;
          t->second.due_us = now;
        } else {
          DropTwin(l, r.twin);  // an aborted first game: no pair
        }
      }
    }
    // Faults: whose fault the end was, seat by seat.
    const int seats = static_cast<int>(r.accounts.size());
    std::vector<std::string> fault(seats);
    const std::string short_id = game_id.substr(0, 8);
    const bool nobody = std::none_of(info.shown_up.begin(), info.shown_up.end(),
                                     [](bool b) { return b; });
    if (r.resumed) {
      // (Its bots had to come back after the referee's restart: not
      // counted against them either way.)
    } else if (info.status == recorder::GameStatus::kAborted) {
      if (nobody && !info.shown_up.empty()) {
        for (int s = 0; s < seats; ++s) {
          fault[s] = absl::StrCat("never connected to game ", short_id);
        }
      }
    } else if (info.outcome.has_value() && info.outcome->forfeiting_seat >= 0 &&
               info.outcome->forfeiting_seat < seats) {
      const int s = info.outcome->forfeiting_seat;
      const std::string& why = info.outcome->forfeit_reason;
      const bool came =
          s < static_cast<int>(info.shown_up.size()) && info.shown_up[s];
      if (!came) {
        fault[s] = absl::StrCat("never connected to game ", short_id);
      } else if (why == "time") {
        fault[s] = absl::StrCat("lost game ", short_id,
                                " on time (timed out, crashed or left)");
      } else if (why == "illegal") {
        fault[s] =
            absl::StrCat("forfeited game ", short_id, " for illegal moves");
      }
    }
    for (int s = 0; s < seats; ++s) {
      auto b = l.bots.find(r.accounts[s]);
      if (b == l.bots.end()) continue;
      Bot& bot = b->second;
      if (r.resumed) continue;
      if (fault[s].empty()) {
        if (finished && bot.health.faults != 0) {
          bot.health.faults = 0;
          bot.fault_notes.clear();
          SaveHealth(l, bot, /*notify=*/false);
        }
        continue;
      }
      ++bot.health.faults;
      bot.fault_notes.push_back(fault[s]);
      while (static_cast<int>(bot.fault_notes.size()) >
             l.settings.probation_faults) {
        bot.fault_notes.erase(bot.fault_notes.begin());
      }
      const bool probation = bot.health.probation_us == 0 &&
                             bot.health.faults >= l.settings.probation_faults;
      if (probation) {
        const int64_t length =
            std::min(kMaxProbationUs,
                     l.settings.probation_ms * 1000 *
                         (int64_t{1} << std::min(bot.health.probations, 20)));
        ++bot.health.probations;
        bot.health.probation_us = now;
        bot.health.until_us = now + length;
        // (The notes are the referee's memory: faults counted before a
        // restart are in the record, their games no longer named.)
        const int unnamed =
            bot.health.faults - static_cast<int>(bot.fault_notes.size());
        bot.health.reason = absl::StrCat(
            bot.health.faults, " games in a row ended by its fault: ",
            absl::StrJoin(bot.fault_notes, "; "),
            unnamed > 0 ? absl::StrCat("; ", unnamed,
                                       " earlier, before the referee restarted")
                        : std::string(),
            ". No new ladder game until it has reconnected to the lobby "
            "after ",
            length / 1'000'000, " s of probation");
        std::fprintf(stderr,
                     "cassino-referee: ladder %s: bot account %s is on "
                     "probation: %s\n",
                     name.c_str(), r.accounts[s].c_str(),
                     bot.health.reason.c_str());
      }
      SaveHealth(l, bot, probation);
    }
    if (finished) Rate(name, game_id);
    return;
  }
}

void Ladders::SaveHealth(Ladder& l, Bot& bot, bool notify) {
  recorder_->SetLadderBot(bot.health, nullptr);
  if (!notify) return;
  const Lobby::Presence p = registry_->lobby().PresenceOf(bot.health.account);
  if (!p.connected || p.ladder.ladder != l.row.name) return;
  registry_->lobby().Notify(bot.health.account,
                            NoticeFor(l, bot.health.account, p.ladder.version));
}

void Ladders::Rate(const std::string& ladder, const std::string& game_id) {
  auto it = ladders_.find(ladder);
  if (it == ladders_.end()) return;
  it->second->unrated.push_back(game_id);
  ++it->second->rating_pending;
  PostRatings(*it->second);
}

void Ladders::PostRatings(Ladder& l) {
  if (l.rating || l.unrated.empty()) return;
  l.rating = true;
  // (Refused only while the referee stops or the read queue is full: the
  // next pass tries again.)
  if (!registry_->reads().Post([this, name = l.row.name] { RateNow(name); })) {
    l.rating = false;
  }
}

void Ladders::RateNow(const std::string& ladder) {
  std::vector<std::string> ids;
  {
    absl::MutexLock lock(&mu_);
    auto it = ladders_.find(ladder);
    if (it == ladders_.end()) return;
    ids.swap(it->second->unrated);
  }
  // Their summaries as recorded: exactly what `cassino stats --ladder`
  // reads.
  std::vector<competition::LadderGame> rated;
  for (const std::string& id : ids) {
    recorder::ListFilter filter;
    filter.game_id = id;
    absl::StatusOr<std::vector<recorder::GameSummary>> list =
        recorder_->List(filter);
    if (!list.ok() || list->empty()) continue;
    if (std::optional<competition::LadderGame> game =
            recorder::LadderGameOf(list->front())) {
      rated.push_back(*std::move(game));
    }
  }
  absl::MutexLock lock(&mu_);
  auto it = ladders_.find(ladder);
  if (it == ladders_.end()) return;
  Ladder& l = *it->second;
  l.rating_pending -= static_cast<int>(ids.size());
  bool stale = false;
  for (competition::LadderGame& game : rated) {
    stale |=
        l.table.Add(std::move(game)) == competition::LadderTable::Added::kStale;
  }
  if (stale) {
    // A game that sorts before games already settled: the table is made
    // again from the records (rare: a game whose end took longer than
    // Options::settle to be rated).
    std::fprintf(stderr,
                 "cassino-referee: ladder %s: a game ended out of order; "
                 "rebuilding the ratings from the records\n",
                 ladder.c_str());
    competition::LadderTable table(l.table.model());
    recorder::ListFilter all;
    all.label = ladder;
    absl::StatusOr<std::vector<recorder::GameSummary>> games =
        recorder_->List(all);
    if (games.ok()) {
      for (const recorder::GameSummary& g : *games) {
        if (std::optional<competition::LadderGame> one =
                recorder::LadderGameOf(g)) {
          table.Add(*std::move(one));
        }
      }
      table.Settle(options_.now_us() - options_.settle.count() * 1000);
      l.table = std::move(table);
    }
  }
  l.rating = false;
  PostRatings(l);
}

}  // namespace cassino::service
