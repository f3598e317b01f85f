// Ladders on the referee (docs/ladder.md): the organiser's calls and their
// refusals, bots joining from the lobby and rated, versions, probation,
// duplicate pairs, a restart, and the leaderboard against `cassino stats
// --ladder` and `cassino verify` over the same database.

#include "tools/stats/ladder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "tests/referee/lobby_client.h"
#include "tests/referee/test_referee.h"
#include "tests/sanitizers.h"
#include "tools/stats/sprt_records.h"
#include "tools/stats/stats.h"
#include "tools/verify/verifier.h"

namespace cassino::testing {
namespace {

using ::grpc::StatusCode;

v1::LadderSpec Spec(const std::string& name) {
  v1::LadderSpec spec;
  spec.set_name(name);
  spec.mutable_clock()->set_per_move_ms(3000);
  return spec;
}

grpc::Status CreateLadder(TestReferee& referee, const v1::LadderSpec& spec,
                          v1::LadderInfo* out = nullptr) {
  v1::CreateLadderRequest req;
  *req.mutable_spec() = spec;
  v1::CreateLadderResponse resp;
  grpc::Status s = referee.stub().CreateLadder(
      TestReferee::Context(kAdminToken).get(), req, &resp);
  if (out != nullptr) *out = resp.ladder();
  return s;
}

v1::LadderInfo GetLadder(TestReferee& referee, const std::string& name) {
  v1::GetLadderRequest req;
  req.set_name(name);
  v1::GetLadderResponse resp;
  grpc::Status s = referee.stub().GetLadder(
      TestReferee::Context(kAdminToken).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.ladder();
}

// Every row of the leaderboard, page by page (`page_size` each), with no
// token at all: the leaderboard is public.
std::vector<v1::LeaderboardEntry> Leaderboard(TestReferee& referee,
                                              const std::string& name,
                                              bool all_versions = false,
                                              int page_size = 0) {
  std::vector<v1::LeaderboardEntry> rows;
  v1::GetLeaderboardRequest req;
  req.set_ladder(name);
  req.set_all_versions(all_versions);
  req.set_page_size(page_size);
  do {
    v1::GetLeaderboardResponse resp;
    grpc::Status s = referee.stub().GetLeaderboard(
        TestReferee::Context("").get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    if (!s.ok()) break;
    rows.insert(rows.end(), resp.entries().begin(), resp.entries().end());
    req.set_page_token(resp.next_page_token());
  } while (!req.page_token().empty());
  return rows;
}

grpc::Status SetStatus(TestReferee& referee, const std::string& name,
                       const std::string& what) {
  auto ctx = TestReferee::Context(kAdminToken);
  if (what == "pause") {
    v1::PauseLadderRequest req;
    req.set_name(name);
    req.set_reason("maintenance");
    v1::PauseLadderResponse resp;
    return referee.stub().PauseLadder(ctx.get(), req, &resp);
  }
  if (what == "resume") {
    v1::ResumeLadderRequest req;
    req.set_name(name);
    v1::ResumeLadderResponse resp;
    return referee.stub().ResumeLadder(ctx.get(), req, &resp);
  }
  v1::CloseLadderRequest req;
  req.set_name(name);
  req.set_reason("season over");
  v1::CloseLadderResponse resp;
  return referee.stub().CloseLadder(ctx.get(), req, &resp);
}

// Waits (at most 60 s) until `done` holds for the ladder.
v1::LadderInfo WaitFor(TestReferee& referee, const std::string& name,
                       const std::function<bool(const v1::LadderInfo&)>& done) {
  return PollUntil<v1::LadderInfo>(
      "ladder " + name, [&] { return GetLadder(referee, name); }, done);
}

// Pauses the ladder and waits until none of its games runs or waits to be
// rated.
void Settle(TestReferee& referee, const std::string& name) {
  ASSERT_TRUE(SetStatus(referee, name, "pause").ok());
  WaitFor(referee, name, [](const v1::LadderInfo& l) {
    return l.games_running() == 0 && l.games_unrated() == 0;
  });
}

// The leaderboard equals `cassino stats --ladder` over the same database,
// row by row and bit by bit; and every game verifies.
void ExpectStatsAgreeAndVerify(TestReferee& referee,
                               const std::filesystem::path& db,
                               const std::string& name) {
  for (const bool all : {false, true}) {
    const std::vector<v1::LeaderboardEntry> board =
        Leaderboard(referee, name, all);
    stats::LadderOptions options;
    options.all_versions = all;
    absl::StatusOr<stats::LadderStats> st =
        stats::ReadLadder({db.string()}, name, options);
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_EQ(st->games_rated, GetLadder(referee, name).games_rated());
    ASSERT_EQ(st->leaderboard.size(), board.size());
    for (size_t i = 0; i < board.size(); ++i) {
      const competition::Standing& s = st->leaderboard[i];
      EXPECT_EQ(s.rank, board[i].rank());
      EXPECT_EQ(s.bot, board[i].bot());
      EXPECT_EQ(s.rating.mu, board[i].mu()) << s.bot;  // exactly
      EXPECT_EQ(s.rating.sigma, board[i].sigma()) << s.bot;
      EXPECT_EQ(s.conservative, board[i].conservative()) << s.bot;
      EXPECT_EQ(s.games, board[i].games()) << s.bot;
      EXPECT_EQ(s.wins, board[i].wins()) << s.bot;
      EXPECT_EQ(s.losses, board[i].losses()) << s.bot;
      EXPECT_EQ(s.draws, board[i].draws()) << s.bot;
      EXPECT_EQ(s.current, board[i].current()) << s.bot;
    }
  }
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

// The ladder's games as the record lists them.
std::vector<recorder::GameSummary> LadderGames(TestReferee& referee,
                                               const std::string& name) {
  recorder::ListFilter filter;
  filter.label = name;
  absl::StatusOr<std::vector<recorder::GameSummary>> list =
      referee.server().recorder().List(filter);
  EXPECT_TRUE(list.ok()) << list.status();
  return list.ok() ? *list : std::vector<recorder::GameSummary>();
}

// ---------------------------------------------------------------------------
// The API.

TEST(LadderApiTest, CreateChecksTheSpecAndReservesTheName) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db");
  v1::LadderSpec bad = Spec("no spaces");
  grpc::Status s = CreateLadder(referee, bad);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("spec.name"), std::string::npos);
  bad = Spec("dup4");
  bad.set_rules("standard players=4 partnerships=on");
  bad.set_duplicate(true);
  s = CreateLadder(referee, bad);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("spec.duplicate"), std::string::npos);
  bad = Spec("slow");
  bad.mutable_settings()->set_period_ms(5);
  s = CreateLadder(referee, bad);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(),
            "spec.settings.period_ms must be 60000 to 604800000 (0 means "
            "3600000); 5 given");

