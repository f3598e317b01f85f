// cassino-bot: plays one seat of a game on a Cassino referee with one of
// the reference strategies.
//
//   cassino-bot --address 127.0.0.1:50051 --token $TOKEN --strategy builder
//
// or, in lobby mode, every game its bot account is seated in, up to
// --capacity at once (and with --ladder NAME --version V, in a ladder):
//
//   cassino-bot --address 127.0.0.1:50051 --lobby --key $KEY --capacity 4
//
// Exit status: 0 when the game ended (whoever won), printing one line with
// the result to stdout (in lobby mode: once --games games have ended, one
// line per game); 1 when the game could not be played to the end, or the
// lobby refused the key (error on stderr); 2 for bad flags.

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include "CLI/CLI.hpp"
#include "absl/strings/str_join.h"
#include "tools/bots/client/bot_client.h"
#include "tools/bots/client/lobby_client.h"
#include "tools/bots/strategies.h"

namespace {

// A deliberately misbehaving bot, for testing ladders' probation
// (docs/ladder.md): after `after` moves of this process, `crash` exits at
// once (status 3, as a crashed bot would vanish), `stall` lets each turn's
// clock run out before answering.
class FaultyStrategy : public cassino::bots::Strategy {
 public:
  FaultyStrategy(std::unique_ptr<cassino::bots::Strategy> inner,
                 std::string fault, int after, std::atomic<int>* moves)
      : inner_(std::move(inner)),
        fault_(std::move(fault)),
        after_(after),
        moves_(moves) {}
  std::string name() const override { return inner_->name(); }
  cassino::Move Choose(const cassino::bots::TurnView& view) override {
    if (++*moves_ > after_) {
      if (fault_ == "crash") {
        std::cerr << "cassino-bot: crashing on purpose (--fault crash)"
                  << std::endl;
        std::_Exit(3);
      }
      if (fault_ == "stall") {
        std::this_thread::sleep_for(
            std::chrono::milliseconds(view.time_left_ms + 500));
      }
    }
    return inner_->Choose(view);
  }

 private:
  std::unique_ptr<cassino::bots::Strategy> inner_;
  const std::string fault_;
  const int after_;
  std::atomic<int>* const moves_;
};

// A bot that takes its time: waits `think` before each move, so that a
// long ladder or tournament of reference bots paces like a season of real
// ones instead of a load test (--think-ms).
class PacedStrategy : public cassino::bots::Strategy {
 public:
  PacedStrategy(std::unique_ptr<cassino::bots::Strategy> inner,
                std::chrono::milliseconds think)
      : inner_(std::move(inner)), think_(think) {}
  std::string name() const override { return inner_->name(); }
  cassino::Move Choose(const cassino::bots::TurnView& view) override {
    std::this_thread::sleep_for(think_);
    return inner_->Choose(view);
  }

