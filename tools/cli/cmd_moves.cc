// cassino moves '<position>': every legal move, one per line, sorted.

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "rules/game_moves.h"
#include "rules/position.h"
#include "tools/cli/commands.h"

namespace cassino::cli {

void AddMovesCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "moves",
      "Print every legal move of a position in canonical notation, one per "
      "line, sorted. Position format: 'table: 2C KH [5S 3H]=8@1; hands: 3D 8C "
      "/ ?; to_move: 0; rules: builder_obligation=v2' (see docs/rules.md). "
      "The moves are those of the game the rules name: Cassino, or "
      "Callabra or Tablanette with 'rules: callabra' or 'rules: "
      "tablanette'.");
  auto position = std::make_shared<std::string>();
  auto count_only = std::make_shared<bool>(false);
  cmd->add_option("position", *position, "the position, in one argument")
      ->required();
  cmd->add_flag("--count", *count_only, "print only the number of moves");
  cmd->callback([=] {
    absl::StatusOr<Position> pos = Position::Parse(*position);
    if (!pos.ok()) {
      std::cerr << "cassino moves: " << pos.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    MoveGenerator gen;
    std::vector<Move> moves;
    const bool complete = GenerateGameMoves(*pos, gen, &moves);
    std::vector<std::string> lines;
    for (const Move& m : moves) lines.push_back(m.ToString());
    std::sort(lines.begin(), lines.end());
    if (*count_only) {
      std::cout << lines.size() << "\n";
    } else {
      for (const std::string& l : lines) std::cout << l << "\n";
    }
    if (!complete) {
      std::cerr << "cassino moves: the table holds more than "
                << MoveGenerator::kMaxItems
                << " loose numeral cards; the list is incomplete\n";
    }
  });
}

}  // namespace cassino::cli