  v1::LadderInfo made;
  ASSERT_TRUE(CreateLadder(referee, Spec("season"), &made).ok());
  EXPECT_EQ(made.status(), v1::LADDER_STATUS_OPEN);
  // Defaults filled in.
  EXPECT_EQ(made.spec().settings().max_concurrent_games(), 16);
  EXPECT_EQ(made.spec().settings().period_ms(), 3600000);
  EXPECT_EQ(made.spec().settings().probation_faults(), 3);
  EXPECT_EQ(made.spec().clock().bank_ms(), 30000);
  s = CreateLadder(referee, Spec("season"));
  EXPECT_EQ(s.error_code(), StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(ReasonOf(s), "LADDER_EXISTS");

  // A tournament may not take the name, nor a ladder a tournament's.
  Register(referee, "a");
  Register(referee, "b");
  {
    v1::CreateTournamentRequest req;
    req.mutable_spec()->set_name("season");
    req.mutable_spec()->add_participants("a");
    req.mutable_spec()->add_participants("b");
    v1::CreateTournamentResponse resp;
    s = referee.stub().CreateTournament(TestReferee::Context(kAdminToken).get(),
                                        req, &resp);
    EXPECT_EQ(s.error_code(), StatusCode::ALREADY_EXISTS) << s.error_message();
    req.mutable_spec()->set_name("cup");
    ASSERT_TRUE(referee.stub()
                    .CreateTournament(TestReferee::Context(kAdminToken).get(),
                                      req, &resp)
                    .ok());
    s = CreateLadder(referee, Spec("cup"));
    EXPECT_EQ(s.error_code(), StatusCode::ALREADY_EXISTS) << s.error_message();
  }
  // An organiser's game may not carry the ladder's name: refused by the
  // ladders' check, and by the recorder's were that one passed.
  ExpectLabelRefused(referee, "season", "ladder");
  // Organiser calls need the admin token; the leaderboard does not.
  {
    v1::GetLadderRequest req;
    req.set_name("season");
    v1::GetLadderResponse resp;
    EXPECT_EQ(referee.stub()
                  .GetLadder(TestReferee::Context("").get(), req, &resp)
                  .error_code(),
              StatusCode::UNAUTHENTICATED);
    req.set_name("nope");
    s = referee.stub().GetLadder(TestReferee::Context(kAdminToken).get(), req,
                                 &resp);
    EXPECT_EQ(s.error_code(), StatusCode::NOT_FOUND);
    EXPECT_EQ(ReasonOf(s), "LADDER_NOT_FOUND");
  }
  EXPECT_TRUE(Leaderboard(referee, "season").empty());
}

TEST(LadderApiTest, PauseResumeCloseAndWhoMayJoin) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db");
  const std::string key = Register(referee, "joiner");
  ASSERT_TRUE(CreateLadder(referee, Spec("l")).ok());
  EXPECT_TRUE(SetStatus(referee, "l", "pause").ok());
  EXPECT_EQ(GetLadder(referee, "l").status(), v1::LADDER_STATUS_PAUSED);
  EXPECT_EQ(GetLadder(referee, "l").reason(), "maintenance");
  grpc::Status s = SetStatus(referee, "l", "pause");
  EXPECT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ReasonOf(s), "LADDER_CLOSED");
  {
    // A bot joining a paused ladder is told so.
    LobbyStream lobby(referee.stub(), key, 1, 5000, "l", "v1");
    v1::LobbyResponse msg;
    ASSERT_TRUE(lobby.Read(&msg));
    EXPECT_TRUE(msg.has_welcome());
    ASSERT_TRUE(lobby.Read(&msg));
    ASSERT_TRUE(msg.has_ladder());
    EXPECT_EQ(msg.ladder().state(), v1::LadderNotice::STATE_PAUSED);
    EXPECT_EQ(msg.ladder().reason(), "maintenance");
    // Resumed: told at once.
    EXPECT_TRUE(SetStatus(referee, "l", "resume").ok());
    ASSERT_TRUE(lobby.Read(&msg));
    ASSERT_TRUE(msg.has_ladder());
    EXPECT_EQ(msg.ladder().state(), v1::LadderNotice::STATE_ACTIVE);
    EXPECT_EQ(GetBot(referee, "joiner").ladder(), "l");
    EXPECT_EQ(GetBot(referee, "joiner").version(), "v1");
  }
  EXPECT_TRUE(SetStatus(referee, "l", "close").ok());
  s = SetStatus(referee, "l", "resume");
  EXPECT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION);
  auto lobby_status = [&](const std::string& ladder,
                          const std::string& version) {
    LobbyStream lobby(referee.stub(), key, 1, 5000, ladder, version);
    v1::LobbyResponse msg;
    while (lobby.Read(&msg)) {
    }
    return lobby.Finish();
  };
  s = lobby_status("l", "v1");
  EXPECT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ReasonOf(s), "LADDER_CLOSED");
  s = lobby_status("nope", "v1");
  EXPECT_EQ(s.error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(ReasonOf(s), "LADDER_NOT_FOUND");
  ASSERT_TRUE(CreateLadder(referee, Spec("m")).ok());
  s = lobby_status("m", "v 1");
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("version"), std::string::npos);
  s = lobby_status("", "v1");
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("ladder"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Play.

// Three bots in the lobby are matched, rated, and nothing else: no bot
// plays itself; the leaderboard pages the same as in one page; stats
// --ladder agrees to the bit; every record verifies.
TEST(LadderPlayTest, BotsInTheLobbyArePlayedAndRated) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db");
  std::vector<std::unique_ptr<LobbyBot>> bots;
  ASSERT_TRUE(CreateLadder(referee, Spec("play")).ok());
  for (const char* name : {"ann", "bob", "cat"}) {
    bots.push_back(std::make_unique<LobbyBot>(
        referee.stub(), Register(referee, name), 2, nullptr, "play", "v1"));
  }
  WaitFor(referee, "play",
          [](const v1::LadderInfo& l) { return l.games_rated() >= 12; });
  Settle(referee, "play");
  for (const auto& game : LadderGames(referee, "play")) {
    ASSERT_EQ(game.accounts.size(), 2u);
    EXPECT_NE(game.accounts[0], game.accounts[1]);
    for (size_t seat = 0; seat < 2; ++seat) {
      EXPECT_EQ(game.bots[seat], game.accounts[seat] + "@v1");
    }
  }
  const std::vector<v1::LeaderboardEntry> board = Leaderboard(referee, "play");
  ASSERT_EQ(board.size(), 3u);
  int games = 0;
  for (const auto& e : board) {
    games += e.games();
    EXPECT_EQ(e.games(), e.wins() + e.losses() + e.draws());
    EXPECT_TRUE(e.connected());
    EXPECT_TRUE(e.current());
    EXPECT_EQ(e.conservative(), e.mu() - 3 * e.sigma());
  }
  EXPECT_EQ(games, 2 * GetLadder(referee, "play").games_rated());
  const std::vector<v1::LeaderboardEntry> paged =
      Leaderboard(referee, "play", false, 1);
  ASSERT_EQ(paged.size(), board.size());
  for (size_t i = 0; i < board.size(); ++i) {
    EXPECT_EQ(paged[i].bot(), board[i].bot());
    EXPECT_EQ(paged[i].rank(), static_cast<int>(i) + 1);
  }
  for (const auto& bot : bots) {
    ASSERT_FALSE(bot->notices().empty());
    EXPECT_EQ(bot->notices()[0].state(), v1::LadderNotice::STATE_ACTIVE);
  }
  ExpectStatsAgreeAndVerify(referee, dir / "l.db", "play");
  for (auto& bot : bots) bot->Stop();
}

