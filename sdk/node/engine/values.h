// The forward model's values as JavaScript sees them (frozen plain
// objects, camelCase, cards as strings), and the arguments it reads: the
// Node counterpart of the Python binding's conversions, with the same
// shapes as the SDK's views (sdk/node/lib/views.js).

#ifndef CASSINO_SDK_NODE_ENGINE_VALUES_H_
#define CASSINO_SDK_NODE_ENGINE_VALUES_H_

#include <cstdint>
#include <vector>

#include "rules/deal.h"
#include "rules/game.h"
#include "rules/game_moves.h"
#include "rules/observation.h"
#include "rules/scoring.h"
#include "sdk/node/engine/napi.h"

namespace cassino::node_engine {

// {notation, kind, card, value, tableCards}.
napi_value MoveValue(napi_env env, const Move& move,
                     const std::string& notation);
// Every legal move of pos.to_move in the referee's order.
napi_value LegalMovesValue(napi_env env, const Position& pos,
                           MoveGenerator& gen);
// {captured, sweep, plucked, penalty}.
napi_value OutcomeValue(napi_env env, const MoveOutcome& outcome);
// [{cards, value, controller, multiple}].
napi_value BuildsValue(napi_env env, const Table& table);
// Each seat's hand (or side's pile).
napi_value HandsValue(napi_env env, const std::vector<CardSet>& hands);
// {items: [{kind, side, points, card}], sides: [...], allElevenSide,
// points}.
napi_value RoundScoreValue(napi_env env, const RoundScore& score);
// {round, dealer, leftovers, leftoverSide, score, totalsBefore,
// totalsAfter, endedEarly}.
napi_value RoundResultValue(napi_env env, const RoundResult& round);
// {winner, reason, totals, detail, draw}.
napi_value GameResultValue(napi_env env, const GameResult& result);
// {turn, round, deal, seat, move, outcome, drew, immediatePoints}.
napi_value PlayedMoveValue(napi_env env, const PlayedMove& played);

// A move argument: a notation, or an object with a `notation` (a Move of
// this module or of the SDK).
Move MoveArg(napi_env env, napi_value move);
// A seed: a non-negative integer number or BigInt (the seed's first 8
// bytes, big-endian), or 64 hex digits (a record's seed).
Seed SeedArg(napi_env env, napi_value seed);
// A playout seed: a non-negative integer number or BigInt.
uint64_t Uint64Arg(napi_env env, napi_value seed);
// An array of card strings.
CardSet CardsArg(napi_env env, napi_value cards);

}  // namespace cassino::node_engine

#endif  // CASSINO_SDK_NODE_ENGINE_VALUES_H_
