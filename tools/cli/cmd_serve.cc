// cassino serve DB... [--listen HOST:PORT]: the web viewer.

#include <pthread.h>
#include <signal.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "tools/cli/channel.h"
#include "tools/cli/commands.h"
#include "tools/cli/organiser.h"
#include "tools/viewer/seat_relay.h"
#include "tools/viewer/server.h"
#include "tools/viewer/viewer.h"

namespace cassino::cli {
namespace {

constexpr char kDescription[] =
    R"doc(Serve a web viewer over record databases (read-only).

Pages: Home (live games, tournaments, every game with filters by bot,
label, rule set, status and date, paginated), Live (the running games, the
newest followed move by move), Game (a replay drawing the cards, with
step/back/play, arrow keys, jumping to a round or turn, the move list, each
round's score and the result; a badge says whether the record verifies) and
Tournament (standings, crosstable and ratings, updating while it runs). The
JSON behind every page is under /api (docs/viewer.md).

While a game runs its page shows the public view only (no hand, no deck);
after it has finished every hand and deck is shown, unless a game dealt the
same cards has not finished yet. Aborted games stay public.

The databases are opened read-only (SQLite URI mode=ro): safe beside a
referee writing the same file. A game id is looked up in the databases in
the order given.

ARGUMENTS
  DB...      one or more record databases (SQLite files)
  --listen   HOST:PORT to listen on (default 127.0.0.1:8080; port 0 picks
             a free port). The viewer has no authentication: expose it
             beyond localhost only behind a proxy that adds what you need.

LIMITS (what one client can make the server hold; docs/viewer.md)
  --max-connections N      open connections at most (default 256); at the
                           cap a new connection closes the oldest idle or
                           still-sending one, never one being answered
  --idle-timeout S         seconds a connection may wait with no request
                           in progress (default 5)
  --header-timeout S       seconds a request may take to arrive whole from
                           its first byte (default 10): slow senders are cut
  --write-timeout S        seconds an answer may take to be read whole
                           (default 30)
  --threads N              threads building answers (default 4)
  --max-requests-per-connection N
                           keep-alive requests per connection (default 100)
  Range headers are ignored (every answer is whole); request heads over
  8 KiB get 431; listings are pages of at most 500 games and a
  tournament's schedule pages of at most 500 games.

A PERSON TAKES A SEAT (docs/viewer.md)
  --referee ADDR           relay people's seats to the referee at ADDR
                           (host:port): /play/GAME asks for the seat's
                           token and plays it in the browser, the page
                           showing only what the referee's GetTurn shows
                           that seat; moves are relayed with SubmitMove.
                           The token travels in a request header, never a
                           URL, and is never logged or shown. Without it
                           the viewer stays read-only.
  --referee-timeout S      deadline of each relayed call (default 5)
  --challenge ACCOUNT      let a person challenge this bot account from
                           /play (repeatable): the viewer creates the game
                           with the organiser's token (--admin-token-file
                           or $CASSINO_ADMIN_TOKEN), the person at seat 0
                           marked human, the bot through its lobby
  --challenge-rules R      the rules of challenges (default standard)
  --challenge-per-move-ms MS
                           the person's and the bot's time a move (default
                           120000; a 60000 ms bank)
  --max-challenges N       challenges running at once at most (default 4)
  --tls-ca FILE, --tls-server-name NAME
                           reach the referee over TLS

Stops on SIGINT or SIGTERM.

EXIT STATUS
  0  stopped by a signal
  2  usage error, a database cannot be opened, or the address is in use)doc";

struct Options {
  std::vector<std::string> dbs;
  std::string listen = "127.0.0.1:8080";
  int max_connections = 256;
  double idle_timeout_s = 5;
  double header_timeout_s = 10;
  double write_timeout_s = 30;
  int threads = 4;
  int max_requests = 100;
  std::string referee;
  double referee_timeout_s = 5;
  TlsFlags tls;
  std::vector<std::string> challenge;
  std::string admin_token_file;
  std::string challenge_rules = "standard";
  int64_t challenge_per_move_ms = 120000;
  int max_challenges = 4;
};

viewer::HttpLimits LimitsOf(const Options& opt) {
  viewer::HttpLimits limits;
  limits.max_connections = opt.max_connections;
  limits.idle_timeout = absl::Seconds(opt.idle_timeout_s);
  limits.header_timeout = absl::Seconds(opt.header_timeout_s);
  limits.write_timeout = absl::Seconds(opt.write_timeout_s);
  limits.threads = opt.threads;
  limits.max_requests_per_connection = opt.max_requests;
  // The seat relay's moves are small JSON bodies; the viewer takes none.
  limits.max_body_bytes = opt.referee.empty() ? 0 : 4096;
  return limits;
}

int Run(const Options& opt) {
  std::string host;
  int port = 0;
  if (absl::Status s = viewer::ParseListen(opt.listen, &host, &port); !s.ok()) {
    std::cerr << "cassino serve: " << s.message() << "\n";
    return 2;
  }
  absl::StatusOr<std::unique_ptr<viewer::Viewer>> v =
      viewer::Viewer::Open(opt.dbs);
  if (!v.ok()) {
    std::cerr << "cassino serve: " << v.status().message() << "\n";
    return 2;
  }
  std::shared_ptr<const viewer::SeatRelay> relay;
  if (!opt.referee.empty()) {
    absl::StatusOr<std::shared_ptr<grpc::Channel>> channel =
        MakeChannel(opt.referee, opt.tls);
    if (!channel.ok()) {
      std::cerr << "cassino serve: " << channel.status().message() << "\n";
      return 2;
    }
    viewer::Challenges challenges;
    if (!opt.challenge.empty()) {
      OrganiserFlags flags;
      flags.token_file = opt.admin_token_file;
      absl::StatusOr<std::string> token = ReadAdminToken(flags);
      if (!token.ok()) {
        std::cerr << "cassino serve: --challenge: " << token.status().message()
                  << "\n";
        return 2;
      }
      challenges.admin_token = *token;
      challenges.bots = opt.challenge;
      challenges.rules = opt.challenge_rules;
      challenges.per_move_ms = opt.challenge_per_move_ms;
      challenges.max_running = opt.max_challenges;
    }
    relay = std::make_shared<const viewer::SeatRelay>(
        *std::move(channel), absl::Seconds(opt.referee_timeout_s),
        std::move(challenges));
  } else if (!opt.challenge.empty()) {
    std::cerr << "cassino serve: --challenge needs --referee\n";
    return 2;
  }
  // The server's threads inherit a mask without the stop signals, so this
  // thread alone receives them.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  absl::StatusOr<std::unique_ptr<viewer::ViewerServer>> server =
      viewer::ViewerServer::Start(
          std::shared_ptr<const viewer::Viewer>(*std::move(v)), host, port,
          LimitsOf(opt), std::move(relay));
  if (!server.ok()) {
    std::cerr << "cassino serve: " << server.status().message() << "\n";
    return 2;
  }
  const bool v6 = host.find(':') != std::string::npos;
  std::cout << "cassino serve: " << opt.dbs.size() << " database"
            << (opt.dbs.size() == 1 ? "" : "s") << " at http://"
            << (v6 ? "[" : "") << host << (v6 ? "]" : "") << ":"
            << (*server)->port() << "/" << std::endl;
  int signal = 0;
  sigwait(&stop, &signal);
  (*server)->Stop();
  (*server)->Wait();
  return 0;
}

}  // namespace

void AddServeCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("serve", kDescription);
  auto opt = std::make_shared<Options>();
  cmd->add_option("DB", opt->dbs, "record databases (SQLite files)")
      ->required();
  cmd->add_option("--listen", opt->listen,
                  "HOST:PORT to listen on (default 127.0.0.1:8080)");
  cmd->add_option("--max-connections", opt->max_connections,
                  "open connections at most (default 256)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--idle-timeout", opt->idle_timeout_s,
                  "seconds a connection may wait with no request (default 5)")
      ->check(CLI::Range(0.05, 3600.0));
  cmd->add_option("--header-timeout", opt->header_timeout_s,
                  "seconds a request may take to arrive whole (default 10)")
      ->check(CLI::Range(0.05, 3600.0));
  cmd->add_option("--write-timeout", opt->write_timeout_s,
                  "seconds an answer may take to be read (default 30)")
      ->check(CLI::Range(0.05, 3600.0));
  cmd->add_option("--threads", opt->threads,
                  "threads building answers (default 4)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--max-requests-per-connection", opt->max_requests,
                  "keep-alive requests per connection (default 100)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--referee", opt->referee,
                  "relay people's seats to the referee at HOST:PORT");
  cmd->add_option("--referee-timeout", opt->referee_timeout_s,
                  "deadline of each relayed call, seconds (default 5)")
      ->check(CLI::Range(0.1, 600.0));
  AddTlsFlags(cmd, &opt->tls);
  cmd->add_option("--challenge", opt->challenge,
                  "a bot account a person may challenge from /play "
                  "(repeatable; needs --referee and the admin token)");
  cmd->add_option("--admin-token-file", opt->admin_token_file,
                  "the organiser's token, for --challenge (else "
                  "$CASSINO_ADMIN_TOKEN)");
  cmd->add_option("--challenge-rules", opt->challenge_rules,
                  "the rules of challenges (default standard)");
  cmd->add_option("--challenge-per-move-ms", opt->challenge_per_move_ms,
                  "time a move in challenges (default 120000)")
      ->check(CLI::Range(int64_t{1000}, int64_t{3600000}));
  cmd->add_option("--max-challenges", opt->max_challenges,
                  "challenges running at once at most (default 4)")
      ->check(CLI::Range(1, 1000));
  cmd->callback([opt, exit_code] { *exit_code = Run(*opt); });
}

}  // namespace cassino::cli
