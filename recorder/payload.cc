#include "recorder/payload.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "recorder/canonical_json.h"
#include "rules/scoring.h"

namespace cassino::recorder {

// ---------------------------------------------------------------------------
// create

void AppendCreatePayload(const GameHeader& h, std::string* out) {
  JsonWriter w(out);
  w.Raw("{\"clock\":{\"bank_ms\":")
      .Int(h.clock.bank_ms)
      .Raw(",\"max_illegal\":")
      .Int(h.clock.max_illegal)
      .Raw(",\"per_move_ms\":")
      .Int(h.clock.per_move_ms)
      .Raw("},\"commitment\":")
      .String(h.commitment)
      .Raw(",\"created_us\":")
      .Int(h.created_us)
      .Raw(",\"explicit_decks\":")
      .StringArray(h.explicit_decks)
      .Raw(",\"game_id\":")
      .String(h.game_id)
      .Raw(",\"label\":")
      .String(h.label)
      .Raw(",\"rules\":")
      .String(h.rules)
      .Raw(",\"seats\":[");
  for (size_t i = 0; i < h.seats.size(); ++i) {
    w.Raw(i > 0 ? ",{\"bot_name\":" : "{\"bot_name\":")
        .String(h.seats[i].bot_name)
        .Raw(h.seats[i].human ? ",\"human\":true}" : "}");
  }
  w.Raw("]}");
}

std::string CreatePayload(const GameHeader& header) {
  std::string out;
  AppendCreatePayload(header, &out);
  return out;
}

absl::Status ParseCreatePayload(absl::string_view payload, GameHeader* h) {
  CanonicalReader r(payload);
  h->seed.clear();
  h->seats.clear();
  bool ok = r.Literal("{\"clock\":{\"bank_ms\":") && r.Int(&h->clock.bank_ms) &&
            r.Literal(",\"max_illegal\":") && r.Int(&h->clock.max_illegal) &&
            r.Literal(",\"per_move_ms\":") && r.Int(&h->clock.per_move_ms) &&
            r.Literal("},\"commitment\":") && r.String(&h->commitment) &&
            r.Literal(",\"created_us\":") && r.Int(&h->created_us) &&
            r.Literal(",\"explicit_decks\":") &&
            r.StringArray(&h->explicit_decks) && r.Literal(",\"game_id\":") &&
            r.String(&h->game_id) && r.Literal(",\"label\":") &&
            r.String(&h->label) && r.Literal(",\"rules\":") &&
            r.String(&h->rules) && r.Literal(",\"seats\":[");
  if (ok && !r.Peek(']')) {
    do {
      SeatInfo& seat = h->seats.emplace_back();
      ok = r.Literal("{\"bot_name\":") && r.String(&seat.bot_name);
      // "human": true only for a person's seat (absent otherwise, so that
      // records written before it existed are byte for byte the same).
      if (ok && r.Peek(',')) {
        ok = r.Literal(",\"human\":true");
        seat.human = true;
      }
      ok = ok && r.Literal("}");
    } while (ok && r.Next(','));
  }
  if (ok && r.Literal("]}") && r.End()) return absl::OkStatus();
  return r.Error("the create payload");
}

// ---------------------------------------------------------------------------
// deal

std::string DealPayload(int round, const Deck& deck) {
  std::string out;
  JsonWriter(&out)
      .Raw("{\"deck\":")
      .String(DeckToString(deck))
      .Raw(",\"round\":")
      .Int(round)
      .Raw("}");
  return out;
}

absl::Status ParseDealPayload(absl::string_view payload, DealFields* f) {
  CanonicalReader r(payload);
  (void)(r.Literal("{\"deck\":") && r.String(&f->deck) &&
         r.Literal(",\"round\":") && r.Int(&f->round) && r.Literal("}") &&
         r.End());
  return r.Error("the deal payload");
}

// ---------------------------------------------------------------------------
// move

std::string MovePayload(const PlayedMove& move, int64_t elapsed_ms) {
  std::string out;
  JsonWriter(&out)
      .Raw("{\"elapsed_ms\":")
      .Int(elapsed_ms)
      .Raw(",\"move\":")
      .String(move.move.ToString())
      .Raw(",\"round\":")
      .Int(move.round)
      .Raw(",\"seat\":")
      .Int(move.seat)
      .Raw(",\"turn\":")
      .Int(move.turn)
      .Raw("}");
  return out;
}

absl::Status ParseMovePayload(absl::string_view payload, MoveFields* f) {
  CanonicalReader r(payload);
  if (r.Literal("{\"elapsed_ms\":") && r.Int(&f->elapsed_ms) &&
      r.Literal(",\"move\":") && r.String(&f->move) &&
      r.Literal(",\"round\":") && r.Int(&f->round) && r.Literal(",\"seat\":") &&
      r.Int(&f->seat) && r.Literal(",\"turn\":") && r.Int(&f->turn) &&
      r.Literal("}") && r.End()) {
    return absl::OkStatus();  // (the usual case, without building a Status)
  }
  return r.Error("the move payload");
}

// ---------------------------------------------------------------------------
// reject

std::string RejectPayload(int turn, int seat, absl::string_view submitted,
                          absl::string_view reason, int64_t elapsed_ms) {
  std::string out;
  JsonWriter(&out)
      .Raw("{\"elapsed_ms\":")
      .Int(elapsed_ms)
      .Raw(",\"reason\":")
      .String(reason)
      .Raw(",\"seat\":")
      .Int(seat)
      .Raw(",\"submitted\":")
      .String(submitted)
      .Raw(",\"turn\":")
      .Int(turn)
      .Raw("}");
  return out;
}

absl::Status ParseRejectPayload(absl::string_view payload, RejectFields* f) {
  CanonicalReader r(payload);
  (void)(r.Literal("{\"elapsed_ms\":") && r.Int(&f->elapsed_ms) &&
         r.Literal(",\"reason\":") && r.String(&f->reason) &&
         r.Literal(",\"seat\":") && r.Int(&f->seat) &&
         r.Literal(",\"submitted\":") && r.String(&f->submitted) &&
         r.Literal(",\"turn\":") && r.Int(&f->turn) && r.Literal("}") &&
         r.End());
  return r.Error("the reject payload");
}

// ---------------------------------------------------------------------------
// round

void AppendRoundPayload(const RoundResult& round, std::string* out) {
  out->clear();
  JsonWriter w(out);
  w.Raw("{\"all_eleven_side\":")
      .Int(round.score.all_eleven_side)
      .Raw(",\"builds_left\":")
      .Int(round.builds_left)
      .Raw(",\"dealer\":")
      .Int(round.dealer)
      .Raw(",\"items\":[");
  for (size_t i = 0; i < round.score.items.size(); ++i) {
    const ScoreItem& item = round.score.items[i];
    w.Raw(i > 0 ? ",{" : "{");
    if (ScoreItemHasCard(item.kind)) {
      w.Raw("\"card\":").String(item.card.ToString()).Raw(",");
    }
    w.Raw("\"kind\":")
        .String(ScoreItemName(item.kind))
        .Raw(",\"points\":")
        .Int(item.points)
        .Raw(",\"side\":")
        .Int(item.side)
        .Raw("}");
  }
  w.Raw("],\"leftover_side\":")
      .Int(round.leftover_side)
      .Raw(",\"leftovers\":")
      .String(round.leftovers.ToString())
      .Raw(",\"round\":")
      .Int(round.round)
      .Raw(",\"sides\":[");
  for (size_t i = 0; i < round.score.sides.size(); ++i) {
    const SideTally& t = round.score.sides[i];
    w.Raw(i > 0 ? ",{\"aces\":" : "{\"aces\":")
        .Int(t.aces)
        .Raw(",\"big_cassino\":")
        .Bool(t.big_cassino)
        .Raw(",\"cards\":")
        .Int(t.cards)
        .Raw(",\"little_cassino\":")
        .Bool(t.little_cassino)
        .Raw(",\"points\":")
        .Int(t.points)
        .Raw(",\"spades\":")
        .Int(t.spades)
        .Raw(",\"sweeps\":")
        .Int(t.sweeps)
        .Raw("}");
  }
  w.Raw("],\"totals_after\":")
      .IntArray(round.totals_after)
      .Raw(",\"totals_before\":")
      .IntArray(round.totals_before)
      .Raw("}");
}

std::string RoundPayload(const RoundResult& round) {
  std::string out;
  AppendRoundPayload(round, &out);
  return out;
}

namespace {

bool ReadRoundItem(CanonicalReader& r, RoundFields::Item* item) {
  item->card.clear();
  if (!r.Literal("{\"")) return false;
  if (r.Next('c')) {
    if (!r.Literal("ard\":") || !r.String(&item->card) || !r.Literal(",\"")) {
      return false;
    }
  }
  return r.Literal("kind\":") && r.String(&item->kind) &&
         r.Literal(",\"points\":") && r.Int(&item->points) &&
         r.Literal(",\"side\":") && r.Int(&item->side) && r.Literal("}");
}

bool ReadRoundSide(CanonicalReader& r, RoundFields::Side* side) {
  return r.Literal("{\"aces\":") && r.Int(&side->aces) &&
         r.Literal(",\"big_cassino\":") && r.Bool(&side->big_cassino) &&
         r.Literal(",\"cards\":") && r.Int(&side->cards) &&
         r.Literal(",\"little_cassino\":") && r.Bool(&side->little_cassino) &&
         r.Literal(",\"points\":") && r.Int(&side->points) &&
         r.Literal(",\"spades\":") && r.Int(&side->spades) &&
         r.Literal(",\"sweeps\":") && r.Int(&side->sweeps) && r.Literal("}");
}

// Whether an item of the kind named `kind` carries a card; false for a
// name the engine does not score.
bool KindHasCard(absl::string_view kind, bool* known) {
  for (int k = 0; k <= static_cast<int>(ScoreItemKind::kSpade); ++k) {
    const auto item = static_cast<ScoreItemKind>(k);
    if (kind == ScoreItemName(item)) {
      *known = true;
      return ScoreItemHasCard(item);
    }
  }
  *known = false;
  return false;
}

}  // namespace

absl::Status ParseRoundPayload(absl::string_view payload, RoundFields* f) {
  CanonicalReader r(payload);
  f->items.clear();
  f->sides.clear();
  bool ok = r.Literal("{\"all_eleven_side\":") && r.Int(&f->all_eleven_side) &&
            r.Literal(",\"builds_left\":") && r.Int(&f->builds_left) &&
            r.Literal(",\"dealer\":") && r.Int(&f->dealer) &&
            r.Literal(",\"items\":[");
  if (ok && !r.Peek(']')) {
    do {
      ok = ReadRoundItem(r, &f->items.emplace_back());
    } while (ok && r.Next(','));
  }
  ok = ok && r.Literal("],\"leftover_side\":") && r.Int(&f->leftover_side) &&
       r.Literal(",\"leftovers\":") && r.String(&f->leftovers) &&
       r.Literal(",\"round\":") && r.Int(&f->round) &&
       r.Literal(",\"sides\":[");
  if (ok && !r.Peek(']')) {
    do {
      ok = ReadRoundSide(r, &f->sides.emplace_back());
    } while (ok && r.Next(','));
  }
  ok = ok && r.Literal("],\"totals_after\":") && r.IntArray(&f->totals_after) &&
       r.Literal(",\"totals_before\":") && r.IntArray(&f->totals_before) &&
       r.Literal("}") && r.End();
  if (!ok) return r.Error("the round payload");
  // The writer names a card exactly for the kinds that have one.
  for (const RoundFields::Item& item : f->items) {
    bool known = false;
    const bool has_card = KindHasCard(item.kind, &known);
    if (!known) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the round payload has an unknown item kind '", item.kind, "'"));
    }
    if (has_card == item.card.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the round payload's ", item.kind, " item ",
                       has_card ? "lacks" : "has", " a card"));
    }
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// forfeit

