// Tournaments the referee schedules: the schedule's shape, the scheduler
// seating lobby bots as they are free, the grace period, restarts, and the
// standings against `cassino stats` and `cassino verify` over the database.

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "referee/scheduler.h"
#include "rules/deal.h"
#include "tests/referee/lobby_client.h"
#include "tests/referee/test_referee.h"
#include "tests/sanitizers.h"
#include "tools/stats/stats.h"
#include "tools/verify/interchange.h"
#include "tools/verify/verifier.h"

namespace cassino::testing {
namespace {

using ::grpc::StatusCode;

// Under AddressSanitizer everything is several times slower and larger:
// the timing bounds and flood sizes below scale for it (kSanitized).

// Generous: the suite also runs under ASan on a loaded machine.
v1::Clock TournamentClock() {
  v1::Clock c;
  c.set_per_move_ms(2000);
  return c;
}

v1::TournamentSpec Spec(const std::string& name,
                        const std::vector<std::string>& participants) {
  v1::TournamentSpec spec;
  spec.set_name(name);
  for (const std::string& p : participants) spec.add_participants(p);
  *spec.mutable_clock() = TournamentClock();
  return spec;
}

grpc::Status CreateTournament(TestReferee& referee,
                              const v1::TournamentSpec& spec,
                              v1::TournamentInfo* out = nullptr) {
  v1::CreateTournamentRequest req;
  *req.mutable_spec() = spec;
  v1::CreateTournamentResponse resp;
  grpc::Status s = referee.stub().CreateTournament(
      TestReferee::Context(kAdminToken).get(), req, &resp);
  if (out != nullptr) *out = resp.tournament();
  return s;
}

v1::TournamentInfo GetTournament(TestReferee& referee,
                                 const std::string& name) {
  v1::GetTournamentRequest req;
  req.set_name(name);
  v1::GetTournamentResponse resp;
  grpc::Status s = referee.stub().GetTournament(
      TestReferee::Context(kAdminToken).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.tournament();
}

// Polls until `done` holds for the tournament (at most 60 s).
v1::TournamentInfo WaitFor(
    TestReferee& referee, const std::string& name,
    const std::function<bool(const v1::TournamentInfo&)>& done) {
  return PollUntil<v1::TournamentInfo>(
      "tournament " + name, [&] { return GetTournament(referee, name); }, done);
}

v1::TournamentInfo WaitOver(TestReferee& referee, const std::string& name) {
  return WaitFor(referee, name, [](const v1::TournamentInfo& t) {
    return t.status() != v1::TOURNAMENT_STATUS_RUNNING;
  });
}

// The tournament's standings equal `cassino stats --tournament NAME` over
// the same database, bot by bot; and every game verifies.
void ExpectStandingsMatchStatsAndVerify(const std::filesystem::path& db,
                                        const v1::TournamentInfo& t,
                                        int aborted_off_schedule = 0) {
  stats::Filter filter;
  filter.tournament = t.spec().name();
  absl::StatusOr<stats::Stats> st = stats::ReadStats(db.string(), filter);
  ASSERT_TRUE(st.ok()) << st.status();
  std::map<std::string, const stats::BotStats*> by_bot;
  for (const stats::BotStats& b : st->bots) by_bot[b.name] = &b;
  for (const v1::TournamentStanding& s : t.standings()) {
    auto it = by_bot.find(s.bot());
    if (s.games() == 0 && s.forfeits() == 0) {
      if (it != by_bot.end()) {
        EXPECT_EQ(it->second->games, 0) << s.bot();
      }
      continue;
    }
    ASSERT_NE(it, by_bot.end()) << s.bot();
    const stats::BotStats& b = *it->second;
    EXPECT_EQ(s.games(), b.games) << s.bot();
    EXPECT_EQ(s.wins(), b.wins) << s.bot();
    EXPECT_EQ(s.losses(), b.losses) << s.bot();
    EXPECT_EQ(s.draws(), b.draws) << s.bot();
    EXPECT_EQ(s.forfeits(), b.forfeits) << s.bot();
    EXPECT_DOUBLE_EQ(s.score(), s.wins() + s.draws() / 2.0) << s.bot();
  }
  EXPECT_EQ(st->summary.finished, t.games_finished());
  // (Games aborted at a restart before their first move carry the
  // tournament's label but are not in its schedule.)
  EXPECT_EQ(st->summary.aborted, t.games_aborted() + aborted_off_schedule);

  verify::VerifyOptions options;
  options.threads = 1;
  absl::StatusOr<verify::VerifyReport> report =
      verify::VerifyDatabase(db.string(), options);
  ASSERT_TRUE(report.ok()) << report.status();
  for (const verify::Failure& f : report->failures) {
    ADD_FAILURE() << f.ToString();
  }
  EXPECT_EQ(report->ok, report->games);
}

// The seed is revealed once the tournament is over and matches the
// commitment; every finished game's seed is derived from it as documented.
void ExpectSeedRevealed(TestReferee& referee, const v1::TournamentInfo& t) {
  ASSERT_FALSE(t.spec().seed().empty());
  absl::StatusOr<Seed> seed = ParseSeed(t.spec().seed());
  ASSERT_TRUE(seed.ok());
  EXPECT_EQ(ToHex(SeedCommitment(*seed)), t.seed_commitment());
  for (const v1::TournamentGame& g : t.games()) {
    if (g.game_id().empty()) continue;
    const bool second_of_pair = t.spec().duplicate() && g.index() % 2 == 1;
    const uint32_t seed_index = g.index() - (second_of_pair ? 1 : 0);
    // An aborted game's seed stays secret (GetGame shows none); the
    // tournament's seed derives it.
    EXPECT_EQ(referee.Info(g.game_id()).seed(),
              g.status() == v1::GAME_STATUS_ABORTED
                  ? ""
                  : ToHex(BatchGameSeed(*seed, seed_index)))
        << "game " << g.index();
  }
}

// ---------------------------------------------------------------------------
// The schedule.

TEST(TournamentScheduleTest, RoundRobinPairsEveryoneWithSeatsAlternating) {
  const Seed seed{};
  const std::vector<std::string> bots = {"a", "b", "c", "d"};
  auto games = service::MakeTournamentSchedule(bots, false, 3, false, seed);
  ASSERT_EQ(games.size(), 6u * 3u);
  std::map<std::set<std::string>, int> per_pairing;
  std::set<std::string> seeds;
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(games[i].index, static_cast<int>(i));
    ASSERT_EQ(games[i].seats.size(), 2u);
    EXPECT_NE(games[i].seats[0], games[i].seats[1]);
    ++per_pairing[{games[i].seats[0], games[i].seats[1]}];
    seeds.insert(games[i].seed);
    // Game i's seed is SHA-256(seed || uint32_be(i)).
    std::array<uint8_t, 36> input{};
    input[35] = static_cast<uint8_t>(i);
    EXPECT_EQ(games[i].seed, ToHex(Sha256(input)));
  }
  EXPECT_EQ(per_pairing.size(), 6u);
  for (const auto& [pair, n] : per_pairing) EXPECT_EQ(n, 3);
  EXPECT_EQ(seeds.size(), games.size());
  // Within a pairing, the seats alternate.
  EXPECT_EQ(games[0].seats, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(games[1].seats, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(games[2].seats, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(games[3].seats, (std::vector<std::string>{"a", "c"}));
}

TEST(TournamentScheduleTest, GauntletPlaysTheFirstAgainstEachOther) {
  Seed seed{};
  seed[0] = 7;
  auto games = service::MakeTournamentSchedule({"champ", "x", "y", "z"}, true,
                                               1, false, seed);
  ASSERT_EQ(games.size(), 3u);
  for (const auto& g : games) EXPECT_EQ(g.seats[0], "champ");
  EXPECT_EQ(games[2].seats[1], "z");
}

TEST(TournamentScheduleTest, DuplicateRoundsUpAndSharesSeedsWithSeatsSwapped) {
  Seed seed{};
  seed[31] = 1;
  auto games =
      service::MakeTournamentSchedule({"a", "b", "c"}, false, 3, true, seed);
  ASSERT_EQ(games.size(), 3u * 4u);  // 3 rounded up to 4
  for (size_t i = 0; i < games.size(); i += 2) {
    EXPECT_EQ(games[i].seed, games[i + 1].seed) << i;
    EXPECT_EQ(games[i].seats[0], games[i + 1].seats[1]) << i;
    EXPECT_EQ(games[i].seats[1], games[i + 1].seats[0]) << i;
    EXPECT_EQ(games[i].seed,
              ToHex(BatchGameSeed(seed, static_cast<uint32_t>(i))));
    if (i + 2 < games.size()) {
      EXPECT_NE(games[i].seed, games[i + 2].seed);
    }
  }
}

// ---------------------------------------------------------------------------
// The API.

TEST(TournamentApiTest, ValidationErrorsNameTheField) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  Register(referee, "alpha");
  Register(referee, "beta");
  Register(referee, "gone");
  {
    v1::RevokeBotRequest req;
    req.set_name("gone");
    v1::RevokeBotResponse resp;
    ASSERT_TRUE(
        referee.stub()
            .RevokeBot(TestReferee::Context(kAdminToken).get(), req, &resp)
            .ok());
  }
  struct Case {
    std::function<void(v1::TournamentSpec&)> change;
    std::string message;
    StatusCode code = StatusCode::INVALID_ARGUMENT;
  };
  const std::vector<Case> cases = {
      {[](auto& s) { s.set_name(""); }, "spec.name must be 1 to 64"},
      {[](auto& s) { s.set_name("has space"); }, "spec.name must be"},
      {[](auto& s) { s.set_name(std::string(65, 'n')); }, "spec.name must"},
      {[](auto& s) {
         s.clear_participants();
         s.add_participants("alpha");
       },
       "spec.participants must name 2 to 256 bot accounts; 1 given"},
      {[](auto& s) { s.add_participants("alpha"); },
       "spec.participants[2]: 'alpha' is already participants[0]"},
      {[](auto& s) { s.add_participants("nobody"); },
       "spec.participants[2]: no bot account 'nobody'", StatusCode::NOT_FOUND},
      {[](auto& s) { s.add_participants("gone"); },
       "spec.participants[2]: bot account 'gone' is revoked",
       StatusCode::FAILED_PRECONDITION},
      {[](auto& s) { s.set_games_per_pairing(1001); },
       "spec.games_per_pairing must be 1 to 1000"},
      {[](auto& s) { s.set_games_per_pairing(-1); },
       "spec.games_per_pairing must be 1 to 1000"},
      {[](auto& s) { s.set_rules("standard players=4"); },
       "spec.rules: tournaments are two-player games"},
      {[](auto& s) { s.set_rules("no_such_preset"); }, "spec.rules: "},
      {[](auto& s) { s.mutable_clock()->set_per_move_ms(-5); },
       "spec.clock.per_move_ms"},
      {[](auto& s) { s.set_max_concurrent_games(257); },
       "spec.max_concurrent_games must be 1 to 256"},
      {[](auto& s) { s.set_grace_ms(-1); }, "spec.grace_ms must be"},
      {[](auto& s) { s.set_grace_ms(86400001); }, "spec.grace_ms must be"},
      {[](auto& s) { s.set_seed("abc"); }, "spec.seed: "},
      {[](auto& s) { s.set_format(static_cast<v1::TournamentFormat>(9)); },
       "spec.format: unknown format 9"},
  };
  for (const Case& c : cases) {
    v1::TournamentSpec spec = Spec("valid-name", {"alpha", "beta"});
    c.change(spec);
    grpc::Status s = CreateTournament(referee, spec);
    EXPECT_EQ(s.error_code(), c.code) << c.message;
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << "got: " << s.error_message() << "\nwanted: " << c.message;
  }
  // Not the admin.
  {
    v1::CreateTournamentRequest req;
    *req.mutable_spec() = Spec("x", {"alpha", "beta"});
    v1::CreateTournamentResponse resp;
    EXPECT_EQ(
        referee.stub()
            .CreateTournament(TestReferee::Context("nope").get(), req, &resp)
            .error_code(),
        StatusCode::UNAUTHENTICATED);
  }
  // A label already used by games cannot become a tournament's name.
  v1::CreateGameResponse game;
  {
    v1::CreateGameRequest req;
    req.add_seats()->set_bot_name("p");
    req.add_seats()->set_bot_name("q");
    req.set_label("used-label");
    ASSERT_TRUE(
        referee.stub()
            .CreateGame(TestReferee::Context(kAdminToken).get(), req, &game)
            .ok());
  }
  grpc::Status s =
      CreateTournament(referee, Spec("used-label", {"alpha", "beta"}));
  EXPECT_EQ(s.error_code(), StatusCode::ALREADY_EXISTS) << s.error_message();

  // Defaults filled in; the seed stays secret.
  v1::TournamentSpec spec = Spec("cup", {"alpha", "beta"});
  spec.set_grace_ms(3600000);  // nobody is connected: nothing happens
  v1::TournamentInfo info;
  s = CreateTournament(referee, spec, &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(info.status(), v1::TOURNAMENT_STATUS_RUNNING);
  EXPECT_EQ(info.spec().games_per_pairing(), 2);
  EXPECT_EQ(info.spec().max_concurrent_games(), 4);
  EXPECT_EQ(info.spec().format(), v1::TOURNAMENT_FORMAT_ROUND_ROBIN);
  EXPECT_TRUE(info.spec().seed().empty());
  EXPECT_EQ(info.seed_commitment().size(), 64u);
  EXPECT_EQ(info.games_total(), 2);
  EXPECT_EQ(info.games_pending(), 2);
  ASSERT_EQ(info.games_size(), 2);
  EXPECT_TRUE(info.games(0).game_id().empty());
  ASSERT_EQ(info.standings_size(), 2);
  EXPECT_EQ(info.standings(0).rank(), 1);
  EXPECT_EQ(info.standings(1).rank(), 1);  // 0-0: shared

  // The name is taken, as a tournament and as a label.
  s = CreateTournament(referee, spec);
  EXPECT_EQ(s.error_code(), StatusCode::ALREADY_EXISTS);
  // An organiser's game labelled "cup": refused by the scheduler's check,
  // and, were that check passed (a CreateGame racing the tournament's
  // creation), by the recorder in its transaction, with the same answer.
  ExpectLabelRefused(referee, "cup", "tournament");
  {
    v1::GetTournamentRequest req;
    req.set_name("nope");
    v1::GetTournamentResponse resp;
    EXPECT_EQ(
        referee.stub()
            .GetTournament(TestReferee::Context(kAdminToken).get(), req, &resp)
            .error_code(),
        StatusCode::NOT_FOUND);
  }
  // Cancel: no game starts; a second cancel is refused.
  {
    v1::CancelTournamentRequest req;
    req.set_name("cup");
    req.set_reason("rain");
    v1::CancelTournamentResponse resp;
    s = referee.stub().CancelTournament(TestReferee::Context(kAdminToken).get(),
                                        req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(resp.tournament().status(), v1::TOURNAMENT_STATUS_CANCELLED);
    EXPECT_GT(resp.tournament().ended_unix_ms(), 0);
    EXPECT_EQ(resp.tournament().games_pending(), 2);
    ExpectSeedRevealed(referee, resp.tournament());
    s = referee.stub().CancelTournament(TestReferee::Context(kAdminToken).get(),
                                        req, &resp);
    EXPECT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION);
  }
  // Connecting now starts nothing.
  LobbyBot a(referee.stub(), Register(referee, "late-a"), 1);
  {
    v1::ListTournamentsResponse resp;
    ASSERT_TRUE(referee.stub()
                    .ListTournaments(TestReferee::Context(kAdminToken).get(),
                                     v1::ListTournamentsRequest(), &resp)
                    .ok());
    ASSERT_EQ(resp.tournaments_size(), 1);
    EXPECT_EQ(resp.tournaments(0).games_size(), 0);
    EXPECT_EQ(resp.tournaments(0).spec().name(), "cup");
  }
  // Survives a restart as it was.
  referee.Restart();
  info = GetTournament(referee, "cup");
  EXPECT_EQ(info.status(), v1::TOURNAMENT_STATUS_CANCELLED);
  EXPECT_EQ(info.games_pending(), 2);
}

// Intervals [created, finished) of the tournament's games, from the record.
struct Played {
  std::vector<std::string> bots;
  int64_t from = 0, to = 0;
};
std::vector<Played> PlayedGames(TestReferee& referee,
                                const std::string& label) {
  recorder::ListFilter filter;
  filter.label = label;
  auto list = referee.server().recorder().List(filter);
  EXPECT_TRUE(list.ok());
  std::vector<Played> out;
  for (const auto& g : *list) {
    // (A game in which no move was played when the referee restarted is
    // aborted and played again: not a played game.)
    if (g.status == recorder::GameStatus::kAborted) continue;
    out.push_back({g.bots, g.created_us, g.finished_us});
  }
  return out;
}

// The most intervals overlapping at one time, among those `keep` selects.
int MaxOverlap(const std::vector<Played>& games,
               const std::function<bool(const Played&)>& keep) {
  std::vector<std::pair<int64_t, int>> edges;
  for (const Played& g : games) {
    if (!keep(g)) continue;
    edges.push_back({g.from, +1});
    edges.push_back({g.to, -1});
  }
  std::sort(edges.begin(), edges.end());  // an end sorts before a start
  int now = 0, most = 0;
  for (const auto& [t, d] : edges) most = std::max(most, now += d);
  return most;
}

// A read refused by the read executor says why: its bound
// (RESOURCE_EXHAUSTED, LIMIT_REACHED: try again in a moment) or the
// referee's stop (UNAVAILABLE, SHUTTING_DOWN, as every call during a stop),
// which a follower retries against the referee that comes back. Both used
// to be RESOURCE_EXHAUSTED, and `cassino tournament` stopped following when
// a restart caught its poll in that window.
TEST(TournamentApiTest, ARefusedReadSaysWhetherTheBoundOrTheStopRefusedIt) {
  const auto dir = TempDir();
  auto get = [](TestReferee& referee) {
    v1::GetTournamentRequest req;
    req.set_name("cup");
    v1::GetTournamentResponse resp;
    return referee.stub().GetTournament(TestReferee::Context(kAdminToken).get(),
                                        req, &resp);
  };
  {
    // No read may wait: every read is over the bound.
    TestReferee referee(dir / "full.db", [](service::ServerOptions& o) {
      o.limits.max_queued_reads = 0;
    });
    const grpc::Status s = get(referee);
    EXPECT_EQ(s.error_code(), StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_EQ(ReasonOf(s), "LIMIT_REACHED");
  }
  {
    TestReferee referee(dir / "stopping.db");
    EXPECT_EQ(get(referee).error_code(), StatusCode::NOT_FOUND);
    // The registry stops its reads before the server stops taking calls.
    referee.server().registry().reads().Stop();
    const grpc::Status s = get(referee);
    EXPECT_EQ(s.error_code(), StatusCode::UNAVAILABLE);
    EXPECT_EQ(ReasonOf(s), "SHUTTING_DOWN");
  }
}

TEST(TournamentPlayTest, RoundRobinThroughTheLobbyRespectsLimitsAndStandings) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  const std::vector<std::string> names = {"one", "two", "three", "four"};
  std::vector<std::string> keys;
  for (const auto& n : names) keys.push_back(Register(referee, n));
  v1::TournamentSpec spec = Spec("rr", names);
  spec.set_games_per_pairing(2);
  spec.set_duplicate(true);
  spec.set_max_concurrent_games(2);
  v1::TournamentInfo created;
  ASSERT_TRUE(CreateTournament(referee, spec, &created).ok());
  EXPECT_EQ(created.games_total(), 12);
  // "one" takes a game at a time; the others two.
  std::vector<std::unique_ptr<LobbyBot>> bots;
  for (size_t i = 0; i < names.size(); ++i) {
    bots.push_back(
        std::make_unique<LobbyBot>(referee.stub(), keys[i], i == 0 ? 1 : 2));
  }
  const v1::TournamentInfo t = WaitOver(referee, "rr");
  EXPECT_EQ(t.status(), v1::TOURNAMENT_STATUS_FINISHED);
  EXPECT_EQ(t.games_finished(), 12);
  EXPECT_EQ(t.games_pending() + t.games_running() + t.games_aborted(), 0);
  EXPECT_GT(t.ended_unix_ms(), 0);
  for (auto& b : bots) b->Stop();
  int games = 0;
  for (const auto& s : t.standings()) games += s.games();
  EXPECT_EQ(games, 24);
  for (int i = 1; i < t.standings_size(); ++i) {
    EXPECT_GE(t.standings(i - 1).score(), t.standings(i).score());
  }
  ExpectSeedRevealed(referee, t);
  std::set<std::string> ids;
  for (const auto& g : t.games()) {
    EXPECT_EQ(g.status(), v1::GAME_STATUS_FINISHED);
    ids.insert(g.game_id());
    const v1::GameInfo info = referee.Info(g.game_id());
    EXPECT_EQ(info.label(), "rr");
    ASSERT_EQ(info.accounts_size(), 2);
    EXPECT_EQ(info.accounts(0), g.bots(0));
    EXPECT_EQ(info.accounts(1), g.bots(1));
  }
  EXPECT_EQ(ids.size(), 12u);

  const std::vector<Played> played = PlayedGames(referee, "rr");
  ASSERT_EQ(played.size(), 12u);
  EXPECT_LE(MaxOverlap(played, [](const Played&) { return true; }), 2);
  EXPECT_EQ(MaxOverlap(played,
                       [](const Played& p) {
                         return p.bots[0] == "one" || p.bots[1] == "one";
                       }),
            1);
  ExpectStandingsMatchStatsAndVerify(dir / "t.db", t);
}

TEST(TournamentPlayTest, AnAbsentBotForfeitsAfterTheGrace) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  const std::string champ = Register(referee, "champ");
  const std::string here = Register(referee, "here");
  Register(referee, "away");
  v1::TournamentSpec spec = Spec("g", {"champ", "here", "away"});
  spec.set_format(v1::TOURNAMENT_FORMAT_GAUNTLET);
  spec.set_games_per_pairing(1);
  spec.set_grace_ms(300);
  // Connected first, so that only "away" is ever absent past the grace.
  LobbyBot a(referee.stub(), champ, 2);
  LobbyBot b(referee.stub(), here, 2);
  for (const std::string name : {"champ", "here"}) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!GetBot(referee, name).connected() &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ASSERT_TRUE(CreateTournament(referee, spec).ok());
  const v1::TournamentInfo t = WaitOver(referee, "g");
  EXPECT_EQ(t.status(), v1::TOURNAMENT_STATUS_FINISHED);
  EXPECT_EQ(t.games_finished(), 2);
  ASSERT_EQ(t.games_size(), 2);
  const v1::TournamentGame& forfeited = t.games(1);
  EXPECT_EQ(forfeited.bots(1), "away");
  EXPECT_EQ(forfeited.result().winner(), 0);
  EXPECT_EQ(forfeited.result().reason(), "forfeit");
  std::map<std::string, v1::TournamentStanding> by_bot;
  for (const auto& s : t.standings()) by_bot[s.bot()] = s;
  EXPECT_EQ(by_bot["away"].forfeits(), 1);
  EXPECT_EQ(by_bot["away"].losses(), 1);
  EXPECT_EQ(by_bot["champ"].games(), 2);
  // The forfeit event says why.
  auto record = referee.server().recorder().Load(forfeited.game_id());
  ASSERT_TRUE(record.ok());
  bool found = false;
  for (const auto& e : record->events) {
    if (e.kind == recorder::EventKind::kForfeit) {
      found = true;
      EXPECT_NE(e.payload.find("\"reason\":\"absent\""), std::string::npos)
          << e.payload;
      EXPECT_NE(e.payload.find("\"seat\":1"), std::string::npos) << e.payload;
    }
  }
  EXPECT_TRUE(found);
  a.Stop();
  b.Stop();
  ExpectStandingsMatchStatsAndVerify(dir / "t.db", t);
}

TEST(TournamentPlayTest, BothBotsAbsentAbortsTheGame) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  Register(referee, "x");
  Register(referee, "y");
  v1::TournamentSpec spec = Spec("empty", {"x", "y"});
  spec.set_games_per_pairing(1);
  spec.set_grace_ms(300);
  ASSERT_TRUE(CreateTournament(referee, spec).ok());
  const v1::TournamentInfo t = WaitOver(referee, "empty");
  EXPECT_EQ(t.status(), v1::TOURNAMENT_STATUS_FINISHED);
  EXPECT_EQ(t.games_aborted(), 1);
  EXPECT_EQ(t.games_finished(), 0);
  ASSERT_EQ(t.games_size(), 1);
  EXPECT_EQ(t.games(0).status(), v1::GAME_STATUS_ABORTED);
  EXPECT_EQ(referee.Info(t.games(0).game_id()).result().reason(), "aborted");
  for (const auto& s : t.standings()) {
    EXPECT_EQ(s.games(), 0);
    EXPECT_EQ(s.forfeits(), 0);
  }
  ExpectSeedRevealed(referee, t);
  ExpectStandingsMatchStatsAndVerify(dir / "t.db", t);
}

TEST(TournamentPlayTest, ARestartedRefereeContinuesTheSchedule) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  const std::vector<std::string> names = {"r1", "r2", "r3"};
  std::vector<std::string> keys;
  for (const auto& n : names) keys.push_back(Register(referee, n));
  v1::TournamentSpec spec = Spec("again", names);
  spec.set_games_per_pairing(2);
  spec.set_max_concurrent_games(1);
  ASSERT_TRUE(CreateTournament(referee, spec).ok());
  {
    std::vector<std::unique_ptr<LobbyBot>> bots;
    for (const auto& k : keys) {
      bots.push_back(std::make_unique<LobbyBot>(referee.stub(), k, 1));
    }
    WaitFor(referee, "again", [](const v1::TournamentInfo& t) {
      return t.games_finished() >= 2;
    });
    for (auto& b : bots) b->Stop();
  }
  referee.Restart();
  const v1::TournamentInfo midway = GetTournament(referee, "again");
  EXPECT_EQ(midway.status(), v1::TOURNAMENT_STATUS_RUNNING);
  EXPECT_GE(midway.games_finished(), 2);
  EXPECT_LT(midway.games_finished(), 6);
  std::vector<std::unique_ptr<LobbyBot>> bots;
  for (const auto& k : keys) {
    bots.push_back(std::make_unique<LobbyBot>(referee.stub(), k, 1));
  }
  const v1::TournamentInfo t = WaitOver(referee, "again");
  for (auto& b : bots) b->Stop();
  EXPECT_EQ(t.status(), v1::TOURNAMENT_STATUS_FINISHED);
  EXPECT_EQ(t.games_finished(), 6);
  // Every scheduled game was played once: six games in the database.
  const std::vector<Played> played = PlayedGames(referee, "again");
  EXPECT_EQ(played.size(), 6u);
  EXPECT_LE(MaxOverlap(played, [](const Played&) { return true; }), 1);
  ExpectSeedRevealed(referee, t);
  // ListGames names the accounts of games only the database holds (those
  // that ended before the restart) as well as of those in memory.
  v1::ListGamesRequest list;
  list.set_label("again");
  v1::ListGamesResponse listed;
  ASSERT_TRUE(
      referee.stub()
          .ListGames(TestReferee::Context(kAdminToken).get(), list, &listed)
          .ok());
  int listed_finished = 0;
  for (const v1::GameInfo& g : listed.games()) {
    ASSERT_EQ(g.accounts_size(), 2) << g.game_id();
    EXPECT_EQ(g.accounts(0), g.bots(0));
    EXPECT_EQ(g.accounts(1), g.bots(1));
    if (g.status() == v1::GAME_STATUS_FINISHED) ++listed_finished;
  }
  EXPECT_EQ(listed_finished, 6);
  // At most the one game running at the restart, if no move had been
  // played in it yet: aborted then, and played again.
  const int aborted_at_restart = listed.games_size() - listed_finished;
  EXPECT_LE(aborted_at_restart, 1);
  ExpectStandingsMatchStatsAndVerify(dir / "t.db", t, aborted_at_restart);
}

TEST(TournamentPlayTest, CancellingLetsTheRunningGamePlayOnAndCount) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  const std::string ka = Register(referee, "ca");
  const std::string kb = Register(referee, "cb");
  v1::TournamentSpec spec = Spec("stop", {"ca", "cb"});
  spec.mutable_clock()->set_per_move_ms(60000);  // nobody runs out of time
  spec.set_max_concurrent_games(1);
  spec.set_grace_ms(3600000);
  ASSERT_TRUE(CreateTournament(referee, spec).ok());
  // Two bots that hold their seats without playing yet.
  LobbyStream la(referee.stub(), ka, 2);
  LobbyStream lb(referee.stub(), kb, 2);
  const v1::GameOffer oa = la.NextOffer();
  const v1::GameOffer ob = lb.NextOffer();
  ASSERT_EQ(oa.game().game_id(), ob.game().game_id());
  EXPECT_EQ(oa.game().label(), "stop");
  v1::TournamentInfo t = GetTournament(referee, "stop");
  EXPECT_EQ(t.games_running(), 1);  // the limit holds the second one back
  EXPECT_EQ(t.games_pending(), 1);