// Partnerships: four bots at a table in two teams of two, partners across
// it; every game seats four accounts, the teams rated as teams (both
// partners move together), and stats agree.
TEST(LadderPlayTest, PartnershipTablesAreRatedAsTeams) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db");
  v1::LadderSpec spec = Spec("pairs");
  spec.set_rules("standard players=4 partnerships=on");
  ASSERT_TRUE(CreateLadder(referee, spec).ok());
  std::vector<std::unique_ptr<LobbyBot>> bots;
  for (const char* name : {"n", "e", "s", "w"}) {
    bots.push_back(std::make_unique<LobbyBot>(
        referee.stub(), Register(referee, name), 1, nullptr, "pairs", "1"));
  }
  WaitFor(referee, "pairs",
          [](const v1::LadderInfo& l) { return l.games_rated() >= 3; });
  Settle(referee, "pairs");
  for (const auto& g : LadderGames(referee, "pairs")) {
    ASSERT_EQ(g.accounts.size(), 4u);
    EXPECT_EQ(
        std::set<std::string>(g.accounts.begin(), g.accounts.end()).size(), 4u);
  }
  const auto board = Leaderboard(referee, "pairs");
  ASSERT_EQ(board.size(), 4u);
  for (const auto& e : board) {
    EXPECT_EQ(e.games(), GetLadder(referee, "pairs").games_rated()) << e.bot();
  }
  ExpectStatsAgreeAndVerify(referee, dir / "l.db", "pairs");
  for (auto& bot : bots) bot->Stop();
}

