// What one client can make `cassino serve` hold, each bound a named option
// of the command (docs/cli.md, docs/viewer.md *Limits*). The connection
// layer (connections.h) enforces them; the defaults suit a public viewer
// behind nothing.
//
// Lifetimes: a value.

#ifndef CASSINO_TOOLS_VIEWER_HTTP_LIMITS_H_
#define CASSINO_TOOLS_VIEWER_HTTP_LIMITS_H_

#include <cstddef>

#include "absl/time/time.h"

namespace cassino::viewer {

struct HttpLimits {
  // Open connections at most (--max-connections). At the cap a new
  // connection closes the oldest one that is idle or still sending its
  // request (never one being answered), so idle and slow clients cannot
  // lock a well-behaved one out.
  int max_connections = 256;
  // A connection with no request in progress (new, or between keep-alive
  // requests) is closed after this (--idle-timeout).
  absl::Duration idle_timeout = absl::Seconds(5);
  // A request's head (and body) must arrive whole within this from its
  // first byte, however the bytes trickle (--header-timeout): the bound on
  // slow-header ("slowloris") clients.
  absl::Duration header_timeout = absl::Seconds(10);
  // An answer must be written whole within this (--write-timeout): the
  // bound on clients that do not read.
  absl::Duration write_timeout = absl::Seconds(30);
  // Threads building answers (--threads). Only complete requests reach
  // them, so no client can hold one while it is slow to send or read.
  int threads = 4;
  // Requests on one keep-alive connection (--max-requests-per-connection).
  int max_requests_per_connection = 100;
  // The request line and headers together, in bytes (431 beyond).
  size_t max_header_bytes = 8192;
  // A request body, in bytes (413 beyond). 0: no body at all (the viewer's
  // read-only pages); the seat relay's moves need a small one.
  size_t max_body_bytes = 0;
};

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_HTTP_LIMITS_H_
