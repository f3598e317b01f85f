// The echo service of the benchmarks' physical baseline: every message of
// an EchoService.Echo stream is written back, with nothing behind it. On
// the callback server API, as the referee's Play is. Served in-process by
// referee_bench and as a process of its own by echo_server.

#ifndef CASSINO_BENCH_ECHO_SERVICE_H_
#define CASSINO_BENCH_ECHO_SERVICE_H_

#include <memory>
#include <string>

#include "bench/echo.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace cassino::bench {

// One EchoService.Echo stream: read a message, echo it, read the next. When
// a message is echoed is the subclass's: Received() calls Echo() at once or
// later. The next read starts only once the echo is written, so one buffer
// serves. A subclass starts the first read (Start()) once constructed.
// Deletes itself.
class EchoReactor : public grpc::ServerBidiReactor<EchoMessage, EchoMessage> {
 public:
  void OnReadDone(bool ok) override {
    if (!ok) {
      Finish(grpc::Status::OK);
      return;
    }
    Received();
  }
  void OnWriteDone(bool ok) override {
    if (!ok) {
      Finish(grpc::Status::OK);
      return;
    }
    StartRead(&message_);
  }
  void OnDone() override { delete this; }

  // The message read last.
  const EchoMessage& message() const { return message_; }
  // Writes the message read last back.
  void Echo() { StartWrite(&message_); }

 protected:
  void Start() { StartRead(&message_); }
  // A message was read into message().
  virtual void Received() = 0;

 private:
  EchoMessage message_;
};

class EchoServiceImpl final : public EchoService::CallbackService {
 public:
  grpc::ServerBidiReactor<EchoMessage, EchoMessage>* Echo(
      grpc::CallbackServerContext* /*context*/) override {
    return new Echoer;
  }

 private:
  // Echoes every message at once.
  class Echoer final : public EchoReactor {
   public:
    Echoer() { Start(); }

   private:
    void Received() override { Echo(); }
  };
};

// Serves `service` without TLS on `listen` (host:port; port 0 picks a free
// one) and sets *port to the port bound. Null if it cannot listen. The
// echo servers of referee_bench, echo_server and their tests start so.
inline std::unique_ptr<grpc::Server> ServeInsecure(grpc::Service* service,
                                                   const std::string& listen,
                                                   int* port) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort(listen, grpc::InsecureServerCredentials(), port);
  builder.RegisterService(service);
  return builder.BuildAndStart();
}

}  // namespace cassino::bench

#endif  // CASSINO_BENCH_ECHO_SERVICE_H_
