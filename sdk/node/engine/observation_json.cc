#include "sdk/node/engine/observation_json.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace cassino::node_engine {
namespace {

using nlohmann::json;

// Reads the fields of one message; the first error wins and is kept.
class Reader {
 public:
  explicit Reader(const json& message) : m_(message) {}

  int Int(const char* field) {
    const json* v = Field(field);
    if (v == nullptr) return 0;
    if (!v->is_number_integer()) return Bad(field, "an integer"), 0;
    return v->get<int>();
  }
  bool Bool(const char* field) {
    const json* v = Field(field);
    if (v == nullptr) return false;
    if (!v->is_boolean()) return Bad(field, "a boolean"), false;
    return v->get<bool>();
  }
  std::string String(const char* field) {
    const json* v = Field(field);
    if (v == nullptr) return "";
    if (!v->is_string()) return Bad(field, "a string"), "";
    return v->get<std::string>();
  }
  Card OptionalCard(const char* field) {
    const std::string text = String(field);
    if (text.empty()) return Card();
    absl::StatusOr<Card> c = Card::Parse(text);
    if (!c.ok()) return Bad(field, "a card"), Card();
    return *c;
  }
  CardSet Cards(const char* field) {
    CardSet out;
    for (const json& v : Array(field)) {
      absl::StatusOr<Card> c = v.is_string()
                                   ? Card::Parse(v.get<std::string>())
                                   : absl::InvalidArgumentError("not a string");
      if (!c.ok() || out.contains(*c)) return Bad(field, "distinct cards"), out;
      out.insert(*c);
    }
    return out;
  }
  // A repeated field (empty when unset).
  const json& Array(const char* field) {
    static const json* const kEmpty = new json(json::array());
    const json* v = Field(field);
    if (v == nullptr) return *kEmpty;
    if (!v->is_array()) return Bad(field, "an array"), *kEmpty;
    return *v;
  }
  // A message field (an empty object when unset).
  const json& Message(const char* field) {
    static const json* const kEmpty = new json(json::object());
    const json* v = Field(field);
    if (v == nullptr) return *kEmpty;
    if (!v->is_object()) return Bad(field, "a message"), *kEmpty;
    return *v;
  }
  absl::Status status() const { return status_; }
  void Merge(const Reader& inner) {
    if (status_.ok()) status_ = inner.status_;
  }

 private:
  const json* Field(const char* field) const {
    auto it = m_.find(field);
    return it == m_.end() || it->is_null() ? nullptr : &*it;
  }
  void Bad(const char* field, const char* what) {
    if (status_.ok()) {
      status_ = absl::InvalidArgumentError(
          absl::StrCat("observation: ", field, " is not ", what));
    }
  }

  const json& m_;
  absl::Status status_;
};

}  // namespace

absl::StatusOr<Observation> ObservationFromJson(absl::string_view text) {
  const json o = json::parse(text.begin(), text.end(), nullptr, false);
  if (!o.is_object()) {
    return absl::InvalidArgumentError("observation: not a JSON object");
  }
  Reader r(o);
  Observation obs;
  obs.seat = r.Int("seat");
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(r.String("rules"));
  if (!rules.ok()) return rules.status();
  obs.rules = *rules;
  obs.round = r.Int("round");
  obs.deal = r.Int("deal");
  obs.dealer = r.Int("dealer");
  obs.to_move = r.Int("to_move");
  obs.turn = r.Int("turn");
  obs.hand = r.Cards("hand");
  Reader table(r.Message("table"));
  obs.table.loose = table.Cards("loose");
  for (const json& b : table.Array("builds")) {
    Reader build(b);
    obs.table.AddBuild({build.Cards("cards"), build.Int("value"),
                        build.Int("controller"), build.Bool("multiple")});
    table.Merge(build);
  }
  r.Merge(table);
  for (const json& n : r.Array("hand_sizes")) {
    if (!n.is_number_integer()) {
      return absl::InvalidArgumentError(
          "observation: a hand size is not an integer");
    }
    obs.hand_sizes.push_back(n.get<int>());
  }
  obs.stock_size = r.Int("stock_size");
  for (const json& s : r.Array("sides")) {
    Reader side(s);
    obs.sides.push_back({side.Int("captured"), side.Int("spades"),
                         side.Int("sweeps"), side.Int("total")});
    r.Merge(side);
  }
  for (const json& m : r.Array("round_history")) {
    Reader pm(m);
    PlayedMove p;
    p.turn = pm.Int("turn");
    p.round = pm.Int("round");
    p.deal = pm.Int("deal");
    p.seat = pm.Int("seat");
    Reader move(pm.Message("move"));
    absl::StatusOr<Move> parsed = Move::Parse(move.String("notation"));
    if (!parsed.ok()) return parsed.status();
    p.move = *parsed;
    p.outcome.captured = pm.Cards("captured");
    p.outcome.sweep = pm.Bool("sweep");
    p.outcome.penalty = pm.Int("penalty");
    p.outcome.plucked = pm.OptionalCard("plucked");
    p.immediate_points = pm.Int("immediate_points");
    p.drew = pm.Bool("drew");
    p.drawn = pm.OptionalCard("drawn");
    pm.Merge(move);
    r.Merge(pm);
    obs.history.push_back(p);
  }
  Reader ic(r.Message("initial_capture"));
  obs.initial_capture.cards = ic.Cards("cards");
  if (!obs.initial_capture.cards.empty()) {
    obs.initial_capture.side = ic.Int("side");
    obs.initial_capture.sweep = ic.Bool("sweep");
  }
  r.Merge(ic);
  int seat = 0;
  for (const json& p : r.Array("plucked")) {
    if (seat < 32 && p.is_boolean() && p.get<bool>()) {
      obs.plucked |= uint32_t{1} << seat;
    }
    ++seat;
  }
  if (!r.status().ok()) return r.status();
  if (obs.seat < 0 || obs.seat >= obs.rules.players ||
      static_cast<int>(obs.hand_sizes.size()) != obs.rules.players ||
      static_cast<int>(obs.sides.size()) != obs.rules.Sides()) {
    return absl::InvalidArgumentError(
        "observation: the seat, hand sizes or sides do not match its rules");
  }
  return obs;
}

}  // namespace cassino::node_engine
