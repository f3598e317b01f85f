// cassino-referee: the Cassino referee gRPC server.
//
// See README.md ("The referee service") for flags and behaviour.

#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "CLI/CLI.hpp"
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

  absl::StatusOr<cassino::recorder::Durability> d =
      cassino::recorder::ParseDurability(durability);
  if (!d.ok()) {
    std::cerr << "cassino-referee: " << d.status().message() << "\n";
    return 2;
  }
  options.durability = *d;
  options.seat_rate.burst = 2 * options.seat_rate.per_second;
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
            << (*server)->scheduler().Running() << " tournament(s) running";
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
  return 0;
}
