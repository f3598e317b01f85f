// cassino deal --seed <hex> --round <r>: the deck of a round.

#include <iostream>
#include <string>

#include "rules/deal.h"
#include "tools/cli/commands.h"

namespace cassino::cli {

void AddDealCommand(CLI::App& app, int* exit_code) {
  auto* cmd =
      app.add_subcommand("deal",
                         "Print the deck of a round as dealt from a seed "
                         "(docs/rules.md, *The seeded shuffle*), top card "
                         "first, and the seed's commitment.");
  auto seed_hex = std::make_shared<std::string>();
  auto round = std::make_shared<int>(1);
  cmd->add_option("--seed", *seed_hex, "the game seed: 64 hex digits")
      ->required();
  cmd->add_option("--round", *round, "the round, from 1")
      ->check(CLI::Range(1, 1 << 30));
  cmd->callback([=] {
    absl::StatusOr<Seed> seed = ParseSeed(*seed_hex);
    if (!seed.ok()) {
      std::cerr << "cassino deal: " << seed.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    std::cout << "commitment " << ToHex(SeedCommitment(*seed)) << "\n";
    std::cout << "round " << *round << " "
              << DeckToString(
                     ShuffledDeck(*seed, static_cast<uint32_t>(*round)))
              << "\n";
  });
}

}  // namespace cassino::cli
