// cassino: the command-line tools of the Cassino referee.

#include <iostream>

#include "tools/cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "cassino: tools for the Cassino referee (rules engine, records, bots).\n"
      "Run 'cassino <command> --help' for each command."};
  app.require_subcommand(1);
  int exit_code = 0;
  cassino::cli::AddMovesCommand(app, &exit_code);
  cassino::cli::AddDealCommand(app, &exit_code);
  cassino::cli::AddSimulateCommand(app, &exit_code);
  cassino::cli::AddRulesCommand(app, &exit_code);
  cassino::cli::AddTournamentCommand(app, &exit_code);
  cassino::cli::AddStatsCommand(app, &exit_code);
  cassino::cli::AddVerifyCommand(app, &exit_code);
  cassino::cli::AddReplayCommand(app, &exit_code);
  cassino::cli::AddExportCommand(app, &exit_code);
  cassino::cli::AddImportCommand(app, &exit_code);
  cassino::cli::AddHealthCommand(app, &exit_code);
  cassino::cli::AddServeCommand(app, &exit_code);
  cassino::cli::AddBotCommand(app, &exit_code);
  cassino::cli::AddGameCommand(app, &exit_code);
  cassino::cli::AddLadderCommand(app, &exit_code);
  cassino::cli::AddNewBotCommand(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help exits 0; usage errors exit 2.
    return app.exit(e) == 0 ? 0 : 2;
  }
  return exit_code;
}
