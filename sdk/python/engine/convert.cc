// Errors and the argument conversions the binding shares (engine.h).

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "sdk/python/engine/engine.h"

namespace cassino::py_engine {
namespace {

// The C++ side of the module's exceptions (BindErrors registers each).
struct IllegalMove : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct UnsupportedRules : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct GameOver : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace

void Raise(const absl::Status& status, bool move) {
  const std::string message(status.message());
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
      if (move) throw IllegalMove(message);
      throw py::value_error(message);
    case absl::StatusCode::kUnimplemented:
      throw UnsupportedRules(message);
    case absl::StatusCode::kFailedPrecondition:
      throw GameOver(message);
    default:
      throw std::runtime_error(status.ToString());
  }
}

void BindErrors(py::module_& m) {
  py::register_exception<IllegalMove>(m, "IllegalMoveError", PyExc_ValueError);
  py::register_exception<UnsupportedRules>(m, "UnsupportedRulesError",
                                           PyExc_NotImplementedError);
  py::register_exception<GameOver>(m, "GameOverError", PyExc_RuntimeError);
}

py::tuple CardsTuple(CardSet cards) {
  py::tuple out(cards.size());
  size_t i = 0;
  for (Card c : cards) out[i++] = py::str(c.ToString());
  return out;
}

Card CardArg(const std::string& text) {
  if (text.empty()) return Card();
  return Value(Card::Parse(text));
}

CardSet CardsArg(py::handle cards) {
  if (py::isinstance<py::str>(cards)) {
    return Value(CardSet::Parse(cards.cast<std::string>()));
  }
  CardSet out;
  for (py::handle item : cards) {
    const Card c = Value(Card::Parse(py::str(item).cast<std::string>()));
    if (out.contains(c)) {
      throw py::value_error(absl::StrCat("card ", c.ToString(), " repeated"));
    }
    out.insert(c);
  }
  return out;
}

Move MoveArg(py::handle move) {
  if (py::isinstance<PyMove>(move)) return move.cast<const PyMove&>().move;
  if (py::isinstance<py::str>(move)) {
    return Value(Move::Parse(move.cast<std::string>()));
  }
  if (py::hasattr(move, "notation")) {
    return Value(
        Move::Parse(py::str(move.attr("notation")).cast<std::string>()));
  }
  throw py::type_error(
      "a move is a cassino.engine.Move, a notation string or an object with "
      "a `notation` (cassino.Move)");
}

std::vector<PyMove> LegalInApiOrder(const Position& pos, MoveGenerator& gen) {
  std::vector<Move> moves;
  GenerateGameMoves(pos, gen, &moves);
  std::vector<NotatedMove> sorted = InNotationOrder(moves);
  std::vector<PyMove> out;
  out.reserve(sorted.size());
  for (NotatedMove& m : sorted) out.push_back({m.move, std::move(m.notation)});
  return out;
}

}  // namespace cassino::py_engine