  v1::CancelTournamentRequest req;
  req.set_name("stop");
  v1::CancelTournamentResponse resp;
  ASSERT_TRUE(
      referee.stub()
          .CancelTournament(TestReferee::Context(kAdminToken).get(), req, &resp)
          .ok());
  EXPECT_EQ(resp.tournament().status(), v1::TOURNAMENT_STATUS_CANCELLED);
  EXPECT_EQ(resp.tournament().games_running(), 1);
  // A game derived from the seed is still running: the seed stays secret.
  EXPECT_TRUE(resp.tournament().spec().seed().empty());

  std::thread other(
      [&] { PlayUnary(referee.stub(), ob.token(), ob.game().game_id(), 2); });
  EXPECT_EQ(PlayUnary(referee.stub(), oa.token(), oa.game().game_id(), 1),
            v1::GAME_STATUS_FINISHED);
  other.join();
  t = WaitFor(referee, "stop", [](const v1::TournamentInfo& t) {
    return t.games_finished() == 1;
  });
  EXPECT_EQ(t.status(), v1::TOURNAMENT_STATUS_CANCELLED);
  EXPECT_EQ(t.games_pending(), 1);
  EXPECT_EQ(t.games_running(), 0);
  ExpectSeedRevealed(referee, t);
  int games = 0;
  for (const auto& s : t.standings()) games += s.games();
  EXPECT_EQ(games, 2);
  // Both bots are free now, yet nothing more starts.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(GetTournament(referee, "stop").games_pending(), 1);
  ExpectStandingsMatchStatsAndVerify(dir / "t.db", t);
}

TEST(TournamentPlayTest, TheGraceCountsFromTheLastDisconnection) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  const std::string kstay = Register(referee, "stay");
  const std::string kflaky = Register(referee, "flaky");
  // "stay" is busy with another game (its one slot taken), so the
  // tournament's game waits although both bots are connected.
  LobbyStream stay(referee.stub(), kstay, 1);
  {
    v1::CreateGameRequest req;
    req.add_seats()->set_account("stay");
    req.add_seats()->set_bot_name("somebody");
    req.mutable_clock()->set_per_move_ms(60000);
    v1::CreateGameResponse resp;
    ASSERT_TRUE(
        referee.stub()
            .CreateGame(TestReferee::Context(kAdminToken).get(), req, &resp)
            .ok());
    EXPECT_EQ(stay.NextOffer().game().game_id(), resp.game_id());
  }
  auto flaky = std::make_unique<LobbyStream>(referee.stub(), kflaky, 1);
  v1::LobbyResponse welcome;
  ASSERT_TRUE(flaky->Read(&welcome));
  v1::TournamentSpec spec = Spec("wait", {"stay", "flaky"});
  spec.set_games_per_pairing(1);
  spec.set_grace_ms(2000);
  ASSERT_TRUE(CreateTournament(referee, spec).ok());
  // Longer than the grace after the creation, while connected: no forfeit.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  EXPECT_EQ(GetTournament(referee, "wait").games_pending(), 1);
  const int64_t left_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count();
  flaky.reset();  // disconnects
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // The grace counts from the disconnection, not from the creation.
  EXPECT_EQ(GetTournament(referee, "wait").games_pending(), 1);
  const v1::TournamentInfo t = WaitOver(referee, "wait");
  ASSERT_EQ(t.games_size(), 1);
  EXPECT_EQ(t.games(0).status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(t.games(0).result().winner(), 0);  // "stay", seat 0
  auto record = referee.server().recorder().Load(t.games(0).game_id());
  ASSERT_TRUE(record.ok());
  for (const auto& e : record->events) {
    if (e.kind != recorder::EventKind::kForfeit) continue;
    EXPECT_NE(e.payload.find("\"reason\":\"absent\""), std::string::npos);
    EXPECT_GE(e.at_us / 1000 - left_ms, 2000 - 50) << "forfeited too early";
  }
}

// Issue #22, A7: a game the scheduler had created (here: both bots were
// connected; the same holds for one created to be aborted for absence)
// and in which no move was played when the referee stopped is not left to
// the clock of bots that never come back: it is aborted at the restart and
// pending again, and the grace period then aborts it (both bots absent).
// Before, it resumed as an ordinary game and the seat to move forfeited on
// time after per_move_ms, crediting a bot that never connected with a win.
TEST(TournamentPlayTest, AGameUnstartedAtARestartIsAbortedNotDecided) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  const std::string x = Register(referee, "x");
  const std::string y = Register(referee, "y");
  v1::TournamentSpec spec = Spec("unstarted", {"x", "y"});
  spec.set_games_per_pairing(1);
  spec.mutable_clock()->set_per_move_ms(1500);  // shorter than the grace
  spec.set_grace_ms(3000);
  ASSERT_TRUE(CreateTournament(referee, spec).ok());
  {
    // Both bots connect (the game is created and offered) but never play.
    LobbyStream lx(referee.stub(), x, 1), ly(referee.stub(), y, 1);
    lx.NextOffer();
    ly.NextOffer();
    lx.Cancel();
    ly.Cancel();
  }
  ASSERT_EQ(GetTournament(referee, "unstarted").games_running(), 1);
  referee.Restart();
  // Nobody comes back.
  const v1::TournamentInfo t = WaitOver(referee, "unstarted");
  EXPECT_EQ(t.status(), v1::TOURNAMENT_STATUS_FINISHED);
  EXPECT_EQ(t.games_finished(), 0);
  EXPECT_EQ(t.games_aborted(), 1);
  for (const auto& s : t.standings()) {
    EXPECT_EQ(s.games(), 0) << s.bot();
    EXPECT_EQ(s.forfeits(), 0) << s.bot();
  }
  // No game of the tournament was decided: the one aborted at the restart
  // and the one the grace aborted.
  recorder::ListFilter filter;
  filter.label = "unstarted";
  auto list = referee.server().recorder().List(filter);
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->size(), 2u);
  for (const auto& g : *list) {
    EXPECT_EQ(g.status, recorder::GameStatus::kAborted)
        << g.game_id << " " << g.end_reason;
  }
  ExpectStandingsMatchStatsAndVerify(dir / "t.db", t,
                                     /*aborted_off_schedule=*/1);
}

