#include "tools/viewer/server.h"

#include <httplib.h>

#include <chrono>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tools/viewer/assets.h"
#include "tools/viewer/game_view.h"
#include "tools/viewer/ladder_view.h"
#include "tools/viewer/page.h"

namespace cassino::viewer {

namespace {

constexpr char kJson[] = "application/json; charset=utf-8";

void SendError(httplib::Response& res, const absl::Status& status) {
  res.status = absl::IsInvalidArgument(status) ? 400
               : absl::IsNotFound(status)      ? 404
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

Params ParamsOf(const httplib::Request& req) {
  Params out;
  // A repeated parameter: the first counts.
  for (const auto& [key, value] : req.params) out.emplace(key, value);
  return out;
}

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

void ViewerServer::Stop() { server_->stop(); }

void ViewerServer::Wait() {
  if (thread_.joinable()) thread_.join();
}

absl::StatusOr<std::unique_ptr<ViewerServer>> ViewerServer::Start(
    std::shared_ptr<const Viewer> viewer, const std::string& host, int port) {
  auto server = std::make_unique<httplib::Server>();
  const Viewer* v = viewer.get();
  httplib::Server& s = *server;
  s.set_payload_max_length(0);
  s.set_default_headers({
      {"Content-Security-Policy", kServedCsp},
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"Cross-Origin-Resource-Policy", "same-origin"},
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
  s.Get(R"(/game/[^/]+)", page);
  s.Get(R"(/tournament/[^/]+)", page);
  s.Get("/ladders", page);  // (ladder_view.h, assets/ladder.js)
  s.Get(R"(/ladder/[^/]+)", page);
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
          Send(res, v->TournamentJson(req.matches[1].str()));
        });
  s.Get("/api/ladders", [v](const httplib::Request&, httplib::Response& res) {
    Send(res, LaddersJson(v->paths()));
  });
  s.Get(R"(/api/ladders/([^/]+))",
        [v](const httplib::Request& req, httplib::Response& res) {
          Send(res, LadderJson(v->paths(), req.matches[1].str()));
        });
  s.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) {
      res.set_content(
          DumpJson({{"error", res.status == 404
                                  ? std::string("no such page")
                                  : absl::StrCat("HTTP status ", res.status)}}),
          kJson);
    }
  });

  int bound = port;
  if (port == 0) {
    bound = s.bind_to_any_port(host);
  } else if (!s.bind_to_port(host, port)) {
    bound = -1;
  }
  if (bound < 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", host, ":", port));
  }
  auto out = std::unique_ptr<ViewerServer>(
      new ViewerServer(std::move(viewer), std::move(server)));
  out->port_ = bound;
  httplib::Server* raw = out->server_.get();
  out->thread_ = std::thread([raw] { raw->listen_after_bind(); });
  // Stop() is a no-op on a server not yet listening: return once it is.
  for (int i = 0; i < 500 && !raw->is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return out;
}

}  // namespace cassino::viewer
