// referee_bench: the referee under bots that answer instantly, measured in
// the same run as a bare gRPC bidi-stream ping-pong (the physical baseline).
//
// For each concurrency G (default 1, 16, 64) and each durability mode, G
// two-player games run at once for --seconds; every game that ends is
// replaced by a new one, so G games are always live. Each bot is a thread
// with a synchronous Play stream that answers YourTurn with the first legal
// move. A move's round trip is the time from writing the move to reading its
// verdict (which the referee sends only once the move is committed to the
// database). The baseline runs G streams that each send a message of the
// size of a typical YourTurn and wait for its echo.
//
// Reported per run: round trips per second (moves for the referee), all
// messages per second in both directions (a move costs five: the move, its
// verdict, the played move to both seats and the next YourTurn; an echo
// costs two), p50 and p99 round-trip latency, and the message rate as a
// share of the baseline's.
//
// Everything (server, database, bots) shares this machine's cores, as a
// referee and local bots would.
//
// Usage: referee_bench [--seconds S] [--games 1,16,64] [--modes normal,full]
//                      [--dir DIR]

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "bench/echo.grpc.pb.h"
#include "bench/echo_service.h"
#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/server.h"

namespace {

namespace v1 = ::cassino::v1;
using Clock = std::chrono::steady_clock;

constexpr char kAdmin[] = "bench-admin-token";

struct Result {
  int64_t round_trips = 0;
  int64_t messages = 0;  // every message either way
  double seconds = 0;
  std::vector<double> latencies_us;
  double Rate() const { return round_trips / seconds; }
  double MessageRate() const { return messages / seconds; }
  double Percentile(double p) {
    if (latencies_us.empty()) return 0;
    std::sort(latencies_us.begin(), latencies_us.end());
    return latencies_us[std::min(latencies_us.size() - 1,
                                 static_cast<size_t>(p * latencies_us.size()))];
  }
};

double Micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

// ---- Baseline: echo -------------------------------------------------------

Result RunEcho(int streams, double seconds, size_t payload_bytes) {
  cassino::bench::EchoServiceImpl service;
  int port = 0;
  std::unique_ptr<grpc::Server> server =
      cassino::bench::ServeInsecure(&service, "127.0.0.1:0", &port);
  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(port),
                                     grpc::InsecureChannelCredentials());
  auto stub = cassino::bench::EchoService::NewStub(channel);

