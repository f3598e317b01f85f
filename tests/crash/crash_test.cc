// Crash safety of the real referee binary: bots play games over the unary
// API while the referee is SIGKILLed at random moments and restarted on the
// same port and database. Afterwards every game must be finished, every move
// acknowledged to a bot must be in the record at its turn, and every record
// must verify (`cassino verify`) and replay to a finished game.
//
// CASSINO_CRASH_KILLS sets the number of kills (default 5; the long form is
// `CASSINO_CRASH_KILLS=50 build/tests/crash/crash_test`); CASSINO_CRASH_SEED
// fixes the seed of the kill timing and the bots' moves (default: random,
// printed). See docs/crash_safety.md.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "recorder/payload.h"
#include "recorder/record.h"
#include "recorder/recorder.h"
#include "recorder/replay.h"
#include "tests/child_process.h"

namespace cassino {
namespace {

namespace v1 = ::cassino::v1;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr char kAdminToken[] = "crash-test-admin-token";
constexpr int kGames = 8;
// Generous, so that the time a bot loses to a restart never forfeits.
constexpr int64_t kPerMoveMs = 20000;
// Client deadline of each call; a call cut off by a kill fails sooner.
constexpr int kCallMs = 2000;
// Pause after a failed call before trying again.
constexpr int kRetryMs = 50;

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  return std::atoi(v);
}

using testing::KillAndReap;
using testing::PickFreePort;
using testing::ReadText;
using testing::RunToCompletion;
using testing::Spawn;
using testing::Tail;
using testing::TerminateAndReap;

// The referee binary as a child process on a fixed port and database. Not
// thread-safe: one thread at a time starts, kills or stops it.
class RefereeProcess {
 public:
  RefereeProcess(std::filesystem::path dir, int port, std::string durability)
      : dir_(std::move(dir)), port_(port), durability_(std::move(durability)) {
    std::ofstream(dir_ / "admin_token") << kAdminToken << "\n";
  }
  ~RefereeProcess() { Kill(); }

  std::filesystem::path db() const { return dir_ / "games.db"; }
  std::filesystem::path log() const { return dir_ / "referee.log"; }
  int starts() const { return starts_; }

  // Starts the referee and waits until it listens (its --port-file names
  // the port). A start that fails (say the port is not yet free after a
  // kill) is retried for up to 10 s. False if it never came up.
  bool Start() {
    const auto until = Clock::now() + milliseconds(10000);
    while (Clock::now() < until) {
      if (TryStart(until)) {
        ++starts_;
        return true;
      }
      std::this_thread::sleep_for(milliseconds(100));
    }
    return false;
  }

  // SIGKILLs the referee and reaps it. No-op if it is not running.
  void Kill() { KillAndReap(&pid_); }

  // SIGTERMs the referee and waits up to 10 s for it to exit; returns its
  // wait status, or -1 if it had to be killed.
  int Stop() { return TerminateAndReap(&pid_); }

 private:
  bool TryStart(Clock::time_point until) {
    const std::filesystem::path port_file = dir_ / "port";
    std::filesystem::remove(port_file);
    pid_ = Spawn(
        {CASSINO_REFEREE_BINARY, "--listen",
         "127.0.0.1:" + std::to_string(port_), "--db", db().string(),
         "--durability", durability_, "--admin-token-file",
         (dir_ / "admin_token").string(), "--port-file", port_file.string()},
        log());
    if (pid_ < 0) return false;
    while (Clock::now() < until) {
      // The file is written after the server listens; a complete line means
      // the write finished.
      const std::string text = ReadText(port_file);
      if (!text.empty() && text.back() == '\n') {
        return std::atoi(text.c_str()) == port_;
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {  // exited: retry
        pid_ = -1;
        return false;
      }
      std::this_thread::sleep_for(milliseconds(5));
    }
    Kill();
    return false;
  }

  std::filesystem::path dir_;
  int port_;
  std::string durability_;
  pid_t pid_ = -1;
  int starts_ = 0;
};

std::shared_ptr<grpc::Channel> MakeChannel(int port) {
  grpc::ChannelArguments args;
  // Reconnect quickly after a restart instead of backing off for seconds.
  // (The minimum is also the time a connection attempt may take: too short
  // and attempts to a busy, just restarted referee are cut off again and
  // again as "tcp handshaker shutdown".)
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 20);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 1000);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 200);
  // One connection per bot, as separate bot programs would have.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port),
                                   grpc::InsecureChannelCredentials(), args);
}

