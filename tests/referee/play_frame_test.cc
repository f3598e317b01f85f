// The Play stream's frames (session_messages.h, PlayFrameOf) against the
// messages they stand for. A YourTurn is written straight to the wire
// (proto/wire_encode.h); its bytes must be exactly the serialised
// PlayMessage, the message GetTurn's turn is built from, or a bot would
// read a different turn from the stream than from GetTurn.
//
// The corpus: every turn of seeded random games of every preset, as the
// session renders it (GameSession::YourTurn): both history scopes, the
// rules text made once or not, since_last and the clock fields filled with
// values of every size and sign. The test also checks that the corpus
// reaches every kind of field (builds, past rounds, plucks, drawn cards,
// an initial capture), so that a field the encoder gets wrong cannot hide
// behind games that never fill it.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "referee/session_events.h"
#include "referee/session_messages.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "rules/observation.h"
#include "rules/rule_set.h"

namespace cassino::service {
namespace {

// What the corpus reached, over all presets.
struct Reached {
  int turns = 0;
  bool build = false;
  bool past_round = false;
  bool history = false;
  bool since_last = false;
  bool pluck = false;
  bool drawn = false;
  bool initial_capture = false;
  bool negative = false;
};

// The turn GameSession::YourTurn would render for the seat to move
// (TurnOf, which it calls), with the clock fields and since_last drawn from
// `rng`.
YourTurnEvent TurnWithClockOf(
    const Game& game, HistoryScope scope,
    const std::shared_ptr<const std::string>& rules_text,
    std::mt19937_64& rng) {
  YourTurnEvent t = TurnOf(game, scope, rules_text);
  // Values from 0 to 2^40 and some below 0 (a negative int takes ten
  // bytes on the wire).
  auto value = [&rng]() -> int64_t {
    const int64_t v = static_cast<int64_t>(rng() >> (24 + rng() % 40));
    return rng() % 8 == 0 ? -v : v;
  };
  t.time_left_ms = value();
  t.bank_left_ms = value();
  t.deadline_unix_ms = value();
  t.illegal_left = static_cast<int>(value() % 1000);
  const std::vector<PlayedMove>& history = game.history();
  const size_t n = std::min<size_t>(history.size(), rng() % 6);
  t.since_last.assign(history.end() - n, history.end());
  return t;
}

void Note(const YourTurnEvent& t, Reached* r) {
  const Observation& o = t.observation;
  ++r->turns;
  r->build |= !o.table.builds.empty();
  r->past_round |= !o.rounds.empty();
  r->history |= !o.history.empty();
  r->since_last |= !t.since_last.empty();
  r->pluck |= o.plucked != 0;
  for (const PlayedMove& m : t.since_last) {
    r->drawn |= m.drawn.valid() && SeesDrawnCard(m, o.seat);
  }
  r->initial_capture |= !o.initial_capture.cards.empty();
  r->negative |= t.time_left_ms < 0 || t.illegal_left < 0;
}

// The frame of `turn` against PlayMessage's message serialised; the first
// difference is reported as a byte offset. False when they differ.
bool ExpectSameBytes(const YourTurnEvent& turn, const std::string& where) {
  const SeatEvent event(turn);
  const std::string expected = PlayMessage(event)->SerializeAsString();
  const std::string& got = PlayFrameOf(event)->bytes;
  if (got == expected) return true;
  size_t at = 0;
  while (at < got.size() && at < expected.size() && got[at] == expected[at]) {
    ++at;
  }
  ADD_FAILURE() << where << ": the frame differs from PlayMessage's bytes at "
                << at << " of " << expected.size() << " (frame " << got.size()
                << " bytes)";
  return false;
}

TEST(PlayFrameTest, YourTurnIsPlayMessagesBytesOnEveryPresetsTurns) {
  constexpr int kGames = 12;
  Reached reached;
  int failures = 0;
  for (const std::string& name : RuleSet::PresetNames()) {
    const RuleSet rules = *RuleSet::Preset(name);
    const auto rules_text =
        std::make_shared<const std::string>(rules.ToString());
    Seed batch{};
    batch[0] = 0x7f;
    for (int i = 0; i < kGames && failures < 5; ++i) {
      const Seed seed = BatchGameSeed(batch, static_cast<uint32_t>(i));
      Game game = *Game::Create(rules, DeckSource::FromSeed(seed));
      std::mt19937_64 rng(static_cast<uint64_t>(i) * 1000003 + seed[1]);
      while (!game.over() && failures < 5) {
        for (HistoryScope scope : {HistoryScope::kRound, HistoryScope::kNone}) {
          const YourTurnEvent turn = TurnWithClockOf(
              game, scope, rng() % 2 ? rules_text : nullptr, rng);
          Note(turn, &reached);
          if (!ExpectSameBytes(turn, absl::StrCat(name, " game ", i, " turn ",
                                                  game.turn()))) {
            ++failures;  // (five are reported, then the test stops)
          }
        }
        const std::vector<Move> legal = game.LegalMoves();
        // (Not the call-out, which would end most games at once.)
        size_t pick = rng() % legal.size();
        if (legal[pick].kind == MoveKind::kCallOut && legal.size() > 1) {
          pick = (pick + 1) % legal.size();
        }
        game.PlayUnchecked(legal[pick]);
      }
    }
  }
  EXPECT_GT(reached.turns, 1000);
  EXPECT_TRUE(reached.build);
  EXPECT_TRUE(reached.past_round);
  EXPECT_TRUE(reached.history);
  EXPECT_TRUE(reached.since_last);
  EXPECT_TRUE(reached.pluck);
  EXPECT_TRUE(reached.drawn);
  EXPECT_TRUE(reached.initial_capture);
  EXPECT_TRUE(reached.negative);
}

// A sub-message longer than 127, 16,383 and 2,097,151 bytes takes a two-,
// three- and four-byte length, which the encoder inserts after writing the
// message.
TEST(PlayFrameTest, LongFieldsTakeLongerLengths) {
  const RuleSet rules = RuleSet::Standard();
  Game game = *Game::Create(rules, DeckSource::FromSeed(Seed{}));
  std::mt19937_64 rng(1);
  for (size_t size :
       {size_t{100}, size_t{200}, size_t{20000}, size_t{3000000}}) {
    YourTurnEvent turn =
        TurnWithClockOf(game, HistoryScope::kRound, nullptr, rng);
    turn.rules_text = std::make_shared<const std::string>(size, 'r');
    ExpectSameBytes(turn, absl::StrCat("rules text of ", size, " bytes"));
  }
}

// The other events are PlayMessage's message serialised; every event is
// rendered once and shared.
TEST(PlayFrameTest, OtherEventsAreSerialisedAndEachIsRenderedOnce) {
  Verdict verdict;
  verdict.turn = 7;
  verdict.accepted = false;
  Submission submitted;
  submitted.notation = "not a move";
  verdict.move = submitted;
  verdict.reason = "no such move";
  verdict.code = absl::StatusCode::kInvalidArgument;
  verdict.illegal_left = 2;
  const SeatEvent event(verdict);
  const std::shared_ptr<const PlayFrame> frame = PlayFrameOf(event);
  EXPECT_EQ(frame->bytes, PlayMessage(event)->SerializeAsString());
  v1::PlayResponse parsed;
  ASSERT_TRUE(parsed.ParseFromString(frame->bytes));
  EXPECT_EQ(parsed.verdict().reason(), "no such move");
  EXPECT_EQ(parsed.verdict().code(), "INVALID_ARGUMENT");
  EXPECT_EQ(PlayFrameOf(event).get(), frame.get());
}

}  // namespace
}  // namespace cassino::service
