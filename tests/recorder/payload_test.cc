// Event payloads (recorder/payload.h): every writer gives the bytes the
// earlier nlohmann-based builders gave (so every record ever written reads
// and verifies), every reader gives back what was written, and every
// spelling other than the writer's is refused and located.

#include "recorder/payload.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "recorder/replay.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "rules/move.h"
#include "tests/recorder/test_game.h"

namespace cassino::recorder {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

// The builders as they were before recorder/payload.h: nlohmann::json
// objects (keys sorted by std::map) dumped compactly, invalid UTF-8
// replaced. Every record written so far was written by these.
std::string Dump(const Json& json) {
  return json.dump(-1, ' ', /*ensure_ascii=*/false,
                   Json::error_handler_t::replace);
}
std::string ReferenceCreate(const GameHeader& h) {
  Json seats = Json::array();
  for (const SeatInfo& seat : h.seats) {
    // A person's seat (issue #26) adds "human": true; no other seat changes.
    if (seat.human) {
      seats.push_back({{"bot_name", seat.bot_name}, {"human", true}});
    } else {
      seats.push_back({{"bot_name", seat.bot_name}});
    }
  }
  return Dump({{"game_id", h.game_id},
               {"rules", h.rules},
               {"seats", std::move(seats)},
               {"commitment", h.commitment},
               {"explicit_decks", h.explicit_decks},
               {"clock",
                {{"per_move_ms", h.clock.per_move_ms},
                 {"bank_ms", h.clock.bank_ms},
                 {"max_illegal", h.clock.max_illegal}}},
               {"label", h.label},
               {"created_us", h.created_us}});
}
std::string ReferenceMove(const PlayedMove& m, int64_t elapsed_ms) {
  return Dump({{"turn", m.turn},
               {"round", m.round},
               {"seat", m.seat},
               {"move", m.move.ToString()},
               {"elapsed_ms", elapsed_ms}});
}
std::string ReferenceReject(int turn, int seat, const std::string& submitted,
                            const std::string& reason, int64_t elapsed_ms) {
  return Dump({{"turn", turn},
               {"seat", seat},
               {"submitted", submitted},
               {"reason", reason},
               {"elapsed_ms", elapsed_ms}});
}
std::string ReferenceRound(const RoundResult& round) {
  Json items = Json::array();
  for (const ScoreItem& item : round.score.items) {
    Json j = {{"kind", std::string(ScoreItemName(item.kind))},
              {"side", item.side},
              {"points", item.points}};
    if (ScoreItemHasCard(item.kind)) j["card"] = item.card.ToString();
    items.push_back(std::move(j));
  }
  Json sides = Json::array();
  for (const SideTally& t : round.score.sides) {
    sides.push_back({{"cards", t.cards},
                     {"spades", t.spades},
                     {"big_cassino", t.big_cassino},
                     {"little_cassino", t.little_cassino},
                     {"aces", t.aces},
                     {"sweeps", t.sweeps},
                     {"points", t.points}});
  }
  return Dump({{"round", round.round},
               {"dealer", round.dealer},
               {"leftovers", round.leftovers.ToString()},
               {"leftover_side", round.leftover_side},
               {"builds_left", round.builds_left},
               {"all_eleven_side", round.score.all_eleven_side},
               {"items", std::move(items)},
               {"sides", std::move(sides)},
               {"totals_before", round.totals_before},
               {"totals_after", round.totals_after}});
}
std::string ReferenceEnd(const GameResult& r, const std::string& seed) {
  return Dump({{"winner", r.winner},
               {"reason", std::string(GameEndReasonName(r.reason))},
               {"totals", r.totals},
               {"forfeiting_seat", r.forfeiting_seat},
               {"detail", r.detail},
               {"seed", seed}});
}

// Texts a bot or an organiser might send: plain, quoted, escaped, control
// characters, UTF-8, invalid UTF-8, and random bytes.
std::vector<std::string> HostileTexts() {
  std::vector<std::string> texts = {
      "",
      "plain",
      "take 7H",
      "quote \" and backslash \\",
      "slash / and tab\t and newline\n and cr\r",
      std::string("nul \0 byte", 10),
      "\x01\x1f\x7f control",
      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x83\x8f",
      "\xff\xfe invalid",
      "cut \xe2\x82",
      "\xc0\xaf overlong",
      "\xed\xa0\x80 surrogate",
  };
  std::mt19937 rng(15);
  for (int i = 0; i < 300; ++i) {
    std::string s(rng() % 24, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    texts.push_back(std::move(s));
  }
  return texts;
}

TEST(PayloadWriterTest, CreateIsByteIdenticalToTheReference) {
  GameHeader h = testing::MakeHeader("g1");
  EXPECT_EQ(CreatePayload(h), ReferenceCreate(h));
  h = testing::MakeHeader("g2", 3, /*explicit_decks=*/true);
  h.clock = {-5, 0, -1};
  h.created_us = INT64_MIN;
  EXPECT_EQ(CreatePayload(h), ReferenceCreate(h));
  for (const std::string& text : HostileTexts()) {
    h.game_id = text;
    h.label = text;
    h.seats[1].bot_name = text;
    h.explicit_decks = {text, "x"};
    ASSERT_EQ(CreatePayload(h), ReferenceCreate(h));
  }
  h.seats.clear();
  h.explicit_decks.clear();
  EXPECT_EQ(CreatePayload(h), ReferenceCreate(h));
}

// A person's seat is marked in the create event; a seat without the mark
// is written exactly as before, so older records read and verify as ever.
TEST(PayloadWriterTest, AHumanSeatIsMarkedAndOthersAreUnchanged) {
  GameHeader h = testing::MakeHeader("g1");
  const std::string before = CreatePayload(h);
  EXPECT_THAT(before, ::testing::Not(HasSubstr("human")));
  h.seats[1].human = true;
  const std::string marked = CreatePayload(h);
  EXPECT_EQ(marked, ReferenceCreate(h));
  EXPECT_THAT(marked, HasSubstr("\"human\":true}"));
  GameHeader read;
  ASSERT_TRUE(ParseCreatePayload(marked, &read).ok());
  EXPECT_FALSE(read.seats[0].human);
  EXPECT_TRUE(read.seats[1].human);
  ASSERT_TRUE(ParseCreatePayload(before, &read).ok());
  EXPECT_FALSE(read.seats[1].human);
  // Only `true` is canonical: false is never written, so never read.
  std::string falsy = marked;
  falsy.replace(falsy.find("\"human\":true"), 12, "\"human\":false");
  EXPECT_FALSE(ParseCreatePayload(falsy, &read).ok());
}

TEST(PayloadWriterTest, RejectForfeitEndAbortWithAnyTextAreByteIdentical) {
  GameResult result{1, GameEndReason::kForfeit, {3, 7}, 0, "seat 0 left"};
  for (const std::string& text : HostileTexts()) {
    ASSERT_EQ(RejectPayload(4, 1, text, text, 120),
              ReferenceReject(4, 1, text, text, 120));
    ASSERT_EQ(ForfeitPayload(1, text, text),
              Dump({{"seat", 1}, {"reason", text}, {"detail", text}}));
    ASSERT_EQ(AbortPayload(text), Dump({{"detail", text}}));
    result.detail = text;
    ASSERT_EQ(EndPayload(result, text), ReferenceEnd(result, text));
  }
  EXPECT_EQ(RejectPayload(INT32_MIN, INT32_MAX, "", "", INT64_MAX),
            ReferenceReject(INT32_MIN, INT32_MAX, "", "", INT64_MAX));
}

// Every move, round and end of a few hundred games under several rule sets
// (variants with score items of every kind, plucks, pair captures).
TEST(PayloadWriterTest, EveryEventOfPlayedGamesIsByteIdentical) {
  std::mt19937 rng(7);
  int rounds = 0, moves = 0;
  for (const char* rules :
       {"standard", "royal", "players=3", "players=4 partnerships=on",
        "tablanette", "callabra", "california players=6"}) {
    absl::StatusOr<RuleSet> set = RuleSet::Preset(rules);
    if (!set.ok()) set = RuleSet::Parse(rules);
    ASSERT_TRUE(set.ok()) << rules;
    for (uint32_t i = 0; i < 20; ++i) {
      Game game =
          *Game::Create(*set, DeckSource::FromSeed(BatchGameSeed(Seed{}, i)));
      while (!game.over()) {
        const std::vector<Move> legal = game.LegalMoves();
        game.PlayUnchecked(legal[rng() % legal.size()]);
        const int64_t elapsed = static_cast<int64_t>(rng() % 100000);
        ASSERT_EQ(MovePayload(game.history().back(), elapsed),
                  ReferenceMove(game.history().back(), elapsed));
        ++moves;
      }
      for (const RoundResult& round : game.rounds()) {
        ASSERT_EQ(RoundPayload(round), ReferenceRound(round));
        ++rounds;
      }
      ASSERT_EQ(EndPayload(*game.result(), "ab"),
                ReferenceEnd(*game.result(), "ab"));
      ASSERT_EQ(
          DealPayload(game.round(), game.deck()),
          Dump({{"round", game.round()}, {"deck", DeckToString(game.deck())}}));
    }
  }
  EXPECT_GT(rounds, 200);
  EXPECT_GT(moves, 5000);
}

// Each reader gives back the values its writer wrote.
TEST(PayloadReaderTest, EveryKindRoundTrips) {
  for (const std::string& text : HostileTexts()) {
    SCOPED_TRACE(
        Json(text).dump(-1, ' ', true, Json::error_handler_t::replace));
    // What the writer keeps of the text: invalid UTF-8 becomes U+FFFD.
    const std::string kept = Json::parse(Dump(Json(text))).get<std::string>();

    GameHeader h = testing::MakeHeader("g1");
    h.label = text;
    h.seats[0].bot_name = text;
    GameHeader read;
    ASSERT_TRUE(ParseCreatePayload(CreatePayload(h), &read).ok());
    h.label = kept;
    h.seats[0].bot_name = kept;
    for (SeatInfo& seat : h.seats) seat.token_hash.clear();
    h.seed.clear();
    EXPECT_EQ(read, h);

    RejectFields reject;
    ASSERT_TRUE(
        ParseRejectPayload(RejectPayload(-3, 2, text, "why", -9), &reject)
            .ok());
    EXPECT_EQ(reject.turn, -3);
    EXPECT_EQ(reject.seat, 2);
    EXPECT_EQ(reject.submitted, kept);
    EXPECT_EQ(reject.reason, "why");
    EXPECT_EQ(reject.elapsed_ms, -9);

    ForfeitFields forfeit;
    ASSERT_TRUE(
        ParseForfeitPayload(ForfeitPayload(1, "time", text), &forfeit).ok());
    EXPECT_EQ(forfeit.seat, 1);
    EXPECT_EQ(forfeit.reason, "time");
    EXPECT_EQ(forfeit.detail, kept);

    AbortFields abort;
    ASSERT_TRUE(ParseAbortPayload(AbortPayload(text), &abort).ok());
    EXPECT_EQ(abort.detail, kept);
  }

  const GameHeader h = testing::MakeHeader("g1");
  Game game = *Game::Create(*HeaderRules(h), *HeaderDecks(h));
  DealFields deal;
  ASSERT_TRUE(ParseDealPayload(DealPayload(1, game.deck()), &deal).ok());
  EXPECT_EQ(deal.round, 1);
  EXPECT_EQ(deal.deck, DeckToString(game.deck()));
  MoveFields move;
  while (!game.over()) {
    game.PlayUnchecked(game.LegalMoves().front());
    const PlayedMove& played = game.history().back();
    ASSERT_TRUE(ParseMovePayload(MovePayload(played, 77), &move).ok());
    EXPECT_EQ(move.move, played.move.ToString());
    EXPECT_EQ(move.turn, played.turn);
    EXPECT_EQ(move.round, played.round);
    EXPECT_EQ(move.seat, played.seat);
    EXPECT_EQ(move.elapsed_ms, 77);
  }
  RoundFields round;
  for (const RoundResult& r : game.rounds()) {
    ASSERT_TRUE(ParseRoundPayload(RoundPayload(r), &round).ok());
    EXPECT_EQ(round.round, r.round);
    EXPECT_EQ(round.dealer, r.dealer);
    EXPECT_EQ(round.leftovers, r.leftovers.ToString());
    EXPECT_EQ(round.leftover_side, r.leftover_side);
    EXPECT_EQ(round.builds_left, r.builds_left);
    EXPECT_EQ(round.all_eleven_side, r.score.all_eleven_side);
    EXPECT_EQ(round.totals_before, r.totals_before);
    EXPECT_EQ(round.totals_after, r.totals_after);
    ASSERT_EQ(round.items.size(), r.score.items.size());
    for (size_t i = 0; i < round.items.size(); ++i) {
      const ScoreItem& item = r.score.items[i];
      EXPECT_EQ(round.items[i].kind, ScoreItemName(item.kind));
      EXPECT_EQ(round.items[i].side, item.side);
      EXPECT_EQ(round.items[i].points, item.points);
      EXPECT_EQ(round.items[i].card,
                ScoreItemHasCard(item.kind) ? item.card.ToString() : "");
    }
    ASSERT_EQ(round.sides.size(), r.score.sides.size());
    for (size_t i = 0; i < round.sides.size(); ++i) {
      const SideTally& t = r.score.sides[i];
      const RoundFields::Side& s = round.sides[i];
      EXPECT_EQ(s.cards, t.cards);
      EXPECT_EQ(s.spades, t.spades);
      EXPECT_EQ(s.big_cassino, t.big_cassino);
      EXPECT_EQ(s.little_cassino, t.little_cassino);
      EXPECT_EQ(s.aces, t.aces);
      EXPECT_EQ(s.sweeps, t.sweeps);
      EXPECT_EQ(s.points, t.points);
    }
  }
  EndFields end;
  ASSERT_TRUE(ParseEndPayload(EndPayload(*game.result(), h.seed), &end).ok());
  EXPECT_EQ(end.winner, game.result()->winner);
  EXPECT_EQ(end.reason, GameEndReasonName(game.result()->reason));
  EXPECT_EQ(end.totals, game.result()->totals);
  EXPECT_EQ(end.forfeiting_seat, game.result()->forfeiting_seat);
  EXPECT_EQ(end.detail, game.result()->detail);
  EXPECT_EQ(end.seed, h.seed);
}

// The payloads of one game of each kind, for the corruption tests.
std::vector<std::pair<std::string, std::string>> SamplePayloads() {
  const GameHeader h = testing::MakeHeader("g1");
  Game game = *Game::Create(*HeaderRules(h), *HeaderDecks(h));
  std::vector<std::pair<std::string, std::string>> out = {
      {"create", CreatePayload(h)},
      {"deal", DealPayload(1, game.deck())},
      {"reject", RejectPayload(0, 0, "take \"x\"\n", "bad card", 12)},
      {"forfeit", ForfeitPayload(1, "time", "bank exhausted")},
      {"abort", AbortPayload("operator")},
  };
  while (!game.over()) game.PlayUnchecked(game.LegalMoves().front());
  out.push_back({"move", MovePayload(game.history().back(), 950)});
  out.push_back({"round", RoundPayload(game.rounds().front())});
  out.push_back({"end", EndPayload(*game.result(), h.seed)});
  return out;
}

absl::Status Parse(const std::string& kind, absl::string_view payload) {
  if (kind == "create") {
    GameHeader h;
    return ParseCreatePayload(payload, &h);
  }
  if (kind == "deal") {
    DealFields f;
    return ParseDealPayload(payload, &f);
  }
  if (kind == "move") {
    MoveFields f;
    return ParseMovePayload(payload, &f);
  }
  if (kind == "reject") {
    RejectFields f;
    return ParseRejectPayload(payload, &f);
  }
  if (kind == "round") {
    RoundFields f;
    return ParseRoundPayload(payload, &f);
  }
  if (kind == "forfeit") {
    ForfeitFields f;
    return ParseForfeitPayload(payload, &f);
  }
  if (kind == "end") {
    EndFields f;
    return ParseEndPayload(payload, &f);
  }
  AbortFields f;
  return ParseAbortPayload(payload, &f);
}

// For each byte of a JSON text: whether it is outside every string.
std::vector<bool> OutsideStrings(const std::string& text) {
  std::vector<bool> outside(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    outside[i] = !in_string && text[i] != '"';
    if (in_string && text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      in_string = !in_string;
    }
  }
  return outside;
}

// Any change of a canonical payload that keeps it valid JSON of the same
// values, or that breaks it, is refused: cut short anywhere, a space
// inserted anywhere outside a string, a piece of punctuation doubled, keys
// reordered, a value re-spelled.
TEST(PayloadReaderTest, EveryOtherSpellingIsRefused) {
  for (const auto& [kind, payload] : SamplePayloads()) {
    SCOPED_TRACE(kind);
    ASSERT_TRUE(Parse(kind, payload).ok()) << Parse(kind, payload);
    const std::vector<bool> outside = OutsideStrings(payload);
    for (size_t i = 0; i < payload.size(); ++i) {
      ASSERT_FALSE(Parse(kind, payload.substr(0, i)).ok()) << i;
      if (!outside[i]) continue;
      std::string spaced = payload;
      spaced.insert(i, " ");
      ASSERT_FALSE(Parse(kind, spaced).ok()) << spaced;
      if (absl::string_view("{}[]:,").find(payload[i]) ==
          absl::string_view::npos) {
        continue;
      }
      std::string doubled = payload;
      doubled.insert(i, 1, payload[i]);
      ASSERT_FALSE(Parse(kind, doubled).ok()) << doubled;
    }
    EXPECT_FALSE(Parse(kind, payload + " ").ok());
    EXPECT_FALSE(Parse(kind, payload + "{}").ok());
    // The same JSON with its keys in reverse order.
    const Json sorted = Json::parse(payload);
    nlohmann::ordered_json reversed = nlohmann::ordered_json::object();
    for (auto it = sorted.rbegin(); it != sorted.rend(); ++it) {
      reversed[it.key()] = *it;
    }
    if (sorted.size() > 1) {
      EXPECT_FALSE(Parse(kind, reversed.dump()).ok());
    }
    // Each value re-spelled by nlohmann with every non-ASCII byte escaped.
    EXPECT_EQ(Parse(kind, sorted.dump(-1, ' ', true)).ok(),
              sorted.dump(-1, ' ', true) == payload);
  }
}

TEST(PayloadReaderTest, NumbersAndStringsOnlyInCanonicalForm) {
  MoveFields f;
  auto move = [&](const std::string& turn, const std::string& text) {
    return ParseMovePayload(
        absl::StrCat("{\"elapsed_ms\":5,\"move\":", text,
                     ",\"round\":1,\"seat\":0,\"turn\":", turn, "}"),
        &f);
  };
  EXPECT_TRUE(move("0", "\"trail 7H\"").ok());
  EXPECT_TRUE(move("-12", "\"trail 7H\"").ok());
  EXPECT_TRUE(move("2147483647", "\"trail 7H\"").ok());
  EXPECT_EQ(f.turn, 2147483647);
  for (const char* turn : {"00", "01", "-0", "+1", "1.0", "1e2", "2147483648",
                           "-2147483649", "\"1\"", "null", "true", ""}) {
    EXPECT_FALSE(move(turn, "\"trail 7H\"").ok()) << turn;
  }
  for (const char* text : {"\"\\u0074rail 7H\"", "\"trail\\/7H\"", "'trail'",
                           "\"trail \\u00e9\"", "\"a\nb\"", "\"unterminated"}) {
    EXPECT_FALSE(move("1", text).ok()) << text;
  }
  // Escapes as the writer writes them are read back.
  ASSERT_TRUE(move("1", "\"a\\\"b\\\\c\\n\\u001f\xc3\xa9\"").ok());
  EXPECT_EQ(f.move, "a\"b\\c\n\x1f\xc3\xa9");

  EndFields end;
  const std::string max =
      "{\"detail\":\"\",\"forfeiting_seat\":-1,\"reason\":\"target\",\"seed\":"
      "\"\",\"totals\":[],\"winner\":-1}";
  EXPECT_TRUE(ParseEndPayload(max, &end).ok());
  EXPECT_TRUE(end.totals.empty());
  RejectFields reject;
  EXPECT_TRUE(
      ParseRejectPayload("{\"elapsed_ms\":-9223372036854775808,\"reason\":\"\","
                         "\"seat\":0,\"submitted\":\"\",\"turn\":0}",
                         &reject)
          .ok());
  EXPECT_EQ(reject.elapsed_ms, INT64_MIN);
  EXPECT_FALSE(
      ParseRejectPayload("{\"elapsed_ms\":9223372036854775808,\"reason\":\"\","
                         "\"seat\":0,\"submitted\":\"\",\"turn\":0}",
                         &reject)
          .ok());
}

TEST(PayloadReaderTest, ErrorsNameTheByteAndWhatWasExpected) {
  MoveFields f;
  absl::Status s = ParseMovePayload(
      "{\"elapsed_ms\":5, \"move\":\"trail 7H\",\"round\":1,\"seat\":0,"
      "\"turn\":1}",
      &f);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("the move payload is not in canonical "
                                     "form: expected ,\"move\": at byte 15"));
  RoundFields round;
  s = ParseRoundPayload(
      "{\"all_eleven_side\":-1,\"builds_left\":0,\"dealer\":1,\"items\":[{"
      "\"kind\":\"joker\",\"points\":1,\"side\":0}],\"leftover_side\":-1,"
      "\"leftovers\":\"-\",\"round\":1,\"sides\":[],\"totals_after\":[],"
      "\"totals_before\":[]}",
      &round);
  EXPECT_THAT(s.message(), HasSubstr("unknown item kind 'joker'"));
  s = ParseRoundPayload(
      "{\"all_eleven_side\":-1,\"builds_left\":0,\"dealer\":1,\"items\":[{"
      "\"kind\":\"ace\",\"points\":1,\"side\":0}],\"leftover_side\":-1,"
      "\"leftovers\":\"-\",\"round\":1,\"sides\":[],\"totals_after\":[],"
      "\"totals_before\":[]}",
      &round);
  EXPECT_THAT(s.message(), HasSubstr("ace item lacks a card"));
}

TEST(PayloadDifferenceTest, NamesTheFirstKeyThatDiffers) {
  bool object = false;
  std::optional<PayloadDifference> d = FirstPayloadDifference(
      R"({"a":1,"b":[1,2],"c":"x"})", R"({"c":"x","b":[1,3],"a":1})", &object);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(object);
  EXPECT_EQ(d->key, "b");
  EXPECT_EQ(d->expected, "[1,2]");
  EXPECT_EQ(d->recorded, "[1,3]");
  d = FirstPayloadDifference(R"({"a":1,"z":2})", R"({"a":1})");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->recorded, "nothing");
  EXPECT_FALSE(FirstPayloadDifference(R"({"a":1})", R"({ "a" : 1 })"));
  EXPECT_FALSE(FirstPayloadDifference(R"({"a":1})", "not json", &object));
  EXPECT_FALSE(object);
}

}  // namespace
}  // namespace cassino::recorder