// An unrelated game's moves, played one after another on a thread of its
// own (GetTurn, then SubmitMove, a fresh game whenever one ends), each
// round trip measured, until Stop().
class UnrelatedMover {
 public:
  explicit UnrelatedMover(TestReferee& referee)
      : referee_(referee), thread_([this] { Loop(); }) {}
  ~UnrelatedMover() { Stop(); }
  // Stops and returns the round trips, ms, sorted.
  std::vector<double> Stop() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
    std::sort(trips_ms_.begin(), trips_ms_.end());
    return trips_ms_;
  }

 private:
  void Loop() {
    v1::Clock long_clock;
    long_clock.set_per_move_ms(60000);
    int seat = 0;
    v1::CreateGameResponse other = referee_.Create("", 2, "", long_clock);
    while (!done_.load() && other.tokens_size() == 2) {
      const std::string& token = other.tokens(seat).token();
      const auto start = std::chrono::steady_clock::now();
      v1::GetTurnRequest req;
      req.set_game_id(other.game_id());
      v1::GetTurnResponse turn;
      grpc::Status s = referee_.stub().GetTurn(
          TestReferee::Context(token, 30000).get(), req, &turn);
      if (!s.ok()) break;
      if (turn.status() != v1::GAME_STATUS_RUNNING) {
        other = referee_.Create("", 2, "", long_clock);  // the next one
        seat = 0;
        continue;
      }
      if (!turn.your_turn()) {
        seat = 1 - seat;
        continue;
      }
      v1::SubmitMoveRequest sub;
      sub.set_game_id(other.game_id());
      sub.set_turn(turn.turn().turn());
      *sub.mutable_move() = turn.turn().legal_moves(0);
      v1::SubmitMoveResponse resp;
      s = referee_.stub().SubmitMove(TestReferee::Context(token).get(), sub,
                                     &resp);
      if (!s.ok()) break;
      trips_ms_.push_back(std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - start)
                              .count());
      seat = 1 - seat;
    }
  }

  TestReferee& referee_;
  std::atomic<bool> done_{false};
  std::vector<double> trips_ms_;  // written by the thread until it joins
  std::thread thread_;
};