std::string ForfeitPayload(int seat, absl::string_view reason,
                           absl::string_view detail) {
  std::string out;
  JsonWriter(&out)
      .Raw("{\"detail\":")
      .String(detail)
      .Raw(",\"reason\":")
      .String(reason)
      .Raw(",\"seat\":")
      .Int(seat)
      .Raw("}");
  return out;
}

absl::Status ParseForfeitPayload(absl::string_view payload, ForfeitFields* f) {
  CanonicalReader r(payload);
  (void)(r.Literal("{\"detail\":") && r.String(&f->detail) &&
         r.Literal(",\"reason\":") && r.String(&f->reason) &&
         r.Literal(",\"seat\":") && r.Int(&f->seat) && r.Literal("}") &&
         r.End());
  return r.Error("the forfeit payload");
}

// ---------------------------------------------------------------------------
// end

// The signature of a game's last event, if its payload holds one
// (recorder/signature.h), in `*signature`, and the payload without it in
// `*unsigned_payload`; InvalidArgument naming `what` when the member is
// malformed or not where `in_place` says the event's kind keeps it.
namespace {
template <typename InPlace>
absl::Status TakeSignature(absl::string_view what, absl::string_view payload,
                           InPlace in_place, absl::string_view misplaced,
                           std::string* unsigned_payload,
                           std::optional<RecordSignature>* signature) {
  signature->reset();
  if (payload.find(",\"signature\":") == absl::string_view::npos) {
    return absl::OkStatus();
  }
  absl::StatusOr<SplitPayload> split = SplitSignature(payload);
  if (!split.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": ", split.status().message()));
  }
  if (split->signature.has_value() && !in_place(*split)) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", misplaced));
  }
  *unsigned_payload = std::move(split->unsigned_payload);
  *signature = std::move(split->signature);
  return absl::OkStatus();
}
}  // namespace

