// Small helpers shared by the service's files: gRPC statuses built from
// messages or from absl statuses, and the wall clock as the records keep it.

#ifndef CASSINO_REFEREE_STATUS_UTIL_H_
#define CASSINO_REFEREE_STATUS_UTIL_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "grpcpp/support/status.h"

namespace cassino::service {

// Now, as Unix time in microseconds (the records' `*_us`).
inline int64_t UnixMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// INVALID_ARGUMENT with `message`: a request the referee refuses as made.
inline grpc::Status Invalid(const std::string& message) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, message);
}

// The same code and message as a gRPC status (absl's codes are gRPC's).
inline grpc::Status FromAbsl(const absl::Status& s) {
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()),
                      std::string(s.message()));
}

// A client's text as an error message may quote it: in single quotes, at
// most `max` bytes of it (cut at a UTF-8 character boundary, then "..." and
// its length), control characters and quotes escaped as \xNN. Messages
// never echo more of what a client sent (issue #14: a 7,000-character id
// made a 7,008-character message).
inline std::string Quote(absl::string_view text, size_t max = 40) {
  size_t cut = text.size();
  if (cut > max) {
    cut = max;
    // Back to the start of a character.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
      --cut;
    }
  }
  std::string out = "'";
  for (char c : text.substr(0, cut)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F || c == '\'' || c == '\\') {
      absl::StrAppend(&out, absl::StrFormat("\\x%02X", u));
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  if (cut < text.size()) {
    absl::StrAppend(&out, "... (", text.size(), " bytes)");
  }
  return out;
}

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_STATUS_UTIL_H_