// Prints the figures of an UnrelatedMover's round trips; returns the worst.
double ReportTrips(const std::string& what, const std::vector<double>& trips) {
  EXPECT_GT(trips.size(), 10u);
  if (trips.empty()) return 0;
  std::printf(
      "[ figures  ] %s; the other game: %zu moves, median %.1f ms, p99 %.1f "
      "ms, worst %.1f ms\n",
      what.c_str(), trips.size(), trips[trips.size() / 2],
      trips[trips.size() * 99 / 100], trips.back());
  return trips.back();
}

// The bots of a large round robin, registered (never connected): 45 by
// default (1,980 games at 2 per pairing); CASSINO_A8_BOTS=100 gives the
// outside test's 9,900.
std::vector<std::string> ManyBots(TestReferee& referee) {
  const char* bots = std::getenv("CASSINO_A8_BOTS");
  const int n_bots = bots ? std::atoi(bots) : 45;
  std::vector<std::string> names;
  for (int i = 0; i < n_bots; ++i) {
    names.push_back("p" + std::to_string(i));
    Register(referee, names.back());
  }
  return names;
}

// Issue #22, A8: a tournament of thousands of games whose bots are all
// absent: each game is created and aborted at once. While that is worked
// off, an unrelated game's move round trip (GetTurn, then SubmitMove) is
// measured. Returns the worst round trip, ms; prints the figures.
double WorstMoveWhileAbsentTournament(int absent_in_flight) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db", recorder::Durability::kNormal,
                      service::RateLimit(), std::chrono::seconds(60),
                      std::chrono::hours(24), [&](service::ServerOptions& o) {
                        o.absent_games_in_flight = absent_in_flight;
                      });
  const std::vector<std::string> names = ManyBots(referee);
  v1::TournamentSpec spec = Spec("huge", names);
  spec.set_games_per_pairing(2);
  spec.set_grace_ms(1);
  UnrelatedMover mover(referee);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto created = std::chrono::steady_clock::now();
  EXPECT_TRUE(CreateTournament(referee, spec).ok());
  const v1::TournamentInfo t = WaitOver(referee, "huge");
  const double worked_off_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - created)
          .count();
  const std::vector<double> trips = mover.Stop();
  const int games = static_cast<int>(names.size() * (names.size() - 1));
  EXPECT_EQ(t.games_aborted(), games);
  return ReportTrips(absl::StrCat(absent_in_flight, " absent games in flight: ",
                                  games, " absent games worked off in ",
                                  absl::StrFormat("%.1f", worked_off_s), " s"),
                     trips);
}