void SetUp(grpc::ClientContext* ctx, const std::string& token) {
  ctx->AddMetadata("authorization", "Bearer " + token);
  ctx->set_deadline(std::chrono::system_clock::now() + milliseconds(kCallMs));
}

// Errors a bot sees while the referee is down or restarting.
bool Transient(const grpc::Status& s) {
  switch (s.error_code()) {
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
    case grpc::StatusCode::CANCELLED:
    case grpc::StatusCode::UNKNOWN:
    case grpc::StatusCode::INTERNAL:
      return true;
    default:
      return false;
  }
}

// What the whole run observed. Thread-safe.
class Ledger {
 public:
  // A move acknowledged (OK) to a bot. A second acknowledgement of the same
  // turn must name the same move.
  void Ack(const std::string& game, int turn, const std::string& notation) {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, inserted] = acked_.emplace(std::make_pair(game, turn), notation);
    if (!inserted && it->second != notation) {
      failures_.push_back("game " + game + " turn " + std::to_string(turn) +
                          ": acknowledged as '" + it->second +
                          "' and later as '" + notation + "'");
    }
  }
  std::optional<std::string> Acked(const std::string& game, int turn) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = acked_.find({game, turn});
    if (it == acked_.end()) return std::nullopt;
    return it->second;
  }
  void Fail(std::string what) {
    std::lock_guard<std::mutex> lock(mu_);
    failures_.push_back(std::move(what));
  }
  void Note(std::string what) {
    std::lock_guard<std::mutex> lock(mu_);
    if (notes_.size() < 50) notes_.push_back(std::move(what));
  }
  std::map<std::pair<std::string, int>, std::string> acked() const {
    std::lock_guard<std::mutex> lock(mu_);
    return acked_;
  }
  std::vector<std::string> failures() const {
    std::lock_guard<std::mutex> lock(mu_);
    return failures_;
  }
  std::vector<std::string> notes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return notes_;
  }

  std::atomic<int64_t> transient_errors{0};
  // Transient errors by gRPC status code, for the summary.
  std::atomic<int64_t> transient_by_code[17] = {};
  void Transient(const grpc::Status& s) {
    ++transient_errors;
    ++transient_by_code[std::clamp<int>(s.error_code(), 0, 16)];
  }
  std::atomic<int64_t> resubmissions{0};   // submits repeated after a failure
  std::atomic<int64_t> idempotent_oks{0};  // of which answered OK
  std::atomic<int64_t> stale_unacked{0};   // ABORTED for an unacknowledged move
  std::atomic<int> games_done{0};

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int>, std::string> acked_;
  std::vector<std::string> failures_;
  std::vector<std::string> notes_;
};

// How far the killer has got, so that games do not end before the kills
// do: while kill k of `kills` is pending, a game whose leading total is past
// 0.8 * target * (k + 1) / (kills + 1) holds its moves for a while.
struct Pace {
  int target = 21;
  int kills = 1;
  std::atomic<int> kills_done{0};
};

struct SeatPlay {
  std::string game_id;
  std::string token;
  int seat = 0;
};

