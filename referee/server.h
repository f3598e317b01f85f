// A running referee: database, clocks, games and the gRPC server, assembled
// in the right order and torn down in the reverse one. Used by the
// `cassino-referee` binary and, in-process, by the tests and benchmarks.

#ifndef CASSINO_REFEREE_SERVER_H_
#define CASSINO_REFEREE_SERVER_H_

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "grpcpp/generic/async_generic_service.h"
#include "grpcpp/grpcpp.h"
#include "recorder/recorder.h"
#include "referee/db_lock.h"
#include "referee/deadline_timer.h"
#include "referee/ladder.h"
#include "referee/limits.h"
#include "referee/referee_service.h"
#include "referee/reflection_v1.h"
#include "referee/registry.h"
#include "referee/scheduler.h"

namespace cassino::service {

struct ServerOptions {
  // host:port; port 0 picks a free one (see RefereeServer::port()).
  std::string listen = "127.0.0.1:50051";
  // host:port of a second, always plaintext listener that serves only the
  // standard health service (grpc.health.v1.Health), for probes that cannot
  // speak TLS, such as the Kubernetes kubelet's. Empty: none. It reveals
  // nothing but the serving status.
  std::string health_listen;
  std::string db_path = "cassino.db";
  // The Ed25519 key the referee signs its records with (a PEM private key
  // file; recorder/signature.h). Empty: `<database file>.key` (for a
  // `file:` URI, its path without the query), created (mode
  // 0600) on first start. A file named here must exist.
  std::string signing_key_path;
  recorder::Durability durability = recorder::Durability::kNormal;
  // WAL pages from which a thread of the recorder's own copies the WAL into
  // the database file (the writer itself does at 4 times that, which bounds
  // the WAL: recorder/checkpointer.h).
  int checkpoint_pages = 1000;
  // RecorderOptions::commit_here_after: with normal durability, moves are
  // committed on the thread that read them while the recorder is quiet.
  int commit_here_after = 8;
  // Required.
  std::string admin_token;
  // TLS: PEM file contents. Without a certificate the server is plaintext.
  std::string tls_cert_pem;
  std::string tls_key_pem;
  // When set, clients must present a certificate signed by this CA.
  std::string tls_client_ca_pem;
  // Requests each seat may make: calls and Play-stream messages.
  RateLimit seat_rate;
  // How long an ended game stays in memory before only the database serves
  // it (GetGame, WatchGame); its bots are then told the game is over.
  std::chrono::milliseconds keep_ended = std::chrono::seconds(60);
  // How long after its game's end a seat token still works (reading the
  // result, resending the last move), across restarts.
  std::chrono::milliseconds token_retention = std::chrono::hours(24);
  // What one client may make the referee hold (referee/limits.h).
  ClientLimits limits;
  // How long a stop waits for calls to finish before cancelling them.
  std::chrono::milliseconds stop_grace = std::chrono::seconds(2);
  // Tests: the referee's time stands still until timer().Advance()
  // (DeadlineTimer::kManualTime).
  bool manual_time = false;
  // Tournament games created and forfeited or aborted for absence at once
  // (Scheduler): bounds the writes they queue ahead of other games' moves.
  int absent_games_in_flight = Scheduler::kDefaultAbsentBatch;
  // What the ladders may hold (Ladders::Options: --max-ladders,
  // --max-ladder-versions, --ladder-games-in-flight,
  // --ladder-twin-wait-ms).
  Ladders::Options ladders;

