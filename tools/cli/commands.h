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
// The organiser's commands over the API (tools/cli/organiser.h); `cassino
// tournament create|show|list|cancel` are added by AddTournamentCommand.
void AddBotCommand(CLI::App& app, int* exit_code);
void AddGameCommand(CLI::App& app, int* exit_code);
void AddLadderCommand(CLI::App& app, int* exit_code);
// cassino new-bot: a starter kit (tools/cli/starter_kits.h).
void AddNewBotCommand(CLI::App& app, int* exit_code);

}  // namespace cassino::cli

#endif  // CASSINO_TOOLS_CLI_COMMANDS_H_
