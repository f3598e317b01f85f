// Ladders: the organiser's calls, loading from the records, and the views
// (ladder.h). Matchmaking, games and faults are in ladder_play.cc.

#include "referee/ladder.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "recorder/display_text.h"
#include "recorder/ladder_record.h"
#include "referee/errors.h"
#include "referee/page_token.h"
#include "referee/wall_clock.h"
#include "rules/deal.h"
#include "rules/rule_set.h"

namespace cassino::service {
namespace {

constexpr size_t kMaxReason = 256;

absl::Status NoLadder(const std::string& name) {
  return Error(absl::StatusCode::kNotFound, Reason::kLadderNotFound,
               absl::StrCat("no ladder ", Quote(name)));
}

LadderStatus StatusOf(const std::string& text) {
  return text == "paused"   ? LadderStatus::kPaused
         : text == "closed" ? LadderStatus::kClosed
                            : LadderStatus::kOpen;
}

// A double as page-token text that sorts nothing but reads back exactly.
std::string Bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return absl::StrCat(u);
}
double FromBits(const std::string& s) {
  uint64_t u = 0;
  if (!absl::SimpleAtoi(s, &u)) return 0;
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

// The leaderboard's order (competition::LadderTable::Leaderboard): whether
// `a` comes before the key (conservative, mu, bot).
bool Before(const competition::Standing& a, double conservative, double mu,
            const std::string& bot) {
  if (a.conservative != conservative) return a.conservative > conservative;
  if (a.rating.mu != mu) return a.rating.mu > mu;
  return a.bot < bot;
}

}  // namespace

Ladders::Ladders(Registry* registry, Options options)
    : registry_(registry), recorder_(registry->recorder()), options_([&] {
        if (!options.now_us) options.now_us = [] { return UnixMicros(); };
        options.max_creating = std::max(1, options.max_creating);
        return options;
      }()) {
  registry_->AddEndListener([this](const std::string& game_id) {
    {
      absl::MutexLock lock(&ended_mu_);
      ended_.push_back(game_id);
    }
    Kick();
  });
}

Ladders::~Ladders() = default;

absl::Status Ladders::Load() {
  absl::StatusOr<std::vector<recorder::LadderRow>> rows = recorder_->Ladders();
  if (!rows.ok()) return rows.status();
  {
    absl::MutexLock lock(&mu_);
    for (recorder::LadderRow& row : *rows) {
      absl::StatusOr<LadderSettings> settings = ParseSettingsJson(row.settings);
      if (!settings.ok()) {
        return Prefixed(settings.status(),
                        absl::StrCat("ladder '", row.name, "': "));
      }
      auto ladder =
          std::make_unique<Ladder>(LadderRatingModel(), settings->period_ms);
      ladder->settings = *settings;
      absl::StatusOr<RuleSet> rules = RuleSet::Parse(row.rules);
      if (rules.ok()) {
        ladder->players = rules->players;
        ladder->partnerships = rules->partnerships;
      }
      ladder->row = std::move(row);
      if (absl::Status s = Rebuild(*ladder); !s.ok()) return s;
      const std::string name = ladder->row.name;
      ladders_[name] = std::move(ladder);
    }
    loaded_ = true;
  }
  registry_->lobby().AddListener([this] { Kick(); });
  registry_->lobby().SetJoinCheck(
      [this](const std::string& account, const LadderJoin& join) {
        return CheckJoin(account, join);
      });
  registry_->AddLabelGuard(
      [this](const std::string& label) { return CheckLabel(label); });
  Kick();
  return absl::OkStatus();
}

absl::Status Ladders::Rebuild(Ladder& l) {
  const std::string& name = l.row.name;
  const int64_t now = options_.now_us();
  recorder::ListFilter filter;
  filter.label = name;
  absl::StatusOr<std::vector<recorder::GameSummary>> games =
      recorder_->List(filter);
  if (!games.ok()) return games.status();
  // (List orders by creation: the matchmaker's memory in order.)
  std::sort(games->begin(), games->end(),
            [](const recorder::GameSummary& a, const recorder::GameSummary& b) {
              return std::make_pair(a.created_us, a.game_id) <
                     std::make_pair(b.created_us, b.game_id);
            });
  std::map<std::string, const recorder::GameSummary*> by_id;
  for (const recorder::GameSummary& g : *games) {
    by_id[g.game_id] = &g;
    if (std::optional<competition::LadderGame> rated =
            recorder::LadderGameOf(g)) {
      l.table.Add(*std::move(rated));
    }
    l.history.Started(g.created_us, g.accounts, g.bots);
    if (l.players == 2 && g.accounts.size() == 2) {
      ++l.bots[g.accounts[0]].seat_balance;
      --l.bots[g.accounts[1]].seat_balance;
    }
    if (g.status == recorder::GameStatus::kRunning) {
      Running& r = l.running[g.game_id];
      r.bots = g.bots;
      r.accounts = g.accounts;
      r.created = true;
      r.resumed = true;
      for (const std::string& a : g.accounts) ++l.bots[a].running;
    }
  }
  l.history.Expire(now);
  l.table.Settle(now - options_.settle.count() * 1000);

  absl::StatusOr<std::vector<recorder::LadderVersionRow>> versions =
      recorder_->LadderVersions(name);
  if (!versions.ok()) return versions.status();
  for (const recorder::LadderVersionRow& v : *versions) {
    l.bots[v.account].versions.insert(v.version);
  }
  l.versions = static_cast<int>(versions->size());
  absl::StatusOr<std::vector<recorder::LadderBotRow>> health =
      recorder_->LadderBots(name);
  if (!health.ok()) return health.status();
  for (recorder::LadderBotRow& h : *health) {
    Bot& b = l.bots[h.account];
    b.health = std::move(h);
  }
  for (auto& [account, b] : l.bots) {
    b.health.ladder = name;
    b.health.account = account;
  }

  // The pairs whose second game is still due.
  absl::StatusOr<std::vector<recorder::LadderGameRow>> rows =
      recorder_->LadderGames(name);
  if (!rows.ok()) return rows.status();
  for (const recorder::LadderGameRow& row : *rows) {
    if (row.twin_of.empty() || by_id.contains(row.game_id)) continue;
    auto first = by_id.find(row.twin_of);
    const bool playable =
        first != by_id.end() &&
        first->second->status != recorder::GameStatus::kAborted &&
        l.row.status != "closed";
    absl::StatusOr<recorder::GameRecord> record =
        playable
            ? recorder_->Load(row.twin_of)
            : absl::StatusOr<recorder::GameRecord>(absl::NotFoundError(""));
    if (!record.ok() || record->header.seed.empty()) {
      recorder_->DropLadderGame(name, row.game_id, nullptr);
      continue;
    }
    const recorder::GameSummary& f = *first->second;
    Twin t;
    t.first = row.twin_of;
    t.seed = record->header.seed;
    t.bots = {f.bots[1], f.bots[0]};
    t.accounts = {f.accounts[1], f.accounts[0]};
    t.first_ended = f.status == recorder::GameStatus::kFinished;
    t.due_us = now;
    registry_->seed_holds().Hold(t.seed,
                                 absl::StrCat("ladder twin ", row.game_id));
    if (auto r = l.running.find(row.twin_of); r != l.running.end()) {
      r->second.twin = row.game_id;
    }
    // The pair holds a slot of each bot until its second game.
    for (const std::string& a : t.accounts) ++l.bots[a].running;
    l.twins[row.game_id] = std::move(t);
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Organiser calls.

void Ladders::Create(const LadderSpec& spec, Reply reply) {
  auto fail = [&](const absl::Status& s) { reply(s); };
  recorder::LadderRow row;
  row.name = spec.name;
  // (The syntax of account names.)
  if (absl::Status s = CheckName(row.name, "spec.name"); !s.ok()) {
    return fail(s);
  }
  absl::StatusOr<RuleSet> rules =
      RuleSet::Parse(spec.rules.empty() ? std::string("standard") : spec.rules);
  if (!rules.ok()) {
    return fail(InvalidField(
        "spec.rules", absl::StrCat("spec.rules: ", rules.status().message())));
  }
  if (spec.duplicate && rules->players != 2) {
    return fail(InvalidField(
        "spec.duplicate",
        absl::StrCat("spec.duplicate: duplicate pairs are for two-player "
                     "rules; these have ",
                     rules->players, " players")));
  }
  row.rules = rules->ToString();
  absl::StatusOr<recorder::TimeControl> clock =
      ClockOf(spec.clock, "spec.clock");
  if (!clock.ok()) return fail(clock.status());
  row.clock = *clock;
  row.duplicate = spec.duplicate;
  absl::StatusOr<LadderSettings> settings = SettingsOf(spec.settings);
  if (!settings.ok()) return fail(settings.status());
  row.settings = SettingsJson(*settings);
  row.created_us = options_.now_us();
  row.changed_us = row.created_us;
  if (!registry_->CheckLabel(row.name).ok()) {
    // (A tournament's or a ladder's: the recorder would refuse it too.)
    return fail(Error(absl::StatusCode::kAlreadyExists, Reason::kLadderExists,
                      absl::StrCat("the name '", row.name,
                                   "' is taken by a tournament or a ladder")));
  }
  {
    absl::MutexLock lock(&mu_);
    if (ladders_.contains(row.name) || reserved_.contains(row.name)) {
      return fail(
          Error(absl::StatusCode::kAlreadyExists, Reason::kLadderExists,
                absl::StrCat("ladder '", row.name, "' already exists")));
    }
    if (static_cast<int>(ladders_.size() + reserved_.size()) >=
        options_.max_ladders) {
      return fail(Error(absl::StatusCode::kResourceExhausted,
                        Reason::kLimitReached,
                        absl::StrCat("this referee has ", options_.max_ladders,
                                     " ladders already (--max-ladders)")));
    }
    reserved_.insert(row.name);
  }
  auto made =
      std::make_shared<Ladder>(LadderRatingModel(), settings->period_ms);
  made->row = row;
  made->settings = *settings;
  made->players = rules->players;
  made->partnerships = rules->partnerships;
  recorder_->InsertLadder(row, [this, row, made,
                                reply = std::move(reply)](absl::Status s) {
    {
      absl::MutexLock lock(&mu_);
      reserved_.erase(row.name);
      if (s.ok()) {
        ladders_[row.name] = std::make_unique<Ladder>(LadderRatingModel(),
                                                      made->settings.period_ms);
        Ladder& l = *ladders_[row.name];
        l.row = made->row;
        l.settings = made->settings;
        l.players = made->players;
        l.partnerships = made->partnerships;
      }
    }
    auto answer = [this, name = row.name, s, reply] {
      if (absl::IsAlreadyExists(s)) {
        reply(Error(absl::StatusCode::kAlreadyExists, Reason::kLadderExists,
                    s.message()));
      } else if (!s.ok()) {
        reply(Error(
            absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
            absl::StrCat("the ladder could not be recorded: ", s.message())));
      } else {
        reply(Get(name));
      }
    };
    if (!registry_->reads().Post(answer)) answer();
    Kick();
  });
}

void Ladders::Pause(const std::string& name, const std::string& reason,
                    Reply reply) {
  ChangeStatus(name, LadderStatus::kPaused, reason, std::move(reply));
}

void Ladders::Resume(const std::string& name, Reply reply) {
  ChangeStatus(name, LadderStatus::kOpen, "", std::move(reply));
}

void Ladders::Close(const std::string& name, const std::string& reason,
                    Reply reply) {
  ChangeStatus(name, LadderStatus::kClosed, reason, std::move(reply));
}

void Ladders::ChangeStatus(const std::string& name, LadderStatus to,
                           const std::string& reason, Reply reply) {
  recorder::LadderRow row;
  {
    absl::MutexLock lock(&mu_);
    auto it = ladders_.find(name);
    if (it == ladders_.end()) {
      reply(NoLadder(name));
      return;
    }
    Ladder& l = *it->second;
    const LadderStatus from = StatusOf(l.row.status);
    if (l.changing) {
      reply(Error(absl::StatusCode::kAborted, Reason::kConcurrentChange,
                  absl::StrCat("another change to ladder ", Quote(name),
                               " is being recorded; try again")));
      return;
    }
    if (from == LadderStatus::kClosed || from == to) {
      reply(Error(absl::StatusCode::kFailedPrecondition, Reason::kLadderClosed,
                  absl::StrCat("ladder '", name, "' is already ",
                               LadderStatusName(from))));
      return;
    }
    l.changing = true;
    row = l.row;
  }
  row.status = LadderStatusName(to);
  row.reason = reason.substr(0, kMaxReason);
  row.changed_us = options_.now_us();
  recorder_->SetLadderStatus(row, [this, row,
                                   reply = std::move(reply)](absl::Status s) {
    {
      absl::MutexLock lock(&mu_);
      Ladder& l = *ladders_[row.name];
      l.changing = false;
      if (s.ok()) {
        l.row.status = row.status;
        l.row.reason = row.reason;
        l.row.changed_us = row.changed_us;
        if (row.status == "closed") {
          std::vector<std::string> due;
          for (const auto& [id, twin] : l.twins) due.push_back(id);
          for (const std::string& id : due) DropTwin(l, id);
        }
        NotifyAll(l);
      }
    }
    auto answer = [this, name = row.name, s, reply] {
      if (!s.ok()) {
        reply(Error(
            absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
            absl::StrCat("the change could not be recorded: ", s.message())));
        return;
      }
      reply(Get(name));
    };
    if (!registry_->reads().Post(answer)) answer();
    Kick();
  });
}

// ---------------------------------------------------------------------------
// Views.

LadderInfo Ladders::InfoOf(const Ladder& l) const {
  LadderInfo info;
  LadderSpec& spec = info.spec;
  spec.name = l.row.name;
  spec.rules = l.row.rules;
  spec.clock.per_move_ms = l.row.clock.per_move_ms;
  spec.clock.bank_ms = l.row.clock.bank_ms;
  spec.clock.max_illegal = l.row.clock.max_illegal;
  spec.duplicate = l.row.duplicate;
  spec.settings = l.settings;
  info.status = StatusOf(l.row.status);
  info.reason = l.row.reason;
  info.created_us = l.row.created_us;
  info.changed_us = l.row.changed_us;
  info.bots_connected =
      static_cast<int>(registry_->lobby().LadderMembers(l.row.name).size());
  info.games_running = static_cast<int>(l.running.size());
  info.games_unrated = l.rating_pending;
  info.games_rated = l.table.games();
  info.versions = l.versions;
  for (const auto& [account, b] : l.bots) {
    info.on_probation += b.health.probation_us != 0;
  }
  return info;
}

absl::StatusOr<LadderInfo> Ladders::Get(const std::string& name) const {
  absl::MutexLock lock(&mu_);
  auto it = ladders_.find(name);
  if (it == ladders_.end()) return NoLadder(name);
  return InfoOf(*it->second);
}

std::vector<LadderInfo> Ladders::List() const {
  absl::MutexLock lock(&mu_);
  std::vector<LadderInfo> out;
  for (const auto& [name, l] : ladders_) out.push_back(InfoOf(*l));
  std::sort(out.begin(), out.end(),
            [](const LadderInfo& a, const LadderInfo& b) {
              return std::make_pair(a.created_us, a.spec.name) <
                     std::make_pair(b.created_us, b.spec.name);
            });
  return out;
}

int Ladders::Open() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(std::count_if(
      ladders_.begin(), ladders_.end(),
      [](const auto& l) { return l.second->row.status == "open"; }));
}

absl::StatusOr<LeaderboardPage> Ladders::Leaderboard(
    const LeaderboardQuery& query) const {
  absl::StatusOr<int> page_size = PageSize(query.page_size);
  if (!page_size.ok()) return page_size.status();
  const std::vector<std::string> filter = {query.ladder,
                                           query.all_versions ? "all" : ""};
  std::optional<std::vector<std::string>> after;
  if (!query.page_token.empty()) {
    absl::StatusOr<std::vector<std::string>> key =
        PageKey(query.page_token, "leaderboard", filter, 3);
    if (!key.ok()) return key.status();
    after = *std::move(key);
  }
  std::set<std::string> connected;
  for (const auto& [account, p] :
       registry_->lobby().LadderMembers(query.ladder)) {
    connected.insert(competition::LadderBotName(account, p.ladder.version));
  }
  absl::MutexLock lock(&mu_);
  auto it = ladders_.find(query.ladder);
  if (it == ladders_.end()) return NoLadder(query.ladder);
  const Ladder& l = *it->second;
  const std::vector<competition::Standing> board =
      l.table.Leaderboard(query.all_versions);
  LeaderboardPage page;
  page.total = static_cast<int>(board.size());
  page.games_rated = l.table.games();
  size_t i = 0;
  if (after.has_value()) {
    const double c = FromBits((*after)[0]), mu = FromBits((*after)[1]);
    while (i < board.size() && (Before(board[i], c, mu, (*after)[2]) ||
                                board[i].bot == (*after)[2])) {
      ++i;
    }
  }
  for (; i < board.size(); ++i) {
    if (static_cast<int>(page.rows.size()) == *page_size) {
      const competition::Standing& last = page.rows.back().standing;
      page.next_page_token =
          PageToken("leaderboard", filter,
                    {Bits(last.conservative), Bits(last.rating.mu), last.bot});
      break;
    }
    LeaderboardRow row;
    row.standing = board[i];
    row.provisional = board[i].games < l.settings.provisional_games;
    row.connected = connected.contains(board[i].bot);
    if (auto b = l.bots.find(board[i].account); b != l.bots.end()) {
      row.on_probation = b->second.health.probation_us != 0;
      row.probation_reason = b->second.health.reason;
      row.probation_until_us = b->second.health.until_us;
    }
    page.rows.push_back(std::move(row));
  }
  return page;
}

absl::Status Ladders::CheckLabel(const std::string& label) const {
  if (label.empty()) return absl::OkStatus();
  absl::MutexLock lock(&mu_);
  if (ladders_.contains(label) || reserved_.contains(label)) {
    return Error(absl::StatusCode::kFailedPrecondition, Reason::kLabelReserved,
                 absl::StrCat("label ", Quote(label),
                              " is the name of a ladder: only the referee's "
                              "ladder creates games with it"));
  }
  return absl::OkStatus();
}

absl::StatusOr<LadderNotice> Ladders::CheckJoin(const std::string& account,
                                                const LadderJoin& join) {
  if (!ValidVersionName(join.version)) {
    return InvalidField(
        "version", absl::StrCat("version must be 1 to ", kMaxVersionName,
                                " characters, each a letter, a digit, '-', "
                                "'_' or '.'"));
  }
  absl::MutexLock lock(&mu_);
  auto it = ladders_.find(join.ladder);
  if (it == ladders_.end()) return NoLadder(join.ladder);
  Ladder& l = *it->second;
  if (l.row.status == "closed") {
    return Error(absl::StatusCode::kFailedPrecondition, Reason::kLadderClosed,
                 absl::StrCat("ladder '", join.ladder, "' is closed"));
  }
  Bot& b = l.bots[account];
  b.health.ladder = l.row.name;
  b.health.account = account;
  if (!b.versions.contains(join.version) &&
      !b.versions_pending.contains(join.version) &&
      static_cast<int>(b.versions.size() + b.versions_pending.size()) >=
          options_.max_versions_per_account) {
    return Error(
        absl::StatusCode::kResourceExhausted, Reason::kLimitReached,
        absl::StrCat("bot account '", account, "' has joined ladder '",
                     join.ladder, "' with ", options_.max_versions_per_account,
                     " versions already (--max-ladder-versions)"));
  }
  return NoticeFor(l, account, join.version);
}

LadderNotice Ladders::NoticeFor(const Ladder& l, const std::string& account,
                                const std::string& version) const {
  LadderNotice n;
  n.ladder = l.row.name;
  n.version = version;
  const LadderStatus status = StatusOf(l.row.status);
  auto b = l.bots.find(account);
  if (status == LadderStatus::kClosed) {
    n.state = LadderNotice::State::kClosed;
    n.reason = l.row.reason;
  } else if (b != l.bots.end() && b->second.health.probation_us != 0) {
    n.state = LadderNotice::State::kProbation;
    n.reason = b->second.health.reason;
    n.until_us = b->second.health.until_us;
  } else if (status == LadderStatus::kPaused) {
    n.state = LadderNotice::State::kPaused;
    n.reason = l.row.reason;
  }
  return n;
}

void Ladders::NotifyAll(const Ladder& l) {
  for (const auto& [account, p] :
       registry_->lobby().LadderMembers(l.row.name)) {
    registry_->lobby().Notify(account, NoticeFor(l, account, p.ladder.version));
  }
}

}  // namespace cassino::service