  // Transport limits, each a flag of cassino-referee (docs/referee.md,
  // "Limits"); gRPC 1.51 channel arguments and a grpc::ResourceQuota.
  // Streams one connection may have open at once (HTTP/2
  // SETTINGS_MAX_CONCURRENT_STREAMS); more wait in the client. 0: no limit.
  int max_streams_per_connection = 1000;
  // Memory gRPC may take for connections and calls (buffers, call arenas)
  // before it shrinks buffers and then cancels streams. 0: no bound.
  int64_t memory_quota_bytes = int64_t{1} << 30;
  // Threads of gRPC's synchronous handlers (the health and reflection
  // services; the referee's own API runs on callbacks). 0: no bound.
  int max_threads = 64;
  // A connection that has not completed its handshake (TLS, and the
  // HTTP/2 preface and SETTINGS) within this is closed: silent TCP
  // connections give their descriptor back.
  std::chrono::milliseconds handshake_timeout = std::chrono::seconds(10);
  // A connection with no call open for this long is sent GOAWAY and
  // closed (a Play, Lobby or Watch stream is an open call). 0: never.
  std::chrono::milliseconds max_connection_idle = std::chrono::minutes(2);
  // A connection older than this is sent GOAWAY (new calls go to a new
  // connection); calls still open get max_connection_age_grace, then are
  // cancelled. 0: no age limit; a grace of 0: no limit to the grace.
  std::chrono::milliseconds max_connection_age{0};
  std::chrono::milliseconds max_connection_age_grace{0};
  // Pings without data more often than this are strikes; after
  // max_ping_strikes the connection is closed (GOAWAY too_many_pings).
  std::chrono::milliseconds min_ping_interval = std::chrono::seconds(60);
  int max_ping_strikes = 2;
  // Bytes of request metadata (headers) a call may send.
  int max_metadata_bytes = 8 * 1024;
};

// Raises this process's soft limit of open descriptors (RLIMIT_NOFILE) to
// its hard limit; returns a line saying what it did, for the log.
std::string RaiseDescriptorLimit();

class RefereeServer {
 public:
  // Locks the database (DbLock: FailedPrecondition if another referee holds
  // it), opens it, resumes unfinished games and starts serving; Unavailable
  // if `listen` (or `health_listen`) is in use: ports are bound without
  // SO_REUSEPORT, so a second referee cannot share one.
  static absl::StatusOr<std::unique_ptr<RefereeServer>> Start(
      const ServerOptions& options);
  // Shutdown()s.
  ~RefereeServer();

  int port() const { return port_; }
  // The health listener's port; 0 without ServerOptions::health_listen.
  int health_port() const { return health_port_; }
  int resumed_games() const { return resumed_; }
  // The unfinished games that could not be resumed ("game ID: why"); they
  // stay in the database as they are (docs/crash_safety.md).
  const std::vector<std::string>& damaged_games() const { return damaged_; }
  Registry& registry() { return *registry_; }
  Scheduler& scheduler() { return *scheduler_; }
  Ladders& ladders() { return *ladders_; }
  DeadlineTimer& timer() { return *timer_; }
  recorder::Recorder& recorder() { return *recorder_; }
  // The signing key's file, and whether this start created it.
  const std::string& signing_key_path() const { return signing_key_path_; }
  bool signing_key_created() const { return signing_key_created_; }

  // Stops the clocks first (a stop decides no game), answers parked calls
  // and ends open streams (SHUTTING_DOWN), stops accepting calls (waiting
  // up to ServerOptions::stop_grace for calls to finish, then cancelling
  // them) and flushes the record. Idempotent.
  void Shutdown();

 private:
  RefereeServer() = default;
  // The health services' status: NOT_SERVING while the storage takes no
  // write.
  void SetServing(bool serving);

  // Held from before the database opens until after it closes: no second
  // referee runs on the same database.
  std::unique_ptr<DbLock> db_lock_;
  std::unique_ptr<recorder::Recorder> recorder_;
  std::unique_ptr<DeadlineTimer> timer_;
  // Destroyed after the registry, whose lobby calls it (Shutdown resets
  // them in that order too).
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<Ladders> ladders_;
  std::unique_ptr<Registry> registry_;
  std::unique_ptr<RefereeServiceImpl> service_;
  // grpc.reflection.v1 (the plugin serves v1alpha).
  std::unique_ptr<ReflectionV1> reflection_v1_;
  std::unique_ptr<grpc::Server> server_;
  // Serves only the health service (ServerOptions::health_listen), or null;
  // every other method gets UNIMPLEMENTED from health_fallback_, which also
  // gives that server the callback method gRPC requires of every server.
  std::unique_ptr<grpc::CallbackGenericService> health_fallback_;
  std::unique_ptr<grpc::Server> health_server_;
  int port_ = 0;
  int health_port_ = 0;
  int resumed_ = 0;
  std::vector<std::string> damaged_;
  std::chrono::milliseconds stop_grace_{2000};
  std::string signing_key_path_;
  bool signing_key_created_ = false;
  bool shut_down_ = false;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_SERVER_H_