// The bound: with the default batch (16 in flight), an unrelated move's
// round trip stays under half a second at worst while 1,980 absent games
// are worked off (measured here: 57 ms; all at once, as before: 1.2 s; the
// outside test: 4.4 s with 9,900; CASSINO_A8_BOTS=100 runs that size:
// 188 ms against 2.3 s).
TEST(TournamentPlayTest, AThousandsOfGamesTournamentDoesNotStallOtherGames) {
  EXPECT_LT(
      WorstMoveWhileAbsentTournament(service::Scheduler::kDefaultAbsentBatch),
      WorstLatencyMs(500.0));
}

// The control, as the scheduler was before (every absent game created at
// once): measured and printed, not asserted (it depends on the machine).
TEST(TournamentPlayTest, AbsentGamesAllAtOnceForComparison) {
  WorstMoveWhileAbsentTournament(1 << 20);
}

// Issue #27, part 7: creating a tournament of thousands of games (its
// bots registered but not connected, the grace long, so nothing starts)
// while an unrelated game is played: the creation's write and its answer
// (the whole schedule) must not hold that game's moves up. Returns the
// worst round trip from just before the creation to a second after it.
double WorstMoveWhileCreatingTournament() {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  const std::vector<std::string> names = ManyBots(referee);
  v1::TournamentSpec spec = Spec("big", names);
  spec.set_games_per_pairing(2);
  spec.set_grace_ms(3600 * 1000);
  UnrelatedMover mover(referee);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto before = std::chrono::steady_clock::now();
  v1::TournamentInfo created;
  EXPECT_TRUE(CreateTournament(referee, spec, &created).ok());
  const double answer_ms = std::chrono::duration<double, std::milli>(
                               std::chrono::steady_clock::now() - before)
                               .count();
  const int games = static_cast<int>(names.size() * (names.size() - 1));
  EXPECT_EQ(created.games_size(), games);
  // The organiser polls it meanwhile, as `cassino tournament --follow`.
  EXPECT_EQ(GetTournament(referee, "big").games_pending(), games);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  return ReportTrips(
      absl::StrCat("creating a tournament of ", games, " games (answered in ",
                   absl::StrFormat("%.0f", answer_ms), " ms)"),
      mover.Stop());
}