// One bot: GetTurn(wait) then SubmitMove with a random legal move, until its
// game is over or `stop` passes. A submission that failed is repeated (same
// turn, same move) until it gets an answer; only then does the bot ask for
// its turn again. While `throttle` is set the bot thinks up to
// `think_ms` before each move and keeps its game's progress behind the
// killer's (see Pace). Returns true if it saw its game end.
bool RunBot(const SeatPlay& play, int port, uint64_t seed,
            const std::atomic<bool>& throttle, int think_ms, const Pace& pace,
            Clock::time_point stop, Ledger& ledger) {
  std::mt19937_64 rng(seed);
  std::shared_ptr<grpc::Channel> channel = MakeChannel(port);
  std::unique_ptr<v1::RefereeService::Stub> stub =
      v1::RefereeService::NewStub(channel);
  const std::string where =
      "game " + play.game_id + " seat " + std::to_string(play.seat);
  struct Pending {
    int turn;
    v1::Move move;
    bool failed_before = false;
  };
  std::optional<Pending> pending;
  while (Clock::now() < stop) {
    if (pending) {
      v1::SubmitMoveRequest req;
      req.set_game_id(play.game_id);
      req.set_turn(pending->turn);
      *req.mutable_move() = pending->move;
      v1::SubmitMoveResponse resp;
      grpc::ClientContext ctx;
      SetUp(&ctx, play.token);
      if (pending->failed_before) ++ledger.resubmissions;
      const grpc::Status s = stub->SubmitMove(&ctx, req, &resp);
      const std::string& mine = pending->move.notation();
      const std::string at = where + " turn " + std::to_string(pending->turn);
      if (s.ok()) {
        const v1::MoveVerdict& v = resp.verdict();
        if (!v.accepted() || v.turn() != pending->turn ||
            v.move().notation() != mine) {
          ledger.Fail(at + ": submitted '" + mine + "', OK answer says turn " +
                      std::to_string(v.turn()) + " '" + v.move().notation() +
                      "' accepted=" + (v.accepted() ? "1" : "0"));
        } else {
          if (pending->failed_before) ++ledger.idempotent_oks;
          ledger.Ack(play.game_id, v.turn(), v.move().notation());
        }
        pending.reset();
        continue;
      }
      if (Transient(s)) {
        ledger.Transient(s);
        if (!throttle.load())
          ledger.Note(at + ": Submit after kills: " + s.error_message());
        pending->failed_before = true;
        std::this_thread::sleep_for(milliseconds(kRetryMs));
        continue;
      }
      if (s.error_code() == grpc::StatusCode::ABORTED) {
        // Another move is recorded for the turn.
        std::optional<std::string> acked =
            ledger.Acked(play.game_id, pending->turn);
        if (acked.has_value()) {
          ledger.Fail(at + ": acknowledged '" + *acked +
                      "', now the referee says: " + s.error_message());
        } else {
          ++ledger.stale_unacked;
          ledger.Note(at + ": ABORTED for unacknowledged '" + mine +
                      "': " + s.error_message());
        }
        pending.reset();
        continue;
      }
      if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
        // E.g. the game ended by a forfeit: GetTurn tells.
        ledger.Note(at + ": FAILED_PRECONDITION: " + s.error_message());
        pending.reset();
        continue;
      }
      ledger.Fail(at + ": SubmitMove '" + mine + "': " +
                  std::to_string(s.error_code()) + " " + s.error_message());
      pending.reset();
      continue;
    }

    v1::GetTurnRequest req;
    req.set_game_id(play.game_id);
    req.set_wait(true);
    v1::GetTurnResponse resp;
    grpc::ClientContext ctx;
    SetUp(&ctx, play.token);
    const grpc::Status s = stub->GetTurn(&ctx, req, &resp);
    if (!s.ok()) {
      if (!Transient(s)) {
        ledger.Fail(where + ": GetTurn: " + std::to_string(s.error_code()) +
                    " " + s.error_message());
        return false;
      }
      ledger.Transient(s);
      if (!throttle.load())
        ledger.Note(where + ": GetTurn after kills: " + s.error_message());
      std::this_thread::sleep_for(milliseconds(kRetryMs));
      continue;
    }
    if (resp.status() != v1::GAME_STATUS_RUNNING) return true;
    if (!resp.your_turn()) continue;
    const v1::YourTurn& turn = resp.turn();
    if (turn.legal_moves_size() == 0) {
      ledger.Fail(where + ": no legal moves at turn " +
                  std::to_string(turn.turn()));
      return false;
    }
    if (throttle.load()) {
      std::this_thread::sleep_for(milliseconds(rng() % (think_ms + 1)));
      // Keep pace with the killer: a game whose totals are further along
      // than the kills waits (briefly, far within its clock) for the next.
      int best = 0;
      for (const v1::SidePublic& side : turn.observation().sides()) {
        best = std::max(best, side.total());
      }
      const auto hold_until = Clock::now() + milliseconds(1500);
      while (throttle.load() && Clock::now() < hold_until &&
             best > 0.8 * pace.target * (pace.kills_done.load() + 1) /
                        (pace.kills + 1)) {
        std::this_thread::sleep_for(milliseconds(10));
      }
    }
    pending = Pending{
        turn.turn(),
        turn.legal_moves(static_cast<int>(rng() % turn.legal_moves_size()))};
  }
  ledger.Fail(where + ": still running when the test's time ran out");
  return false;
}

