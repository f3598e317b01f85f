// Fuzzes Position::Parse. Properties: parsing never crashes; a position that
// parses and validates prints (ToString) to text that parses again to an
// equal position; move generation on it (for the game its rules name) does
// not crash, lists no move twice, and every listed move passes
// ValidateGameMove.
//
// Generation is bounded: positions with more than kMaxLoose loose cards are
// only round-tripped (their move lists can run to hundreds of thousands).

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "rules/game_moves.h"
#include "rules/position.h"

namespace {
constexpr int kMaxLoose = 14;
constexpr size_t kMaxInput = 4096;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<cassino::Position> pos = cassino::Position::Parse(input);
  if (!pos.ok() || !pos->Validate().ok()) return 0;
  const std::string text = pos->ToString();
  absl::StatusOr<cassino::Position> again = cassino::Position::Parse(text);
  if (!again.ok()) {
    cassino::fuzz::Fail("ToString of a parsed position does not parse: '" +
                            text +
                            "': " + std::string(again.status().message()),
                        input);
  }
  if (!(*again == *pos)) {
    cassino::fuzz::Fail("round trip changes the position: '" + text + "' -> '" +
                            again->ToString() + "'",
                        input);
  }
  if (again->ToString() != text) {
    cassino::fuzz::Fail("canonical form is not stable: '" + text + "'", input);
  }
  if (pos->table.loose.size() > kMaxLoose) return 0;
  cassino::MoveGenerator gen;
  std::vector<cassino::Move> moves;
  cassino::GenerateGameMoves(*pos, gen, &moves);  // the rules' game
  std::set<std::string> seen;
  for (const cassino::Move& m : moves) {
    const std::string move_text = m.ToString();
    if (!seen.insert(move_text).second) {
      cassino::fuzz::Fail("move listed twice: " + move_text + " in " + text,
                          input);
    }
    absl::Status valid = cassino::ValidateGameMove(*pos, m);
    if (!valid.ok()) {
      cassino::fuzz::Fail("generated move " + move_text +
                              " does not validate in " + text + ": " +
                              std::string(valid.message()),
                          input);
    }
  }
  return 0;
}
