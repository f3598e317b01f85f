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
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
