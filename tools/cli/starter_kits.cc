#include "tools/cli/starter_kits.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace cassino::cli {
namespace {

constexpr absl::string_view kPythonBot = R"kit(#!/usr/bin/env python3
"""{name}: a Cassino bot on the Python SDK (README.md beside this file).

choose() gets the turn (your hand, the table, the builds and who owns them,
the round's history, the scores, your clock and every legal move) and
returns one of turn.legal_moves. Make it stronger; ./play.sh measures it.
"""

import cassino


class Bot(cassino.Bot):
    def choose(self, turn):
        # Take the most cards; else trail the lowest card; else the first
        # legal move (the list is in canonical notation order).
        captures = [m for m in turn.legal_moves if m.kind == "capture"]
        if captures:
            return max(captures, key=lambda m: len(m.table_cards))
        trails = [m for m in turn.legal_moves if m.kind == "trail"]
        if trails:
            return trails[0]
        return turn.legal_moves[0]


if __name__ == "__main__":
    cassino.run(Bot())
)kit";

constexpr absl::string_view kNodeBot = R"kit(#!/usr/bin/env node
'use strict';
// {name}: a Cassino bot on the Node SDK (README.md beside this file).
//
// choose() gets the turn (your hand, the table, the builds and who owns
// them, the round's history, the scores, your clock and every legal move)
// and returns one of turn.legalMoves. Make it stronger; ./play.sh
// measures it.

const cassino = require('cassino-sdk');

class Bot extends cassino.Bot {
  choose(turn) {
    // Take the most cards; else trail; else the first legal move.
    const captures = turn.legalMoves.filter((m) => m.kind === 'capture');
    if (captures.length > 0) {
      return captures.reduce(
        (best, m) => (m.tableCards.length > best.tableCards.length ? m : best));
    }
    const trails = turn.legalMoves.filter((m) => m.kind === 'trail');
    return trails.length > 0 ? trails[0] : turn.legalMoves[0];
  }
}

cassino.run(new Bot());
)kit";

constexpr absl::string_view kNodePackage = R"kit({
  "name": "{package}",
  "version": "0.1.0",
  "private": true,
  "description": "A Cassino bot",
  "main": "bot.js",
  "dependencies": { "cassino-sdk": "file:{sdk_node}" }
}
)kit";

// play.sh: {install} sets the SDK up once; {command} runs the bot.
constexpr absl::string_view kPlay = R"kit(#!/bin/sh
# Plays {name} against the reference bot `greedy` on a local referee and
# prints the standings: ./play.sh [GAMES] (default 4, in duplicate pairs).
# Every game is recorded in games.db here (cassino replay games.db GAME).
set -e
cd "$(dirname "$0")"
{install}
exec {cassino} tournament --db games.db \
  --bot "{name}={command}" \
  --bot {greedy} \
  --games "${1:-4}" --duplicate
)kit";

constexpr absl::string_view kPythonInstall =
    R"kit(if [ ! -x .venv/bin/python ]; then
  # Debian's python3 with its grpcio and protobuf; nothing is downloaded.
  /usr/bin/python3 -m venv --system-site-packages .venv
  .venv/bin/python -m pip install --quiet --no-index --no-build-isolation \
    {sdk_python}
fi)kit";

constexpr absl::string_view kNodeInstall = R"kit(if [ ! -d node_modules ]; then
  npm install --silent --no-audit --no-fund
fi)kit";

constexpr absl::string_view kCppCMake =
    R"kit(# {name}: a Cassino bot on the C++ bot client library (README.md).
cmake_minimum_required(VERSION 3.25)
project({package} LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE RelWithDebInfo)
endif()

# The library of the Cassino build that wrote this kit: play.sh passes
# -DCassinoBotClient_DIR=BUILD/cassino-bot-client (or set it yourself).
find_package(CassinoBotClient CONFIG REQUIRED)

add_executable(bot bot.cc)
target_link_libraries(bot PRIVATE cassino::cassino_bot_client)
)kit";

constexpr absl::string_view kCppInstall =
    R"kit(if [ ! -f build/CMakeCache.txt ]; then
  # Against the C++ bot client library of the Cassino build that wrote
  # this kit (its exported targets); nothing is downloaded.
  generator=""
  if command -v ninja >/dev/null; then generator="-G Ninja"; fi
  cmake -S . -B build $generator \
    -DCassinoBotClient_DIR={cpp_client_dir} >/dev/null
fi
cmake --build build >/dev/null)kit";

constexpr absl::string_view kReadme = R"kit(# {name}

