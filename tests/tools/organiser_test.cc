// The organiser's commands (`cassino bot`, `cassino game`, `cassino
// tournament create|show|list|cancel`) against a real cassino-referee
// process: the admin token from a file or the environment (never a flag),
// text and JSON output, the referee's refusals as exit status 1 with the
// reason, and a game created here played to its end with the tokens it
// printed.

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/child_process.h"

namespace cassino::testing {
namespace {

namespace fs = std::filesystem;
constexpr char kToken[] = "organiser-test-token";

struct CliRun {
  int exit_code = -1;
  std::string out;  // stdout (and stderr unless `split`)
};

class OrganiserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           absl::StrCat("cassino_organiser_", std::random_device{}());
    fs::create_directories(dir_);
    token_file_ = (dir_ / "admin-token").string();
    std::ofstream(token_file_) << kToken << " \n";
    pid_ = Spawn({CASSINO_REFEREE_PATH, "--listen", "127.0.0.1:0", "--db",
                  (dir_ / "r.db").string(), "--admin-token-file", token_file_,
                  "--port-file", (dir_ / "port").string()},
                 dir_ / "referee.log");
    ASSERT_GT(pid_, 0);
    std::string port;
    for (int i = 0; i < 400 && port.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
      std::ifstream(dir_ / "port") >> port;
    }
    ASSERT_FALSE(port.empty()) << Tail(dir_ / "referee.log");
    address_ = "127.0.0.1:" + port;
  }
  void TearDown() override {
    TerminateAndReap(&pid_);
    fs::remove_all(dir_);
  }

  // Runs `cassino ARGS` with `env` (shell assignments) before it; stderr
  // is merged into `out` unless `split`, when it is dropped.
  CliRun Cli(const std::string& args, const std::string& env = "",
             bool split = false) {
    CliRun run;
    const std::string command = absl::StrCat(
        "env -u CASSINO_ADMIN_TOKEN -u CASSINO_ADDRESS ", env, " ",
        CASSINO_CLI_PATH, " ", args, split ? " 2>/dev/null" : " 2>&1");
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return run;
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
      run.out.append(buffer, n);
    }
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
  }
  // With the referee's address and the token file.
  CliRun Admin(const std::string& args, bool json = false) {
    return Cli(
        absl::StrCat(args, " --address ", address_, " --admin-token-file ",
                     token_file_, json ? " --format json" : ""),
        "", json);
  }

  fs::path dir_;
  std::string token_file_;
  std::string address_;
  pid_t pid_ = -1;
};

TEST_F(OrganiserTest, TheTokenComesFromAFileOrTheEnvironmentOnly) {
  // None given: a usage error saying how to give it.
  CliRun none = Cli("bot list --address " + address_);
  EXPECT_EQ(none.exit_code, 2) << none.out;
  EXPECT_NE(none.out.find("--admin-token-file FILE or $CASSINO_ADMIN_TOKEN"),
            std::string::npos)
      << none.out;
  // Never on the command line: there is no such flag.
  CliRun flag = Cli(
      absl::StrCat("bot list --address ", address_, " --admin-token ", kToken));
  EXPECT_EQ(flag.exit_code, 2) << flag.out;
  // The environment, and the file (its first line, trimmed).
  CliRun env = Cli("bot list --address " + address_,
                   absl::StrCat("CASSINO_ADMIN_TOKEN=", kToken));
  EXPECT_EQ(env.exit_code, 0) << env.out;
  EXPECT_EQ(Admin("bot list").exit_code, 0);
  // The address from the environment.
  CliRun env_address =
      Cli("bot list", absl::StrCat("CASSINO_ADMIN_TOKEN=", kToken,
                                   " CASSINO_ADDRESS=", address_));
  EXPECT_EQ(env_address.exit_code, 0) << env_address.out;
  // A wrong token: the referee refuses, with its reason.
  CliRun wrong = Cli("bot list --address " + address_,
                     "CASSINO_ADMIN_TOKEN=not-the-token");
  EXPECT_EQ(wrong.exit_code, 1) << wrong.out;
  EXPECT_NE(wrong.out.find("UNAUTHENTICATED (UNKNOWN_TOKEN)"),
            std::string::npos)
      << wrong.out;
  // Nobody listening: exit 1, saying where it looked.
  TerminateAndReap(&pid_);
  CliRun down = Admin("bot list");
  EXPECT_EQ(down.exit_code, 1) << down.out;
  EXPECT_NE(down.out.find("is a referee listening on " + address_),
            std::string::npos)
      << down.out;
}