  std::mutex mu;
  Result result;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < streams; ++i) {
    threads.emplace_back([&] {
      grpc::ClientContext ctx;
      auto stream = stub->Echo(&ctx);
      cassino::bench::EchoMessage msg, reply;
      msg.set_payload(std::string(payload_bytes, 'x'));
      std::vector<double> lat;
      while (!stop.load(std::memory_order_relaxed)) {
        const Clock::time_point t0 = Clock::now();
        if (!stream->Write(msg) || !stream->Read(&reply)) break;
        lat.push_back(Micros(Clock::now() - t0));
      }
      stream->WritesDone();
      stream->Finish();
      std::lock_guard<std::mutex> lock(mu);
      result.round_trips += lat.size();
      result.messages += 2 * lat.size();
      result.latencies_us.insert(result.latencies_us.end(), lat.begin(),
                                 lat.end());
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (auto& t : threads) t.join();
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  server->Shutdown();
  return result;
}

// ---- The referee ----------------------------------------------------------

std::unique_ptr<grpc::ClientContext> Context(const std::string& token) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->AddMetadata("authorization", "Bearer " + token);
  return ctx;
}

// Plays one seat to the end; records each move's round trip.
void PlaySeat(v1::RefereeService::Stub& stub, const std::string& token,
              std::vector<double>* latencies, std::atomic<int64_t>* moves,
              std::atomic<int64_t>* messages) {
  auto ctx = Context(token);
  auto stream = stub.Play(ctx.get());
  v1::PlayResponse msg;
  Clock::time_point sent{};
  while (stream->Read(&msg)) {
    messages->fetch_add(1, std::memory_order_relaxed);
    if (msg.has_your_turn()) {
      messages->fetch_add(1, std::memory_order_relaxed);  // the answer
      v1::PlayRequest req;
      req.set_turn(msg.your_turn().turn());
      req.mutable_move()->set_notation(
          msg.your_turn().legal_moves(0).notation());
      sent = Clock::now();
      if (!stream->Write(req)) break;
    } else if (msg.has_verdict()) {
      latencies->push_back(Micros(Clock::now() - sent));
      moves->fetch_add(1, std::memory_order_relaxed);
    }
  }
  stream->WritesDone();
  stream->Finish();
}

Result RunReferee(int games, double seconds,
                  cassino::recorder::Durability durability,
                  const std::filesystem::path& dir, size_t* message_bytes) {
  const std::filesystem::path db =
      dir / ("bench_" + std::to_string(games) + "_" +
             std::to_string(static_cast<int>(durability)) + ".db");
  std::filesystem::remove(db);
  std::filesystem::remove(db.string() + "-wal");
  std::filesystem::remove(db.string() + "-shm");
  cassino::service::ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.db_path = db.string();
  options.durability = durability;
  options.admin_token = kAdmin;
  auto server = cassino::service::RefereeServer::Start(options);
  if (!server.ok()) {
    std::fprintf(stderr, "referee: %s\n",
                 std::string(server.status().message()).c_str());
    std::exit(1);
  }
  auto channel =
      grpc::CreateChannel("127.0.0.1:" + std::to_string((*server)->port()),
                          grpc::InsecureChannelCredentials());
  auto stub = v1::RefereeService::NewStub(channel);

  std::mutex mu;
  Result result;
  std::atomic<int64_t> moves{0};
  std::atomic<int64_t> messages{0};
  std::atomic<bool> stop{false};
  std::atomic<int> seed_counter{0};
  std::vector<std::thread> slots;
  const Clock::time_point start = Clock::now();
  for (int g = 0; g < games; ++g) {
    slots.emplace_back([&] {
      std::vector<double> lat0, lat1;
      while (!stop.load(std::memory_order_relaxed)) {
        v1::CreateGameRequest req;
        req.add_seats()->set_bot_name("a");
        req.add_seats()->set_bot_name("b");
        char seed[65];
        std::snprintf(seed, sizeof(seed), "%064x", seed_counter.fetch_add(1));
        req.set_seed(seed);
        req.mutable_clock()->set_per_move_ms(60000);
        v1::CreateGameResponse created;
        if (!stub->CreateGame(Context(kAdmin).get(), req, &created).ok()) break;
        std::thread other([&] {
          PlaySeat(*stub, created.tokens(1).token(), &lat1, &moves, &messages);
        });
        PlaySeat(*stub, created.tokens(0).token(), &lat0, &moves, &messages);
        other.join();
      }
      std::lock_guard<std::mutex> lock(mu);
      result.latencies_us.insert(result.latencies_us.end(), lat0.begin(),
                                 lat0.end());
      result.latencies_us.insert(result.latencies_us.end(), lat1.begin(),
                                 lat1.end());
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  const int64_t counted = moves.load();
  const int64_t counted_messages = messages.load();
  const double elapsed =
      std::chrono::duration<double>(Clock::now() - start).count();
  for (auto& t : slots) t.join();  // games in flight finish
  result.round_trips = counted;
  result.messages = counted_messages;
  result.seconds = elapsed;
  const cassino::recorder::Recorder::Stats stats =
      (*server)->recorder().stats();
  std::fprintf(stderr, "  [%d games] %lld transactions, %lld writes\n", games,
               static_cast<long long>(stats.transactions),
               static_cast<long long>(stats.writes));
  (*server)->Shutdown();
  (void)message_bytes;
  return result;
}

std::vector<int> ParseInts(const std::string& text) {
  std::vector<int> out;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int v = 0;
    if (absl::SimpleAtoi(part, &v) && v > 0) out.push_back(v);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 5;
  std::vector<int> games = {1, 16, 64};
  std::vector<std::string> modes = {"normal", "full"};
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::string games_text = "1,16,64", modes_text = "normal,full";
  std::string dir_text = dir.string();
  CLI::App app(
      "The referee under bots that answer instantly, against a bare gRPC "
      "echo stream measured in the same run (see the comment at the top of "
      "bench/referee_bench.cc and docs/performance.md).",
      "referee_bench");
  app.add_option("--seconds", seconds, "seconds per run")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--games", games_text,
                 "concurrent games per run, comma-separated")
      ->capture_default_str();
  app.add_option("--modes", modes_text,
                 "durability modes, comma-separated (normal, full)")
      ->capture_default_str();
  app.add_option("--dir", dir_text, "directory for the benchmark databases")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  games = ParseInts(games_text);
  modes.clear();
  for (absl::string_view m : absl::StrSplit(modes_text, ',')) {
    if (m != "normal" && m != "full") {
      std::fprintf(stderr, "referee_bench: unknown mode '%s'\n",
                   std::string(m).c_str());
      return 2;
    }
    modes.emplace_back(m);
  }
  dir = dir_text;
  // A typical YourTurn (2 players, mid-round) is about 1 KB on the wire.
  constexpr size_t kPayload = 1000;
  std::printf("%-16s %6s %13s %11s %9s %9s %s\n", "run", "games",
              "round-trips/s", "messages/s", "p50 us", "p99 us",
              "messages/s vs baseline");
  for (int g : games) {
    Result echo = RunEcho(g, seconds, kPayload);
    std::printf("%-16s %6d %13.0f %11.0f %9.0f %9.0f\n", "baseline echo", g,
                echo.Rate(), echo.MessageRate(), echo.Percentile(0.5),
                echo.Percentile(0.99));
    for (const std::string& mode : modes) {
      absl::StatusOr<cassino::recorder::Durability> d =
          cassino::recorder::ParseDurability(mode);
      if (!d.ok()) {
        std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
        return 2;
      }
      size_t bytes = 0;
      Result r = RunReferee(g, seconds, *d, dir, &bytes);
      const std::string name = "referee " + mode;
      std::printf("%-16s %6d %13.0f %11.0f %9.0f %9.0f %5.0f%%\n", name.c_str(),
                  g, r.Rate(), r.MessageRate(), r.Percentile(0.5),
                  r.Percentile(0.99),
                  100.0 * r.MessageRate() / echo.MessageRate());
      std::fflush(stdout);
    }
  }
  return 0;
}
