// Helpers for live end-to-end tests: bot and referee processes.
//
// Child runs a program with its stdout and stderr captured in temporary
// files; the *BotArgs / *LobbyBot functions build the command lines of the
// C++ (cassino-bot), Python and Node bots; PythonUnavailable and
// NodeUnavailable say why those bots cannot run on this machine (the tests
// then skip). LiveRefereeTest (when CASSINO_REFEREE_BIN names the built
// cassino-referee) starts the real referee on 127.0.0.1 with a temporary
// database for each test and can restart it on the same port and database.
//
// Needs the compile definitions CASSINO_SOURCE_DIR and CASSINO_BOT_BIN.

#ifndef CASSINO_TESTS_TOOLS_BOTS_LIVE_PROCESS_H_
#define CASSINO_TESTS_TOOLS_BOTS_LIVE_PROCESS_H_

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"

extern char** environ;

namespace cassino::bots::testing {

namespace fs = std::filesystem;
namespace v1 = ::cassino::v1;

inline const std::string kSourceDir = CASSINO_SOURCE_DIR;
inline const std::string kBotBin = CASSINO_BOT_BIN;
inline const std::string kPythonBot =
    kSourceDir + "/tools/bots/python/cassino_bot.py";
inline const std::string kNodeDir = kSourceDir + "/tools/bots/node";
inline constexpr int kProcessTimeoutSeconds = 180;

// ------------------------------------------------------------ processes

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct ProcResult {
  int exit_code = -1;  // -1: killed after the timeout, or failed to start
  std::string out;
  std::string err;
  std::string Describe() const {
    return absl::StrCat("exit ", exit_code, "\n--- stdout\n", out,
                        "--- stderr\n", err);
  }
};

// A child process with stdout and stderr captured in temporary files.
class Child {
 public:
  explicit Child(const std::vector<std::string>& argv) {
    const fs::path dir = fs::temp_directory_path();
    out_path_ =
        (dir / absl::StrCat("bots-test-", getpid(), "-", ++counter_, ".out"))
            .string();
    err_path_ = out_path_ + ".err";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_path_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err_path_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char*> args;
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    if (posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ) !=
        0) {
      pid_ = -1;
    }
    posix_spawn_file_actions_destroy(&actions);
  }
  ~Child() {
    if (pid_ > 0) Stop(SIGKILL);
    std::remove(out_path_.c_str());
    std::remove(err_path_.c_str());
  }