// The tournament runner on a running referee takes the same token file
// (or the environment), so its token need not be on the command line
// either.
TEST_F(OrganiserTest, TheRunnerTakesTheTokenFileToo) {
  const std::string bots = absl::StrCat(
      " --bot a='", CASSINO_BOT_PATH, " -q --strategy greedy' --bot b='",
      CASSINO_BOT_PATH, " -q --strategy random' --games 2 -q");
  CliRun none = Cli("tournament --address " + address_ + bots);
  EXPECT_EQ(none.exit_code, 2) << none.out;
  EXPECT_NE(none.out.find("--admin-token-file FILE or $CASSINO_ADMIN_TOKEN"),
            std::string::npos)
      << none.out;
  CliRun run = Cli(absl::StrCat("tournament --address ", address_,
                                " --admin-token-file ", token_file_, bots));
  ASSERT_EQ(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find(": 2 games in "), std::string::npos) << run.out;
}

// A referee serving TLS: reached with --tls-ca (the referee's CA), not
// without it.
TEST_F(OrganiserTest, ATlsRefereeWithTlsCa) {
  const std::string d = dir_.string();
  const std::string script = "cd '" + d + R"(' && set -e
    openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=test-ca \
      -keyout ca.key -out ca.pem 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1\n' > san.ext
    openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
      -keyout server.key -out server.csr 2>/dev/null
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key \
      -CAcreateserial -days 1 -extfile san.ext -out server.pem 2>/dev/null)";
  ASSERT_EQ(std::system(script.c_str()), 0) << "openssl failed";
  pid_t tls = Spawn({CASSINO_REFEREE_PATH, "--listen", "127.0.0.1:0", "--db",
                     (dir_ / "tls.db").string(), "--admin-token-file",
                     token_file_, "--port-file", (dir_ / "tls-port").string(),
                     "--tls-cert", (dir_ / "server.pem").string(), "--tls-key",
                     (dir_ / "server.key").string()},
                    dir_ / "tls-referee.log");
  ASSERT_GT(tls, 0);
  std::string port;
  for (int i = 0; i < 400 && port.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    std::ifstream(dir_ / "tls-port") >> port;
  }
  ASSERT_FALSE(port.empty()) << Tail(dir_ / "tls-referee.log");
  const std::string common = absl::StrCat("bot list --address 127.0.0.1:", port,
                                          " --admin-token-file ", token_file_);
  CliRun with_ca = Cli(common + " --tls-ca " + (dir_ / "ca.pem").string());
  EXPECT_EQ(with_ca.exit_code, 0) << with_ca.out;
  EXPECT_NE(with_ca.out.find("name  status"), std::string::npos) << with_ca.out;
  CliRun plaintext = Cli(common);
  EXPECT_EQ(plaintext.exit_code, 1) << plaintext.out;
  CliRun no_file = Cli(common + " --tls-ca " + (dir_ / "none.pem").string());
  EXPECT_EQ(no_file.exit_code, 2) << no_file.out;
  TerminateAndReap(&tls);
}

