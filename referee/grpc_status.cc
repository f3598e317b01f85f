#include "referee/grpc_status.h"

#include "absl/strings/str_cat.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace cassino::service {
namespace {

// The code's name as gRPC spells it ("INVALID_ARGUMENT").
std::string CodeName(absl::StatusCode code) {
  std::string name = absl::StatusCodeToString(code);
  for (char& c : name) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c == ' ') c = '_';
  }
  return name;
}

}  // namespace

grpc::Status ToGrpc(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  const ErrorDetails details = DetailsOf(status);
  google::rpc::Status out;
  out.set_code(static_cast<int>(status.code()));
  out.set_message(std::string(status.message()));
  google::rpc::ErrorInfo info;
  info.set_domain(kErrorDomain);
  if (!details.reason.empty()) {
    info.set_reason(details.reason);
  } else if (status.code() == absl::StatusCode::kInvalidArgument) {
    info.set_reason(std::string(ReasonName(Reason::kInvalidRequest)));
  } else {
    info.set_reason(CodeName(status.code()));
  }
  for (const auto& [key, value] : details.metadata) {
    (*info.mutable_metadata())[key] = value;
  }
  out.add_details()->PackFrom(info);
  if (!details.fields.empty()) {
    google::rpc::BadRequest bad;
    for (const auto& [field, description] : details.fields) {
      google::rpc::BadRequest::FieldViolation* v = bad.add_field_violations();
      v->set_field(field);
      v->set_description(description);
    }
    out.add_details()->PackFrom(bad);
  }
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()), out.SerializeAsString());
}

grpc::Status WithDetails(const grpc::Status& status) {
  if (status.ok() || !status.error_details().empty()) return status;
  return ToGrpc(absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                             status.error_message()));
}

}  // namespace cassino::service
