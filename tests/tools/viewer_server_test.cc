// `cassino serve`'s HTTP layer (tools/viewer/server.h): routes, status
// codes, security headers, embedded assets. The pages themselves are tested
// in a browser (tests/viewer).

#include <httplib.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "recorder/recorder.h"
#include "tests/tools/record_fixture.h"
#include "tools/stats/ladder.h"
#include "tools/viewer/ladder_view.h"
#include "tools/viewer/page.h"
#include "tools/viewer/server.h"
#include "tools/viewer/viewer.h"

namespace cassino {
namespace {

using ::nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class ViewerServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           absl::StrCat("viewer_server_test_", getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    const std::string path = (dir_ / "games.db").string();
    {
      auto rec = recorder::Recorder::Open(path, recorder::Durability::kNormal);
      ASSERT_TRUE(rec.ok());
      ASSERT_TRUE(tools_testing::WriteGame(
                      **rec, tools_testing::PlayFixtureGame("g1", {}))
                      .ok());
    }
    auto viewer = viewer::Viewer::Open({path});
    ASSERT_TRUE(viewer.ok()) << viewer.status();
    auto server = viewer::ViewerServer::Start(
        std::shared_ptr<const viewer::Viewer>(*std::move(viewer)), "127.0.0.1",
        0);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
  }
  void TearDown() override {
    server_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::filesystem::path dir_;
  std::unique_ptr<viewer::ViewerServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(ViewerServerTest, PagesCarryTheSecurityHeaders) {
  for (const char* path : {"/", "/live", "/game/g1", "/tournament/fixture"}) {
    auto res = client_->Get(path);
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 200) << path;
    EXPECT_EQ(res->get_header_value("Content-Security-Policy"),
              viewer::kServedCsp);
    EXPECT_EQ(res->get_header_value("X-Content-Type-Options"), "nosniff");
    EXPECT_THAT(res->body, HasSubstr("/assets/app.js"));
    // No inline script: the policy would block it.
    EXPECT_THAT(res->body, Not(HasSubstr("<script>")));
  }
  auto js = client_->Get("/assets/app.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->status, 200);
  EXPECT_THAT(js->get_header_value("Content-Type"), HasSubstr("javascript"));
  EXPECT_THAT(js->body, HasSubstr("function gameView"));
  EXPECT_EQ(client_->Get("/assets/nope.js")->status, 404);
}

TEST_F(ViewerServerTest, JsonEndpoints) {
  auto list = client_->Get("/api/games?status=finished");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->status, 200);
  EXPECT_EQ(list->get_header_value("Cache-Control"), "no-store");
  EXPECT_EQ(json::parse(list->body)["games"][0]["game_id"], "g1");
  auto game = client_->Get("/api/games/g1");
  ASSERT_TRUE(game);
  EXPECT_EQ(json::parse(game->body)["view"], "omniscient");
  EXPECT_EQ(json::parse(client_->Get("/api/games/g1/head")->body)["status"],
            "finished");
  auto t = client_->Get("/api/tournaments/fixture");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->status, 200);
  EXPECT_EQ(json::parse(t->body)["format"], "label");
  auto svg = client_->Get("/api/tournaments/fixture/ratings.svg");
  ASSERT_TRUE(svg);
  EXPECT_EQ(svg->get_header_value("Content-Type"), "image/svg+xml");
  EXPECT_THAT(svg->body, HasSubstr("<svg xmlns="));
}

TEST_F(ViewerServerTest, ErrorsAreJson) {
  auto missing = client_->Get("/api/games/nope");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(json::parse(missing->body)["error"], "no game nope");
  auto bad = client_->Get("/api/games?limit=0");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_THAT(json::parse(bad->body)["error"].get<std::string>(),
              HasSubstr("limit"));
  auto nowhere = client_->Get("/nowhere");
  ASSERT_TRUE(nowhere);
  EXPECT_EQ(nowhere->status, 404);
  EXPECT_TRUE(json::parse(nowhere->body).contains("error"));
  // Read-only: nothing but GET.
  auto post = client_->Post("/api/games", "x", "text/plain");
  ASSERT_TRUE(post);
  EXPECT_GE(post->status, 400);
}

// A version's rating history on the ladder page is at most
// kMaxHistoryPoints points however many games it played: all of a short
// one, else the first, the last and evenly spaced ones between.
TEST(LadderChartTest, AHistoryIsThinnedToABoundKeepingItsEnds) {
  using viewer::KeptHistoryPoints;
  EXPECT_TRUE(KeptHistoryPoints(0, 400).empty());
  EXPECT_EQ(KeptHistoryPoints(3, 400), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(KeptHistoryPoints(400, 400).size(), 400u);
  EXPECT_EQ(KeptHistoryPoints(10, 4), (std::vector<size_t>{0, 3, 6, 9}));
  EXPECT_EQ(KeptHistoryPoints(7, 3), (std::vector<size_t>{0, 3, 6}));
  for (const size_t n : {401u, 1000u, 123457u}) {
    const std::vector<size_t> kept =
        KeptHistoryPoints(n, viewer::kMaxHistoryPoints);
    ASSERT_EQ(kept.size(), viewer::kMaxHistoryPoints) << n;
    EXPECT_EQ(kept.front(), 0u);
    EXPECT_EQ(kept.back(), n - 1);
    const double step = static_cast<double>(n - 1) /
                        static_cast<double>(viewer::kMaxHistoryPoints - 1);
    for (size_t i = 1; i < kept.size(); ++i) {
      EXPECT_GT(kept[i], kept[i - 1]) << n << " at " << i;
      EXPECT_LE(static_cast<double>(kept[i] - kept[i - 1]), step + 1) << n;
    }
  }
}

// The ladder page (ladder_view.h): /ladders and /ladder/NAME are pages
// with the ladder script; /api/ladders/NAME answers the leaderboard that
// `cassino stats --ladder` computes from the same records (the same code),
// every version's history, the recent games and the pairs.
TEST_F(ViewerServerTest, TheLadderPageShowsTheLaddersRecords) {
  const std::string path = (dir_ / "games.db").string();
  {
    auto rec = recorder::Recorder::Open(path, recorder::Durability::kNormal);
    ASSERT_TRUE(rec.ok());
    auto wait = [](auto call) {
      std::promise<absl::Status> done;
      call([&](absl::Status s) { done.set_value(s); });
      return done.get_future().get();
    };
    recorder::LadderRow ladder;
    ladder.name = "lad";
    ladder.rules = "players=2";
    ladder.created_us = ladder.changed_us = 1;
    ASSERT_TRUE(wait([&](auto cb) { (*rec)->InsertLadder(ladder, cb); }).ok());
    const std::vector<std::pair<std::string, std::string>> games = {
        {"x@1", "y@1"}, {"y@1", "z@1"}, {"z@1", "x@1"}, {"x@1", "y@2"}};
    for (size_t i = 0; i < games.size(); ++i) {
      tools_testing::FixtureOptions options;
      options.seed_index = static_cast<uint32_t>(10 + i);
      tools_testing::FixtureGame g =
          tools_testing::PlayFixtureGame(absl::StrCat("l", i), options);
      g.header.label = "lad";
      g.header.seats[0].bot_name = games[i].first;
      g.header.seats[1].bot_name = games[i].second;
      ASSERT_TRUE(
          wait([&](auto cb) {
            (*rec)->InsertLadderGames({{"lad", g.header.game_id, 1, ""}}, cb);
          }).ok());
      ASSERT_TRUE(tools_testing::WriteGame(**rec, g).ok());
    }
  }
  for (const char* page : {"/ladders", "/ladder/lad"}) {
    auto res = client_->Get(page);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_THAT(res->body, HasSubstr("/assets/ladder.js"));
  }
  auto js = client_->Get("/assets/ladder.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->status, 200);
  EXPECT_THAT(js->body, HasSubstr("window.cassinoPages"));
  auto list = client_->Get("/api/ladders");
  ASSERT_TRUE(list);
  EXPECT_EQ(json::parse(list->body)["ladders"][0]["name"], "lad");
  EXPECT_EQ(json::parse(list->body)["ladders"][0]["versions"], 4);
  auto res = client_->Get("/api/ladders/lad");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);
  const json l = json::parse(res->body);
  stats::LadderOptions options;
  options.all_versions = true;
  absl::StatusOr<stats::LadderStats> st =
      stats::ReadLadder({path}, "lad", options);
  ASSERT_TRUE(st.ok()) << st.status();
  ASSERT_EQ(l["leaderboard"].size(), 4u);
  ASSERT_EQ(st->leaderboard.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    const json& e = l["leaderboard"][i];
    EXPECT_EQ(e["bot"], st->leaderboard[i].bot);
    EXPECT_EQ(e["mu"].get<double>(), st->leaderboard[i].rating.mu);
    EXPECT_EQ(e["sigma"].get<double>(), st->leaderboard[i].rating.sigma);
    EXPECT_EQ(e["games"], st->leaderboard[i].games);
    EXPECT_EQ(e["provisional"], true);
    // Its history has one point per game.
    EXPECT_EQ(l["history"][e["bot"].get<std::string>()].size(),
              static_cast<size_t>(st->leaderboard[i].games));
  }
  EXPECT_EQ(l["games_rated"], 4);
  EXPECT_EQ(l["recent"].size(), 4u);
  EXPECT_EQ(l["recent"][0]["game_id"], "l3");  // newest first
  EXPECT_EQ(l["pairs"].size(), 4u);
  EXPECT_EQ(client_->Get("/api/ladders/nope")->status, 404);
}

TEST(ParseListenTest, HostAndPort) {
  std::string host;
  int port = 0;
  ASSERT_TRUE(viewer::ParseListen("127.0.0.1:8080", &host, &port).ok());
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, 8080);
  ASSERT_TRUE(viewer::ParseListen("[::1]:0", &host, &port).ok());
  EXPECT_EQ(host, "::1");
  EXPECT_EQ(port, 0);
  EXPECT_FALSE(viewer::ParseListen("8080", &host, &port).ok());
  EXPECT_FALSE(viewer::ParseListen("h:99999", &host, &port).ok());
}

}  // namespace
}  // namespace cassino