TEST_F(OrganiserTest, BotAccountsFromRegisterToRevoke) {
  CliRun reg = Admin("bot register alice --owner 'Alice A.' --contact a@x.org");
  ASSERT_EQ(reg.exit_code, 0) << reg.out;
  std::smatch key1;
  ASSERT_TRUE(
      std::regex_search(reg.out, key1, std::regex("\n([0-9a-f]{64})\n")))
      << reg.out;
  EXPECT_NE(reg.out.find("owner:            Alice A."), std::string::npos)
      << reg.out;
  EXPECT_EQ(Admin("bot register bob").exit_code, 0);

  // Taken, and malformed: refused with the referee's reason.
  CliRun again = Admin("bot register alice");
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.out.find("ALREADY_EXISTS (BOT_EXISTS)"), std::string::npos)
      << again.out;
  CliRun bad = Admin("bot register 'no spaces'");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.out.find("INVALID_ARGUMENT"), std::string::npos) << bad.out;

  CliRun list = Admin("bot list");
  ASSERT_EQ(list.exit_code, 0) << list.out;
  EXPECT_NE(list.out.find("name   status  connected  unfinished  owner     "
                          "contact\nalice  active  no         0           "
                          "Alice A.  a@x.org\nbob    active  no         0"),
            std::string::npos)
      << list.out;
  EXPECT_EQ(list.out.find(key1[1].str()), std::string::npos);  // never a key

  CliRun rotated = Admin("bot rotate-key alice", /*json=*/true);
  ASSERT_EQ(rotated.exit_code, 0) << rotated.out;
  const nlohmann::json r = nlohmann::json::parse(rotated.out);
  const std::string key2 = r["key"];
  EXPECT_EQ(key2.size(), 64u);
  EXPECT_NE(key2, key1[1].str());
  EXPECT_EQ(r["bot"]["name"], "alice");

  CliRun revoked = Admin("bot revoke alice");
  ASSERT_EQ(revoked.exit_code, 0) << revoked.out;
  CliRun shown = Admin("bot show alice", /*json=*/true);
  ASSERT_EQ(shown.exit_code, 0) << shown.out;
  EXPECT_EQ(nlohmann::json::parse(shown.out)["bot"]["revoked"], true);
  CliRun text = Admin("bot show alice");
  EXPECT_NE(text.out.find("status:           revoked 20"), std::string::npos)
      << text.out;
  CliRun missing = Admin("bot show carol");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.out.find("NOT_FOUND (BOT_NOT_FOUND)"), std::string::npos)
      << missing.out;
}

// A quick test game: its tokens play it to its end with cassino-bot; show
// follows it; abort ends another; an account seat gets no token.
TEST_F(OrganiserTest, AGameCreatedHereIsPlayedWithItsTokens) {
  CliRun created = Admin("game create --per-move-ms 20000 --label quick", true);
  ASSERT_EQ(created.exit_code, 0) << created.out;
  const nlohmann::json g = nlohmann::json::parse(created.out);
  const std::string id = g["game_id"];
  ASSERT_EQ(g["tokens"].size(), 2u);
  EXPECT_EQ(g["tokens"][1]["bot_name"], "seat1");
  std::vector<pid_t> bots;
  for (int seat = 0; seat < 2; ++seat) {
    bots.push_back(Spawn({CASSINO_BOT_PATH, "--address", address_, "--token",
                          g["tokens"][seat]["token"].get<std::string>(), "-q"},
                         dir_ / absl::StrCat("bot", seat, ".log")));
  }
  for (pid_t& pid : bots) {
    int status = 0;
    EXPECT_TRUE(WaitFor(pid, std::chrono::milliseconds(60000), &status))
        << Tail(dir_ / "bot0.log");
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  CliRun shown = Admin("game show " + id);
  ASSERT_EQ(shown.exit_code, 0) << shown.out;
  EXPECT_NE(shown.out.find("status:          finished"), std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("label:           quick"), std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("seats:           0 seat0, 1 seat1"),
            std::string::npos)
      << shown.out;

  // Text: the tokens in a table, with how to play them.
  ASSERT_EQ(Admin("bot register carol").exit_code, 0);
  CliRun text = Admin("game create alpha @carol");
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_TRUE(std::regex_search(
      text.out, std::regex("\n0     alpha  [0-9a-f]{32,}\n1     carol  "
                           "\\(account carol: offered through its lobby\\)")))
      << text.out;
  EXPECT_NE(text.out.find("cassino-bot --address " + address_ + " --token"),
            std::string::npos);
  std::smatch game;
  ASSERT_TRUE(
      std::regex_search(text.out, game, std::regex("game: +([0-9a-f]+)\n")));
  CliRun aborted = Admin("game abort " + game[1].str() + " --reason testing");
  ASSERT_EQ(aborted.exit_code, 0) << aborted.out;
  EXPECT_NE(aborted.out.find("status:          aborted"), std::string::npos)
      << aborted.out;
  CliRun again = Admin("game abort " + game[1].str());
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.out.find("FAILED_PRECONDITION (GAME_OVER)"),
            std::string::npos)
      << again.out;
  CliRun bad_rules = Admin("game create --rules 'standard players=9'");
  EXPECT_NE(bad_rules.exit_code, 0) << bad_rules.out;
}

