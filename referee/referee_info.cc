// RefereeServiceImpl::GetRefereeInfo: the referee's public facts, for
// anyone (no token): the public key its records are signed with.

#include "recorder/signature.h"
#include "referee/referee_service.h"

namespace cassino::service {

grpc::ServerUnaryReactor* RefereeServiceImpl::GetRefereeInfo(
    grpc::CallbackServerContext* context,
    const v1::GetRefereeInfoRequest* /*request*/,
    v1::GetRefereeInfoResponse* response) {
  response->set_signing_key(registry_->recorder()->signing_public_key());
  response->set_signature_scheme(std::string(recorder::kSignatureContext));
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  reactor->Finish(grpc::Status::OK);
  return reactor;
}

}  // namespace cassino::service
