#include "tools/health/health_check.h"

#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/wire_format_lite.h"
#include "grpcpp/generic/generic_stub.h"

namespace cassino::health {
namespace {

using google::protobuf::internal::WireFormatLite;

constexpr char kCheckMethod[] = "/grpc.health.v1.Health/Check";
constexpr char kInfoMethod[] = "/cassino.v1.RefereeService/GetRefereeInfo";

// One unary call of `method` with the serialised `request`; the serialised
// response, or the call's status.
absl::StatusOr<std::string> UnaryCall(
    std::shared_ptr<grpc::Channel> channel, const char* method,
    const std::string& request_bytes,
    std::chrono::system_clock::time_point deadline) {
  grpc::GenericStub stub(std::move(channel));
  grpc::ClientContext context;
  context.set_deadline(deadline);
  grpc::Slice slice(request_bytes);
  grpc::ByteBuffer request(&slice, 1), response;

  absl::Mutex mu;
  bool done = false;
  grpc::Status status;
  stub.UnaryCall(&context, method, grpc::StubOptions(), &request, &response,
                 [&](grpc::Status s) {
                   absl::MutexLock lock(&mu);
                   status = std::move(s);
                   done = true;
                 });
  {
    absl::MutexLock lock(&mu);
    mu.Await(absl::Condition(&done));
  }
  if (!status.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                        status.error_message());
  }
  std::vector<grpc::Slice> slices;
  if (!response.Dump(&slices).ok()) {
    return absl::InvalidArgumentError("unreadable response");
  }
  std::string bytes;
  for (const grpc::Slice& s : slices) {
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  return bytes;
}

}  // namespace

std::string_view ServingStatusName(ServingStatus status) {
  switch (status) {
    case ServingStatus::kUnknown:
      return "UNKNOWN";
    case ServingStatus::kServing:
      return "SERVING";
    case ServingStatus::kNotServing:
      return "NOT_SERVING";
    case ServingStatus::kServiceUnknown:
      return "SERVICE_UNKNOWN";
  }
  return "unrecognised status";
}

std::string EncodeRequest(std::string_view service) {
  std::string bytes;
  if (service.empty()) return bytes;  // proto3 omits a default field
  google::protobuf::io::StringOutputStream out(&bytes);
  google::protobuf::io::CodedOutputStream coded(&out);
  WireFormatLite::WriteString(1, std::string(service), &coded);
  coded.Trim();
  return bytes;
}

absl::StatusOr<ServingStatus> DecodeResponse(std::string_view bytes) {
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t*>(bytes.data()),
      static_cast<int>(bytes.size()));
  uint32_t status = 0;
  while (uint32_t tag = in.ReadTag()) {
    if (tag == WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_VARINT)) {
      if (!in.ReadVarint32(&status)) break;
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      break;
    }
  }
  if (!in.ConsumedEntireMessage() ||
      in.CurrentPosition() != static_cast<int>(bytes.size())) {
    return absl::InvalidArgumentError("malformed HealthCheckResponse");
  }
  return static_cast<ServingStatus>(status);
}

absl::StatusOr<ServingStatus> Check(
    std::shared_ptr<grpc::Channel> channel, const std::string& service,
    std::chrono::system_clock::time_point deadline) {
  absl::StatusOr<std::string> bytes = UnaryCall(
      std::move(channel), kCheckMethod, EncodeRequest(service), deadline);
  if (absl::IsNotFound(bytes.status())) {
    return ServingStatus::kServiceUnknown;  // the protocol's "no such service"
  }
  if (!bytes.ok()) return bytes.status();
  return DecodeResponse(*bytes);
}

absl::StatusOr<std::string> DecodeSigningKey(std::string_view bytes) {
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t*>(bytes.data()),
      static_cast<int>(bytes.size()));
  std::string key;
  while (uint32_t tag = in.ReadTag()) {
    if (tag ==
        WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) {
      if (!WireFormatLite::ReadString(&in, &key)) break;
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      break;
    }
  }
  if (!in.ConsumedEntireMessage() ||
      in.CurrentPosition() != static_cast<int>(bytes.size())) {
    return absl::InvalidArgumentError("malformed GetRefereeInfoResponse");
  }
  return key;
}

absl::StatusOr<std::string> SigningKey(
    std::shared_ptr<grpc::Channel> channel,
    std::chrono::system_clock::time_point deadline) {
  absl::StatusOr<std::string> bytes =
      UnaryCall(std::move(channel), kInfoMethod, "", deadline);
  if (!bytes.ok()) return bytes.status();
  return DecodeSigningKey(*bytes);
}

}  // namespace cassino::health