// The referee's tournaments: create, list, show, cancel; the runner's own
// flags do not mix with them.
TEST_F(OrganiserTest, TournamentsCreateListShowCancel) {
  for (const char* bot : {"ann", "ben", "cat"}) {
    ASSERT_EQ(Admin(absl::StrCat("bot register ", bot)).exit_code, 0);
  }
  CliRun created = Admin(
      "tournament create cup --account ann --account ben --account cat "
      "--games 2 -j 1 --per-move-ms 1000");
  ASSERT_EQ(created.exit_code, 0) << created.out;
  EXPECT_NE(created.out.find("tournament:      cup"), std::string::npos)
      << created.out;
  EXPECT_NE(created.out.find("participants:    ann, ben, cat"),
            std::string::npos)
      << created.out;
  EXPECT_NE(created.out.find("0 finished, 0 running, 6 pending, 0 aborted, "
                             "of 6"),
            std::string::npos)
      << created.out;
  CliRun taken = Admin("tournament create cup --account ann --account ben");
  EXPECT_EQ(taken.exit_code, 1);
  EXPECT_NE(taken.out.find("TOURNAMENT_EXISTS"), std::string::npos)
      << taken.out;

  CliRun list = Admin("tournament list");
  ASSERT_EQ(list.exit_code, 0) << list.out;
  EXPECT_TRUE(std::regex_search(
      list.out, std::regex("\ncup +running +0/6 +0 +ann,ben,cat +20")))
      << list.out;
  CliRun shown = Admin("tournament show cup", true);
  ASSERT_EQ(shown.exit_code, 0) << shown.out;
  const nlohmann::json t = nlohmann::json::parse(shown.out)["tournament"];
  EXPECT_EQ(t["games"].size(), 6u);
  EXPECT_EQ(t["spec"]["games_per_pairing"], 2);

  CliRun cancelled = Admin("tournament cancel cup --reason rain");
  ASSERT_EQ(cancelled.exit_code, 0) << cancelled.out;
  EXPECT_NE(cancelled.out.find("status:          cancelled"), std::string::npos)
      << cancelled.out;
  CliRun text = Admin("tournament show cup");
  EXPECT_NE(text.out.find("rank bot"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("#  seats       game  status   result"),
            std::string::npos)
      << text.out;
  CliRun over = Admin("tournament cancel cup");
  EXPECT_EQ(over.exit_code, 1);
  EXPECT_NE(over.out.find("TOURNAMENT_OVER"), std::string::npos) << over.out;

  // The runner's flags belong to the runner.
  CliRun mixed =
      Cli(absl::StrCat("tournament --games 3 list --address ", address_,
                       " --admin-token-file ", token_file_));
  EXPECT_EQ(mixed.exit_code, 2) << mixed.out;
  EXPECT_NE(mixed.out.find("--games is a flag of the runner"),
            std::string::npos)
      << mixed.out;
}

}  // namespace
}  // namespace cassino::testing
