#include "referee/server.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/resource_quota.h"
#include "referee/errors.h"
#include "referee/grpc_status.h"
#include "referee/undecodable.h"
#include "referee/wall_clock.h"

namespace cassino::service {
namespace {

// A database that a referee used (its lock file is there) but whose file
// is gone was deleted or moved: creating an empty one in its place would
// hide every game it held. FailedPrecondition, saying what to do.
absl::Status CheckNotLost(const std::string& db_path, bool lock_existed) {
  if (!lock_existed || absl::StartsWith(db_path, "file:")) {
    return absl::OkStatus();
  }
  struct stat st;
  if (::stat(db_path.c_str(), &st) == 0 || errno != ENOENT) {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "the database ", db_path, " is missing, though ", db_path,
      ".lock shows that a referee used it: restore the file (a backup, or "
      "the replica of docs/deployment.md), or delete ",
      db_path, ".lock to start an empty database"));
}

// The file a --db names: itself, or the path of a `file:` URI (without its
// query), beside which the signing key lives.
std::string DatabaseFile(const std::string& db_path) {
  if (!absl::StartsWith(db_path, "file:")) return db_path;
  std::string file = db_path.substr(5);
  return file.substr(0, file.find('?'));
}

// A duration as an int channel argument; 0 (off) as INT_MAX, gRPC's
// "unlimited".
int MillisArg(std::chrono::milliseconds ms) {
  if (ms.count() <= 0 || ms.count() >= std::numeric_limits<int>::max()) {
    return std::numeric_limits<int>::max();
  }
  return static_cast<int>(ms.count());
}

void ApplyTransportLimits(const ServerOptions& options,
                          grpc::ServerBuilder& builder) {
  if (options.max_streams_per_connection > 0) {
    builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                               options.max_streams_per_connection);
  }
  if (options.memory_quota_bytes > 0 || options.max_threads > 0) {
    grpc::ResourceQuota quota("cassino-referee");
    if (options.memory_quota_bytes > 0) {
      quota.Resize(static_cast<size_t>(options.memory_quota_bytes));
    }
    if (options.max_threads > 0) quota.SetMaxThreads(options.max_threads);
    builder.SetResourceQuota(quota);
  }
  if (options.handshake_timeout.count() > 0) {  // (else gRPC's 120 s)
    builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS,
                               MillisArg(options.handshake_timeout));
  }
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS,
                             MillisArg(options.max_connection_idle));
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS,
                             MillisArg(options.max_connection_age));
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS,
                             MillisArg(options.max_connection_age_grace));
  builder.AddChannelArgument(
      GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS,
      MillisArg(options.min_ping_interval));
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES,
                             options.max_ping_strikes);
  if (options.max_metadata_bytes > 0) {
    builder.AddChannelArgument(GRPC_ARG_MAX_METADATA_SIZE,
                               options.max_metadata_bytes);
  }
}

}  // namespace

std::string RaiseDescriptorLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return absl::StrCat("cannot read the descriptor limit: ",
                        std::strerror(errno));
  }
  const rlim_t before = limit.rlim_cur;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
      return absl::StrCat("descriptor limit ", before,
                          " (cannot raise it to the hard limit ",
                          limit.rlim_max, ": ", std::strerror(errno), ")");
    }
    return absl::StrCat("descriptor limit raised from ", before,
                        " to the hard limit ", limit.rlim_cur);
  }
  return absl::StrCat("descriptor limit ", before, " (the hard limit)");
}

