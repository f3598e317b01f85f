// The registry as the core: games created from a GameSpec, read back and
// listed, with no server, no gRPC and no cassino.v1 message in between.

#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "referee/deadline_timer.h"
#include "referee/errors.h"
#include "referee/game_spec.h"
#include "referee/lobby.h"
#include "referee/registry.h"

namespace cassino::service {
namespace {

constexpr char kAdmin[] = "core-admin-token";
constexpr char kSeed[] =
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
// SHA-256 of kSeed's 32 bytes.
constexpr char kCommitment[] =
    "4773d12e2371bb935b9a0f5439b4a1c3ad3f2414b86980f8418d1cfabdfadfef";
constexpr auto kWait = std::chrono::seconds(10);

// The single bad field an error names: (path, description).
std::vector<std::pair<std::string, std::string>> FieldsOf(
    const absl::Status& status) {
  return DetailsOf(status).fields;
}

class RegistryCoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("cassino_core_") + info->name() + "_" +
            std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
    absl::StatusOr<std::unique_ptr<recorder::Recorder>> recorder =
        recorder::Recorder::Open((dir_ / "games.db").string(),
                                 recorder::Durability::kNormal);
    ASSERT_TRUE(recorder.ok()) << recorder.status();
    recorder_ = *std::move(recorder);
    timer_ = std::make_unique<DeadlineTimer>(DeadlineTimer::kManualTime);
    registry_ =
        std::make_unique<Registry>(recorder_.get(), timer_.get(), kAdmin);
    absl::StatusOr<Registry::Resumed> resumed = registry_->ResumeAll();
    ASSERT_TRUE(resumed.ok()) << resumed.status();
    ASSERT_EQ(resumed->games, 0);
  }

  void TearDown() override {
    // As the server stops: the clocks first, then the games.
    timer_->Stop();
    registry_->Stop();
    registry_.reset();
    timer_.reset();
    recorder_.reset();
    std::filesystem::remove_all(dir_);
  }

  // CreateGame, waited for.
  absl::StatusOr<CreatedGame> Create(const GameSpec& spec,
                                     const CreateOptions& options = {}) {
    auto promise =
        std::make_shared<std::promise<absl::StatusOr<CreatedGame>>>();
    std::future<absl::StatusOr<CreatedGame>> future = promise->get_future();
    registry_->CreateGame(
        spec,
        [promise](absl::StatusOr<CreatedGame> created) {
          promise->set_value(std::move(created));
        },
        options);
    if (future.wait_for(kWait) != std::future_status::ready) {
      return absl::DeadlineExceededError("CreateGame never answered");
    }
    return future.get();
  }

  // Registers a bot account, waited for.
  absl::Status RegisterBot(const std::string& name) {
    std::promise<absl::Status> promise;
    std::future<absl::Status> future = promise.get_future();
    registry_->lobby().Register(
        {name, "owner", "contact"},
        [&promise](absl::StatusOr<AccountChange> change) {
          promise.set_value(change.status());
        });
    if (future.wait_for(kWait) != std::future_status::ready) {
      return absl::DeadlineExceededError("Register never answered");
    }
    return future.get();
  }

  // Two seats by token, the given seed.
  static GameSpec TwoSeats(const std::string& label = "") {
    GameSpec spec;
    spec.seats = {{"north", ""}, {"south", ""}};
    spec.seed = kSeed;
    spec.label = label;
    return spec;
  }

  std::filesystem::path dir_;
  std::unique_ptr<recorder::Recorder> recorder_;
  std::unique_ptr<DeadlineTimer> timer_;
  std::unique_ptr<Registry> registry_;
};