// A bot that publishes a new version is rated afresh; the old version's
// rating and games are kept and listed with every version.
TEST(LadderPlayTest, ANewVersionStartsFromScratchAndTheOldIsKept) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db");
  ASSERT_TRUE(CreateLadder(referee, Spec("ver")).ok());
  const std::string key = Register(referee, "dev");
  auto other = std::make_unique<LobbyBot>(
      referee.stub(), Register(referee, "ref"), 2, nullptr, "ver", "1");
  auto dev = std::make_unique<LobbyBot>(referee.stub(), key, 2, nullptr, "ver",
                                        "alpha");
  WaitFor(referee, "ver",
          [](const v1::LadderInfo& l) { return l.games_rated() >= 4; });
  dev.reset();  // the author stops it and starts the new version
  const int64_t before = GetLadder(referee, "ver").games_rated();
  dev = std::make_unique<LobbyBot>(referee.stub(), key, 2, nullptr, "ver",
                                   "beta");
  WaitFor(referee, "ver", [&](const v1::LadderInfo& l) {
    return l.games_rated() >= before + 4 && l.versions() == 3;
  });
  Settle(referee, "ver");
  const auto current = Leaderboard(referee, "ver");
  ASSERT_EQ(current.size(), 2u);
  std::set<std::string> names;
  for (const auto& e : current) names.insert(e.bot());
  EXPECT_EQ(names, (std::set<std::string>{"dev@beta", "ref@1"}));
  const auto all = Leaderboard(referee, "ver", true);
  ASSERT_EQ(all.size(), 3u);
  for (const auto& e : all) {
    EXPECT_EQ(e.current(), e.bot() != "dev@alpha") << e.bot();
    if (e.bot() == "dev@alpha") {
      EXPECT_GE(e.games(), 4);
    }
  }
  ExpectStatsAgreeAndVerify(referee, dir / "l.db", "ver");
}

