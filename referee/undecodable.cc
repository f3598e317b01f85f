#include "referee/undecodable.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "cassino/v1/referee_service.pb.h"
#include "google/protobuf/descriptor.h"
#include "referee/errors.h"
#include "referee/grpc_status.h"
#include "referee/wall_clock.h"

namespace cassino::service {
namespace {

using grpc::experimental::InterceptionHookPoints;

// The request message of `method` ("/cassino.v1.RefereeService/GetTurn"),
// or "the request message" if the method is not the referee's.
std::string RequestType(absl::string_view method) {
  const google::protobuf::ServiceDescriptor* service =
      v1::CreateGameRequest::descriptor()->file()->FindServiceByName(
          "RefereeService");
  const size_t slash = method.rfind('/');
  if (service != nullptr && slash != absl::string_view::npos) {
    const google::protobuf::MethodDescriptor* m =
        service->FindMethodByName(std::string(method.substr(slash + 1)));
    if (m != nullptr) return m->input_type()->full_name();
  }
  return "the request message";
}

class Interceptor final : public grpc::experimental::Interceptor {
 public:
  explicit Interceptor(std::string method) : method_(std::move(method)) {}

  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::POST_RECV_MESSAGE) &&
        methods->GetRecvMessage() == nullptr) {
      undecodable_ = true;
    }
    if (undecodable_ && methods->QueryInterceptionHookPoint(
                            InterceptionHookPoints::PRE_SEND_STATUS)) {
      methods->ModifySendStatus(GrpcError(
          grpc::StatusCode::INVALID_ARGUMENT, Reason::kUndecodableRequest,
          absl::StrCat("the request does not decode as ", RequestType(method_),
                       " (check that the client's proto files match the "
                       "referee's cassino/v1)")));
    }
    methods->Proceed();
  }

 private:
  const std::string method_;
  bool undecodable_ = false;
};

class Factory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    // Only the referee's own calls with one request message (unary and
    // server-streaming); the others are left alone.
    using Type = grpc::experimental::ServerRpcInfo::Type;
    if (info->method() == nullptr ||
        !absl::StartsWith(info->method(), "/cassino.v1.") ||
        (info->type() != Type::UNARY &&
         info->type() != Type::SERVER_STREAMING)) {
      return nullptr;
    }
    return new Interceptor(info->method());
  }
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
UndecodableRequestInterceptor() {
  return std::make_unique<Factory>();
}

}  // namespace cassino::service
