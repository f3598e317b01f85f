// cassino-bot: plays one seat of a game on a Cassino referee with one of
// the reference strategies.
//
//   cassino-bot --address 127.0.0.1:7000 --token $TOKEN --strategy builder
//
// Exit status: 0 when the game ended (whoever won), printing one line with
// the result to stdout; 1 when the game could not be played to the end
// (error on stderr); 2 for bad flags.

#include <cstdlib>
#include <iostream>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/strings/str_join.h"
#include "tools/bots/client/bot_client.h"
#include "tools/bots/strategies.h"

namespace {

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
  options.address = EnvOr("CASSINO_ADDRESS", "127.0.0.1:7000");
  options.token = EnvOr("CASSINO_TOKEN", "");
  options.game_id = EnvOr("CASSINO_GAME", "");
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
  app.add_flag("--unary", options.unary,
               "Use GetTurn/SubmitMove instead of the Play stream");
  app.add_option("--tls-ca", options.tls_ca_file,
                 "PEM root certificates: connect with TLS")
      ->check(CLI::ExistingFile);
  app.add_option("--max-retries", options.max_retries,
                 "Consecutive failed attempts before giving up")
      ->capture_default_str();
  app.add_flag("--verbose,-v", options.verbose, "Log every move and round");
  app.add_flag("--quiet,-q", quiet, "No diagnostics on stderr");
  CLI11_PARSE(app, argc, argv);

  if (options.token.empty()) {
    std::cerr << "cassino-bot: no token (--token or $CASSINO_TOKEN)\n";
    return 2;
  }
  if (options.unary && options.game_id.empty()) {
    std::cerr << "cassino-bot: --unary needs --game (or $CASSINO_GAME)\n";
    return 2;
  }
  options.seed = seed;
  if (!quiet) options.log = &std::cerr;

  std::unique_ptr<cassino::bots::Strategy> strategy =
      cassino::bots::MakeStrategy(strategy_name, seed);
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
