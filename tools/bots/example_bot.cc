// A C++ bot on the client library, the same shape as the SDKs' bots: one
// method, Choose(view) -> move; the library plays it (the Play stream in
// the compact mode, the round's history kept, reconnection, rejected
// moves). Copy it to start a bot of your own (tools/bots/README.md, *The
// C++ client as a library*).
//
//   cassino-example-bot --token SEAT_TOKEN [--address HOST:PORT]
//   cassino-example-bot --lobby --key BOT_KEY [--capacity N]

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "tools/bots/client/bot_client.h"
#include "tools/bots/client/lobby_client.h"
#include "tools/bots/client/turn_view.h"

namespace {

// Takes the capture that takes the most cards, else the first legal move.
class MostCards : public cassino::bots::Strategy {
 public:
  std::string name() const override { return "most-cards"; }
  cassino::Move Choose(const cassino::bots::TurnView& view) override {
    const cassino::Move* best = &view.legal_moves.front();
    for (const cassino::Move& m : view.legal_moves) {
      if (m.kind == cassino::MoveKind::kCapture &&
          (best->kind != cassino::MoveKind::kCapture ||
           m.table.size() > best->table.size())) {
        best = &m;
      }
    }
    return *best;
  }
};

const char* EnvOr(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  cassino::bots::BotOptions options;
  options.address = EnvOr("CASSINO_ADDRESS", "127.0.0.1:50051");
  options.token = EnvOr("CASSINO_TOKEN", "");
  options.log = &std::cerr;
  std::string key = EnvOr("CASSINO_BOT_KEY", "");
  bool lobby = false;
  int capacity = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--address" && has_value) {
      options.address = argv[++i];
    } else if (arg == "--token" && has_value) {
      options.token = argv[++i];
    } else if (arg == "--key" && has_value) {
      key = argv[++i];
    } else if (arg == "--capacity" && has_value) {
      capacity = std::atoi(argv[++i]);
    } else if (arg == "--lobby") {
      lobby = true;
    } else {
      std::cerr << "usage: " << argv[0]
                << " [--address HOST:PORT] (--token T | --lobby --key K "
                   "[--capacity N])\n";
      return 2;
    }
  }
  if (lobby) {
    cassino::bots::LobbyOptions lo;
    lo.bot = options;
    lo.key = key;
    lo.capacity = capacity;
    cassino::bots::LobbyClient client(
        lo, [](int) { return std::make_unique<MostCards>(); });
    const auto results = client.Run();  // plays until the key is refused
    if (!results.ok()) std::cerr << results.status() << "\n";
    return results.ok() ? 0 : 1;
  }
  MostCards strategy;
  cassino::bots::BotClient client(options, &strategy);
  const absl::StatusOr<cassino::bots::BotResult> result = client.Run();
  if (!result.ok()) {
    // The referee's refusal, e.g. UNAUTHENTICATED: unknown seat token.
    std::cerr << result.status() << "\n";
    return 1;
  }
  std::cout << result->Describe() << "\n";
  return 0;
}
