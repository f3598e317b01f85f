#include "tools/viewer/server.h"

#include <httplib.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "tools/viewer/assets.h"
#include "tools/viewer/game_view.h"
#include "tools/viewer/ladder_view.h"
#include "tools/viewer/page.h"

namespace cassino::viewer {

namespace {

constexpr char kJson[] = "application/json; charset=utf-8";

void SendError(httplib::Response& res, const absl::Status& status) {
  res.status = absl::IsInvalidArgument(status)      ? 400
               : absl::IsNotFound(status)           ? 404
               : absl::IsFailedPrecondition(status) ? 403
                                                    : 500;
  res.set_content(DumpJson({{"error", std::string(status.message())}}), kJson);
}

void Send(httplib::Response& res, const absl::StatusOr<std::string>& body,
          const char* type = kJson) {
  if (!body.ok()) {
    SendError(res, body.status());
    return;
  }
  res.set_content(*body, type);
}

// Marks the answer as a file to save, named for the game (its id reduced to
// characters safe in a header).
void Attachment(httplib::Response& res, const std::string& id,
                const char* ext) {
  std::string name;
  for (const char c : id) {
    const bool safe = absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
                      c == '-' || c == '_' || c == '.';
    name.push_back(safe ? c : '_');
  }
  res.set_header(
      "Content-Disposition",
      absl::StrCat("attachment; filename=\"cassino-", name, ".", ext, "\""));
}

Params ParamsOf(const httplib::Request& req) {
  Params out;
  // A repeated parameter: the first counts.
  for (const auto& [key, value] : req.params) out.emplace(key, value);
  return out;
}

// A request as httplib reads it: from the bytes connections.h buffered;
// the answer goes to a string.
class MemoryStream : public httplib::Stream {
 public:
  MemoryStream(const RawRequest& request, absl::string_view bytes,
               std::string* out)
      : request_(request), bytes_(bytes), out_(out) {}
  bool is_readable() const override { return true; }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const size_t n = std::min(size, bytes_.size() - pos_);
    std::memcpy(ptr, bytes_.data() + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    out_->append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = request_.remote_ip;
    port = request_.remote_port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = request_.local_ip;
    port = request_.local_port;
  }
  // No socket: httplib only compares it with FD_SETSIZE.
  socket_t socket() const override { return INVALID_SOCKET; }

 private:
  const RawRequest& request_;
  const absl::string_view bytes_;
  size_t pos_ = 0;
  std::string* const out_;
};

// The request without its Range header lines: every answer is whole.
// (httplib would answer each of many ranges with its own copy of the
// body: a 125-byte request could ask for a 9 MB page 15 times.)
std::string WithoutRanges(const std::string& bytes) {
  const size_t end = bytes.find("\r\n\r\n");
  if (end == std::string::npos) return bytes;
  std::string out;
  out.reserve(bytes.size());
  size_t line = 0;
  while (line < end + 2) {
    const size_t next = bytes.find("\r\n", line) + 2;
    if (!absl::StartsWithIgnoreCase(
            absl::string_view(bytes).substr(line, next - line), "range:")) {
      out.append(bytes, line, next - line);
    }
    line = next;
  }
  out.append(bytes, end + 2, std::string::npos);
  return out;
}

// httplib's router, fed whole requests by connections.h instead of
// listening itself (process_request is httplib's protected entry point for
// one request on a stream).
class Router : public httplib::Server {
 public:
  RawResponse Handle(const RawRequest& request) {
    const std::string bytes = WithoutRanges(request.bytes);
    RawResponse out;
    MemoryStream stream(request, bytes, &out.bytes);
    bool closed = false;
    const bool ok = process_request(stream, request.last, closed, nullptr);
    out.close = !ok || closed || request.last;
    return out;
  }
};

}  // namespace

absl::Status ParseListen(const std::string& listen, std::string* host,
                         int* port) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0 ||
      !absl::SimpleAtoi(listen.substr(colon + 1), port) || *port < 0 ||
      *port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--listen: expected HOST:PORT, got '", listen, "'"));
  }
  *host = listen.substr(0, colon);
  if (host->size() >= 2 && host->front() == '[' && host->back() == ']') {
    *host = host->substr(1, host->size() - 2);
  }
  return absl::OkStatus();
}

ViewerServer::ViewerServer(std::shared_ptr<const Viewer> viewer,
                           std::unique_ptr<httplib::Server> server)
    : viewer_(std::move(viewer)), server_(std::move(server)) {}

ViewerServer::~ViewerServer() {
  Stop();
  Wait();
}

void ViewerServer::Stop() {
  if (connections_ != nullptr) connections_->Stop();
}

void ViewerServer::Wait() {
  if (connections_ != nullptr) connections_->Wait();
}