A Cassino bot, written by `cassino new-bot --lang {language}`.

- `{bot}` is the bot: {choose} returns one of the turn's legal
  moves. The {sdk} ({sdk_readme}) plays it: the referee's stream, the
  round's history, reconnection, readable errors.
- `./play.sh [GAMES]` plays it against the reference bot `greedy` on a
  referee it starts itself, and prints the standings (the first run sets
  the SDK up{setup}). The games are recorded in `games.db`:
  `cassino replay games.db GAME` shows one move by move, `cassino serve
  games.db` in a browser.
- Against a referee elsewhere: `{command} --address HOST:PORT --token
  SEAT_TOKEN` plays one seat; `{command} --lobby --key BOT_KEY` plays every
  game the referee offers its bot account.
- In a tournament, as it is: `cassino tournament --bot "{name}={command}"
  --bot ...` from this folder.
)kit";

bool GoodName(absl::string_view name) {
  if (name.empty() || name.size() > 32) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' &&
        c != '_') {
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> KitLanguages() { return {"python", "node", "cpp"}; }

std::string ShellQuote(absl::string_view text) {
  return absl::StrCat("'", absl::StrReplaceAll(text, {{"'", "'\\''"}}), "'");
}

absl::StatusOr<std::vector<KitFile>> StarterKit(absl::string_view language,
                                                absl::string_view name,
                                                const KitPaths& paths) {
  if (!GoodName(name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--name: '", name,
        "' is not a bot name (1 to 32 letters, digits, '-' or '_')"));
  }
  const bool python = language == "python", cpp = language == "cpp";
  if (!python && !cpp && language != "node") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--lang: '", language, "' has no starter kit (python, node or cpp)"));
  }
  const std::string bot = python ? "bot.py" : cpp ? "bot.cc" : "bot.js";
  const std::string command = python ? ".venv/bin/python bot.py"
                              : cpp  ? "build/bot"
                                     : "node bot.js";
  const std::string sdk =
      absl::StrCat(paths.sdk_dir, python ? "/python" : "/node");
  std::vector<std::pair<std::string, std::string>> fill = {
      {"{name}", std::string(name)},
      {"{package}", absl::AsciiStrToLower(name)},
      {"{language}", std::string(language)},
      {"{bot}", bot},
      {"{command}", command},
      {"{cassino}", ShellQuote(paths.cassino)},
      // (A word for play.sh holding a command for the runner's /bin/sh.)
      {"{greedy}",
       ShellQuote(absl::StrCat("greedy=", ShellQuote(paths.cassino_bot),
                               " --strategy greedy -q"))},
      {"{sdk_python}", ShellQuote(sdk)},
      {"{sdk_node}", sdk},
      {"{sdk_readme}",
       cpp ? paths.cpp_readme : absl::StrCat(sdk, "/README.md")},
      {"{setup}", python ? ": a venv in `.venv`"
                  : cpp  ? ": `build/bot`, built with CMake against the C++ "
                           "client library of the build that wrote this kit"
                         : ": `npm install`"},
      {"{cpp_client_dir}", ShellQuote(paths.cpp_client_dir)},
      {"{choose}",
       cpp ? "`Choose(view)` (a `cassino::bots::Strategy`)" : "`choose(turn)`"},
      {"{sdk}", cpp ? "C++ client library" : "SDK"},
  };
  fill.emplace_back("{install}", absl::StrReplaceAll(python ? kPythonInstall
                                                     : cpp  ? kCppInstall
                                                            : kNodeInstall,
                                                     fill));
  // (StrReplaceAll replaces in one pass: what {install} brings in is not
  // scanned again, so it is filled in first.)
  auto text = [&fill](absl::string_view t) {
    return absl::StrReplaceAll(t, fill);
  };
  std::vector<KitFile> files;
  if (cpp) {
    if (paths.cpp_example.empty() || paths.cpp_client_dir.empty()) {
      return absl::FailedPreconditionError(
          "--lang cpp: this build has no exported C++ client library "
          "(BUILD/cassino-bot-client) or example bot");
    }
    files.push_back({bot, paths.cpp_example, false});
    files.push_back({"CMakeLists.txt", text(kCppCMake), false});
  } else {
    files.push_back({bot, text(python ? kPythonBot : kNodeBot), true});
  }
  files.push_back({"play.sh", text(kPlay), true});
  files.push_back({"README.md", text(kReadme), false});
  if (!python && !cpp) {
    files.push_back({"package.json", text(kNodePackage), false});
  }
  return files;
}

}  // namespace cassino::cli
