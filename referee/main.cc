// cassino-referee: the Cassino referee gRPC server.
//
// See README.md ("The referee service") for flags and behaviour.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "referee/auth.h"
#include "referee/server.h"

namespace {

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream buffer;
  buffer << in.rdbuf();
  *out = buffer.str();
  return true;
}

// Whether the referee's listener on `host`:`port` still accepts
// connections: a TCP connection is opened and sent the HTTP/2 preface;
// any answer within `timeout_ms` (its SETTINGS, a TLS alert, the
// connection closed) means gRPC accepted it. Nullopt when this process
// cannot even open a socket (out of descriptors: not a verdict).
// (A connection that cannot be made is no verdict either: a full backlog
// or a firewall, not the listener.)
std::optional<bool> ListenerAnswers(const in_addr& host, int port,
                                    int timeout_ms) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::nullopt;
  timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));  // bounds connect
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr = host;
  std::optional<bool> answered;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    static constexpr char kPreface[] =
        "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\x04\0\0\0\0\0";
    (void)!send(fd, kPreface, sizeof(kPreface) - 1, MSG_NOSIGNAL);
    pollfd p{fd, POLLIN, 0};
    answered = poll(&p, 1, timeout_ms) > 0;
  }
  close(fd);
  return answered;
}

// The IPv4 address the watcher reaches `listen` (host:port) on: loopback
// for a wildcard; nullopt for an address it cannot reach (IPv6).
std::optional<in_addr> WatchAddress(const std::string& listen) {
  const std::string host = listen.substr(0, listen.rfind(':'));
  in_addr a{};
  if (host.empty() || host == "0.0.0.0" || host == "[::]" ||
      host == "localhost") {
    a.s_addr = htonl(INADDR_LOOPBACK);
    return a;
  }
  if (inet_pton(AF_INET, host.c_str(), &a) == 1) return a;
  return std::nullopt;
}

// gRPC 1.51's listener stops accepting for good once accept4 fails (e.g.
// EMFILE, the descriptor limit reached by a flood of connections): new
// clients then time out until a restart. Every `interval_ms`, this
// checks that the listener answers; after `failures` checks in a row
// that it does not, it logs why and stops the referee (SIGTERM to itself:
// the usual graceful stop), which then exits with kListenerDeadExit so
// that its supervisor restarts it (every unfinished game resumes).
constexpr int kListenerDeadExit = 75;
std::atomic<bool> listener_dead{false};

