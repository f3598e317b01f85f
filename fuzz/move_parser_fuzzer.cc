// Fuzzes Move::Parse. Properties: parsing never crashes; a move that parses
// prints (ToString) to text that parses again to an equal move, and printing
// is stable (the canonical form prints as itself).

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_util.h"
#include "rules/move.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<cassino::Move> move = cassino::Move::Parse(input);
  if (!move.ok()) return 0;
  const std::string text = move->ToString();
  absl::StatusOr<cassino::Move> again = cassino::Move::Parse(text);
  if (!again.ok()) {
    cassino::fuzz::Fail("ToString of a parsed move does not parse: '" + text +
                            "': " + std::string(again.status().message()),
                        input);
  }
  if (!(*again == *move)) {
    cassino::fuzz::Fail("round trip changes the move: '" + text + "' -> '" +
                            again->ToString() + "'",
                        input);
  }
  if (again->ToString() != text) {
    cassino::fuzz::Fail("canonical form is not stable: '" + text + "'", input);
  }
  return 0;
}
