#include "sdk/node/engine/values.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

namespace cassino::node_engine {
namespace {

std::string CardText(Card c) { return c.valid() ? c.ToString() : ""; }

}  // namespace

napi_value MoveValue(napi_env env, const Move& move,
                     const std::string& notation) {
  return Object(env, {{"notation", Str(env, notation)},
                      {"kind", Str(env, std::string(MoveKindName(move.kind)))},
                      {"card", Str(env, CardText(move.card))},
                      {"value", Num(env, move.value)},
                      {"tableCards", Cards(env, move.table)}});
}

napi_value LegalMovesValue(napi_env env, const Position& pos,
                           MoveGenerator& gen) {
  std::vector<Move> moves;
  GenerateGameMoves(pos, gen, &moves);
  std::vector<napi_value> out;
  out.reserve(moves.size());
  for (const NotatedMove& m : InNotationOrder(moves)) {
    out.push_back(MoveValue(env, m.move, m.notation));
  }
  return Array(env, out);
}

napi_value OutcomeValue(napi_env env, const MoveOutcome& outcome) {
  return Object(env, {{"captured", Cards(env, outcome.captured)},
                      {"sweep", Bool(env, outcome.sweep)},
                      {"plucked", Str(env, CardText(outcome.plucked))},
                      {"penalty", Num(env, outcome.penalty)}});
}

napi_value BuildsValue(napi_env env, const Table& table) {
  std::vector<napi_value> out;
  for (const Build& b : table.builds) {
    out.push_back(Object(env, {{"cards", Cards(env, b.cards)},
                               {"value", Num(env, b.value)},
                               {"controller", Num(env, b.controller)},
                               {"multiple", Bool(env, b.multiple)}}));
  }
  return Array(env, out);
}

napi_value HandsValue(napi_env env, const std::vector<CardSet>& hands) {
  std::vector<napi_value> out;
  for (CardSet h : hands) out.push_back(Cards(env, h));
  return Array(env, out);
}

napi_value RoundScoreValue(napi_env env, const RoundScore& score) {
  std::vector<napi_value> items, sides;
  std::vector<int> points;
  for (const ScoreItem& i : score.items) {
    items.push_back(Object(
        env, {{"kind", Str(env, std::string(ScoreItemName(i.kind)))},
              {"side", Num(env, i.side)},
              {"points", Num(env, i.points)},
              {"card",
               Str(env, ScoreItemHasCard(i.kind) ? i.card.ToString() : "")}}));
  }
  for (const SideTally& t : score.sides) {
    sides.push_back(Object(env, {{"cards", Num(env, t.cards)},
                                 {"spades", Num(env, t.spades)},
                                 {"bigCassino", Bool(env, t.big_cassino)},
                                 {"littleCassino", Bool(env, t.little_cassino)},
                                 {"aces", Num(env, t.aces)},
                                 {"sweeps", Num(env, t.sweeps)},
                                 {"diamonds", Num(env, t.diamonds)},
                                 {"points", Num(env, t.points)}}));
    points.push_back(t.points);
  }
  return Object(env, {{"items", Array(env, items)},
                      {"sides", Array(env, sides)},
                      {"allElevenSide", Num(env, score.all_eleven_side)},
                      {"points", Ints(env, points)}});
}

napi_value RoundResultValue(napi_env env, const RoundResult& round) {
  return Object(env, {{"round", Num(env, round.round)},
                      {"dealer", Num(env, round.dealer)},
                      {"leftovers", Cards(env, round.leftovers)},
                      {"leftoverSide", Num(env, round.leftover_side)},
                      {"score", RoundScoreValue(env, round.score)},
                      {"totalsBefore", Ints(env, round.totals_before)},
                      {"totalsAfter", Ints(env, round.totals_after)},
                      {"endedEarly", Bool(env, round.ended_early)}});
}

napi_value GameResultValue(napi_env env, const GameResult& result) {
  return Object(
      env, {{"winner", Num(env, result.winner)},
            {"reason", Str(env, std::string(GameEndReasonName(result.reason)))},
            {"totals", Ints(env, result.totals)},
            {"detail", Str(env, result.detail)},
            {"draw", Bool(env, result.draw)}});
}

napi_value PlayedMoveValue(napi_env env, const PlayedMove& played) {
  return Object(env,
                {{"turn", Num(env, played.turn)},
                 {"round", Num(env, played.round)},
                 {"deal", Num(env, played.deal)},
                 {"seat", Num(env, played.seat)},
                 {"move", MoveValue(env, played.move, played.move.ToString())},
                 {"outcome", OutcomeValue(env, played.outcome)},
                 {"drew", Bool(env, played.drew)},
                 {"immediatePoints", Num(env, played.immediate_points)}});
}

Move MoveArg(napi_env env, napi_value move) {
  napi_valuetype type;
  Ok(napi_typeof(env, move, &type));
  std::string text;
  if (type == napi_string) {
    text = ToString(env, move);
  } else if (type == napi_object) {
    napi_value notation = Get(env, move, "notation");
    if (!IsString(env, notation)) {
      throw JsError{JsError::kType, "a move is a notation or has one"};
    }
    text = ToString(env, notation);
  } else {
    throw JsError{JsError::kType, "a move is a notation or has one"};
  }
  return Value(Move::Parse(text));
}

uint64_t Uint64Arg(napi_env env, napi_value seed) {
  napi_valuetype type;
  Ok(napi_typeof(env, seed, &type));
  if (type == napi_bigint) {
    uint64_t n = 0;
    bool lossless = false;
    Ok(napi_get_value_bigint_uint64(env, seed, &n, &lossless));
    if (!lossless) throw JsError{JsError::kInvalid, "a seed is 0 to 2**64-1"};
    return n;
  }
  const double d = ToNumber(env, seed);
  if (!(d >= 0) || d > 9007199254740991.0 || std::floor(d) != d) {
    throw JsError{JsError::kInvalid,
                  "a seed is a non-negative integer (or a BigInt)"};
  }
  return static_cast<uint64_t>(d);
}

Seed SeedArg(napi_env env, napi_value seed) {
  if (IsString(env, seed)) return Value(ParseSeed(ToString(env, seed)));
  const uint64_t n = Uint64Arg(env, seed);
  Seed out{};
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(n >> (56 - 8 * i));
  return out;
}

CardSet CardsArg(napi_env env, napi_value cards) {
  bool is_array = false;
  Ok(napi_is_array(env, cards, &is_array));
  if (!is_array) throw JsError{JsError::kType, "cards are an array"};
  uint32_t n = 0;
  Ok(napi_get_array_length(env, cards, &n));
  CardSet out;
  for (uint32_t i = 0; i < n; ++i) {
    napi_value v;
    Ok(napi_get_element(env, cards, i, &v));
    const Card c = Value(Card::Parse(ToString(env, v)));
    if (out.contains(c)) {
      throw JsError{JsError::kInvalid,
                    absl::StrCat("card ", c.ToString(), " repeated")};
    }
    out.insert(c);
  }
  return out;
}

}  // namespace cassino::node_engine