// --max-ladder-versions bounds the versions (rows, rated bots) one account
// can make the referee hold in a ladder.
TEST(LadderPlayTest, TheVersionsOfAnAccountAreBounded) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db", [](service::ServerOptions& o) {
    o.ladders.max_versions_per_account = 2;
  });
  ASSERT_TRUE(CreateLadder(referee, Spec("bound")).ok());
  const std::string key = Register(referee, "many");
  for (const char* version : {"1", "2"}) {
    LobbyStream lobby(referee.stub(), key, 1, 5000, "bound", version);
    v1::LobbyResponse msg;
    ASSERT_TRUE(lobby.Read(&msg));
    // Joined: the version is recorded by the next pass.
    WaitFor(referee, "bound", [&](const v1::LadderInfo& l) {
      return l.versions() == std::atoi(version);
    });
  }
  LobbyStream third(referee.stub(), key, 1, 5000, "bound", "3");
  v1::LobbyResponse msg;
  while (third.Read(&msg)) {
  }
  const grpc::Status s = third.Finish();
  EXPECT_EQ(s.error_code(), StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(ReasonOf(s), "LIMIT_REACHED");
  // A known version still joins.
  LobbyStream again(referee.stub(), key, 1, 5000, "bound", "1");
  ASSERT_TRUE(again.Read(&msg));
  EXPECT_TRUE(msg.has_welcome());
}

// A bot that takes its offers but never opens its seats forfeits them
// (its opponents were there) and, after probation_faults games in a row,
// is put on probation: told why on its lobby stream, shown in the
// leaderboard, offered no game until it is back (a new stream) after the
// probation's time; a second probation lasts twice the first.
TEST(LadderPlayTest, ABotThatNeverComesToItsSeatsIsPutOnProbation) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db");
  v1::LadderSpec spec = Spec("health");
  spec.mutable_clock()->set_per_move_ms(400);
  spec.mutable_clock()->set_bank_ms(0);
  spec.mutable_settings()->set_probation_faults(2);
  spec.mutable_settings()->set_probation_ms(1500);
  ASSERT_TRUE(CreateLadder(referee, spec).ok());
  auto good = std::make_unique<LobbyBot>(
      referee.stub(), Register(referee, "good"), 2, nullptr, "health", "1");
  const std::string ghost_key = Register(referee, "ghost");
  auto ghost = std::make_unique<LobbyStream>(referee.stub(), ghost_key, 2,
                                             60000, "health", "1");
  // The ghost reads its lobby, and never plays.
  v1::LadderNotice probation;
  int offers = 0;
  v1::LobbyResponse msg;
  while (ghost->Read(&msg)) {
    if (msg.has_offer()) ++offers;
    if (msg.has_ladder() &&
        msg.ladder().state() == v1::LadderNotice::STATE_PROBATION) {
      probation = msg.ladder();
      break;
    }
  }
  EXPECT_GE(offers, 2);
  EXPECT_NE(probation.reason().find("2 games in a row ended by its fault"),
            std::string::npos)
      << probation.reason();
  EXPECT_NE(probation.reason().find("never connected to game"),
            std::string::npos)
      << probation.reason();
  EXPECT_GT(probation.until_unix_ms(), 0);
  EXPECT_NE(probation.reason().find("after 1 s of probation"),
            std::string::npos)
      << probation.reason();
  const auto board = Leaderboard(referee, "health");
  bool shown = false;
  for (const auto& e : board) {
    if (e.account() != "ghost") continue;
    shown = true;
    EXPECT_TRUE(e.on_probation());
    EXPECT_EQ(e.probation_reason(), probation.reason());
    EXPECT_EQ(e.losses(), e.games());  // it forfeited each
  }
  EXPECT_TRUE(shown);
  EXPECT_EQ(GetLadder(referee, "health").on_probation(), 1);
  // No offer while on probation (its pending games end, none is added).
  ghost->Cancel();
  ghost.reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  // Back after the probation: released (ACTIVE), and offered games again.
  LobbyStream back(referee.stub(), ghost_key, 1, 60000, "health", "1");
  bool active = false, offered = false;
  while (!(active && offered) && back.Read(&msg)) {
    active |= msg.has_ladder() &&
              msg.ladder().state() == v1::LadderNotice::STATE_ACTIVE;
    offered |= msg.has_offer() && !msg.offer().reoffer();
  }
  EXPECT_TRUE(active);
  EXPECT_TRUE(offered);
  EXPECT_EQ(GetLadder(referee, "health").on_probation(), 0);
  // Still never playing: a second probation, twice as long as the first
  // (1.5 s, then 3 s), with its own faults in the reason.
  v1::LadderNotice again;
  while (back.Read(&msg)) {
    if (msg.has_ladder() &&
        msg.ladder().state() == v1::LadderNotice::STATE_PROBATION) {
      again = msg.ladder();
      break;
    }
  }
  EXPECT_NE(again.reason().find("2 games in a row ended by its fault"),
            std::string::npos)
      << again.reason();
  EXPECT_NE(again.reason().find("after 3 s of probation"), std::string::npos)
      << again.reason();
  EXPECT_NE(again.reason(), probation.reason());  // other games named
  EXPECT_EQ(GetLadder(referee, "health").on_probation(), 1);
}

