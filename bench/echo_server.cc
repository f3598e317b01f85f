// echo_server: the physical baseline of referee_ratios, a bare gRPC server
// that echoes every message of each EchoService.Echo stream, with nothing
// behind it. Built on the callback server API (ServerBidiReactor), as the
// referee's Play is served by gRPC's own threads; it runs as its own process
// so that its CPU is read alone. With --durable it is the durable echo
// (bench/durable_echo.h): each message is committed to SQLite before it is
// echoed, the floor of what the referee's recording costs.
//
// Usage: echo_server [--listen HOST:PORT] [--port-file FILE]
//                    [--durable DB [--commit-on writer|reader]
//                     [--sync normal|full]]
//   --listen     where to listen (default 127.0.0.1:0, any free port)
//   --port-file  write the bound port there once listening
//   --durable    commit each message to the SQLite database DB (created if
//                missing) before echoing it
//   --commit-on  who commits (durable_echo.h): a writer thread (default, the
//                referee's pattern) or the gRPC thread that read the message
//   --sync       SQLite's synchronous setting, as the referee's durability
//                modes: normal (default) or full (the WAL synced each commit)
// Stops on SIGTERM or SIGINT.

#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include "bench/durable_echo.h"
#include "bench/echo_service.h"
#include "grpcpp/grpcpp.h"

int main(int argc, char** argv) {
  std::string listen = "127.0.0.1:0";
  std::string port_file;
  std::string durable;
  std::string commit_on = "writer";
  std::string sync = "normal";
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if ((flag == "--listen" || flag == "--port-file" || flag == "--durable" ||
         flag == "--commit-on" || flag == "--sync") &&
        i + 1 < argc) {
      std::string& value = flag == "--listen"      ? listen
                           : flag == "--port-file" ? port_file
                           : flag == "--durable"   ? durable
                           : flag == "--sync"      ? sync
                                                   : commit_on;
      value = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: echo_server [--listen HOST:PORT] "
                   "[--port-file FILE] [--durable DB [--commit-on "
                   "writer|reader] [--sync normal|full]]\n");
      return flag == "--help" || flag == "-h" ? 0 : 2;
    }
  }
  if (commit_on != "writer" && commit_on != "reader") {
    std::fprintf(stderr, "echo_server: --commit-on is writer or reader\n");
    return 2;
  }
  if (sync != "normal" && sync != "full") {
    std::fprintf(stderr, "echo_server: --sync is normal or full\n");
    return 2;
  }
  // SIGTERM and SIGINT blocked before gRPC starts its threads (which
  // inherit the mask), then awaited by this one.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  cassino::bench::EchoServiceImpl plain;
  std::unique_ptr<cassino::bench::DurableEchoService> durable_echo;
  grpc::Service* service = &plain;
  if (!durable.empty()) {
    using Service = cassino::bench::DurableEchoService;
    durable_echo = std::make_unique<Service>(
        commit_on == "reader" ? Service::CommitOn::kReader
                              : Service::CommitOn::kWriter,
        sync == "full" ? Service::Sync::kFull : Service::Sync::kNormal);
    if (absl::Status s = durable_echo->Open(durable); !s.ok()) {
      std::fprintf(stderr, "echo_server: %s\n", s.ToString().c_str());
      return 1;
    }
    service = durable_echo.get();
  }
  int port = 0;
  std::unique_ptr<grpc::Server> server =
      cassino::bench::ServeInsecure(service, listen, &port);
  if (server == nullptr || port <= 0) {
    std::fprintf(stderr, "echo_server: cannot listen on %s\n", listen.c_str());
    return 1;
  }
  if (!port_file.empty()) {
    const std::string tmp = port_file + ".tmp";
    std::ofstream(tmp) << port << "\n";
    std::rename(tmp.c_str(), port_file.c_str());
  }
  int signal_number = 0;
  sigwait(&signals, &signal_number);
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  return 0;
}