  // Waits for the exit, killing the child after `seconds`. Before the kill
  // it sends SIGUSR1 and gives the child a second: the Python bots then
  // print every thread's stack to stderr, which says where one that did
  // not exit was waiting.
  ProcResult Wait(int seconds) {
    ProcResult r;
    if (pid_ > 0) {
      const auto end =
          std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
      int status = 0;
      while (true) {
        const pid_t done = waitpid(pid_, &status, WNOHANG);
        if (done == pid_) {
          r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
          pid_ = -1;
          break;
        }
        if (std::chrono::steady_clock::now() > end) {
          Signal(SIGUSR1);
          std::this_thread::sleep_for(std::chrono::seconds(1));
          Stop(SIGKILL);
          r.err = "(killed after the timeout; SIGUSR1 sent a second before)\n";
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    r.out = ReadAll(out_path_);
    r.err += ReadAll(err_path_);
    return r;
  }

  // Sends `signal`; neither waits nor reaps.
  void Signal(int signal) {
    if (pid_ > 0) kill(pid_, signal);
  }

  // Sends `signal` and reaps the child (SIGKILL after 5 s).
  void Stop(int signal) {
    if (pid_ <= 0) return;
    kill(pid_, signal);
    for (int i = 0; i < 250; ++i) {
      if (Exited()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  bool started() const { return pid_ > 0; }
  // Whether the child has exited (reaped now if so); never waits.
  bool Exited() {
    if (pid_ <= 0) return true;
    if (waitpid(pid_, nullptr, WNOHANG) != pid_) return false;
    pid_ = -1;
    return true;
  }
  std::string stderr_text() const { return ReadAll(err_path_); }

 private:
  // Children are started from several threads at once.
  static inline std::atomic<int> counter_{0};
  pid_t pid_ = -1;
  std::string out_path_;
  std::string err_path_;
};

inline ProcResult RunProcess(const std::vector<std::string>& argv,
                             int seconds = kProcessTimeoutSeconds) {
  Child child(argv);
  return child.Wait(seconds);
}

// Why the Python bot cannot run here; empty if it can.
inline std::string PythonUnavailable() {
  if (!fs::exists("/usr/bin/python3")) return "no /usr/bin/python3";
  if (!fs::exists("/usr/bin/grpc_python_plugin")) {
    return "no /usr/bin/grpc_python_plugin (protobuf-compiler-grpc)";
  }
  if (RunProcess({"protoc", "--version"}, 30).exit_code != 0)
    return "no protoc";
  if (RunProcess({"/usr/bin/python3", "-c", "import grpc, google.protobuf"}, 30)
          .exit_code != 0) {
    return "/usr/bin/python3 cannot import grpc (python3-grpcio, "
           "python3-protobuf)";
  }
  return "";
}

// Why the Node bot cannot run here; empty if it can.
inline std::string NodeUnavailable() {
  if (RunProcess({"node", "--version"}, 30).exit_code != 0) return "no node";
  if (!fs::exists(kNodeDir + "/node_modules/@grpc/grpc-js") ||
      !fs::exists(kNodeDir + "/node_modules/@grpc/proto-loader")) {
    return "no node_modules in tools/bots/node (run npm install there)";
  }
  return "";
}

inline std::vector<std::string> PythonBotArgs(const std::string& address,
                                              const std::string& token,
                                              const std::string& game) {
  return {"/usr/bin/python3", kPythonBot, "--address", address,
          "--token",          token,      "--game",    game};
}

inline std::vector<std::string> NodeBotArgs(const std::string& address,
                                            const std::string& token,
                                            const std::string& game) {
  return {"node",      kNodeDir + "/cassino_bot.js",
          "--address", address,
          "--token",   token,
          "--game",    game};
}

inline std::vector<std::string> CppBotArgs(const std::string& address,
                                           const std::string& token,
                                           const std::string& game,
                                           const std::string& strategy,
                                           bool unary) {
  std::vector<std::string> args = {kBotBin,   "--address",  address,
                                   "--token", token,        "--game",
                                   game,      "--strategy", strategy};
  if (unary) args.push_back("--unary");
  return args;
}

// `program` followed by the lobby-mode flags every example bot takes: it
// plays `games` games (0: until stopped), `capacity` at once.
inline std::vector<std::string> LobbyArgs(std::vector<std::string> program,
                                          const std::string& address,
                                          const std::string& key, int capacity,
                                          int games) {
  for (std::string flag :
       {std::string("--address"), address, std::string("--lobby"),
        std::string("--key"), key, std::string("--capacity"),
        absl::StrCat(capacity), std::string("--games"), absl::StrCat(games)}) {
    program.push_back(std::move(flag));
  }
  return program;
}

// The C++ bot ends its arguments with "--strategy", "greedy".
inline std::vector<std::string> CppLobbyBot(const std::string& address,
                                            const std::string& key,
                                            int capacity, int games) {
  std::vector<std::string> args =
      LobbyArgs({kBotBin}, address, key, capacity, games);
  args.insert(args.end(), {"--strategy", "greedy"});
  return args;
}

inline std::vector<std::string> PythonLobbyBot(const std::string& address,
                                               const std::string& key,
                                               int capacity, int games) {
  return LobbyArgs({"/usr/bin/python3", kPythonBot}, address, key, capacity,
                   games);
}

inline std::vector<std::string> NodeLobbyBot(const std::string& address,
                                             const std::string& key,
                                             int capacity, int games) {
  return LobbyArgs({"node", kNodeDir + "/cassino_bot.js"}, address, key,
                   capacity, games);
}

#ifdef CASSINO_REFEREE_BIN

inline constexpr char kAdminToken[] = "bots-live-test-admin-token";

// Runs the real referee for each test, in a temporary directory.
class LiveRefereeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           absl::StrCat(
               "cassino-bots-live-", getpid(), "-",
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream((dir_ / "admin").string()) << kAdminToken << "\n";
    StartReferee("127.0.0.1:0");
    stub_ = v1::RefereeService::NewStub(
        grpc::CreateChannel(address_, grpc::InsecureChannelCredentials()));
  }

  // Starts the referee on `listen` with the test's database; sets address_.
  void StartReferee(const std::string& listen) {
    const std::string port_file = (dir_ / "port").string();
    fs::remove(port_file);
    address_.clear();
    referee_ = std::make_unique<Child>(std::vector<std::string>{
        CASSINO_REFEREE_BIN, "--listen", listen, "--db",
        (dir_ / "referee.db").string(), "--admin-token-file",
        (dir_ / "admin").string(), "--port-file", port_file});
    ASSERT_TRUE(referee_->started()) << "cannot start " << CASSINO_REFEREE_BIN;
    for (int i = 0; i < 500 && address_.empty(); ++i) {
      std::ifstream in(port_file);
      int port = 0;
      if (in >> port && port > 0) {
        address_ = absl::StrCat("127.0.0.1:", port);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    ASSERT_FALSE(address_.empty())
        << "the referee wrote no port file; stderr:\n"
        << referee_->stderr_text();
  }

  void TearDown() override {
    if (referee_) referee_->Stop(SIGTERM);
    fs::remove_all(dir_);
  }

  void Admin(grpc::ClientContext* ctx) {
    ctx->AddMetadata("authorization", absl::StrCat("Bearer ", kAdminToken));
    ctx->set_deadline(std::chrono::system_clock::now() +
                      std::chrono::seconds(10));
  }

  // Registers a bot account; returns its key.
  std::string RegisterBot(const std::string& name) {
    grpc::ClientContext ctx;
    Admin(&ctx);
    v1::RegisterBotRequest req;
    req.set_name(name);
    req.set_owner("live test");
    v1::RegisterBotResponse resp;
    grpc::Status st = stub_->RegisterBot(&ctx, req, &resp);
    EXPECT_TRUE(st.ok()) << st.error_code() << ": " << st.error_message();
    return resp.key();
  }

  fs::path dir_;
  std::unique_ptr<Child> referee_;
  std::string address_;
  std::unique_ptr<v1::RefereeService::Stub> stub_;
};

#endif  // CASSINO_REFEREE_BIN

}  // namespace cassino::bots::testing

#endif  // CASSINO_TESTS_TOOLS_BOTS_LIVE_PROCESS_H_