// Checks the database after the run: every game finished, every
// acknowledged move recorded at its turn, every record replays to a
// finished game. Returns the number of move events seen.
int64_t CheckDatabase(const std::filesystem::path& db,
                      const std::vector<std::string>& game_ids,
                      const Ledger& ledger) {
  absl::StatusOr<std::unique_ptr<recorder::Recorder>> rec =
      recorder::Recorder::Open(db.string(), recorder::Durability::kNormal);
  EXPECT_TRUE(rec.ok()) << rec.status();
  if (!rec.ok()) return 0;
  absl::StatusOr<std::vector<recorder::GameSummary>> list =
      (*rec)->List(recorder::ListFilter{});
  EXPECT_TRUE(list.ok()) << list.status();
  if (!list.ok()) return 0;
  EXPECT_EQ(list->size(), game_ids.size());
  std::map<std::string, recorder::GameStatus> status;
  for (const recorder::GameSummary& s : *list) status[s.game_id] = s.status;

  // Recorded moves per game and turn.
  std::map<std::pair<std::string, int>, std::string> recorded;
  int64_t moves = 0;
  for (const std::string& id : game_ids) {
    EXPECT_EQ(status.count(id), 1u) << "game " << id << " is not listed";
    EXPECT_EQ(status[id], recorder::GameStatus::kFinished)
        << "game " << id << " is " << recorder::GameStatusName(status[id]);
    absl::StatusOr<recorder::GameRecord> record = (*rec)->Load(id);
    EXPECT_TRUE(record.ok()) << "game " << id << ": " << record.status();
    if (!record.ok()) continue;
    for (const recorder::Event& e : record->events) {
      if (e.kind != recorder::EventKind::kMove) continue;
      nlohmann::json j = nlohmann::json::parse(e.payload, nullptr, false);
      EXPECT_TRUE(j.is_object()) << "game " << id << " seq " << e.seq;
      if (!j.is_object()) continue;
      const int turn = j.value("turn", -1);
      const std::string move = j.value("move", "");
      EXPECT_TRUE(recorded.emplace(std::make_pair(id, turn), move).second)
          << "game " << id << ": two move events for turn " << turn;
      ++moves;
    }
    absl::StatusOr<recorder::ReplayedGame> replayed = recorder::Replay(*record);
    EXPECT_TRUE(replayed.ok()) << "game " << id << ": " << replayed.status();
    if (replayed.ok()) {
      EXPECT_TRUE(replayed->game.over()) << "game " << id;
    }
  }
  int lost = 0;
  for (const auto& [key, notation] : ledger.acked()) {
    auto it = recorded.find(key);
    if (it == recorded.end() || it->second != notation) {
      if (++lost <= 20) {
        ADD_FAILURE() << "game " << key.first << " turn " << key.second
                      << ": acknowledged '" << notation << "', recorded '"
                      << (it == recorded.end() ? "<nothing>" : it->second)
                      << "'";
      }
    }
  }
  EXPECT_EQ(lost, 0) << "acknowledged moves missing from the database";
  return moves;
}

