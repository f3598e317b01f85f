// cassino rules [RULES]: the rule options, or one rule set in full.

#include <iostream>
#include <memory>
#include <string>

#include "rules/rule_set.h"
#include "tools/cli/commands.h"

namespace cassino::cli {
namespace {

// Every option with its values, default and meaning, then every preset
// with what it is and the options it sets.
void PrintOptionDocs() {
  for (const OptionDoc& d : OptionDocs()) {
    std::cout << d.name << "\n"
              << "    values:  " << d.values << "\n"
              << "    default: " << d.default_value << "\n"
              << "    " << d.meaning << "\n";
  }
  std::cout << "\npresets (a preset first, then option=value words):\n";
  for (const PresetDoc& p : PresetDocs()) {
    std::cout << p.name << "\n"
              << "    " << p.meaning << "\n"
              << "    sets: " << (p.options.empty() ? "(nothing)" : p.options)
              << "\n";
  }
}

}  // namespace

void AddRulesCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "rules",
      "Without an argument: list every rule option with its values, default "
      "and meaning. With one: parse that rule set ('standard "
      "builder_obligation=v2 target=11') and print every option of it, as "
      "records state it.");
  auto text = std::make_shared<std::string>();
  auto given = std::make_shared<bool>(false);
  cmd->add_option("rules", *text, "a rule set: a preset and option=value words")
      ->each([given](const std::string&) { *given = true; });
  cmd->callback([=] {
    if (!*given) {
      PrintOptionDocs();
      return;
    }
    absl::StatusOr<RuleSet> rules = RuleSet::Parse(*text);
    if (!rules.ok()) {
      std::cerr << "cassino rules: " << rules.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    std::cout << rules->ToString() << "\n";
  });
}

}  // namespace cassino::cli