absl::StatusOr<std::unique_ptr<ViewerServer>> ViewerServer::Start(
    std::shared_ptr<const Viewer> viewer, const std::string& host, int port,
    const HttpLimits& limits, std::shared_ptr<const SeatRelay> relay) {
  auto server = std::make_unique<Router>();
  Router* router = server.get();
  const Viewer* v = viewer.get();
  httplib::Server& s = *server;
  s.set_payload_max_length(limits.max_body_bytes);
  s.set_keep_alive_max_count(
      static_cast<size_t>(std::max(1, limits.max_requests_per_connection)));
  s.set_keep_alive_timeout(std::max<time_t>(
      1, static_cast<time_t>(absl::ToInt64Seconds(limits.idle_timeout))));
  s.set_default_headers({
      {"Content-Security-Policy", kServedCsp},
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"Cross-Origin-Resource-Policy", "same-origin"},
      {"Accept-Ranges", "none"},
  });
  s.set_post_routing_handler(
      [](const httplib::Request& req, httplib::Response& res) {
        if (req.path.rfind("/api/", 0) == 0) {
          res.set_header("Cache-Control", "no-store");
        }
      });
  const auto page = [](const httplib::Request&, httplib::Response& res) {
    res.set_content(ServedPageHtml(), "text/html; charset=utf-8");
  };
  s.Get("/", page);
  s.Get("/live", page);
  s.Get("/tv", page);
  s.Get(R"(/game/[^/]+)", page);
  s.Get(R"(/tournament/[^/]+)", page);
  s.Get("/ladders", page);  // (ladder_view.h, assets/ladder.js)
  s.Get(R"(/ladder/[^/]+)", page);
  s.Get(R"(/play(/[^/]+)?)", page);
  s.Get(R"(/assets/([A-Za-z0-9_.-]+))",
        [](const httplib::Request& req, httplib::Response& res) {
          const Asset* a = FindAsset(req.matches[1].str());
          if (a == nullptr) {
            SendError(res, absl::NotFoundError("no such asset"));
            return;
          }
          res.set_header("Cache-Control", "max-age=300");
          res.set_content(a->body.data(), a->body.size(),
                          std::string(a->content_type).c_str());
        });
  s.Get("/api/games", [v](const httplib::Request& req, httplib::Response& res) {
    Send(res, v->GamesJson(ParamsOf(req)));
  });
  s.Get(R"(/api/games/([^/]+)/head)",
        [v](const httplib::Request& req, httplib::Response& res) {
          Send(res, v->GameHeadJson(req.matches[1].str()));
        });
  // Downloads: the record (once every card may be shown) and the
  // self-contained page.
  s.Get(R"(/api/games/([^/]+)/record\.json)",
        [v](const httplib::Request& req, httplib::Response& res) {
          const absl::StatusOr<std::string> body =
              v->GameRecordJson(req.matches[1].str());
          Send(res, body);
          if (body.ok()) Attachment(res, req.matches[1].str(), "json");
        });
  s.Get(R"(/api/games/([^/]+)/page\.html)",
        [v](const httplib::Request& req, httplib::Response& res) {
          const absl::StatusOr<std::string> body =
              v->GamePageHtml(req.matches[1].str());
          Send(res, body, "text/html; charset=utf-8");
          if (body.ok()) Attachment(res, req.matches[1].str(), "html");
        });
  s.Get(R"(/api/games/([^/]+))",
        [v](const httplib::Request& req, httplib::Response& res) {
          Send(res, v->GameJson(req.matches[1].str()));
        });
  s.Get("/api/tournaments",
        [v](const httplib::Request&, httplib::Response& res) {
          Send(res, v->TournamentsJson());
        });
  s.Get(R"(/api/tournaments/([^/]+)/ratings\.svg)",
        [v](const httplib::Request& req, httplib::Response& res) {
          Send(res, v->TournamentRatingsSvg(req.matches[1].str()),
               "image/svg+xml");
        });
  s.Get(R"(/api/tournaments/([^/]+))",
        [v](const httplib::Request& req, httplib::Response& res) {
          Send(res, v->TournamentJson(req.matches[1].str(), ParamsOf(req)));
        });
  s.Get("/api/ladders", [v](const httplib::Request&, httplib::Response& res) {
    Send(res, LaddersJson(v->paths()));
  });
  s.Get(R"(/api/ladders/([^/]+))",
        [v](const httplib::Request& req, httplib::Response& res) {
          Send(res, LadderJson(v->paths(), req.matches[1].str()));
        });
  if (const SeatRelay* r = relay.get(); r != nullptr) {
    const auto send = [](httplib::Response& res, const RelayAnswer& a) {
      res.status = a.status;
      res.set_content(a.body, kJson);
    };
    s.Get("/api/seat",
          [r, send](const httplib::Request& req, httplib::Response& res) {
            send(res, r->Turn(req.get_header_value("Authorization")));
          });
    s.Post("/api/seat/move", [r, send](const httplib::Request& req,
                                       httplib::Response& res) {
      send(res, r->Move(req.get_header_value("Authorization"), req.body));
    });
    s.Get("/api/challenge",
          [r, send](const httplib::Request&, httplib::Response& res) {
            send(res, r->ChallengeOptions());
          });
    s.Post("/api/challenge",
           [r, send](const httplib::Request& req, httplib::Response& res) {
             send(res, r->Challenge(req.body));
           });
  }
  s.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) {
      res.set_content(
          DumpJson({{"error", res.status == 404
                                  ? std::string("no such page")
                                  : absl::StrCat("HTTP status ", res.status)}}),
          kJson);
    }
  });

  absl::StatusOr<std::unique_ptr<ConnectionServer>> connections =
      ConnectionServer::Start(host, port, limits,
                              [router](const RawRequest& request) {
                                return router->Handle(request);
                              });
  if (!connections.ok()) return connections.status();
  auto out = std::unique_ptr<ViewerServer>(
      new ViewerServer(std::move(viewer), std::move(server)));
  out->relay_ = std::move(relay);
  out->connections_ = *std::move(connections);
  return out;
}

}  // namespace cassino::viewer
