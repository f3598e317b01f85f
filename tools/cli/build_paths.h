// Where the programs of this build are: `cassino` finds the referee and the
// reference bot beside itself (build/tools/cassino, build/referee/,
// build/tools/bots/), as an installed set keeps them in one folder.

#ifndef CASSINO_TOOLS_CLI_BUILD_PATHS_H_
#define CASSINO_TOOLS_CLI_BUILD_PATHS_H_

#include <initializer_list>
#include <string>

namespace cassino::cli {

// This program's path (/proc/self/exe), or "cassino" if unknown.
std::string ThisProgram();

// The first of `relative` (paths relative to this program's folder) that
// exists, else `fallback` (a name for the PATH).
std::string BesideThisProgram(std::initializer_list<const char*> relative,
                              const std::string& fallback);

}  // namespace cassino::cli

#endif  // CASSINO_TOOLS_CLI_BUILD_PATHS_H_