// Faults are counted across a restart (they are recorded); the games of
// those before it are no longer named, and the reason says so.
TEST(LadderPlayTest, FaultsBeforeARestartCountAndTheReasonSaysSo) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db");
  v1::LadderSpec spec = Spec("mend");
  spec.mutable_clock()->set_per_move_ms(400);
  spec.mutable_clock()->set_bank_ms(0);
  spec.mutable_settings()->set_probation_faults(2);
  spec.mutable_settings()->set_probation_ms(60000);
  ASSERT_TRUE(CreateLadder(referee, spec).ok());
  const std::string good_key = Register(referee, "good");
  const std::string ghost_key = Register(referee, "ghost");
  v1::LobbyResponse msg;
  {
    LobbyBot good(referee.stub(), good_key, 2, nullptr, "mend", "1");
    // One offer, never taken up (capacity 1: no other at once); then no
    // new game.
    LobbyStream ghost(referee.stub(), ghost_key, 1, 60000, "mend", "1");
    while (ghost.Read(&msg) && !msg.has_offer()) {
    }
    ASSERT_TRUE(msg.has_offer());
    Settle(referee, "mend");
    ghost.Cancel();
    good.Stop();
  }
  for (const auto& e : Leaderboard(referee, "mend")) {
    if (e.account() == "ghost") {
      EXPECT_EQ(e.losses(), 1);
    }
  }
  referee.Restart();
  ASSERT_TRUE(SetStatus(referee, "mend", "resume").ok());
  LobbyBot good(referee.stub(), good_key, 2, nullptr, "mend", "1");
  LobbyStream ghost(referee.stub(), ghost_key, 1, 60000, "mend", "1");
  v1::LadderNotice probation;
  while (ghost.Read(&msg)) {
    if (msg.has_ladder() &&
        msg.ladder().state() == v1::LadderNotice::STATE_PROBATION) {
      probation = msg.ladder();
      break;
    }
  }
  // The second fault, the first after the restart, is enough.
  EXPECT_NE(probation.reason().find("2 games in a row ended by its fault: "
                                    "never connected to game "),
            std::string::npos)
      << probation.reason();
  EXPECT_NE(
      probation.reason().find("; 1 earlier, before the referee restarted."),
      std::string::npos)
      << probation.reason();
  Settle(referee, "mend");
  for (const auto& e : Leaderboard(referee, "mend")) {
    if (e.account() == "ghost") {
      EXPECT_EQ(e.losses(), 2);
    }
  }
  good.Stop();
}

// Duplicate: a match is two games dealt from one seed with the seats
// swapped, the second created after the first has ended; stats and the
// leaderboard agree.
TEST(LadderPlayTest, DuplicatePairsShareADealWithTheSeatsSwapped) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db");
  v1::LadderSpec spec = Spec("dup");
  spec.set_duplicate(true);
  ASSERT_TRUE(CreateLadder(referee, spec).ok());
  LobbyBot x(referee.stub(), Register(referee, "x"), 2, nullptr, "dup", "1");
  LobbyBot y(referee.stub(), Register(referee, "y"), 2, nullptr, "dup", "1");
  WaitFor(referee, "dup",
          [](const v1::LadderInfo& l) { return l.games_rated() >= 6; });
  Settle(referee, "dup");
  std::map<std::string, std::vector<recorder::GameSummary>> by_deal;
  for (const auto& g : LadderGames(referee, "dup")) {
    absl::StatusOr<recorder::GameRecord> r =
        referee.server().recorder().Load(g.game_id);
    ASSERT_TRUE(r.ok());
    by_deal[r->header.commitment].push_back(g);
  }
  int pairs = 0, finished_pairs = 0;
  for (auto& [commitment, games] : by_deal) {
    ASSERT_LE(games.size(), 2u) << commitment;
    if (games.size() < 2) continue;  // a pair whose second was not due yet
    ++pairs;
    finished_pairs += games[0].status == recorder::GameStatus::kFinished &&
                      games[1].status == recorder::GameStatus::kFinished;
    std::sort(games.begin(), games.end(), [](const auto& a, const auto& b) {
      return a.created_us < b.created_us;
    });
    EXPECT_EQ(games[0].bots[0], games[1].bots[1]);
    EXPECT_EQ(games[0].bots[1], games[1].bots[0]);
    // One after the other.
    EXPECT_GE(games[1].created_us, games[0].finished_us);
  }
  EXPECT_GE(pairs, 3);
  // `cassino stats` finds the same pairs, so its SPRT between the two is
  // pentanomial over them.
  stats::Filter filter;
  filter.tournament = "dup";
  absl::StatusOr<stats::Stats> read =
      stats::ReadStats((dir / "l.db").string(), filter);
  ASSERT_TRUE(read.ok()) << read.status();
  absl::StatusOr<competition::SprtResult> sprt =
      stats::SprtFromStats(*read, "x@1", "y@1", competition::SprtParams{});
  ASSERT_TRUE(sprt.ok()) << sprt.status();
  EXPECT_TRUE(sprt->pentanomial);
  EXPECT_EQ(sprt->pair_count, finished_pairs);
  EXPECT_GE(finished_pairs, 3);
  ExpectStatsAgreeAndVerify(referee, dir / "l.db", "dup");
  x.Stop();
  y.Stop();
}

