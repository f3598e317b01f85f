#include "recorder/record.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "recorder/payload.h"
#include "recorder/replay.h"
#include "tests/recorder/test_game.h"

namespace cassino::recorder {
namespace {

using ::cassino::recorder::testing::MakeHeader;
using ::cassino::recorder::testing::MakeRecord;
using ::cassino::recorder::testing::PendingEvent;
using ::cassino::recorder::testing::PlayEvents;
using ::testing::HasSubstr;
using Json = nlohmann::json;

TEST(EventKindTest, NamesRoundTrip) {
  const std::vector<std::string> names = {"create", "deal",    "move", "reject",
                                          "round",  "forfeit", "end",  "abort"};
  for (const std::string& name : names) {
    absl::StatusOr<EventKind> kind = ParseEventKind(name);
    ASSERT_TRUE(kind.ok()) << name;
    EXPECT_EQ(EventKindName(*kind), name);
  }
  EXPECT_FALSE(ParseEventKind("Move").ok());
  EXPECT_FALSE(ParseEventKind("").ok());
}

TEST(GameStatusTest, Names) {
  EXPECT_EQ(GameStatusName(GameStatus::kRunning), "running");
  EXPECT_EQ(GameStatusName(GameStatus::kFinished), "finished");
  EXPECT_EQ(GameStatusName(GameStatus::kAborted), "aborted");
}

TEST(ChainHashTest, KnownAnswerFromConcatenatedBytes) {
  Digest previous;
  for (size_t i = 0; i < previous.size(); ++i) previous[i] = i * 3 + 1;
  const std::string payload = R"({"deck":"6D 8C","round":1})";
  std::vector<uint8_t> bytes(previous.begin(), previous.end());
  for (char c : std::string("deal")) bytes.push_back(c);
  bytes.push_back(0);
  for (char c : payload) bytes.push_back(c);
  EXPECT_EQ(ChainHash(previous, EventKind::kDeal, payload), Sha256(bytes));

  // A fixed vector for other implementations: previous = 32 zero bytes,
  // kind "abort", payload {}. SHA-256 of 32 zeros || "abort" || 00 || "{}".
  std::vector<uint8_t> zero_bytes(32, 0);
  for (char c : std::string("abort")) zero_bytes.push_back(c);
  zero_bytes.push_back(0);
  zero_bytes.push_back('{');
  zero_bytes.push_back('}');
  EXPECT_EQ(ToHex(ChainHash(Digest{}, EventKind::kAbort, "{}")),
            ToHex(Sha256(zero_bytes)));
  // Computed with Python's hashlib; also quoted in docs/record_format.md.
  EXPECT_EQ(ToHex(ChainHash(Digest{}, EventKind::kAbort, "{}")),
            "c352b435328e1479ee06a851ed005b5bf66fcdfd1f13946a2e8674bcea37e3ef");
  // The kind separates otherwise equal inputs.
  EXPECT_NE(ChainHash(previous, EventKind::kMove, payload),
            ChainHash(previous, EventKind::kDeal, payload));
}

TEST(PayloadTest, CreateOmitsSecrets) {
  GameHeader h = MakeHeader("g1");
  const std::string payload = CreatePayload(h);
  EXPECT_THAT(payload, ::testing::Not(HasSubstr(h.seed)));
  EXPECT_THAT(payload, ::testing::Not(HasSubstr("aa11")));
  EXPECT_THAT(payload, ::testing::Not(HasSubstr("token")));
  Json j = Json::parse(payload);
  EXPECT_EQ(j["game_id"], "g1");
  EXPECT_EQ(j["rules"], h.rules);
  EXPECT_EQ(j["commitment"], h.commitment);
  EXPECT_EQ(j["label"], "test-match");
  EXPECT_EQ(j["created_us"], h.created_us);
  EXPECT_EQ(j["seats"],
            Json::parse(R"([{"bot_name":"alpha"},{"bot_name":"beta"}])"));
  EXPECT_EQ(
      j["clock"],
      Json::parse(R"({"bank_ms":5000,"max_illegal":3,"per_move_ms":1000})"));
  EXPECT_EQ(j["explicit_decks"], Json::array());
  EXPECT_FALSE(j.contains("seed"));
  // Compact with sorted keys: dumping the parsed value gives the same bytes.
  EXPECT_EQ(j.dump(), payload);
}

TEST(PayloadTest, ExactTexts) {
  Deck deck = ShuffledDeck(Seed{}, 1);
  EXPECT_EQ(DealPayload(1, deck),
            R"({"deck":")" + DeckToString(deck) + R"(","round":1})");
  EXPECT_EQ(RejectPayload(4, 1, "take 9Z", "no such card", 120),
            R"({"elapsed_ms":120,"reason":"no such card","seat":1,)"
            R"("submitted":"take 9Z","turn":4})");
  EXPECT_EQ(ForfeitPayload(0, "time", "bank exhausted"),
            R"({"detail":"bank exhausted","reason":"time","seat":0})");
  EXPECT_EQ(AbortPayload("operator"), R"({"detail":"operator"})");

  PlayedMove played;
  played.turn = 5;
  played.round = 1;
  played.seat = 1;
  played.move = *Move::Parse("take 8C 8H");
  EXPECT_EQ(MovePayload(played, 950),
            R"({"elapsed_ms":950,"move":"take 8C 8H","round":1,"seat":1,)"
            R"("turn":5})");

  GameResult result{1, GameEndReason::kForfeit, {3, 7}, 0, "seat 0 timed out"};
  EXPECT_EQ(EndPayload(result, "ab"),
            R"({"detail":"seat 0 timed out","forfeiting_seat":0,)"
            R"("reason":"forfeit","seed":"ab","totals":[3,7],"winner":1})");
}

TEST(PayloadTest, InvalidUtf8IsReplacedNotThrown) {
  const std::string bad = std::string("take \xff\xfe", 7);
  std::string payload;
  ASSERT_NO_THROW(payload = RejectPayload(0, 0, bad, "garbage", 1));
  EXPECT_TRUE(Json::accept(payload));
}

TEST(PayloadTest, RoundFromARealGame) {
  GameHeader h = MakeHeader("g1");
  Game game = *Game::Create(*HeaderRules(h), *HeaderDecks(h));
  while (game.rounds().empty()) game.PlayUnchecked(game.LegalMoves().front());
  const RoundResult& round = game.rounds().front();
  Json j = Json::parse(RoundPayload(round));
  EXPECT_EQ(j["round"], 1);
  EXPECT_EQ(j["dealer"], 1);
  EXPECT_EQ(j["leftovers"], round.leftovers.ToString());
  EXPECT_EQ(j["leftover_side"], round.leftover_side);
  EXPECT_EQ(j["builds_left"], round.builds_left);
  EXPECT_EQ(j["totals_before"], Json::parse("[0,0]"));
  EXPECT_EQ(j["totals_after"], Json(round.totals_after));
  ASSERT_EQ(j["items"].size(), round.score.items.size());
  for (size_t i = 0; i < round.score.items.size(); ++i) {
    const ScoreItem& item = round.score.items[i];
    const Json& ji = j["items"][i];
    EXPECT_EQ(ji["kind"], std::string(ScoreItemName(item.kind)));
    EXPECT_EQ(ji["side"], item.side);
    EXPECT_EQ(ji["points"], item.points);
    EXPECT_EQ(ji.contains("card"), item.kind == ScoreItemKind::kAce);
    if (item.kind == ScoreItemKind::kAce) {
      EXPECT_EQ(ji["card"], item.card.ToString());
    }
  }
  ASSERT_EQ(j["sides"].size(), 2u);
  int cards = 0;
  for (const Json& side : j["sides"]) {
    for (const char* key : {"cards", "spades", "big_cassino", "little_cassino",
                            "aces", "sweeps", "points"}) {
      EXPECT_TRUE(side.contains(key)) << key;
    }
    cards += side["cards"].get<int>();
  }
  EXPECT_EQ(cards + (round.leftover_side < 0 ? round.leftovers.size() : 0), 52);
}

TEST(HeaderTest, RulesAndDecks) {
  GameHeader h = MakeHeader("g1", 9);
  EXPECT_EQ(*HeaderRules(h), RuleSet::Standard());
  absl::StatusOr<DeckSource> decks = HeaderDecks(h);
  ASSERT_TRUE(decks.ok()) << decks.status();
  EXPECT_FALSE(decks->is_explicit());
  EXPECT_EQ(decks->DeckFor(2), ShuffledDeck(testing::TestSeed(9), 2));

  GameHeader bad_commitment = h;
  bad_commitment.commitment = ToHex(SeedCommitment(testing::TestSeed(1)));
  EXPECT_THAT(HeaderDecks(bad_commitment).status().message(),
              HasSubstr("commitment"));

  GameHeader secret = h;
  secret.seed.clear();
  EXPECT_FALSE(HeaderDecks(secret).ok());

  GameHeader expl = MakeHeader("g2", 9, /*explicit_decks=*/true);
  decks = HeaderDecks(expl);
  ASSERT_TRUE(decks.ok()) << decks.status();
  ASSERT_TRUE(decks->is_explicit());
  EXPECT_EQ(decks->DeckFor(1), ShuffledDeck(testing::TestSeed(9), 1));
  EXPECT_EQ(decks->DeckFor(3), ShuffledDeck(testing::TestSeed(9), 1));

  expl.explicit_decks[0] = "6D 8C";
  EXPECT_FALSE(HeaderDecks(expl).ok());
  GameHeader bad_rules = h;
  bad_rules.rules = "standard nonsense=1";
  EXPECT_FALSE(HeaderRules(bad_rules).ok());
}

// Issue #23: explicit decks parse against the rules' pack, so every reduced
// pack accepts exactly its own cards (they were parsed as 52 cards, which
// Game::Create then refused).
TEST(HeaderTest, ExplicitDecksHoldTheRulesPack) {
  for (const char* text :
       {"diamond", "five_players", "remove=2H+2D+2C+2S+3H+3D+3C+3S",
        "pack=40 hand_size=3"}) {
    SCOPED_TRACE(text);
    const RuleSet rules = *RuleSet::Parse(text);
    GameHeader h = MakeHeader("g1", 9, /*explicit_decks=*/true);
    h.rules = rules.ToString();
    h.seats.resize(rules.players, {"gamma", "cc33"});
    const Deck deck = ShuffledDeck(testing::TestSeed(9), 1, rules.Pack());
    h.explicit_decks = {DeckToString(deck)};
    absl::StatusOr<DeckSource> decks = HeaderDecks(h);
    ASSERT_TRUE(decks.ok()) << decks.status();
    EXPECT_EQ(decks->DeckFor(1), deck);
    EXPECT_TRUE(Game::Create(rules, *decks).ok());

    h.explicit_decks = {DeckToString(ShuffledDeck(testing::TestSeed(9), 1))};
    EXPECT_THAT(HeaderDecks(h).status().message(),
                HasSubstr("is not in the pack"));
  }
}

TEST(ReplayTest, WholeGameReproducesTheEngine) {
  for (bool explicit_decks : {false, true}) {
    GameHeader h = MakeHeader("g1", 3, explicit_decks);
    Game final_state = *Game::Create(*HeaderRules(h), *HeaderDecks(h));
    std::vector<PendingEvent> events = PlayEvents(h, -1, &final_state);
    GameRecord record = MakeRecord(h, events);
    ASSERT_TRUE(final_state.over());
    int round_events = 0;
    for (const Event& e : record.events) {
      round_events += e.kind == EventKind::kRound;
    }
    EXPECT_EQ(round_events, static_cast<int>(final_state.rounds().size()));
    EXPECT_GE(round_events, 2);

    absl::StatusOr<ReplayedGame> replayed = Replay(record);
    ASSERT_TRUE(replayed.ok()) << replayed.status();
    EXPECT_TRUE(replayed->game.over());
    EXPECT_EQ(replayed->game.turn(), final_state.turn());
    EXPECT_EQ(replayed->game.totals(), final_state.totals());
    EXPECT_EQ(replayed->game.result()->winner, final_state.result()->winner);
    EXPECT_EQ(replayed->last_event_us, record.events.back().at_us);

    // Recompute the clock and the illegal counts from the events.
    std::vector<int64_t> bank(2, h.clock.bank_ms);
    std::vector<int> illegal(2, 0);
    for (const Event& e : record.events) {
      if (e.kind != EventKind::kMove && e.kind != EventKind::kReject) continue;
      Json j = Json::parse(e.payload);
      const int seat = j["seat"];
      const int64_t elapsed = j["elapsed_ms"];
      // Only accepted moves are charged: a rejection is retried within the
      // same turn's clock, whose time the accepted move then accounts for.
      if (e.kind == EventKind::kMove) {
        bank[seat] -= std::max<int64_t>(0, elapsed - h.clock.per_move_ms);
      } else {
        ++illegal[seat];
      }
    }
    EXPECT_EQ(replayed->bank_left_ms, bank);
    EXPECT_EQ(replayed->illegal_count, illegal);
    EXPECT_GT(illegal[0] + illegal[1], 0);
    EXPECT_LT(bank[0] + bank[1], 2 * h.clock.bank_ms);
  }
}

TEST(ReplayTest, PartialGameResumesMidTurn) {
  GameHeader h = MakeHeader("g1", 4);
  Game expected = *Game::Create(*HeaderRules(h), *HeaderDecks(h));
  GameRecord record = MakeRecord(h, PlayEvents(h, 10, &expected));
  absl::StatusOr<ReplayedGame> replayed = Replay(record);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_FALSE(replayed->game.over());
  EXPECT_EQ(replayed->game.turn(), 10);
  EXPECT_EQ(replayed->game.to_move(), expected.to_move());
  EXPECT_EQ(replayed->game.position().hands, expected.position().hands);
}

TEST(ReplayTest, TamperedMoveNamesTheEvent) {
  GameHeader h = MakeHeader("g1", 4);
  GameRecord record = MakeRecord(h, PlayEvents(h, 12));
  // Replace the last move by a trail of the first move's card, which has
  // left every hand by then.
  size_t first = 0, target = 0;
  for (size_t i = 0; i < record.events.size(); ++i) {
    if (record.events[i].kind != EventKind::kMove) continue;
    if (first == 0) first = i;
    target = i;
  }
  ASSERT_NE(first, target);
  const Move first_move = *Move::Parse(
      Json::parse(record.events[first].payload)["move"].get<std::string>());
  Json j = Json::parse(record.events[target].payload);
  j["move"] = Move::Trail(first_move.card).ToString();
  record.events[target].payload = j.dump();
  absl::StatusOr<ReplayedGame> replayed = Replay(record);
  ASSERT_FALSE(replayed.ok());
  EXPECT_THAT(replayed.status().message(),
              HasSubstr("event " + std::to_string(target)));
  EXPECT_THAT(replayed.status().message(), HasSubstr("illegal"));
}

TEST(ReplayTest, DisagreementsAreErrors) {
  GameHeader h = MakeHeader("g1", 5);
  const GameRecord good = MakeRecord(h, PlayEvents(h, 6));
  ASSERT_TRUE(Replay(good).ok());

  {  // A deal whose deck is not the engine's.
    GameRecord r = good;
    ASSERT_EQ(r.events[1].kind, EventKind::kDeal);
    r.events[1].payload = DealPayload(1, ShuffledDeck(Seed{}, 1));
    absl::StatusOr<ReplayedGame> g = Replay(r);
    ASSERT_FALSE(g.ok());
    EXPECT_THAT(g.status().message(), HasSubstr("event 1"));
  }
  {  // A move by the wrong seat.
    GameRecord r = good;
    for (Event& e : r.events) {
      if (e.kind != EventKind::kMove) continue;
      Json j = Json::parse(e.payload);
      j["seat"] = 1 - j["seat"].get<int>();
      e.payload = j.dump();
      break;
    }
    EXPECT_THAT(Replay(r).status().message(), HasSubstr("is to move"));
  }
  {  // A gap in seq.
    GameRecord r = good;
    r.events[3].seq = 7;
    EXPECT_FALSE(Replay(r).ok());
  }
  {  // Not JSON.
    GameRecord r = good;
    r.events[2].payload = "{not json";
    absl::StatusOr<ReplayedGame> g = Replay(r);
    ASSERT_FALSE(g.ok());
    EXPECT_THAT(g.status().message(), HasSubstr("event 2"));
  }
}

TEST(ReplayTest, ForfeitAndAbort) {
  GameHeader h = MakeHeader("g1", 6);
  std::vector<PendingEvent> events = PlayEvents(h, 3);
  Game game = *Game::Create(*HeaderRules(h), *HeaderDecks(h));
  for (const Event& e : MakeRecord(h, events).events) {
    if (e.kind != EventKind::kMove) continue;
    ASSERT_TRUE(
        game.Play(
                *Move::Parse(Json::parse(e.payload)["move"].get<std::string>()))
            .ok());
  }
  game.Forfeit(1, "illegal moves");
  std::vector<PendingEvent> forfeited = events;
  forfeited.push_back(
      {EventKind::kForfeit, 1, ForfeitPayload(1, "illegal", "illegal moves")});
  forfeited.push_back({EventKind::kEnd, 2, EndPayload(*game.result(), h.seed)});
  absl::StatusOr<ReplayedGame> replayed = Replay(MakeRecord(h, forfeited));
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  ASSERT_TRUE(replayed->game.over());
  EXPECT_EQ(replayed->game.result()->reason, GameEndReason::kForfeit);
  EXPECT_EQ(replayed->game.result()->winner, 0);
  EXPECT_EQ(replayed->game.result()->forfeiting_seat, 1);

  // An end event that disagrees with the engine.
  std::vector<PendingEvent> wrong = forfeited;
  GameResult lie = *game.result();
  lie.winner = 1;
  wrong.back().payload = EndPayload(lie, h.seed);
  EXPECT_THAT(Replay(MakeRecord(h, wrong)).status().message(),
              HasSubstr("differs"));

  std::vector<PendingEvent> aborted = events;
  aborted.push_back({EventKind::kAbort, 1, AbortPayload("operator")});
  replayed = Replay(MakeRecord(h, aborted));
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_EQ(replayed->game.result()->reason, GameEndReason::kAborted);
  EXPECT_EQ(replayed->game.result()->winner, -1);
}

}  // namespace
}  // namespace cassino::recorder
