// The `cassino` command line: each subcommand registers itself on the app.

#ifndef CASSINO_TOOLS_CLI_COMMANDS_H_
#define CASSINO_TOOLS_CLI_COMMANDS_H_

#include "CLI/CLI.hpp"

namespace cassino::cli {

// Each adds one subcommand; its callback sets `*exit_code`.
void AddMovesCommand(CLI::App& app, int* exit_code);
void AddDealCommand(CLI::App& app, int* exit_code);
void AddSimulateCommand(CLI::App& app, int* exit_code);
void AddRulesCommand(CLI::App& app, int* exit_code);
void AddTournamentCommand(CLI::App& app, int* exit_code);
void AddVerifyCommand(CLI::App& app, int* exit_code);
void AddReplayCommand(CLI::App& app, int* exit_code);
void AddExportCommand(CLI::App& app, int* exit_code);
void AddImportCommand(CLI::App& app, int* exit_code);
void AddStatsCommand(CLI::App& app, int* exit_code);
void AddHealthCommand(CLI::App& app, int* exit_code);
void AddServeCommand(CLI::App& app, int* exit_code);

}  // namespace cassino::cli

#endif  // CASSINO_TOOLS_CLI_COMMANDS_H_