TEST_F(RegistryCoreTest, CreatesAGameFromASpec) {
  ASSERT_TRUE(RegisterBot("alice").ok());
  GameSpec spec;
  spec.seats = {{"north", ""}, {"", "alice"}};
  spec.seed = kSeed;
  spec.label = "core";
  spec.clock.bank_ms = 0;  // given: no bank (not the default)
  CreateOptions options;
  options.game_id = "core-game-1";
  absl::StatusOr<CreatedGame> created = Create(spec, options);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->game_id, "core-game-1");
  EXPECT_EQ(created->seed_commitment, kCommitment);
  EXPECT_EQ(created->clock.per_move_ms, 5000);
  EXPECT_EQ(created->clock.bank_ms, 0);
  EXPECT_EQ(created->clock.max_illegal, 3);
  ASSERT_EQ(created->seats.size(), 2u);
  // A token seat gets a token (64 hex digits); an account seat none (the
  // lobby offers it), named after its account.
  EXPECT_EQ(created->seats[0].seat, 0);
  EXPECT_EQ(created->seats[0].bot_name, "north");
  EXPECT_EQ(created->seats[0].account, "");
  EXPECT_EQ(created->seats[0].token.size(), 64u);
  EXPECT_EQ(created->seats[1].seat, 1);
  EXPECT_EQ(created->seats[1].bot_name, "alice");
  EXPECT_EQ(created->seats[1].account, "alice");
  EXPECT_EQ(created->seats[1].token, "");

  // The token plays seat 0 of that game, and only of that game.
  SeatAccess access;
  ASSERT_TRUE(
      registry_->AuthorizeSeat(created->seats[0].token, "core-game-1", &access)
          .ok());
  EXPECT_EQ(access.seat, 0);
  ASSERT_NE(access.game, nullptr);
  const absl::Status other =
      registry_->AuthorizeSeat(created->seats[0].token, "another", &access);
  EXPECT_EQ(other.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(ReasonOf(other), "TOKEN_FOR_OTHER_GAME");
  EXPECT_EQ(ReasonOf(registry_->AuthorizeSeat(std::nullopt, "", &access)),
            "MISSING_CREDENTIALS");
  EXPECT_TRUE(registry_->AuthorizeAdmin(std::string(kAdmin)).ok());
  const absl::Status seat_as_admin =
      registry_->AuthorizeAdmin(created->seats[0].token);
  EXPECT_EQ(seat_as_admin.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(ReasonOf(seat_as_admin), "WRONG_CREDENTIAL");

  // A fresh id when none is asked for: 20 hex digits.
  absl::StatusOr<CreatedGame> fresh = Create(TwoSeats());
  ASSERT_TRUE(fresh.ok()) << fresh.status();
  EXPECT_EQ(fresh->game_id.size(), 20u);
  EXPECT_EQ(fresh->game_id.find_first_not_of("0123456789abcdef"),
            std::string::npos);
  // The clock not given: the defaults.
  EXPECT_EQ(fresh->clock.bank_ms, 30000);
}

TEST_F(RegistryCoreTest, RefusesABadSpecNamingTheField) {
  struct Case {
    const char* what;
    GameSpec spec;
    std::string field;
    std::string message;
  };
  std::vector<Case> cases;
  {
    GameSpec one = TwoSeats();
    one.seats.resize(1);
    cases.push_back({"one seat", one, "seats",
                     "a game has 2 to 6 seats; the request has 1"});
  }
  {
    GameSpec bank = TwoSeats();
    bank.clock.bank_ms = 86400001;
    cases.push_back({"a bank above a day", bank, "clock.bank_ms",
                     "clock.bank_ms must be 0 to 86400000; 86400001 given"});
  }
  {
    GameSpec both = TwoSeats();
    both.decks = {"whatever"};
    cases.push_back({"seed and decks", both, "seed",
                     "give a seed or explicit decks, not both"});
  }
  {
    GameSpec unnamed = TwoSeats();
    unnamed.seats[1].bot_name.clear();
    cases.push_back({"a seat without a name", unnamed, "seats[1].bot_name",
                     "seats[1].bot_name must be 1 to 64 characters"});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    absl::StatusOr<CreatedGame> created = Create(c.spec);
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(created.status().message(), c.message);
    EXPECT_EQ(ReasonOf(created.status()), "INVALID_REQUEST");
    ASSERT_EQ(FieldsOf(created.status()).size(), 1u);
    EXPECT_EQ(FieldsOf(created.status())[0].first, c.field);
  }

  // An unknown account: NOT_FOUND, its path before the message.
  GameSpec unknown = TwoSeats();
  unknown.seats[1] = {"", "nobody"};
  absl::StatusOr<CreatedGame> created = Create(unknown);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(created.status().message(),
            "seats[1].account: no bot account 'nobody'");
  EXPECT_EQ(ReasonOf(created.status()), "BOT_NOT_FOUND");

  // Nothing was created.
  absl::StatusOr<GamePage> page = registry_->ListGames(GameQuery());
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_TRUE(page->games.empty());
}

TEST_F(RegistryCoreTest, GetsACreatedGame) {
  CreateOptions options;
  options.game_id = "core-game-2";
  absl::StatusOr<CreatedGame> created = Create(TwoSeats("got"), options);
  ASSERT_TRUE(created.ok()) << created.status();

  absl::StatusOr<GameInfo> info = registry_->GetGame("core-game-2");
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->game_id, "core-game-2");
  EXPECT_EQ(info->label, "got");
  EXPECT_EQ(info->rules, created->rules);
  EXPECT_EQ(info->bots, (std::vector<std::string>{"north", "south"}));
  EXPECT_EQ(info->accounts, (std::vector<std::string>{"", ""}));
  EXPECT_EQ(info->status, recorder::GameStatus::kRunning);
  EXPECT_EQ(info->turn, 0);
  EXPECT_EQ(info->to_move, 0);
  EXPECT_FALSE(info->outcome.has_value());
  EXPECT_EQ(info->seed_commitment, kCommitment);
  EXPECT_EQ(info->seed, "");  // secret while the game runs
  ASSERT_TRUE(info->clock.has_value());
  EXPECT_EQ(*info->clock, created->clock);

  absl::StatusOr<GameInfo> missing = registry_->GetGame("no-such-game");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "no game 'no-such-game'");
  EXPECT_EQ(ReasonOf(missing.status()), "GAME_NOT_FOUND");
}