void WatchListener(in_addr host, int port, int interval_ms,
                   std::atomic<bool>* stop) {
  constexpr int kFailures = 3;
  int failed = 0;
  while (!stop->load()) {
    for (int waited = 0; waited < interval_ms && !stop->load(); waited += 50) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (stop->load()) return;
    const std::optional<bool> answers =
        ListenerAnswers(host, port, std::max(interval_ms, 1000));
    if (!answers.has_value()) continue;
    failed = *answers ? 0 : failed + 1;
    if (failed >= kFailures) {
      std::cerr << "cassino-referee: the listener on port " << port
                << " no longer accepts connections (" << kFailures
                << " checks in a row; gRPC 1.51 stops accepting after "
                   "accept4 fails, e.g. out of descriptors): stopping, "
                   "exit status "
                << kListenerDeadExit << ", for the supervisor to restart\n";
      listener_dead = true;
      kill(getpid(), SIGTERM);
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
#ifdef NDEBUG
  // Debian's abseil is built with absl::Mutex's deadlock detection on: a
  // lock-order graph updated on every Lock, about 3% of the referee's CPU
  // under load (docs/performance.md). Release builds skip it; Debug builds
  // (the sanitizer pass, the tests) keep it.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
#endif
  // Block the shutdown signals before gRPC starts threads, so that only the
  // sigwait below receives them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  CLI::App app{
      "cassino-referee: the Cassino referee. Bots play over gRPC "
      "(proto/cassino/v1); every game is recorded in SQLite."};
  cassino::service::ServerOptions options;
  std::string durability = "normal";
  std::string admin_token_file, tls_cert, tls_key, tls_client_ca, port_file;
  app.add_option("--listen", options.listen,
                 "address to listen on, host:port (port 0: any free port)")
      ->capture_default_str();
  app.add_option("--health-listen", options.health_listen,
                 "also serve the health service alone, in plaintext, on "
                 "host:port (for probes that cannot speak TLS, such as "
                 "Kubernetes' gRPC probes)");
  app.add_option("--db", options.db_path,
                 "SQLite database file (created if missing)")
      ->capture_default_str();
  app.add_option("--signing-key", options.signing_key_path,
                 "Ed25519 private key (PEM) to sign records with (default: "
                 "<db>.key, created on first start)");
  app.add_option("--durability", durability,
                 "normal: a recorded move survives a crash of the referee; "
                 "full: it survives power loss too")
      ->check(CLI::IsMember({"normal", "full"}))
      ->capture_default_str();
  app.add_option(
         "--checkpoint-pages", options.checkpoint_pages,
         absl::StrCat("WAL pages (4 KB) from which a background thread "
                      "copies the WAL into the database file (",
                      cassino::recorder::kQuietCheckpointFactor,
                      " times that while moves are recorded one at a "
                      "time); from ",
                      cassino::recorder::kCheckpointLimitFactor,
                      " times that the writer does it itself, so the WAL "
                      "stays below about ",
                      4 * cassino::recorder::kCheckpointLimitFactor,
                      " KB x this"))
      ->check(CLI::Range(16, 100000))
      ->capture_default_str();
  app.add_option("--commit-here-after", options.commit_here_after,
                 "with normal durability, once this many commits in a row "
                 "each held one write (a single game in play), the thread "
                 "that read a move commits it and sends the replies itself, "
                 "without the writer thread; 0: never")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  app.add_option("--admin-token-file", admin_token_file,
                 "file holding the admin token (else $CASSINO_ADMIN_TOKEN; "
                 "else a fresh token is printed on stderr)");
  app.add_option("--tls-cert", tls_cert,
                 "server certificate (PEM); enables TLS");
  app.add_option("--tls-key", tls_key, "server private key (PEM)");
  app.add_option("--tls-client-ca", tls_client_ca,
                 "CA (PEM) that client certificates must be signed by; "
                 "makes client certificates mandatory");
  app.add_option("--seat-rate", options.seat_rate.per_second,
                 "requests per second each seat may make on average (bursts "
                 "of twice that); more get RESOURCE_EXHAUSTED; 0: no limit")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  // Transport limits (docs/referee.md, "Limits").
  int64_t handshake_timeout_ms = options.handshake_timeout.count();
  int64_t max_connection_idle_ms = options.max_connection_idle.count();
  int64_t max_connection_age_ms = options.max_connection_age.count();
  int64_t max_connection_age_grace_ms =
      options.max_connection_age_grace.count();
  int64_t min_ping_interval_ms = options.min_ping_interval.count();
  int64_t memory_quota_mb = options.memory_quota_bytes >> 20;
  app.add_option("--max-streams-per-connection",
                 options.max_streams_per_connection,
                 "streams (calls) one connection may have open at once; more "
                 "wait in the client; 0: no limit")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--memory-quota-mb", memory_quota_mb,
                 "memory gRPC may use for connections and calls before it "
                 "shrinks buffers and cancels streams, MiB; 0: no bound")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--max-threads", options.max_threads,
                 "threads of gRPC's synchronous handlers (health, "
                 "reflection); 0: no bound")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--handshake-timeout-ms", handshake_timeout_ms,
                 "close a connection that has not completed its TLS and "
                 "HTTP/2 handshake within this; 0: gRPC's 120 s")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--max-connection-idle-ms", max_connection_idle_ms,
                 "close a connection with no open call for this long "
                 "(GOAWAY); 0: never")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--max-connection-age-ms", max_connection_age_ms,
                 "send GOAWAY to a connection this old (new calls go to a "
                 "new connection); 0: no age limit")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--max-connection-age-grace-ms", max_connection_age_grace_ms,
                 "after --max-connection-age-ms, cancel the calls still open "
                 "after this; 0: let them finish")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--min-ping-interval-ms", min_ping_interval_ms,
                 "a client ping without data sooner than this after the "
                 "last is a strike")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--max-ping-strikes", options.max_ping_strikes,
                 "strikes before the connection is closed (GOAWAY "
                 "too_many_pings); 0: no limit")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--max-metadata-bytes", options.max_metadata_bytes,
                 "bytes of metadata (headers) a request may carry")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--absent-games-in-flight", options.absent_games_in_flight,
                 "tournament games created and forfeited or aborted for "
                 "absence at once (bounds the writes queued ahead of other "
                 "games' moves)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--max-ladders", options.ladders.max_ladders,
                 "ladders this referee may hold")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--max-ladder-versions",
                 options.ladders.max_versions_per_account,
                 "versions one bot account may join one ladder with (each "
                 "is rated, and recorded)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--ladder-games-in-flight", options.ladders.max_creating,
                 "ladder games being created at once, over all ladders "
                 "(bounds the writes queued ahead of other games' moves)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  int64_t ladder_twin_wait_ms = 600000;
  app.add_option("--ladder-twin-wait-ms", ladder_twin_wait_ms,
                 "how long the second game of a ladder's duplicate pair "
                 "waits for its bots before it is given up")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  int listener_check_ms = 5000;
  app.add_option("--listener-check-ms", listener_check_ms,
                 "check this often that the listener still accepts "
                 "connections; after 3 failed checks in a row, stop with "
                 "exit status 75 (for the supervisor to restart); 0: never")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--port-file", port_file,
                 "write the port actually listened on to this file");
  cassino::service::ClientLimits& limits = options.limits;
  app.add_option("--max-waiters-per-seat", limits.max_waiters_per_seat,
                 "GetTurn(wait) calls one seat may have waiting at once; "
                 "more get RESOURCE_EXHAUSTED (LIMIT_REACHED)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--max-watchers-per-game", limits.max_watchers_per_game,
                 "WatchGame streams of one running game")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--max-watchers", limits.max_watchers,
                 "WatchGame streams of the whole referee")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--stream-queue-max", limits.stream_queue_max,
                 "messages a stream's client may leave unread before the "
                 "stream is ended")
      ->check(CLI::Range(64, 1 << 20))
      ->capture_default_str();
  app.add_option("--max-queued-reads", limits.max_queued_reads,
                 "database reads (GetGame, ListGames, GetTournament, "
                 "ListTournaments, WatchGame of an older game) that may "
                 "wait for the read threads; more get RESOURCE_EXHAUSTED "
                 "(LIMIT_REACHED)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  int64_t stop_grace_ms = options.stop_grace.count();
  app.add_option("--stop-grace-ms", stop_grace_ms,
                 "on SIGTERM, how long calls may take to finish before they "
                 "are cancelled")
      ->check(CLI::Range(int64_t{0}, int64_t{60000}))
      ->capture_default_str();
  int64_t stop_timeout_ms = 15000;
  app.add_option("--stop-timeout-ms", stop_timeout_ms,
                 "on SIGTERM, the bound on the whole stop: past it the "
                 "process exits at once (every acknowledged move is already "
                 "on disk)")
      ->check(CLI::Range(int64_t{1000}, int64_t{600000}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  options.stop_grace = std::chrono::milliseconds(stop_grace_ms);
  options.ladders.twin_wait = std::chrono::milliseconds(ladder_twin_wait_ms);

  absl::StatusOr<cassino::recorder::Durability> d =
      cassino::recorder::ParseDurability(durability);
  if (!d.ok()) {
    std::cerr << "cassino-referee: " << d.status().message() << "\n";
    return 2;
  }
  options.durability = *d;
  options.seat_rate.burst = 2 * options.seat_rate.per_second;
  options.handshake_timeout = std::chrono::milliseconds(handshake_timeout_ms);
  options.max_connection_idle =
      std::chrono::milliseconds(max_connection_idle_ms);
  options.max_connection_age = std::chrono::milliseconds(max_connection_age_ms);
  options.max_connection_age_grace =
      std::chrono::milliseconds(max_connection_age_grace_ms);
  options.min_ping_interval = std::chrono::milliseconds(min_ping_interval_ms);
  options.memory_quota_bytes = memory_quota_mb << 20;
  // Every connection is a descriptor: take all the system allows.
  std::cerr << "cassino-referee: " << cassino::service::RaiseDescriptorLimit()
            << "\n";
  if (!admin_token_file.empty()) {
    if (!ReadFile(admin_token_file, &options.admin_token)) {
      std::cerr << "cassino-referee: cannot read " << admin_token_file << "\n";
      return 2;
    }
    while (!options.admin_token.empty() &&
           isspace(static_cast<unsigned char>(options.admin_token.back()))) {
      options.admin_token.pop_back();
    }
  } else if (const char* env = std::getenv("CASSINO_ADMIN_TOKEN")) {
    options.admin_token = env;
  }
  if (options.admin_token.empty()) {
    options.admin_token = cassino::service::NewToken();
    std::cerr << "cassino-referee: admin token " << options.admin_token << "\n";
  }
  if (tls_cert.empty() != tls_key.empty()) {
    std::cerr << "cassino-referee: --tls-cert and --tls-key go together\n";
    return 2;
  }
  if ((!tls_cert.empty() && (!ReadFile(tls_cert, &options.tls_cert_pem) ||
                             !ReadFile(tls_key, &options.tls_key_pem))) ||
      (!tls_client_ca.empty() &&
       !ReadFile(tls_client_ca, &options.tls_client_ca_pem))) {
    std::cerr << "cassino-referee: cannot read a TLS file\n";
    return 2;
  }
  if (!tls_client_ca.empty() && tls_cert.empty()) {
    std::cerr << "cassino-referee: --tls-client-ca needs --tls-cert\n";
    return 2;
  }

  absl::StatusOr<std::unique_ptr<cassino::service::RefereeServer>> server =
      cassino::service::RefereeServer::Start(options);
  if (!server.ok()) {
    std::cerr << "cassino-referee: " << server.status().message() << "\n";
    return 1;
  }
  std::cerr << "cassino-referee: listening on port " << (*server)->port()
            << " (" << (options.tls_cert_pem.empty() ? "plaintext" : "TLS")
            << "), database " << options.db_path << ", "
            << (*server)->resumed_games() << " unfinished game(s) resumed, "
            << (*server)->scheduler().Running() << " tournament(s) running, "
            << (*server)->ladders().Open() << " ladder(s) open";
  if ((*server)->health_port() != 0) {
    std::cerr << "; health on port " << (*server)->health_port();
  }
  std::cerr << "\n";
  std::cerr << "cassino-referee: signing records with Ed25519 key "
            << (*server)->recorder().signing_public_key() << " ("
            << (*server)->signing_key_path()
            << ((*server)->signing_key_created() ? ", created now" : "")
            << ")\n";
  for (const std::string& damaged : (*server)->damaged_games()) {
    std::cerr << "cassino-referee: not resumed, its record is damaged: "
              << damaged << " (docs/crash_safety.md)\n";
  }
  if (!port_file.empty()) {
    std::ofstream(port_file) << (*server)->port() << "\n";
  }

  std::atomic<bool> stop_watch{false};
  std::thread watcher;
  if (listener_check_ms > 0) {
    if (std::optional<in_addr> host = WatchAddress(options.listen)) {
      watcher = std::thread(WatchListener, *host, (*server)->port(),
                            listener_check_ms, &stop_watch);
    } else {
      std::cerr << "cassino-referee: --listener-check-ms: cannot check "
                << options.listen << " (IPv4 addresses only); not checked\n";
    }
  }
  int signal_number = 0;
  sigwait(&signals, &signal_number);
  std::cerr << "cassino-referee: signal " << signal_number
            << ", shutting down\n";
  // The stop is bounded whatever a client does: past the timeout the
  // process exits (nothing acknowledged is lost: acknowledgements follow
  // commits) and releases the database for a replacement.
  std::thread([stop_timeout_ms] {
    std::this_thread::sleep_for(std::chrono::milliseconds(stop_timeout_ms));
    std::cerr << "cassino-referee: the stop took over " << stop_timeout_ms
              << " ms; exiting now\n";
    std::_Exit(1);
  }).detach();
  (*server)->Shutdown();
  stop_watch = true;
  if (watcher.joinable()) watcher.join();
  return listener_dead ? kListenerDeadExit : 0;
}