// One crash run: `kills` SIGKILLs of a referee with `durability`.
void RunCrashTest(const std::string& durability, int kills) {
  const char* seed_env = std::getenv("CASSINO_CRASH_SEED");
  const uint64_t seed = seed_env != nullptr && *seed_env != '\0'
                            ? std::strtoull(seed_env, nullptr, 10)
                            : std::random_device{}();
  std::cout << "[crash] durability=" << durability << " kills=" << kills
            << " games=" << kGames << " seed=" << seed
            << " (CASSINO_CRASH_SEED to repeat the kill timing)" << std::endl;
  ::testing::Test::RecordProperty("seed", std::to_string(seed));

  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("cassino_crash_" + std::string(info->name()) + "_" +
       std::to_string(getpid()) + "_" + std::to_string(seed));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);

  const int port = PickFreePort(seed ^ std::random_device{}());
  ASSERT_NE(port, 0);
  RefereeProcess referee(dir, port, durability);
  ASSERT_TRUE(referee.Start()) << Tail(referee.log());

  // Games long enough to span the kills (a game takes roughly 8 moves per
  // point of `target`); Pace keeps them from ending too early.
  const int think_ms = 4;
  const int target = std::clamp(21 + kills * 4, 21, 1000);
  std::vector<SeatPlay> seats;
  std::vector<std::string> game_ids;
  {
    std::shared_ptr<grpc::Channel> channel = MakeChannel(port);
    auto stub = v1::RefereeService::NewStub(channel);
    for (int g = 0; g < kGames; ++g) {
      v1::CreateGameRequest req;
      req.set_rules("standard target=" + std::to_string(target));
      req.add_seats()->set_bot_name("crash-a");
      req.add_seats()->set_bot_name("crash-b");
      req.mutable_clock()->set_per_move_ms(kPerMoveMs);
      req.set_label("crash");
      v1::CreateGameResponse resp;
      grpc::ClientContext ctx;
      SetUp(&ctx, kAdminToken);
      ctx.set_wait_for_ready(true);
      const grpc::Status s = stub->CreateGame(&ctx, req, &resp);
      ASSERT_TRUE(s.ok()) << s.error_message();
      game_ids.push_back(resp.game_id());
      for (const v1::SeatToken& t : resp.tokens()) {
        seats.push_back({resp.game_id(), t.token(), t.seat()});
      }
    }
  }

  Ledger ledger;
  std::atomic<bool> throttle{true};
  Pace pace;
  pace.target = target;
  pace.kills = kills;
  // Every loop below is bounded by this.
  const Clock::time_point stop =
      Clock::now() + milliseconds(30000 + int64_t{kills} * 2000);
  std::vector<std::thread> bots;
  for (size_t i = 0; i < seats.size(); ++i) {
    bots.emplace_back([&, i] {
      const bool ended = RunBot(seats[i], port, seed * 1000 + i, throttle,
                                think_ms, pace, stop, ledger);
      if (ended && seats[i].seat == 0) ++ledger.games_done;
    });
  }

  // The killer: random pause, SIGKILL, restart on the same port and file.
  std::mt19937_64 rng(seed);
  int done_kills = 0, kills_while_running = 0;
  bool restart_failed = false;
  for (int k = 0; k < kills && Clock::now() < stop; ++k) {
    std::this_thread::sleep_for(milliseconds(100 + rng() % 501));
    if (ledger.games_done.load() == 0) ++kills_while_running;
    referee.Kill();
    ++done_kills;
    pace.kills_done = done_kills;
    if (!referee.Start()) {
      restart_failed = true;
      break;
    }
  }
  throttle = false;
  const auto kills_over = Clock::now();
  const int64_t transient_during_kills = ledger.transient_errors.load();
  for (std::thread& t : bots) t.join();
  const int64_t finish_ms =
      std::chrono::duration_cast<milliseconds>(Clock::now() - kills_over)
          .count();
  EXPECT_FALSE(restart_failed) << "the referee did not come back up:\n"
                               << Tail(referee.log());
  const int exit_status = referee.Stop();
  EXPECT_TRUE(WIFEXITED(exit_status) && WEXITSTATUS(exit_status) == 0)
      << "referee shutdown status " << exit_status << "\n"
      << Tail(referee.log());

  for (const std::string& f : ledger.failures()) ADD_FAILURE() << f;
  for (const std::string& n : ledger.notes())
    std::cout << "[crash] " << n << "\n";
  EXPECT_EQ(done_kills, kills);
  EXPECT_GE(kills_while_running, 1) << "every game ended before the kills";
  EXPECT_EQ(ledger.games_done.load(), kGames);

  const int64_t recorded_moves = CheckDatabase(referee.db(), game_ids, ledger);

  const std::filesystem::path verify_log = dir / "verify.log";
  const int verify =
      RunToCompletion({CASSINO_CLI_BINARY, "verify", referee.db().string()},
                      verify_log, milliseconds(60000));
  EXPECT_TRUE(verify >= 0 && WIFEXITED(verify) && WEXITSTATUS(verify) == 0)
      << "cassino verify failed (" << verify << "):\n"
      << Tail(verify_log);

  std::cout << "[crash] kills " << done_kills << " (" << kills_while_running
            << " while every game ran), games finished " << finish_ms
            << " ms after the last kill, referee starts " << referee.starts()
            << ", games " << ledger.games_done.load() << "/" << kGames
            << " (target " << target << "), moves acknowledged "
            << ledger.acked().size() << ", recorded " << recorded_moves
            << ", transient errors " << ledger.transient_errors.load() << " ("
            << ledger.transient_errors.load() - transient_during_kills
            << " after the last kill; by code:" <<
      [&] {
        std::string text;
        for (int c = 0; c <= 16; ++c) {
          if (ledger.transient_by_code[c].load() > 0) {
            text += " " + std::to_string(c) + "=" +
                    std::to_string(ledger.transient_by_code[c].load());
          }
        }
        return text;
      }() << ")"
            << ", resubmission attempts " << ledger.resubmissions.load() << " ("
            << ledger.idempotent_oks.load()
            << " resubmitted moves acknowledged), stale "
            << ledger.stale_unacked.load()
            << "; verify: " << Tail(verify_log, 200) << std::endl;
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

TEST(CrashTest, KillsDuringPlayLoseNoAcknowledgedMove) {
  RunCrashTest("normal", std::max(1, EnvInt("CASSINO_CRASH_KILLS", 5)));
}

TEST(CrashTest, KillsWithFullDurability) {
  RunCrashTest("full", std::max(3, EnvInt("CASSINO_CRASH_KILLS", 5) / 5));
}

}  // namespace
}  // namespace cassino
