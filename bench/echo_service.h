// The echo service of the benchmarks' physical baseline: every message of
// an EchoService.Echo stream is written back, with nothing behind it. On
// the callback server API, as the referee's Play is. Served in-process by
// referee_bench and as a process of its own by echo_server.

#ifndef CASSINO_BENCH_ECHO_SERVICE_H_
#define CASSINO_BENCH_ECHO_SERVICE_H_

#include "bench/echo.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace cassino::bench {

class EchoServiceImpl final : public EchoService::CallbackService {
 public:
  grpc::ServerBidiReactor<EchoMessage, EchoMessage>* Echo(
      grpc::CallbackServerContext* /*context*/) override {
    return new Echoer;
  }

 private:
  // One stream: read, write it back, read again. The next read starts only
  // once the echo is written, so one buffer serves. Deletes itself.
  class Echoer final
      : public grpc::ServerBidiReactor<EchoMessage, EchoMessage> {
   public:
    Echoer() { StartRead(&message_); }
    void OnReadDone(bool ok) override {
      if (!ok) {
        Finish(grpc::Status::OK);
        return;
      }
      StartWrite(&message_);
    }
    void OnWriteDone(bool ok) override {
      if (!ok) {
        Finish(grpc::Status::OK);
        return;
      }
      StartRead(&message_);
    }
    void OnDone() override { delete this; }

   private:
    EchoMessage message_;
  };
};

}  // namespace cassino::bench

#endif  // CASSINO_BENCH_ECHO_SERVICE_H_