absl::StatusOr<std::unique_ptr<RefereeServer>> RefereeServer::Start(
    const ServerOptions& options) {
  if (options.admin_token.empty()) {
    return absl::InvalidArgumentError("an admin token is required");
  }
  std::unique_ptr<RefereeServer> s(new RefereeServer());
  // The signing key first: a start refused for its key leaves nothing
  // behind (no lock file that would make the database look lost).
  s->signing_key_path_ = options.signing_key_path.empty()
                             ? DatabaseFile(options.db_path) + ".key"
                             : options.signing_key_path;
  absl::StatusOr<recorder::SigningKey> key =
      options.signing_key_path.empty()
          ? recorder::SigningKey::LoadOrCreate(s->signing_key_path_,
                                               &s->signing_key_created_)
          : recorder::SigningKey::ReadFile(s->signing_key_path_);
  if (!key.ok()) return key.status();
  // (Looked at before Acquire creates the lock file.)
  struct stat lock_stat;
  const bool lock_existed =
      ::stat((options.db_path + ".lock").c_str(), &lock_stat) == 0;
  absl::StatusOr<std::unique_ptr<DbLock>> lock =
      DbLock::Acquire(options.db_path);
  if (!lock.ok()) return lock.status();
  s->db_lock_ = std::move(*lock);
  s->stop_grace_ = options.stop_grace;
  if (absl::Status st = CheckNotLost(options.db_path, lock_existed); !st.ok()) {
    return st;
  }
  recorder::RecorderOptions recorder_options;
  recorder_options.durability = options.durability;
  recorder_options.checkpoint_pages = options.checkpoint_pages;
  recorder_options.commit_here_after = options.commit_here_after;
  recorder_options.probe_interval = options.limits.recover_interval;
  recorder_options.signing_key = *std::move(key);
  absl::StatusOr<std::unique_ptr<recorder::Recorder>> recorder =
      recorder::Recorder::Open(options.db_path, recorder_options);
  if (!recorder.ok()) return recorder.status();
  s->recorder_ = std::move(*recorder);
  s->timer_ = options.manual_time
                  ? std::make_unique<DeadlineTimer>(DeadlineTimer::kManualTime)
                  : std::make_unique<DeadlineTimer>();
  s->registry_ = std::make_unique<Registry>(
      s->recorder_.get(), s->timer_.get(), options.admin_token,
      options.seat_rate, options.keep_ended, options.token_retention,
      options.limits);
  // (Before the games resume: a ladder game that ends meanwhile is seen.)
  s->ladders_ = std::make_unique<Ladders>(s->registry_.get(), options.ladders);
  absl::StatusOr<Registry::Resumed> resumed = s->registry_->ResumeAll();
  if (!resumed.ok()) return resumed.status();
  s->resumed_ = resumed->games;
  s->damaged_ = std::move(resumed->damaged);
  s->scheduler_ = std::make_unique<Scheduler>(s->registry_.get(),
                                              options.absent_games_in_flight);
  if (absl::Status st = s->scheduler_->Load(); !st.ok()) return st;
  if (absl::Status st = s->ladders_->Load(); !st.ok()) return st;
  s->service_ = std::make_unique<RefereeServiceImpl>(
      s->registry_.get(), s->scheduler_.get(), s->ladders_.get());

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  std::shared_ptr<grpc::ServerCredentials> credentials;
  if (!options.tls_cert_pem.empty()) {
    grpc::SslServerCredentialsOptions ssl(
        options.tls_client_ca_pem.empty()
            ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
            : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    ssl.pem_root_certs = options.tls_client_ca_pem;
    ssl.pem_key_cert_pairs.push_back(
        {options.tls_key_pem, options.tls_cert_pem});
    credentials = grpc::SslServerCredentials(ssl);
  } else {
    credentials = grpc::InsecureServerCredentials();
  }
  builder.AddListeningPort(options.listen, credentials, &s->port_);
  // gRPC binds with SO_REUSEPORT by default, which would let a second
  // referee share the port (and half the connections).
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.RegisterService(s->service_.get());
  s->reflection_v1_ = std::make_unique<ReflectionV1>(std::vector<std::string>{
      v1::RefereeService::service_full_name(),
      "grpc.health.v1.Health",
      grpc::reflection::v1::ServerReflection::service_full_name(),
      "grpc.reflection.v1alpha.ServerReflection",
  });
  builder.RegisterService(s->reflection_v1_.get());
  // Requests are small; a bound keeps a hostile client from sending huge ones.
  builder.SetMaxReceiveMessageSize(64 * 1024);
  // What one client may hold: streams, memory, silent and idle
  // connections, pings, headers (ServerOptions; docs/referee.md, "Limits").
  ApplyTransportLimits(options, builder);
  // Requests that do not decode: INVALID_ARGUMENT, not gRPC's bare
  // UNIMPLEMENTED (undecodable.h).
  std::vector<
      std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
      interceptors;
  interceptors.push_back(UndecodableRequestInterceptor());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  s->server_ = builder.BuildAndStart();
  if (!s->server_ || s->port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", options.listen,
                     ": the address is in use (another referee?) or not "
                     "available"));
  }
  if (!options.health_listen.empty()) {
    // Built after EnableDefaultHealthCheckService, it gets the default health
    // service too; everything else is UNIMPLEMENTED.
    s->health_fallback_ = std::make_unique<grpc::CallbackGenericService>();
    grpc::ServerBuilder health;
    health.RegisterCallbackGenericService(s->health_fallback_.get());
    health.AddListeningPort(options.health_listen,
                            grpc::InsecureServerCredentials(),
                            &s->health_port_);
    health.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    health.SetMaxReceiveMessageSize(4 * 1024);
    ApplyTransportLimits(options, health);
    s->health_server_ = health.BuildAndStart();
    if (!s->health_server_ || s->health_port_ == 0) {
      return absl::UnavailableError(
          absl::StrCat("cannot listen on ", options.health_listen,
                       " (health): the address is in use or not available"));
    }
  }
  // Both listeners answer for the server as a whole ("") and for the API.
  for (grpc::Server* server : {s->server_.get(), s->health_server_.get()}) {
    if (server == nullptr) continue;
    server->GetHealthCheckService()->SetServingStatus(
        v1::RefereeService::service_full_name(), true);
  }
  // While the storage takes no write, nothing is acknowledged: probes see
  // NOT_SERVING, and the log says why (docs/crash_safety.md).
  s->recorder_->OnHealthChange([server = s.get()](
                                   const recorder::StorageHealth& health) {
    if (health.writable) {
      std::fprintf(stderr,
                   "cassino-referee: the database takes writes again; "
                   "serving\n");
    } else {
      std::fprintf(stderr,
                   "cassino-referee: writing the database fails (%s); "
                   "no move is acknowledged until it succeeds%s\n",
                   health.fault.c_str(),
                   health.lost ? " (it will not: restart the referee)" : "");
    }
    server->SetServing(health.writable);
  });
  return s;
}

