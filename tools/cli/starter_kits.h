// `cassino new-bot`'s starter kits: a minimal bot project per language that
// plays a local game against a reference bot with one command.
//
// A kit is a list of files (a pure function of its inputs, so tests read it
// without writing anything): the bot (on the SDK of its language), a
// README, and play.sh, which installs the SDK on first use (offline: a venv
// on Debian's packages for Python, a linked folder for Node; for C++ it
// builds the bot with CMake against the client library this build exports,
// tools/bots/CassinoBotClientConfig.cmake) and runs
// `cassino tournament` with the bot against `cassino-bot --strategy greedy`
// on a referee it starts itself (games.db in the kit's folder). The paths
// of the SDKs and binaries are those of the build that wrote the kit.

#ifndef CASSINO_TOOLS_CLI_STARTER_KITS_H_
#define CASSINO_TOOLS_CLI_STARTER_KITS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cassino::cli {

struct KitFile {
  std::string path;  // relative to the kit's folder
  std::string contents;
  bool executable = false;
};

// Where a kit finds what it uses.
struct KitPaths {
  std::string sdk_dir;      // the repository's sdk/ folder
  std::string cassino;      // this `cassino` binary
  std::string cassino_bot;  // the reference bot, `cassino-bot`
  // The C++ kit: the build's exported client library
  // (BUILD/cassino-bot-client, its CassinoBotClientConfig.cmake), the
  // library's README, and the text of its example bot
  // (tools/bots/example_bot.cc), which is the kit's bot.
  std::string cpp_client_dir;
  std::string cpp_readme;
  std::string cpp_example;
};

// The languages with a kit: "python", "node", "cpp".
std::vector<std::string> KitLanguages();

// The kit for `language`, its bot called `name` (letters, digits, '-' and
// '_', at most 32: it names the bot in standings). InvalidArgument for an
// unknown language or a bad name.
absl::StatusOr<std::vector<KitFile>> StarterKit(absl::string_view language,
                                                absl::string_view name,
                                                const KitPaths& paths);

// `text` as one word for /bin/sh: single-quoted, each ' written '\''.
std::string ShellQuote(absl::string_view text);

}  // namespace cassino::cli

#endif  // CASSINO_TOOLS_CLI_STARTER_KITS_H_