// The second game of a duplicate pair waits for both bots; one that does
// not come back within --ladder-twin-wait-ms is given up: its row goes, and
// the first game's seed, secret while the twin was due, is shown.
TEST(LadderPlayTest, ATwinWhoseBotDoesNotComeBackIsGivenUp) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db", [](service::ServerOptions& o) {
    o.ladders.twin_wait = std::chrono::milliseconds(1500);
  });
  v1::LadderSpec spec = Spec("twins");
  spec.set_duplicate(true);
  ASSERT_TRUE(CreateLadder(referee, spec).ok());
  LobbyBot stays(referee.stub(), Register(referee, "stays"), 1, nullptr,
                 "twins", "1");
  v1::GameOffer offer;
  {
    // It takes its first game, then leaves the ladder and plays it out.
    LobbyStream leaves(referee.stub(), Register(referee, "leaves"), 1, 60000,
                       "twins", "1");
    offer = leaves.NextOffer();
  }
  const std::string first = offer.game().game_id();
  PlayUnary(referee.stub(), offer.token(), first, 5);
  // Ended, its twin due (not created: "leaves" is gone): the seed is secret.
  EXPECT_EQ(referee.Info(first).status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(referee.Info(first).seed(), "");
  absl::StatusOr<std::vector<recorder::LadderGameRow>> rows =
      referee.server().recorder().LadderGames("twins");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  const std::string twin =
      (*rows)[0].twin_of.empty() ? (*rows)[1].game_id : (*rows)[0].game_id;
  // Given up after the wait.
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < until &&
         referee.server().recorder().LadderGames("twins")->size() == 2) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  rows = referee.server().recorder().LadderGames("twins");
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].game_id, first);
  EXPECT_NE(referee.Info(first).seed(), "");
  {
    v1::GetGameRequest req;
    req.set_game_id(twin);
    v1::GetGameResponse resp;
    EXPECT_EQ(referee.stub()
                  .GetGame(TestReferee::Context(kAdminToken).get(), req, &resp)
                  .error_code(),
              StatusCode::NOT_FOUND);
  }
  stays.Stop();
}

// A restart rebuilds the ladder from the records: the same leaderboard to
// the bit, the same status, and matchmaking going on.
TEST(LadderPlayTest, ARestartRebuildsTheSameLeaderboard) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db");
  ASSERT_TRUE(CreateLadder(referee, Spec("again")).ok());
  const std::string ka = Register(referee, "a"), kb = Register(referee, "b");
  {
    LobbyBot a(referee.stub(), ka, 2, nullptr, "again", "1");
    LobbyBot b(referee.stub(), kb, 2, nullptr, "again", "1");
    WaitFor(referee, "again",
            [](const v1::LadderInfo& l) { return l.games_rated() >= 6; });
    Settle(referee, "again");
  }
  const auto before = Leaderboard(referee, "again", true);
  const int64_t rated = GetLadder(referee, "again").games_rated();
  referee.Restart();
  EXPECT_EQ(GetLadder(referee, "again").status(), v1::LADDER_STATUS_PAUSED);
  EXPECT_EQ(GetLadder(referee, "again").games_rated(), rated);
  const auto after = Leaderboard(referee, "again", true);
  ASSERT_EQ(after.size(), before.size());
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(after[i].bot(), before[i].bot());
    EXPECT_EQ(after[i].mu(), before[i].mu());
    EXPECT_EQ(after[i].sigma(), before[i].sigma());
    EXPECT_EQ(after[i].games(), before[i].games());
  }
  ASSERT_TRUE(SetStatus(referee, "again", "resume").ok());
  LobbyBot a(referee.stub(), ka, 2, nullptr, "again", "1");
  LobbyBot b(referee.stub(), kb, 2, nullptr, "again", "1");
  WaitFor(referee, "again", [&](const v1::LadderInfo& l) {
    return l.games_rated() >= rated + 2;
  });
  Settle(referee, "again");
  ExpectStatsAgreeAndVerify(referee, dir / "l.db", "again");
}

// ---------------------------------------------------------------------------
// Bounds.

