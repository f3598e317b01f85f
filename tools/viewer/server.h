// `cassino serve`: the viewer's HTTP server (cpp-httplib), read-only over a
// Viewer. Routes (docs/viewer.md):
//
//   GET /, /live, /tv, /game/ID, /tournament/NAME   the page (page.h)
//   GET /assets/NAME                            embedded static files
//   GET /api/games?status&bot&label&rules&from&to&after&limit
//   GET /api/games/ID                           the game view
//   GET /api/games/ID/head                      {events, status}, to poll
//   GET /api/games/ID/record.json               the record (once public)
//   GET /api/games/ID/page.html                 the self-contained page
//   GET /api/tournaments
//   GET /api/tournaments/NAME
//   GET /api/tournaments/NAME/ratings.svg
//   GET /play, /play/ID                         a person's seat (the page)
// and with a SeatRelay (`--referee`; seat_relay.h), a person's seat:
//   GET /api/seat                               the seat's GetTurn
//   POST /api/seat/move                         the seat's SubmitMove
//   GET, POST /api/challenge                    a game against a bot, when
//                                               the organiser allows it
//
// Every response carries the Content-Security-Policy of page.h,
// X-Content-Type-Options: nosniff and Referrer-Policy: no-referrer; API
// answers are never cached. Errors are JSON {"error": message} with 400
// (a parameter), 403 (not shown yet), 404 (no such game or tournament) or
// 500. Only GET and
// HEAD are served, and request bodies are refused, except the seat relay's
// moves (POST, a small JSON body).
//
// cpp-httplib parses and routes; the sockets are connections.h's, which
// bounds what a client can hold (HttpLimits). Range headers are ignored:
// every answer is whole (200), so no request can ask for the body many
// times over.
//
// Thread-safety: Start runs the server on its own threads; Stop may be
// called from any thread.

#ifndef CASSINO_TOOLS_VIEWER_SERVER_H_
#define CASSINO_TOOLS_VIEWER_SERVER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tools/viewer/connections.h"
#include "tools/viewer/http_limits.h"
#include "tools/viewer/seat_relay.h"
#include "tools/viewer/viewer.h"

namespace httplib {
class Server;
}

namespace cassino::viewer {

class ViewerServer {
 public:
  // Binds host:port (port 0: any free port) and starts serving `viewer`.
  // Unavailable if the address cannot be bound.
  static absl::StatusOr<std::unique_ptr<ViewerServer>> Start(
      std::shared_ptr<const Viewer> viewer, const std::string& host, int port,
      const HttpLimits& limits = HttpLimits(),
      std::shared_ptr<const SeatRelay> relay = nullptr);
  ~ViewerServer();  // stops
  ViewerServer(const ViewerServer&) = delete;
  ViewerServer& operator=(const ViewerServer&) = delete;

  int port() const { return connections_->port(); }
  // Blocks until the server stops (Stop, or a failure).
  void Wait();
  void Stop();

 private:
  ViewerServer(std::shared_ptr<const Viewer> viewer,
               std::unique_ptr<httplib::Server> server);
  std::shared_ptr<const Viewer> viewer_;
  std::shared_ptr<const SeatRelay> relay_;
  std::unique_ptr<httplib::Server> server_;  // routes only; never listens
  std::unique_ptr<ConnectionServer> connections_;
};

// Splits "host:port" (an IPv6 host in brackets); InvalidArgument if it does
// not read.
absl::Status ParseListen(const std::string& listen, std::string* host,
                         int* port);

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_SERVER_H_