TEST_F(RegistryCoreTest, ListsGamesPageByPage) {
  std::set<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<CreatedGame> created = Create(TwoSeats("paged"));
    ASSERT_TRUE(created.ok()) << created.status();
    ids.insert(created->game_id);
  }
  ASSERT_TRUE(Create(TwoSeats("other")).ok());  // not listed below

  GameQuery query;
  query.status = recorder::GameStatus::kRunning;
  query.label = "paged";
  query.page_size = 1;
  std::vector<std::string> listed;
  std::string first_token;
  for (int page_number = 1;; ++page_number) {
    SCOPED_TRACE(page_number);
    ASSERT_LE(page_number, 3);
    absl::StatusOr<GamePage> page = registry_->ListGames(query);
    ASSERT_TRUE(page.ok()) << page.status();
    ASSERT_EQ(page->games.size(), 1u);
    EXPECT_EQ(page->games[0].label, "paged");
    listed.push_back(page->games[0].game_id);
    if (page_number == 1) first_token = page->next_page_token;
    if (page->next_page_token.empty()) {
      EXPECT_EQ(page_number, 3);
      break;
    }
    query.page_token = page->next_page_token;
  }
  // Each game once.
  EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()), ids);
  EXPECT_EQ(listed.size(), 3u);

  // A token is bound to its query: another status or label is refused.
  for (const bool other_status : {true, false}) {
    GameQuery other;
    other.label = other_status ? "paged" : "other";
    other.status = other_status ? std::nullopt
                                : std::optional(recorder::GameStatus::kRunning);
    other.page_size = 1;
    other.page_token = first_token;
    absl::StatusOr<GamePage> refused = registry_->ListGames(other);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(refused.status().message(),
              "page_token: the token comes from a query with other filters; "
              "repeat them unchanged (only page_size may change)");
    ASSERT_EQ(FieldsOf(refused.status()).size(), 1u);
    EXPECT_EQ(FieldsOf(refused.status())[0].first, "page_token");
  }

  // A page size out of range is refused, not defaulted.
  GameQuery huge;
  huge.page_size = 1001;
  absl::StatusOr<GamePage> refused = registry_->ListGames(huge);
  ASSERT_FALSE(refused.ok());
  ASSERT_EQ(FieldsOf(refused.status()).size(), 1u);
  EXPECT_EQ(FieldsOf(refused.status())[0].first, "page_size");
}

}  // namespace
}  // namespace cassino::service