TEST(TournamentPlayTest, CreatingAThousandsOfGamesTournamentDoesNotStall) {
  EXPECT_LT(WorstMoveWhileCreatingTournament(), WorstLatencyMs(250.0));
}

TEST(TournamentPlayTest, TheGraceCountsAgainFromARestart) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  Register(referee, "u");
  Register(referee, "v");
  v1::TournamentSpec spec = Spec("after", {"u", "v"});
  spec.set_games_per_pairing(1);
  spec.set_grace_ms(2000);
  ASSERT_TRUE(CreateTournament(referee, spec).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  referee.Restart();
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  // More than the grace since the creation, less since the restart.
  v1::TournamentInfo t = GetTournament(referee, "after");
  EXPECT_EQ(t.status(), v1::TOURNAMENT_STATUS_RUNNING);
  EXPECT_EQ(t.games_pending(), 1);
  t = WaitOver(referee, "after");
  EXPECT_EQ(t.status(), v1::TOURNAMENT_STATUS_FINISHED);
  EXPECT_EQ(t.games_aborted(), 1);
  ExpectStandingsMatchStatsAndVerify(dir / "t.db", t);
}

// Issue #14, High 1: the two games of a duplicate pair share a deck with
// the seats swapped, so they are never in play at once, and neither's seed
// shows (GetGame, GameEnded, the record's end event, the export) while the
// other is unfinished.
TEST(TournamentPlayTest, DuplicateTwinsNeverOverlapAndHideTheSharedSeed) {
  const auto dir = TempDir();
  TestReferee referee(dir / "t.db");
  const std::string key_a = Register(referee, "twin-a");
  const std::string key_b = Register(referee, "twin-b");
  v1::TournamentSpec spec = Spec("dup", {"twin-a", "twin-b"});
  spec.set_games_per_pairing(2);
  spec.set_duplicate(true);
  spec.set_max_concurrent_games(4);
  spec.set_seed(kSeed);
  ASSERT_TRUE(CreateTournament(referee, spec).ok());
  // Room for both games on both bots: only the pairing holds the twin back.
  LobbyStream lobby_a(referee.stub(), key_a, 2);
  LobbyStream lobby_b(referee.stub(), key_b, 2);
  const v1::GameOffer first_a = lobby_a.NextOffer();
  const v1::GameOffer first_b = lobby_b.NextOffer();
  const std::string first = first_a.game().game_id();
  ASSERT_EQ(first, first_b.game().game_id());
  // The twin is not offered while the first game runs.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  v1::TournamentInfo t = GetTournament(referee, "dup");
  EXPECT_EQ(t.games_running(), 1);
  EXPECT_EQ(t.games_pending(), 1);

  auto play = [&](const v1::GameOffer& a, const v1::GameOffer& b) {
    std::thread other(
        [&] { PlayUnary(referee.stub(), b.token(), b.game().game_id(), 2); });
    PlayUnary(referee.stub(), a.token(), a.game().game_id(), 1);
    other.join();
  };
  play(first_a, first_b);
  const std::string seed_hex = ToHex(BatchGameSeed(*ParseSeed(kSeed), 0));
  auto exported = [&] {
    std::ostringstream out;
    EXPECT_TRUE(verify::ExportDatabase((dir / "t.db").string(), {},
                                       verify::ExportFormat::kJson, out)
                    .ok());
    return out.str();
  };
  // The first game is over, its twin not yet played: the seed is secret
  // everywhere.
  {
    const v1::GameInfo info = referee.Info(first);
    EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED);
    EXPECT_EQ(info.seed(), "");
    v1::GetTurnRequest req;
    req.set_game_id(first);
    v1::GetTurnResponse turn;
    ASSERT_TRUE(
        referee.stub()
            .GetTurn(TestReferee::Context(first_a.token()).get(), req, &turn)
            .ok());
    EXPECT_TRUE(turn.has_ended());
    EXPECT_EQ(turn.ended().seed(), "");
    absl::StatusOr<recorder::GameRecord> record =
        LoadRecord(dir / "t.db", first);
    ASSERT_TRUE(record.ok());
    EXPECT_EQ(record->events.back().payload.find(seed_hex), std::string::npos)
        << record->events.back().payload;
    EXPECT_EQ(exported().find(seed_hex), std::string::npos);
  }
  const v1::GameOffer second_a = lobby_a.NextOffer();
  const v1::GameOffer second_b = lobby_b.NextOffer();
  ASSERT_NE(second_a.game().game_id(), first);
  // Seats swapped: a plays seat 1 now.
  EXPECT_EQ(second_a.game().seat(), 1 - first_a.game().seat());
  play(second_a, second_b);
  t = WaitOver(referee, "dup");
  EXPECT_EQ(t.games_finished(), 2);
  // Both over: the seed is out, for both games, and the records verify.
  EXPECT_EQ(referee.Info(first).seed(), seed_hex);
  EXPECT_EQ(referee.Info(second_a.game().game_id()).seed(), seed_hex);
  EXPECT_NE(exported().find(seed_hex), std::string::npos);
  const std::vector<Played> played = PlayedGames(referee, "dup");
  EXPECT_EQ(MaxOverlap(played, [](const Played&) { return true; }), 1);
  ExpectStandingsMatchStatsAndVerify(dir / "t.db", t);
  lobby_a.Cancel();
  lobby_b.Cancel();
}

}  // namespace
}  // namespace cassino::testing