void RefereeServer::SetServing(bool serving) {
  for (grpc::Server* server : {server_.get(), health_server_.get()}) {
    if (server == nullptr) continue;
    grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService();
    health->SetServingStatus(serving);
  }
}

RefereeServer::~RefereeServer() { Shutdown(); }

void RefereeServer::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  // First the clocks: no seat forfeits on time while the referee stops (its
  // bots may not reach it meanwhile); after a restart the seat to move gets
  // a fresh allowance. Commit callbacks that start a clock now find it
  // stopped.
  if (timer_) timer_->Stop();
  // The health listener must not touch the servers being torn down.
  if (recorder_) recorder_->OnHealthChange(nullptr);
  // Probes see NOT_SERVING while the calls drain.
  if (health_server_) health_server_->GetHealthCheckService()->Shutdown();
  if (server_) server_->GetHealthCheckService()->Shutdown();
  // Streams and parked calls never end by themselves: end them first, so
  // that they do not hold up the grace period.
  if (registry_) {
    registry_->lobby().CloseAll(Error(absl::StatusCode::kUnavailable,
                                      Reason::kShuttingDown,
                                      "the referee is shutting down"));
    registry_->Stop();
  }
  if (server_) {
    server_->Shutdown(std::chrono::system_clock::now() + stop_grace_);
  }
  if (health_server_) {
    health_server_->Shutdown(std::chrono::system_clock::now());
  }
  recorder_.reset();
  server_.reset();
  health_server_.reset();
  health_fallback_.reset();
  service_.reset();
  reflection_v1_.reset();
  registry_.reset();
  scheduler_.reset();
  ladders_.reset();
  timer_.reset();
  db_lock_.reset();  // the database is closed: another referee may open it
}

}  // namespace cassino::service