void AppendEndPayload(const GameResult& result, absl::string_view seed_hex,
                      std::string* out) {
  out->clear();
  JsonWriter(out)
      .Raw("{\"detail\":")
      .String(result.detail)
      .Raw(",\"forfeiting_seat\":")
      .Int(result.forfeiting_seat)
      .Raw(",\"reason\":")
      .String(GameEndReasonName(result.reason))
      .Raw(",\"seed\":")
      .String(seed_hex)
      .Raw(",\"totals\":")
      .IntArray(result.totals)
      .Raw(",\"winner\":")
      .Int(result.winner)
      .Raw("}");
}

std::string EndPayload(const GameResult& result, absl::string_view seed_hex) {
  std::string out;
  AppendEndPayload(result, seed_hex, &out);
  return out;
}

absl::Status ParseEndPayload(absl::string_view payload, EndFields* f) {
  std::string unsigned_payload;
  if (absl::Status s = TakeSignature(
          "the end payload", payload,
          [](const SplitPayload& split) {
            return split.unsigned_payload.compare(split.offset, 10,
                                                  ",\"totals\":") == 0;
          },
          "the signature is not between seed and totals", &unsigned_payload,
          &f->signature);
      !s.ok()) {
    return s;
  }
  if (!unsigned_payload.empty()) payload = unsigned_payload;
  CanonicalReader r(payload);
  (void)(r.Literal("{\"detail\":") && r.String(&f->detail) &&
         r.Literal(",\"forfeiting_seat\":") && r.Int(&f->forfeiting_seat) &&
         r.Literal(",\"reason\":") && r.String(&f->reason) &&
         r.Literal(",\"seed\":") && r.String(&f->seed) &&
         r.Literal(",\"totals\":") && r.IntArray(&f->totals) &&
         r.Literal(",\"winner\":") && r.Int(&f->winner) && r.Literal("}") &&
         r.End());
  return r.Error("the end payload");
}

