#include "referee/reflection_v1.h"

#include <set>
#include <utility>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "grpc/health/v1/health.pb.h"

namespace cassino::service {
namespace {

namespace pb = ::google::protobuf;
namespace rv1 = ::grpc::reflection::v1;

// `file` and, before it, the files it imports that this stream has not
// been sent yet.
void AddFile(const pb::FileDescriptor* file, std::set<std::string>* sent,
             rv1::FileDescriptorResponse* out) {
  if (!sent->insert(file->name()).second) return;
  for (int i = 0; i < file->dependency_count(); ++i) {
    AddFile(file->dependency(i), sent, out);
  }
  pb::FileDescriptorProto proto;
  file->CopyTo(&proto);
  proto.SerializeToString(out->add_file_descriptor_proto());
}

void NotFound(const std::string& what, rv1::ServerReflectionResponse* out) {
  out->mutable_error_response()->set_error_code(
      static_cast<int>(grpc::StatusCode::NOT_FOUND));
  out->mutable_error_response()->set_error_message(what + " not found");
}

}  // namespace

ReflectionV1::ReflectionV1(std::vector<std::string> services)
    : services_(std::move(services)) {
  // The health service's messages in the pool (gRPC's own health service
  // does not register them), so that clients can resolve it.
  (void)grpc::health::v1::HealthCheckRequest::descriptor();
}

grpc::Status ReflectionV1::ServerReflectionInfo(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<rv1::ServerReflectionResponse,
                             rv1::ServerReflectionRequest>* stream) {
  const pb::DescriptorPool* pool = pb::DescriptorPool::generated_pool();
  std::set<std::string> sent;
  rv1::ServerReflectionRequest request;
  while (stream->Read(&request)) {
    rv1::ServerReflectionResponse response;
    response.set_valid_host(request.host());
    *response.mutable_original_request() = request;
    switch (request.message_request_case()) {
      case rv1::ServerReflectionRequest::kListServices:
        for (const std::string& name : services_) {
          response.mutable_list_services_response()->add_service()->set_name(
              name);
        }
        break;
      case rv1::ServerReflectionRequest::kFileByFilename: {
        const pb::FileDescriptor* file =
            pool->FindFileByName(request.file_by_filename());
        if (file == nullptr) {
          NotFound("file", &response);
        } else {
          AddFile(file, &sent, response.mutable_file_descriptor_response());
        }
        break;
      }
      case rv1::ServerReflectionRequest::kFileContainingSymbol: {
        const pb::FileDescriptor* file =
            pool->FindFileContainingSymbol(request.file_containing_symbol());
        if (file == nullptr) {
          NotFound("symbol", &response);
        } else {
          AddFile(file, &sent, response.mutable_file_descriptor_response());
        }
        break;
      }
      case rv1::ServerReflectionRequest::kFileContainingExtension: {
        const rv1::ExtensionRequest& ext = request.file_containing_extension();
        const pb::Descriptor* type =
            pool->FindMessageTypeByName(ext.containing_type());
        const pb::FieldDescriptor* field =
            type == nullptr
                ? nullptr
                : pool->FindExtensionByNumber(type, ext.extension_number());
        if (field == nullptr) {
          NotFound("extension", &response);
        } else {
          AddFile(field->file(), &sent,
                  response.mutable_file_descriptor_response());
        }
        break;
      }
      case rv1::ServerReflectionRequest::kAllExtensionNumbersOfType: {
        const pb::Descriptor* type = pool->FindMessageTypeByName(
            request.all_extension_numbers_of_type());
        if (type == nullptr) {
          NotFound("type", &response);
        } else {
          std::vector<const pb::FieldDescriptor*> extensions;
          pool->FindAllExtensions(type, &extensions);
          rv1::ExtensionNumberResponse* out =
              response.mutable_all_extension_numbers_response();
          out->set_base_type_name(type->full_name());
          for (const pb::FieldDescriptor* e : extensions) {
            out->add_extension_number(e->number());
          }
        }
        break;
      }
      default:
        response.mutable_error_response()->set_error_code(
            static_cast<int>(grpc::StatusCode::UNIMPLEMENTED));
        response.mutable_error_response()->set_error_message(
            "the request names no reflection call");
    }
    if (!stream->Write(response)) break;
  }
  return grpc::Status::OK;
}

}  // namespace cassino::service
