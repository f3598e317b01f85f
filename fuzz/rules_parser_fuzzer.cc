// Fuzzes RuleSet::Parse. Properties: parsing never crashes; a rule set that
// parses prints (ToString) to text that parses again to an equal, valid rule
// set; RulesDiff (the form positions print) round-trips too.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_util.h"
#include "rules/position.h"
#include "rules/rule_set.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<cassino::RuleSet> rules = cassino::RuleSet::Parse(input);
  if (!rules.ok()) return 0;
  if (!rules->Validate().ok()) {
    cassino::fuzz::Fail("Parse accepted rules that do not validate", input);
  }
  for (const std::string& text :
       {rules->ToString(), cassino::RulesDiff(*rules)}) {
    absl::StatusOr<cassino::RuleSet> again = cassino::RuleSet::Parse(text);
    if (!again.ok()) {
      cassino::fuzz::Fail("printed rules do not parse: '" + text +
                              "': " + std::string(again.status().message()),
                          input);
    }
    if (!(*again == *rules)) {
      cassino::fuzz::Fail("round trip changes the rules: '" + text + "' -> '" +
                              again->ToString() + "'",
                          input);
    }
  }
  return 0;
}