// ---------------------------------------------------------------------------
// abort

std::string AbortPayload(absl::string_view detail) {
  std::string out;
  JsonWriter(&out).Raw("{\"detail\":").String(detail).Raw("}");
  return out;
}

absl::Status ParseAbortPayload(absl::string_view payload, AbortFields* f) {
  std::string unsigned_payload;
  if (absl::Status s = TakeSignature(
          "the abort payload", payload,
          [](const SplitPayload& split) {
            return split.offset + 1 == split.unsigned_payload.size();
          },
          "the signature is not its last member", &unsigned_payload,
          &f->signature);
      !s.ok()) {
    return s;
  }
  if (!unsigned_payload.empty()) payload = unsigned_payload;
  CanonicalReader r(payload);
  (void)(r.Literal("{\"detail\":") && r.String(&f->detail) && r.Literal("}") &&
         r.End());
  return r.Error("the abort payload");
}

// ---------------------------------------------------------------------------
// Diagnostics

std::optional<PayloadDifference> FirstPayloadDifference(
    absl::string_view expected, absl::string_view recorded,
    bool* recorded_is_object) {
  using Json = nlohmann::json;
  const Json e = Json::parse(expected, nullptr, /*allow_exceptions=*/false);
  const Json r = Json::parse(recorded, nullptr, /*allow_exceptions=*/false);
  const bool object = !r.is_discarded() && r.is_object();
  if (recorded_is_object != nullptr) *recorded_is_object = object;
  if (!object || !e.is_object()) return std::nullopt;
  auto dump = [](const Json& j) {
    return j.dump(-1, ' ', /*ensure_ascii=*/false,
                  Json::error_handler_t::replace);
  };
  for (auto it = e.begin(); it != e.end(); ++it) {
    auto found = r.find(it.key());
    if (found == r.end())
      return PayloadDifference{it.key(), dump(*it), "nothing"};
    if (*found != *it) {
      return PayloadDifference{it.key(), dump(*it), dump(*found)};
    }
  }
  return std::nullopt;
}

}  // namespace cassino::recorder
