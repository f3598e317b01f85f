// grpc.reflection.v1.ServerReflection, beside the v1alpha service that
// gRPC's reflection plugin serves (gRPC 1.51 has no v1), so that current
// clients (buf curl, grpcurl) find the API without falling back.
//
// Contract: answers list_services with the names given at construction,
// and file_by_filename, file_containing_symbol, file_containing_extension
// and all_extension_numbers_of_type from the process's generated
// descriptor pool: a file is sent with the files it imports, each at most
// once per stream. Unknown names get an ErrorResponse with NOT_FOUND, as
// the v1alpha service does. Requests are read one at a time; the stream
// ends when the client closes it.

#ifndef CASSINO_REFEREE_REFLECTION_V1_H_
#define CASSINO_REFEREE_REFLECTION_V1_H_

#include <string>
#include <vector>

#include "grpc/reflection/v1/reflection.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace cassino::service {

class ReflectionV1 final
    : public grpc::reflection::v1::ServerReflection::Service {
 public:
  explicit ReflectionV1(std::vector<std::string> services);

  grpc::Status ServerReflectionInfo(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<grpc::reflection::v1::ServerReflectionResponse,
                               grpc::reflection::v1::ServerReflectionRequest>*
          stream) override;

 private:
  const std::vector<std::string> services_;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_REFLECTION_V1_H_
