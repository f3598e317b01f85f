// `cassino serve`'s connections: the part of HTTP that cpp-httplib 0.11
// (Debian 12) leaves unbounded. httplib runs one blocking thread per
// connection from a fixed pool of 8 with only a per-read timeout, so a few
// clients sending a byte every 2 s, or merely connecting, hold every thread
// and every other request waits. Here one event loop (poll) owns the
// sockets: it accepts, reads each request whole within HttpLimits'
// deadlines, and only then hands the buffered request to a small pool of
// worker threads, which build the whole answer in memory (Handler: httplib's
// own parsing and routing, server.cc); the loop writes it out, again
// without blocking, within the write deadline. Slow or idle clients cost a
// socket and a buffer, never a thread, and past the connection cap the
// oldest idle one makes room.
//
// A request is the head (request line and headers, at most
// max_header_bytes, ending in an empty line) and, with Content-Length, a
// body of at most max_body_bytes; chunked bodies are refused (411).
// Pipelined requests are answered in order, one at a time.
//
// Thread-safety: Start returns a running server; Stop may be called from
// any thread, once the server is running, and is idempotent.

#ifndef CASSINO_TOOLS_VIEWER_CONNECTIONS_H_
#define CASSINO_TOOLS_VIEWER_CONNECTIONS_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tools/viewer/http_limits.h"

namespace cassino::viewer {

// One complete request as it arrived.
struct RawRequest {
  std::string bytes;  // head and body, exactly as sent
  std::string remote_ip;
  int remote_port = 0;
  std::string local_ip;
  int local_port = 0;
  // The connection's last request (max_requests_per_connection): the
  // answer must close it.
  bool last = false;
};

// The whole answer to `request` as bytes to send, and whether to close the
// connection after it. Called on a worker thread; must not block for long.
struct RawResponse {
  std::string bytes;
  bool close = false;
};
using Handler = std::function<RawResponse(const RawRequest& request)>;

class ConnectionServer {
 public:
  // Binds host:port (port 0: any free one; host a name or an IPv4/IPv6
  // address) and starts the loop and the workers. Unavailable if the
  // address cannot be bound.
  static absl::StatusOr<std::unique_ptr<ConnectionServer>> Start(
      const std::string& host, int port, const HttpLimits& limits,
      Handler handler);
  ~ConnectionServer();  // Stop, then waits for the threads
  ConnectionServer(const ConnectionServer&) = delete;
  ConnectionServer& operator=(const ConnectionServer&) = delete;

  int port() const;
  void Stop();
  // Blocks until the loop has stopped.
  void Wait();

 private:
  class Impl;
  explicit ConnectionServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_CONNECTIONS_H_