// Hundreds of bots in a ladder at once, playing: every bound a bot or the
// organiser could push holds, each with its named option: the ladder's
// games at once (max_concurrent_games), each bot's (max_games_per_bot, below
// its lobby capacity), the games being created at once
// (--ladder-games-in-flight), the ladders (--max-ladders); and a
// matchmaking pass over hundreds of members stays cheap (its cost printed
// and bounded). (The versions' bound has its own test above.)
TEST(LadderLoadTest, HundredsOfBotsAreBounded) {
  const int kBots = kSanitized ? 60 : 200;
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db", [](service::ServerOptions& o) {
    o.ladders.max_creating = 6;
    o.ladders.max_ladders = 2;
  });
  v1::LadderSpec spec = Spec("crowd");
  spec.mutable_settings()->set_max_concurrent_games(24);
  spec.mutable_settings()->set_max_games_per_bot(2);
  spec.mutable_settings()->set_max_pair_games(1000);
  ASSERT_TRUE(CreateLadder(referee, spec).ok());
  v1::LadderSpec second = Spec("second");
  second.mutable_settings()->set_max_games_per_bot(1);
  ASSERT_TRUE(CreateLadder(referee, second).ok());
  const grpc::Status third = CreateLadder(referee, Spec("third"));
  EXPECT_EQ(third.error_code(), StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(ReasonOf(third), "LIMIT_REACHED");

  std::vector<std::unique_ptr<LobbyBot>> bots;
  for (int i = 0; i < kBots; ++i) {
    // Capacity 3, above the ladder's two games per bot.
    bots.push_back(std::make_unique<LobbyBot>(
        referee.stub(), Register(referee, "b" + std::to_string(i)), 3, nullptr,
        "crowd", "1"));
  }
  WaitFor(referee, "crowd",
          [&](const v1::LadderInfo& l) { return l.bots_connected() == kBots; });
  // While they play: sample the ladder's running games, for 4 s and until
  // 20 games are rated (slower under a sanitizer; at most a minute).
  int most = 0, most_per_bot = 0;
  const auto began = std::chrono::steady_clock::now();
  const auto until = began + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < until) {
    const v1::LadderInfo l = GetLadder(referee, "crowd");
    if (l.games_rated() > 20 &&
        std::chrono::steady_clock::now() - began > std::chrono::seconds(4)) {
      break;
    }
    most = std::max(most, l.games_running());
    std::map<std::string, int> per_bot;
    for (const auto& g : LadderGames(referee, "crowd")) {
      if (g.status != recorder::GameStatus::kRunning) continue;
      for (const std::string& a : g.accounts) {
        most_per_bot = std::max(most_per_bot, ++per_bot[a]);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const service::Ladders::PassStats stats =
      referee.server().ladders().pass_stats();
  const int64_t rated = GetLadder(referee, "crowd").games_rated();
  std::printf(
      "[ figures  ] %d bots: %lld games rated in %.1f s, at most %d running "
      "(bound 24), %d per bot (bound 2), %d being created (bound 6); %lld "
      "passes, mean %.2f ms, worst %.2f ms\n",
      kBots, static_cast<long long>(rated),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began)
          .count(),
      most, most_per_bot, stats.max_creating,
      static_cast<long long>(stats.passes),
      stats.passes ? stats.total_us / 1000.0 / stats.passes : 0.0,
      stats.max_us / 1000.0);
  EXPECT_LE(most, 24);
  EXPECT_GE(most, 12);  // (it did fill up)
  EXPECT_LE(most_per_bot, 2);
  EXPECT_LE(stats.max_creating, 6);
  EXPECT_GT(rated, 20);
  EXPECT_LT(stats.max_us / 1000.0, WorstLatencyMs(250.0));
  for (auto& bot : bots) bot->Stop();
  bots.clear();

  // One game per bot in the second ladder, though each could play three.
  for (int i = 0; i < 4; ++i) {
    bots.push_back(std::make_unique<LobbyBot>(
        referee.stub(), Register(referee, "s" + std::to_string(i)), 3, nullptr,
        "second", "1"));
  }
  int most_second = 0;
  most_per_bot = 0;
  const auto until2 =
      std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < until2) {
    std::map<std::string, int> per_bot;
    int running = 0;
    for (const auto& g : LadderGames(referee, "second")) {
      if (g.status != recorder::GameStatus::kRunning) continue;
      ++running;
      for (const std::string& a : g.accounts) {
        most_per_bot = std::max(most_per_bot, ++per_bot[a]);
      }
    }
    most_second = std::max(most_second, running);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(most_per_bot, 1);
  EXPECT_EQ(most_second, 2);
  for (auto& bot : bots) bot->Stop();
}

}  // namespace
}  // namespace cassino::testing
