// cassino_engine.node: the referee's rules engine as a Node-API addon, the
// Node SDK's forward model (sdk/node/lib/engine.js documents it and
// re-exports these). The same shape as the Python SDK's cassino.engine:
// Game, Position, Observation, scoreRound; legal moves in the referee's
// order and notation; playouts in C++.

#include <string>
#include <utility>
#include <vector>

#include "rules/game_moves.h"
#include "rules/observation.h"
#include "rules/sampled_game.h"
#include "sdk/node/engine/napi.h"
#include "sdk/node/engine/observation_json.h"
#include "sdk/node/engine/values.h"
#include "tools/playout/playout_policy.h"

namespace cassino::node_engine {
namespace {

// What a Game instance wraps.
struct NodeGame {
  Game game;
  MoveGenerator generator;
};

NodeGame& G(const Call& c) { return Unwrap<NodeGame>(c.env, c.self); }
Position& P(const Call& c) { return Unwrap<Position>(c.env, c.self); }
Observation& O(const Call& c) { return Unwrap<Observation>(c.env, c.self); }

napi_value NewGame(napi_env env, Game game) {
  return NewInstance(env, Data(env).game, NodeGame{std::move(game), {}});
}
napi_value NewPosition(napi_env env, Position pos) {
  return NewInstance(env, Data(env).position, std::move(pos));
}
napi_value NewObservation(napi_env env, Observation obs) {
  return NewInstance(env, Data(env).observation, std::move(obs));
}

std::string OptionArg(const Call& c, size_t i, const char* fallback) {
  return c.has(i) ? ToString(c.env, c.arg(i)) : fallback;
}

// ---- Game ----

napi_value GameNew(const Call& c) {
  if (NodeGame* g = TakeExternal<NodeGame>(c)) {
    Wrap(c.env, c.self, g);
    return c.self;
  }
  const RuleSet rules = Value(RuleSet::Parse(OptionArg(c, 0, "standard")));
  const Seed seed = c.has(1) ? SeedArg(c.env, c.arg(1)) : Seed{};
  Wrap(
      c.env, c.self,
      new NodeGame{Value(Game::Create(rules, DeckSource::FromSeed(seed))), {}});
  return c.self;
}

napi_value GameRules(const Call& c) {
  return Str(c.env, G(c).game.rules().ToString());
}
napi_value GamePosition(const Call& c) {
  return NewPosition(c.env, G(c).game.position());
}
napi_value GameToMove(const Call& c) { return Num(c.env, G(c).game.to_move()); }
napi_value GameRound(const Call& c) { return Num(c.env, G(c).game.round()); }
napi_value GameDeal(const Call& c) { return Num(c.env, G(c).game.deal()); }
napi_value GameDealer(const Call& c) { return Num(c.env, G(c).game.dealer()); }
napi_value GameTurn(const Call& c) { return Num(c.env, G(c).game.turn()); }
napi_value GameStockSize(const Call& c) {
  return Num(c.env, G(c).game.stock_size());
}
napi_value GameOver(const Call& c) { return Bool(c.env, G(c).game.over()); }
napi_value GameResult(const Call& c) {
  const Game& g = G(c).game;
  return g.result() ? GameResultValue(c.env, *g.result()) : Null(c.env);
}
napi_value GameTotals(const Call& c) { return Ints(c.env, G(c).game.totals()); }
napi_value GameHands(const Call& c) {
  return HandsValue(c.env, G(c).game.position().hands);
}
napi_value GameTable(const Call& c) {
  return Cards(c.env, G(c).game.position().table.loose);
}
napi_value GameBuilds(const Call& c) {
  return BuildsValue(c.env, G(c).game.position().table);
}
napi_value GamePiles(const Call& c) {
  return HandsValue(c.env, G(c).game.piles());
}
napi_value GameSweeps(const Call& c) {
  std::vector<napi_value> out;
  for (const Sweep& s : G(c).game.sweeps()) {
    out.push_back(Ints(c.env, {s.side, s.points}));
  }
  return Array(c.env, out);
}
napi_value GameLastCapturer(const Call& c) {
  return Num(c.env, G(c).game.last_capturer());
}
napi_value GameRounds(const Call& c) {
  std::vector<napi_value> out;
  for (const RoundResult& r : G(c).game.rounds()) {
    out.push_back(RoundResultValue(c.env, r));
  }
  return Array(c.env, out);
}
napi_value GameRoundHistory(const Call& c) {
  const Game& g = G(c).game;
  std::vector<napi_value> out;
  for (const PlayedMove& m : g.history()) {
    if (m.round == g.round()) out.push_back(PlayedMoveValue(c.env, m));
  }
  return Array(c.env, out);
}
napi_value GameLegalMoves(const Call& c) {
  NodeGame& g = G(c);
  if (g.game.over()) return Array(c.env, {});
  return LegalMovesValue(c.env, g.game.position(), g.generator);
}
Move Playable(const Call& c) {
  const Move m = MoveArg(c.env, c.arg(0));
  const absl::Status s = G(c).game.Validate(m);
  if (!s.ok()) Fail(s, /*move=*/true);
  return m;
}
napi_value GameValidate(const Call& c) {
  Playable(c);
  return Undefined(c.env);
}
napi_value GamePlay(const Call& c) {
  const Move m = Playable(c);
  Game& g = G(c).game;
  g.PlayUnchecked(m);
  return OutcomeValue(c.env, g.history().back().outcome);
}
napi_value GamePlayout(const Call& c) {
  const uint64_t seed = Uint64Arg(c.env, c.arg(0));
  const PlayUntil until = Value(ParsePlayUntil(OptionArg(c, 1, "round")));
  const PlayoutPolicy policy =
      Value(ParsePlayoutPolicy(OptionArg(c, 2, "random")));
  return Num(c.env, PlaySeeded(G(c).game, seed, until, policy));
}
napi_value GameObserve(const Call& c) {
  const Game& g = G(c).game;
  const int seat = ToInt(c.env, c.arg(0));
  if (seat < 0 || seat >= g.rules().players) {
    throw JsError{JsError::kInvalid, "no such seat"};
  }
  return NewObservation(c.env, Observe(g, seat));
}
napi_value GameEarnedThisRound(const Call& c) {
  const Game& g = G(c).game;
  const int side = ToInt(c.env, c.arg(0));
  if (side < 0 || side >= g.rules().Sides()) {
    throw JsError{JsError::kInvalid, "no such side"};
  }
  return Num(c.env, g.EarnedThisRound(side));
}
napi_value GameRoundScore(const Call& c) {
  const Game& g = G(c).game;
  if (g.rules().game != GameKind::kCassino) {
    throw JsError{JsError::kUnsupported,
                  "roundScore: Cassino's scoring only (not Callabra or "
                  "Tablanette)"};
  }
  return RoundScoreValue(c.env, ScoreRound(g.rules(), g.piles(), g.sweeps()));
}
napi_value GameCopy(const Call& c) { return NewGame(c.env, G(c).game); }

// ---- Position ----

napi_value PositionNew(const Call& c) {
  if (Position* p = TakeExternal<Position>(c)) {
    Wrap(c.env, c.self, p);
    return c.self;
  }
  Wrap(c.env, c.self,
       new Position(Value(Position::Parse(ToString(c.env, c.arg(0))))));
  return c.self;
}
napi_value PositionParse(const Call& c) {
  return NewPosition(c.env, Value(Position::Parse(ToString(c.env, c.arg(0)))));
}
napi_value PositionToString(const Call& c) {
  return Str(c.env, P(c).ToString());
}
napi_value PositionRules(const Call& c) {
  return Str(c.env, P(c).rules.ToString());
}
napi_value PositionToMove(const Call& c) { return Num(c.env, P(c).to_move); }
napi_value PositionHands(const Call& c) {
  return HandsValue(c.env, P(c).hands);
}
napi_value PositionTable(const Call& c) {
  return Cards(c.env, P(c).table.loose);
}
napi_value PositionBuilds(const Call& c) {
  return BuildsValue(c.env, P(c).table);
}
napi_value PositionPlucked(const Call& c) {
  std::vector<int> seats;
  for (int s = 0; s < P(c).rules.players; ++s) {
    if (P(c).plucked >> s & 1) seats.push_back(s);
  }
  return Ints(c.env, seats);
}
napi_value PositionStockEmpty(const Call& c) {
  return Bool(c.env, P(c).stock_empty);
}
napi_value PositionLegalMoves(const Call& c) {
  MoveGenerator gen;
  return LegalMovesValue(c.env, P(c), gen);
}
Move PositionPlayable(const Call& c) {
  const Move m = MoveArg(c.env, c.arg(0));
  const absl::Status s = ValidateGameMove(P(c), m);
  if (!s.ok()) Fail(s, /*move=*/true);
  return m;
}
napi_value PositionValidate(const Call& c) {
  PositionPlayable(c);
  return Undefined(c.env);
}
napi_value PositionPlay(const Call& c) {
  const Move m = PositionPlayable(c);
  return OutcomeValue(c.env, ApplyGameMove(P(c), m));
}
napi_value PositionCopy(const Call& c) { return NewPosition(c.env, P(c)); }
napi_value PositionEquals(const Call& c) {
  return Bool(c.env, P(c) == Unwrap<Position>(c.env, c.arg(0)));
}

// ---- Observation ----

napi_value ObservationNew(const Call& c) {
  Observation* o = TakeExternal<Observation>(c);
  if (o == nullptr) {
    throw JsError{JsError::kType,
                  "an Observation comes from Observation.fromTurn or "
                  "Game.observe"};
  }
  Wrap(c.env, c.self, o);
  return c.self;
}
napi_value ObservationFromJsonText(const Call& c) {
  Observation obs = Value(ObservationFromJson(ToString(c.env, c.arg(0))));
  Check(SeenPosition(obs).Validate());  // every card once, builds well formed
  return NewObservation(c.env, std::move(obs));
}
napi_value ObservationSeat(const Call& c) { return Num(c.env, O(c).seat); }
napi_value ObservationRules(const Call& c) {
  return Str(c.env, O(c).rules.ToString());
}
napi_value ObservationRound(const Call& c) { return Num(c.env, O(c).round); }
napi_value ObservationDeal(const Call& c) { return Num(c.env, O(c).deal); }
napi_value ObservationDealer(const Call& c) { return Num(c.env, O(c).dealer); }
napi_value ObservationToMove(const Call& c) { return Num(c.env, O(c).to_move); }
napi_value ObservationTurn(const Call& c) { return Num(c.env, O(c).turn); }
napi_value ObservationHand(const Call& c) { return Cards(c.env, O(c).hand); }
napi_value ObservationTable(const Call& c) {
  return Cards(c.env, O(c).table.loose);
}
napi_value ObservationBuilds(const Call& c) {
  return BuildsValue(c.env, O(c).table);
}
napi_value ObservationHandSizes(const Call& c) {
  return Ints(c.env, O(c).hand_sizes);
}
napi_value ObservationStockSize(const Call& c) {
  return Num(c.env, O(c).stock_size);
}
napi_value ObservationSides(const Call& c) {
  std::vector<napi_value> out;
  for (const SidePublic& s : O(c).sides) {
    out.push_back(Object(c.env, {{"captured", Num(c.env, s.captured)},
                                 {"spades", Num(c.env, s.spades)},
                                 {"sweeps", Num(c.env, s.sweeps)},
                                 {"total", Num(c.env, s.total)}}));
  }
  return Array(c.env, out);
}
napi_value ObservationHistory(const Call& c) {
  std::vector<napi_value> out;
  for (const PlayedMove& m : O(c).history) {
    out.push_back(PlayedMoveValue(c.env, m));
  }
  return Array(c.env, out);
}
napi_value ObservationPosition(const Call& c) {
  return NewPosition(c.env, SeenPosition(O(c)));
}
napi_value ObservationLegalMoves(const Call& c) {
  const Observation& o = O(c);
  if (o.to_move != o.seat) return Array(c.env, {});
  MoveGenerator gen;
  return LegalMovesValue(c.env, SeenPosition(o), gen);
}
napi_value ObservationUnseenCards(const Call& c) {
  return Cards(c.env, UnseenCards(O(c)));
}
napi_value ObservationSample(const Call& c) {
  return NewGame(c.env, Value(SampleGame(O(c), Uint64Arg(c.env, c.arg(0)))));
}
napi_value ObservationEquals(const Call& c) {
  return Bool(c.env, O(c) == Unwrap<Observation>(c.env, c.arg(0)));
}

// ---- functions ----

napi_value ScoreRoundFunction(const Call& c) {
  const RuleSet rules = Value(RuleSet::Parse(ToString(c.env, c.arg(0))));
  std::vector<CardSet> piles;
  uint32_t n = 0;
  Ok(napi_get_array_length(c.env, c.arg(1), &n));
  for (uint32_t i = 0; i < n; ++i) {
    napi_value pile;
    Ok(napi_get_element(c.env, c.arg(1), i, &pile));
    piles.push_back(CardsArg(c.env, pile));
  }
  if (static_cast<int>(piles.size()) != rules.Sides()) {
    throw JsError{JsError::kInvalid, "scoreRound: one pile per side"};
  }
  std::vector<Sweep> sweeps;
  if (c.has(2)) {
    Ok(napi_get_array_length(c.env, c.arg(2), &n));
    for (uint32_t i = 0; i < n; ++i) {
      napi_value side;
      Ok(napi_get_element(c.env, c.arg(2), i, &side));
      sweeps.push_back({ToInt(c.env, side), rules.sweep_points});
      if (sweeps.back().side < 0 || sweeps.back().side >= rules.Sides()) {
        throw JsError{JsError::kInvalid, "scoreRound: a sweep's side"};
      }
    }
  }
  return RoundScoreValue(c.env, ScoreRound(rules, piles, sweeps));
}

napi_value SetErrorClasses(const Call& c) {
  AddonData& data = Data(c.env);
  for (int i = 0; i < 3; ++i) {
    if (data.errors[i] != nullptr) napi_delete_reference(c.env, data.errors[i]);
    Ok(napi_create_reference(c.env, c.arg(i), 1, &data.errors[i]));
  }
  return Undefined(c.env);
}

template <Function F>
napi_property_descriptor M(const char* name) {
  return Method(name, Entry<F>);
}
template <Function F>
napi_property_descriptor A(const char* name) {
  return Getter(name, Entry<F>);
}

napi_value Init(napi_env env, napi_value exports) {
  auto* data = new AddonData;
  napi_set_instance_data(
      env, data,
      [](napi_env, void* p, void*) { delete static_cast<AddonData*>(p); },
      nullptr);
  DefineClass(env, exports, "Game", Entry<GameNew>,
              {A<GameRules>("rules"),
               A<GamePosition>("position"),
               A<GameToMove>("toMove"),
               A<GameRound>("round"),
               A<GameDeal>("deal"),
               A<GameDealer>("dealer"),
               A<GameTurn>("turn"),
               A<GameStockSize>("stockSize"),
               A<GameOver>("over"),
               A<GameResult>("result"),
               A<GameTotals>("totals"),
               A<GameHands>("hands"),
               A<GameTable>("table"),
               A<GameBuilds>("builds"),
               A<GamePiles>("piles"),
               A<GameSweeps>("sweeps"),
               A<GameLastCapturer>("lastCapturer"),
               A<GameRounds>("rounds"),
               A<GameRoundHistory>("roundHistory"),
               M<GameLegalMoves>("legalMoves"),
               M<GameValidate>("validate"),
               M<GamePlay>("play"),
               M<GamePlayout>("playout"),
               M<GameObserve>("observe"),
               M<GameEarnedThisRound>("earnedThisRound"),
               M<GameRoundScore>("roundScore"),
               M<GameCopy>("copy")},
              &data->game);
  DefineClass(
      env, exports, "Position", Entry<PositionNew>,
      {Static("parse", Entry<PositionParse>), M<PositionToString>("toString"),
       A<PositionRules>("rules"), A<PositionToMove>("toMove"),
       A<PositionHands>("hands"), A<PositionTable>("table"),
       A<PositionBuilds>("builds"), A<PositionPlucked>("plucked"),
       A<PositionStockEmpty>("stockEmpty"), M<PositionLegalMoves>("legalMoves"),
       M<PositionValidate>("validate"), M<PositionPlay>("play"),
       M<PositionCopy>("copy"), M<PositionEquals>("equals")},
      &data->position);
  DefineClass(env, exports, "Observation", Entry<ObservationNew>,
              {Static("fromJson", Entry<ObservationFromJsonText>),
               A<ObservationSeat>("seat"),
               A<ObservationRules>("rules"),
               A<ObservationRound>("round"),
               A<ObservationDeal>("deal"),
               A<ObservationDealer>("dealer"),
               A<ObservationToMove>("toMove"),
               A<ObservationTurn>("turn"),
               A<ObservationHand>("hand"),
               A<ObservationTable>("table"),
               A<ObservationBuilds>("builds"),
               A<ObservationHandSizes>("handSizes"),
               A<ObservationStockSize>("stockSize"),
               A<ObservationSides>("sides"),
               A<ObservationHistory>("history"),
               A<ObservationPosition>("position"),
               M<ObservationLegalMoves>("legalMoves"),
               M<ObservationUnseenCards>("unseenCards"),
               M<ObservationSample>("sample"),
               M<ObservationEquals>("equals")},
              &data->observation);
  for (auto [name, f] : {std::pair<const char*, napi_callback>{
                             "scoreRound", Entry<ScoreRoundFunction>},
                         {"setErrorClasses", Entry<SetErrorClasses>}}) {
    napi_value fn;
    Ok(napi_create_function(env, name, NAPI_AUTO_LENGTH, f, nullptr, &fn));
    Ok(napi_set_named_property(env, exports, name, fn));
  }
  return exports;
}

}  // namespace
}  // namespace cassino::node_engine

NAPI_MODULE_INIT() {
  try {
    return cassino::node_engine::Init(env, exports);
  } catch (const cassino::node_engine::JsError& e) {
    napi_throw_error(env, nullptr, e.message.c_str());
    return nullptr;
  }
}