 private:
  std::unique_ptr<cassino::bots::Strategy> inner_;
  const std::chrono::milliseconds think_;
};

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "cassino-bot: plays one seat of a Cassino game on a referee with a "
      "reference strategy."};
  cassino::bots::BotOptions options;
  options.address = EnvOr("CASSINO_ADDRESS", "127.0.0.1:50051");
  options.token = EnvOr("CASSINO_TOKEN", "");
  options.game_id = EnvOr("CASSINO_GAME", "");
  cassino::bots::LobbyOptions lobby;
  lobby.key = EnvOr("CASSINO_BOT_KEY", "");
  bool lobby_mode = false;
  std::string strategy_name = "builder";
  uint64_t seed = 1;
  bool quiet = false;
  app.add_option("--address", options.address,
                 "The referee, host:port (default: $CASSINO_ADDRESS)")
      ->capture_default_str();
  app.add_option("--token", options.token,
                 "The seat token (default: $CASSINO_TOKEN)");
  app.add_option("--game", options.game_id,
                 "The game id (default: $CASSINO_GAME); needed with --unary");
  app.add_option("--strategy", strategy_name, "The strategy")
      ->check(CLI::IsMember(cassino::bots::StrategyNames()))
      ->capture_default_str();
  app.add_option("--seed", seed, "Seeds the random strategy and the backoff")
      ->capture_default_str();
  app.add_flag("--lobby", lobby_mode,
               "Lobby mode: connect to the lobby with the bot key and play "
               "every game offered, up to --capacity at once");
  app.add_option("--key", lobby.key,
                 "The bot key, for --lobby (default: $CASSINO_BOT_KEY)");
  app.add_option("--capacity", lobby.capacity,
                 "With --lobby: games played at once")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--games", lobby.max_games,
                 "With --lobby: exit after this many games have ended (0: "
                 "never)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--ladder", lobby.ladder,
                 "With --lobby: join this ladder (docs/ladder.md)");
  app.add_option("--version", lobby.version,
                 "With --ladder: this bot's version, rated on its own "
                 "(letters, digits, -_.)");
  std::string fault;
  int fault_after = 5;
  app.add_option("--fault", fault,
                 "Misbehave on purpose, for testing: crash (exit at once) or "
                 "stall (let the clock run out), after --fault-after moves")
      ->check(CLI::IsMember({"crash", "stall"}));
  app.add_option("--fault-after", fault_after,
                 "With --fault: moves played normally first")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  int think_ms = 0;
  app.add_option("--think-ms", think_ms,
                 "Wait this long before each move (pacing a long run; 0: "
                 "answer at once)")
      ->check(CLI::Range(0, 600000))
      ->capture_default_str();
  app.add_flag("--unary", options.unary,
               "Use GetTurn/SubmitMove instead of the Play stream");
  std::string play_mode = "compact";
  app.add_option("--play-mode", play_mode,
                 "The Play stream's mode: compact (three messages a move) or "
                 "full (every move played sent as it happens)")
      ->check(CLI::IsMember({"compact", "full"}))
      ->capture_default_str();
  app.add_option("--tls-ca", options.tls_ca_file,
                 "PEM root certificates: connect with TLS")
      ->check(CLI::ExistingFile);
  app.add_option("--max-retries", options.max_retries,
                 "Consecutive failed attempts before giving up")
      ->capture_default_str();
  app.add_flag("--verbose,-v", options.verbose, "Log every move and round");
  app.add_flag("--quiet,-q", quiet, "No diagnostics on stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help exits 0; bad flags exit 2, as the file comment says.
    return app.exit(e) == 0 ? 0 : 2;
  }

  options.seed = seed;
  if (!quiet) options.log = &std::cerr;
  // The strategy of a game (the n-th, in lobby mode: seeded seed + n), with
  // --fault and --think-ms around it.
  std::atomic<int> moves{0};
  auto make_strategy =
      [&](uint64_t game_seed) -> std::unique_ptr<cassino::bots::Strategy> {
    std::unique_ptr<cassino::bots::Strategy> strategy =
        cassino::bots::MakeStrategy(strategy_name, game_seed);
    if (!fault.empty()) {
      strategy = std::make_unique<FaultyStrategy>(std::move(strategy), fault,
                                                  fault_after, &moves);
    }
    if (think_ms > 0) {
      strategy = std::make_unique<PacedStrategy>(
          std::move(strategy), std::chrono::milliseconds(think_ms));
    }
    return strategy;
  };
  if (lobby_mode) {
    if (lobby.key.empty()) {
      std::cerr << "cassino-bot: --lobby needs --key (or $CASSINO_BOT_KEY)\n";
      return 2;
    }
    if (!lobby.ladder.empty() && lobby.version.empty()) {
      std::cerr << "cassino-bot: --ladder needs --version\n";
      return 2;
    }
    lobby.bot = options;
    cassino::bots::LobbyClient client(
        lobby, [&](int n) { return make_strategy(seed + n); });
    absl::StatusOr<std::vector<cassino::bots::BotResult>> results =
        client.Run();
    if (!results.ok()) {
      std::cerr << "cassino-bot: " << results.status() << "\n";
      return 1;
    }
    for (const cassino::bots::BotResult& r : *results) {
      std::cout << r.Describe() << " [" << strategy_name << ", " << r.moves
                << " moves, " << r.rejected << " rejected, " << r.reconnects
                << " retries]\n";
    }
    return 0;
  }
  if (options.token.empty()) {
    std::cerr << "cassino-bot: no token (--token or $CASSINO_TOKEN)\n";
    return 2;
  }
  options.compact = play_mode == "compact";
  if (options.unary && options.game_id.empty()) {
    std::cerr << "cassino-bot: --unary needs --game (or $CASSINO_GAME)\n";
    return 2;
  }

  std::unique_ptr<cassino::bots::Strategy> strategy = make_strategy(seed);
  cassino::bots::BotClient client(options, strategy.get());
  absl::StatusOr<cassino::bots::BotResult> result = client.Run();
  if (!result.ok()) {
    std::cerr << "cassino-bot: " << result.status() << "\n";
    return 1;
  }
  std::cout << result->Describe() << " [" << strategy->name() << ", "
            << result->moves << " moves, " << result->rejected << " rejected, "
            << result->reconnects << " retries]\n";
  return 0;
}
