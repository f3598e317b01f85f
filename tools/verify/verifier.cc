#include "tools/verify/verifier.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <span>
#include <thread>
#include <type_traits>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "recorder/event_pack.h"
#include "recorder/tally.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "tools/verify/flat_json.h"

namespace cassino::verify {
namespace {

using Json = nlohmann::json;
using recorder::EventKind;

// Byte b as two lower-case hex digits at [2 * b], [2 * b + 1].
constexpr std::array<char, 512> kHexPairs = [] {
  constexpr char kDigits[] = "0123456789abcdef";
  std::array<char, 512> pairs{};
  for (int b = 0; b < 256; ++b) {
    pairs[2 * b] = kDigits[b >> 4];
    pairs[2 * b + 1] = kDigits[b & 15];
  }
  return pairs;
}();

// Whether `hex` is the lower-case hex form of `digest`.
bool LowerHexEquals(const Digest& digest, const char* hex) {
  uint16_t diff = 0;
  for (size_t i = 0; i < 32; ++i) {
    uint16_t want, got;
    std::memcpy(&want, &kHexPairs[2 * digest[i]], 2);
    std::memcpy(&got, hex + 2 * i, 2);
    diff |= want ^ got;
  }
  return diff == 0;
}

// Case-insensitive comparison of a digest with its stored hex form.
bool HexEquals(const Digest& digest, absl::string_view hex) {
  if (hex.size() != 64) return false;
  // The recorder writes lower case: compare with that, and only on a
  // mismatch look again without regard to case.
  if (LowerHexEquals(digest, hex.data())) return true;
  char lower[64];
  for (size_t i = 0; i < 32; ++i) {
    std::memcpy(lower + 2 * i, &kHexPairs[2 * digest[i]], 2);
  }
  return absl::EqualsIgnoreCase(absl::string_view(lower, 64), hex);
}

// Shortens very long texts in messages (payloads may be anything).
std::string Clip(absl::string_view text, size_t limit = 400) {
  if (text.size() <= limit) return std::string(text);
  return absl::StrCat(text.substr(0, limit), "... (", text.size(), " bytes)");
}

std::string Dump(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// The first key of `expected` whose value differs in `recorded` (a JSON
// object); nullopt when every key of `expected` is equal (extra keys in
// `recorded` are allowed: readers ignore keys they do not know).
struct JsonDiff {
  std::string key;
  std::string expected;
  std::string recorded;
};
std::optional<JsonDiff> FirstDifference(const Json& expected,
                                        const Json& recorded) {
  for (auto it = expected.begin(); it != expected.end(); ++it) {
    auto r = recorded.find(it.key());
    if (r == recorded.end()) return JsonDiff{it.key(), Dump(*it), "nothing"};
    if (*r != *it) return JsonDiff{it.key(), Dump(*it), Dump(*r)};
  }
  return std::nullopt;
}

// ASCII from the space up to (not including) `end`, without quotes or
// backslashes, as a table: one look-up per character (the create payload's
// strings are checked for every game, the move text for every move).
constexpr std::array<bool, 256> PlainChars(int end) {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < end; ++c) plain[c] = c != '"' && c != '\\';
  return plain;
}
// Strings nlohmann writes without escapes; and printable ones.
constexpr std::array<bool, 256> kPlainJson = PlainChars(0x80);
constexpr std::array<bool, 256> kPrintable = PlainChars(0x7f);

// Byte-identical fast versions of recorder::RoundPayload and EndPayload
// (compact JSON, keys in byte order, as nlohmann writes them) for the usual
// case of strings that need no escaping; they return false otherwise and the
// caller uses the recorder's builder. The tests check the equality.
bool PlainJsonString(absl::string_view s) {
  for (char c : s) {
    if (!kPlainJson[static_cast<unsigned char>(c)]) return false;
  }
  return true;
}

// absl::StrAppend for the builders, which run for every round and game:
// each piece appended as it comes (texts) or formatted in place (integers),
// without StrAppend's set-up (a size pass, a resize, one copy per piece).
void AppendPiece(std::string* out, absl::string_view text) {
  out->append(text.data(), text.size());
}
template <typename Int>
requires(std::is_integral_v<Int> &&
         !std::is_same_v<Int, bool>) void AppendPiece(std::string* out, Int v) {
  char digits[24];
  const std::to_chars_result r =
      std::to_chars(digits, digits + sizeof(digits), v);
  out->append(digits, r.ptr);
}
template <typename... Pieces>
void Append(std::string* out, const Pieces&... pieces) {
  (AppendPiece(out, pieces), ...);
}

void AppendInts(const std::vector<int>& v, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendPiece(out, v[i]);
  }
  out->push_back(']');
}

void FastRoundPayload(const RoundResult& r, std::string* out) {
  out->clear();
  Append(out, "{\"all_eleven_side\":", r.score.all_eleven_side,
         ",\"builds_left\":", r.builds_left, ",\"dealer\":", r.dealer,
         ",\"items\":[");
  for (size_t i = 0; i < r.score.items.size(); ++i) {
    const ScoreItem& item = r.score.items[i];
    if (i > 0) out->push_back(',');
    out->push_back('{');
    if (ScoreItemHasCard(item.kind)) {
      Append(out, "\"card\":\"", item.card.ToString(), "\",");
    }
    Append(out, "\"kind\":\"", ScoreItemName(item.kind),
           "\",\"points\":", item.points, ",\"side\":", item.side, "}");
  }
  Append(out, "],\"leftover_side\":", r.leftover_side, ",\"leftovers\":\"",
         r.leftovers.ToString(), "\",\"round\":", r.round, ",\"sides\":[");
  for (size_t i = 0; i < r.score.sides.size(); ++i) {
    const SideTally& t = r.score.sides[i];
    if (i > 0) out->push_back(',');
    Append(out, "{\"aces\":", t.aces,
           ",\"big_cassino\":", t.big_cassino ? "true" : "false",
           ",\"cards\":", t.cards,
           ",\"little_cassino\":", t.little_cassino ? "true" : "false",
           ",\"points\":", t.points, ",\"spades\":", t.spades,
           ",\"sweeps\":", t.sweeps, "}");
  }
  out->append("],\"totals_after\":");
  AppendInts(r.totals_after, out);
  out->append(",\"totals_before\":");
  AppendInts(r.totals_before, out);
  out->push_back('}');
}

bool FastEndPayload(const GameResult& r, absl::string_view seed,
                    std::string* out) {
  if (!PlainJsonString(r.detail) || !PlainJsonString(seed)) return false;
  out->clear();
  Append(out, "{\"detail\":\"", r.detail,
         "\",\"forfeiting_seat\":", r.forfeiting_seat, ",\"reason\":\"",
         GameEndReasonName(r.reason), "\",\"seed\":\"", seed, "\",\"totals\":");
  AppendInts(r.totals, out);
  Append(out, ",\"winner\":", r.winner, "}");
  return true;
}

// recorder::CreatePayload of the header the games and seats rows describe,
// for plain strings only (see FastRoundPayload).
bool FastCreatePayload(const StoredGame& g, std::string* out) {
  for (absl::string_view s :
       {absl::string_view(g.game_id), absl::string_view(g.rules),
        absl::string_view(g.commitment), absl::string_view(g.label)}) {
    if (!PlainJsonString(s)) return false;
  }
  for (const std::string& s : g.explicit_decks) {
    if (!PlainJsonString(s)) return false;
  }
  for (const std::string& s : g.bots) {
    if (!PlainJsonString(s)) return false;
  }
  out->clear();
  Append(out, "{\"clock\":{\"bank_ms\":", g.bank_ms,
         ",\"max_illegal\":", static_cast<int>(g.max_illegal),
         ",\"per_move_ms\":", g.per_move_ms, "},\"commitment\":\"",
         g.commitment, "\",\"created_us\":", g.created_us,
         ",\"explicit_decks\":[");
  for (size_t i = 0; i < g.explicit_decks.size(); ++i) {
    Append(out, i > 0 ? ",\"" : "\"", g.explicit_decks[i], "\"");
  }
  Append(out, "],\"game_id\":\"", g.game_id, "\",\"label\":\"", g.label,
         "\",\"rules\":\"", g.rules, "\",\"seats\":[");
  for (size_t i = 0; i < g.bots.size(); ++i) {
    Append(out, i > 0 ? ",{\"bot_name\":\"" : "{\"bot_name\":\"", g.bots[i],
           "\"}");
  }
  out->append("]}");
  return true;
}

// Reads a payload in a canonical layout left to right (inline: it runs for
// every move).
class CanonicalReader {
 public:
  explicit CanonicalReader(absl::string_view p)
      : at_(p.data()), end_(p.data() + p.size()) {}
  bool done() const { return at_ == end_; }
  // Skips `literal` (a string constant, compared with a constant length).
  template <size_t N>
  bool Literal(const char (&literal)[N]) {
    constexpr size_t n = N - 1;
    if (static_cast<size_t>(end_ - at_) < n ||
        std::memcmp(at_, literal, n) != 0) {
      return false;
    }
    at_ += n;
    return true;
  }
  // A non-negative integer without leading zeros, at most 15 digits.
  bool Number(int64_t* v) {
    // (Locals: a char may alias at_, which would be stored at every step.)
    const char* const start = at_;
    const char* p = at_;
    uint64_t x = 0;  // (wraps harmlessly past 15 digits, which fail)
    for (unsigned digit; p < end_ && (digit = static_cast<unsigned char>(*p) -
                                              unsigned{'0'}) <= 9;
         ++p) {
      x = x * 10 + digit;
    }
    at_ = p;
    *v = static_cast<int64_t>(x);
    return p > start && p - start <= 15 && (*start != '0' || p - start == 1);
  }
  // Printable ASCII without quotes or backslashes.
  absl::string_view PlainText() {
    const char* const start = at_;
    const char* p = at_;
    while (p < end_ && kPrintable[static_cast<unsigned char>(*p)]) ++p;
    at_ = p;
    return absl::string_view(start, static_cast<size_t>(p - start));
  }

 private:
  const char* at_;
  const char* end_;
};

// A `move` payload in exactly the layout recorder::MovePayload writes:
// {"elapsed_ms":N,"move":"TEXT","round":N,"seat":N,"turn":N} with plain
// non-negative integers (no leading zeros, at most 15 digits) and printable
// ASCII TEXT without quotes or backslashes. Such text is valid JSON whose
// fields are exactly these, so reading it directly is equivalent to the
// general parse; anything else returns false and goes through FlatObject.
struct MoveFields {
  int64_t elapsed_ms = 0;
  absl::string_view move;
  int64_t round = 0;
  int64_t seat = 0;
  int64_t turn = 0;
};
bool CanonicalMove(absl::string_view p, MoveFields* out) {
  CanonicalReader r(p);
  if (!r.Literal("{\"elapsed_ms\":") || !r.Number(&out->elapsed_ms) ||
      !r.Literal(",\"move\":\"")) {
    return false;
  }
  out->move = r.PlainText();
  return r.Literal("\",\"round\":") && r.Number(&out->round) &&
         r.Literal(",\"seat\":") && r.Number(&out->seat) &&
         r.Literal(",\"turn\":") && r.Number(&out->turn) && r.Literal("}") &&
         r.done();
}

}  // namespace

std::string Failure::ToString() const {
  std::string out =
      absl::StrCat("FAIL ", game_id, " round ", round, " turn ", turn, " (");
  if (seq >= 0) {
    absl::StrAppend(&out, "event seq ", seq, "): ");
  } else {
    absl::StrAppend(&out, "games row): ");
  }
  absl::StrAppend(&out, what);
  if (!expected.empty() || !recorded.empty()) {
    absl::StrAppend(&out, ": expected ", expected, ", recorded ", recorded);
  }
  return out;
}

StoredGame FromRecord(const recorder::GameRecord& record) {
  StoredGame g;
  const recorder::GameHeader& h = record.header;
  g.game_id = h.game_id;
  g.label = h.label;
  g.rules = h.rules;
  g.commitment = h.commitment;
  g.seed = h.seed;
  g.explicit_decks = h.explicit_decks;
  g.per_move_ms = h.clock.per_move_ms;
  g.bank_ms = h.clock.bank_ms;
  g.max_illegal = h.clock.max_illegal;
  g.created_us = h.created_us;
  for (size_t i = 0; i < h.seats.size(); ++i) {
    g.bots.push_back(h.seats[i].bot_name);
    g.seat_numbers.push_back(static_cast<int64_t>(i));
    g.accounts.push_back(h.seats[i].account);
  }
  g.status = std::string(recorder::GameStatusName(record.status));
  g.has_summary = false;
  for (const recorder::Event& e : record.events) {
    g.events.push_back({e.seq, std::string(recorder::EventKindName(e.kind)),
                        e.at_us, e.payload, e.hash});
  }
  return g;
}

// ---------------------------------------------------------------------------
// One game.

class GameVerifier::Impl {
 public:
  std::optional<Failure> Verify(const StoredGame& g);

 private:
  // Context of the failure being built.
  Failure Fail(int64_t seq, std::string what, std::string expected = "",
               std::string recorded = "") const {
    Failure f;
    f.game_id = game_->game_id;
    if (engine_ != nullptr) {
      f.round = engine_->round();
      f.turn = engine_->turn();
    }
    f.seq = seq;
    f.what = std::move(what);
    f.expected = std::move(expected);
    f.recorded = std::move(recorded);
    return f;
  }
  std::optional<Failure> CheckChain();
  std::optional<Failure> CheckHeader();
  std::optional<Failure> Replay();
  std::optional<Failure> CheckSummary();
  std::optional<Failure> CheckTally();
  // Compares a stored payload with the builder's; byte equality or, failing
  // that, equality as parsed JSON.
  std::optional<Failure> ComparePayload(int64_t seq, absl::string_view what,
                                        const std::string& expected,
                                        const std::string& recorded);
  // Parses payload `i` into obj_, or fails.
  std::optional<Failure> ParseFlat(size_t i);
  std::optional<Failure> MissingField(size_t i, absl::string_view name,
                                      absl::string_view type) {
    return Fail(static_cast<int64_t>(i),
                absl::StrCat(kind_names_[i], " field '", name,
                             "' is missing or not ", type));
  }

  const StoredGame* game_ = nullptr;
  std::vector<EventKind> kinds_;
  std::vector<absl::string_view> kind_names_;
  FlatObject obj_;
  std::string expected_;
  const RuleSet* rules_ = nullptr;  // *last_rules_ once the header checks
  // The last rules text that parsed and validated, and its RuleSet.
  std::string last_rules_text_;
  std::optional<RuleSet> last_rules_;
  std::optional<DeckSource> decks_;
  std::string seed_hex_;  // the seed as EndPayload writes it ("" explicit)
  Game* engine_ = nullptr;
  std::optional<Game> game_state_;
  // The tally of the events replayed so far; the move times are kept apart
  // (in move_ms_, per seat) and only ordered when there is a tally to check.
  recorder::GameTally tally_;
  std::vector<std::vector<int64_t>> move_ms_;
};

std::optional<Failure> GameVerifier::Impl::CheckChain() {
  const StoredGame& g = *game_;
  Digest prev{};
  if (!g.commitment.empty()) {
    absl::StatusOr<Seed> c = ParseSeed(g.commitment);
    if (!c.ok()) {
      return Fail(-1, "the commitment column is not 64 hex digits", "",
                  Clip(g.commitment));
    }
    prev = *c;
  }
  kinds_.clear();
  kind_names_.clear();
  for (size_t i = 0; i < g.events.size(); ++i) {
    const StoredEvent& e = g.events[i];
    const int64_t index = static_cast<int64_t>(i);
    if (e.seq != index) {
      return Fail(e.seq,
                  e.seq > index ? "an event is missing"
                                : "events are out of order or repeated",
                  absl::StrCat("seq ", index), absl::StrCat("seq ", e.seq));
    }
    // Runs of one kind (moves) are common: the previous event's kind first.
    absl::StatusOr<EventKind> kind =
        i > 0 && e.kind == kind_names_.back()
            ? absl::StatusOr<EventKind>(kinds_.back())
            : recorder::ParseEventKind(e.kind);
    if (!kind.ok()) {
      return Fail(index, "unknown event kind",
                  "create, deal, move, reject, round, forfeit, end or abort",
                  absl::StrCat("'", Clip(e.kind, 40), "'"));
    }
    if ((i == 0) != (*kind == EventKind::kCreate)) {
      return Fail(index,
                  i == 0 ? "the first event is not create"
                         : "create appears after the first event",
                  i == 0 ? "create" : "not create", e.kind);
    }
    kinds_.push_back(*kind);
    kind_names_.push_back(recorder::EventKindName(*kind));
    static constexpr uint8_t kZero[1] = {0};
    prev = Sha256({prev, TextBytes(e.kind), kZero, TextBytes(e.payload)});
    if (!HexEquals(prev, e.hash)) {
      return Fail(index,
                  absl::StrCat("hash chain broken at this ", e.kind, " event"),
                  ToHex(prev), Clip(e.hash, 80));
    }
  }
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::CheckHeader() {
  const StoredGame& g = *game_;
  for (size_t i = 0; i < g.seat_numbers.size(); ++i) {
    if (g.seat_numbers[i] != static_cast<int64_t>(i)) {
      return Fail(-1, "the seats rows are not numbered 0, 1, ...",
                  absl::StrCat("seat ", i),
                  absl::StrCat("seat ", g.seat_numbers[i]));
    }
  }
  if (static_cast<int64_t>(static_cast<int>(g.max_illegal)) != g.max_illegal) {
    return Fail(-1, "max_illegal is out of range", "a 32-bit integer",
                absl::StrCat(g.max_illegal));
  }
  const std::string& stored = g.events[0].payload;
  // The usual case first: the bytes the recorder writes.
  const bool same = FastCreatePayload(g, &expected_) && expected_ == stored;
  if (!same) {
    recorder::GameHeader h;
    h.game_id = g.game_id;
    h.rules = g.rules;
    for (const std::string& bot : g.bots) h.seats.push_back({bot, "", ""});
    h.commitment = g.commitment;
    h.explicit_decks = g.explicit_decks;
    h.clock.per_move_ms = g.per_move_ms;
    h.clock.bank_ms = g.bank_ms;
    h.clock.max_illegal = static_cast<int>(g.max_illegal);
    h.label = g.label;
    h.created_us = g.created_us;
    if (const std::string built = CreatePayload(h); built != stored) {
      const Json expected = Json::parse(built, nullptr, false);
      const Json recorded = Json::parse(stored, nullptr, false);
      if (recorded.is_discarded() || !recorded.is_object()) {
        return Fail(0, "the create payload is not a JSON object", "",
                    Clip(stored));
      }
      // The create event is hashed: it is what the columns must agree with.
      if (std::optional<JsonDiff> d = FirstDifference(expected, recorded)) {
        return Fail(-1,
                    absl::StrCat("the games/seats rows disagree with the "
                                 "create event on '",
                                 d->key, "'"),
                    Clip(d->recorded), Clip(d->expected));
      }
    }
  }
  if (g.events[0].at_us != g.created_us) {
    return Fail(0, "created_us differs from the create event's time",
                absl::StrCat(g.events[0].at_us), absl::StrCat(g.created_us));
  }

  // Most games of a database share their rules: the last valid rules text
  // and its RuleSet are kept.
  if (!last_rules_.has_value() || g.rules != last_rules_text_) {
    last_rules_.reset();
    absl::StatusOr<RuleSet> rules = RuleSet::Parse(g.rules);
    if (!rules.ok()) {
      return Fail(0, absl::StrCat("the rules do not parse: ",
                                  rules.status().message()));
    }
    if (absl::Status s = rules->Validate(); !s.ok()) {
      return Fail(0, absl::StrCat("the rules are invalid: ", s.message()));
    }
    last_rules_ = *std::move(rules);
    last_rules_text_ = g.rules;
  }
  if (static_cast<int>(g.bots.size()) != last_rules_->players) {
    return Fail(0, "the number of seats differs from the rules' players",
                absl::StrCat(last_rules_->players),
                absl::StrCat(g.bots.size()));
  }
  rules_ = &*last_rules_;

  // Where the decks come from, and check the seed against the commitment.
  seed_hex_.clear();
  if (!g.explicit_decks.empty()) {
    if (!g.commitment.empty()) {
      return Fail(0, "the game has both a commitment and explicit decks");
    }
    std::vector<Deck> decks;
    for (size_t i = 0; i < g.explicit_decks.size(); ++i) {
      absl::StatusOr<Deck> deck = ParseDeck(g.explicit_decks[i]);
      if (!deck.ok()) {
        return Fail(0, absl::StrCat("explicit deck ", i + 1, " is malformed: ",
                                    deck.status().message()));
      }
      decks.push_back(*std::move(deck));
    }
    decks_ = DeckSource::Explicit(std::move(decks));
    return std::nullopt;
  }
  if (g.commitment.empty()) {
    return Fail(0, "the game has neither a commitment nor explicit decks");
  }
  const size_t last = g.events.size() - 1;
  if (kinds_[last] == EventKind::kEnd) {
    if (!obj_.Parse(g.events[last].payload)) {
      return Fail(static_cast<int64_t>(last),
                  "the end payload is not a JSON object", "",
                  Clip(g.events[last].payload));
    }
    const std::string* seed_text = obj_.String("seed");
    if (seed_text == nullptr || seed_text->empty()) {
      return Fail(static_cast<int64_t>(last),
                  "the end event does not reveal the seed",
                  "the seed whose SHA-256 is the commitment", "no seed");
    }
    absl::StatusOr<Seed> seed = ParseSeed(*seed_text);
    if (!seed.ok()) {
      return Fail(static_cast<int64_t>(last),
                  "the revealed seed is not 64 hex digits", "",
                  Clip(*seed_text, 80));
    }
    const std::string hashed = ToHex(SeedCommitment(*seed));
    if (!absl::EqualsIgnoreCase(hashed, g.commitment)) {
      return Fail(static_cast<int64_t>(last),
                  "the revealed seed does not hash to the commitment",
                  absl::AsciiStrToLower(g.commitment),
                  absl::StrCat("SHA-256(seed) = ", hashed));
    }
    if (!g.seed.empty() && !absl::EqualsIgnoreCase(g.seed, *seed_text)) {
      return Fail(-1, "the seed column differs from the revealed seed",
                  *seed_text, Clip(g.seed, 80));
    }
    seed_hex_ = ToHex(*seed);
    decks_ = DeckSource::FromSeed(*seed);
    return std::nullopt;
  }
  if (!g.seed.empty()) {
    // Not revealed yet (running or aborted): the database's own copy.
    absl::StatusOr<Seed> seed = ParseSeed(g.seed);
    if (!seed.ok()) {
      return Fail(-1, "the seed column is not 64 hex digits", "",
                  Clip(g.seed, 80));
    }
    const std::string hashed = ToHex(SeedCommitment(*seed));
    if (!absl::EqualsIgnoreCase(hashed, g.commitment)) {
      return Fail(-1, "the seed column does not hash to the commitment",
                  absl::AsciiStrToLower(g.commitment),
                  absl::StrCat("SHA-256(seed) = ", hashed));
    }
    seed_hex_ = ToHex(*seed);
    decks_ = DeckSource::FromSeed(*seed);
    return std::nullopt;
  }
  // The seed is secret (an exported running or aborted game): the decks
  // can only be taken from the deal events, which the replay then checks
  // for consistency with the play.
  std::vector<Deck> decks;
  for (size_t i = 1; i < g.events.size(); ++i) {
    if (kinds_[i] != EventKind::kDeal) continue;
    if (!obj_.Parse(g.events[i].payload)) {
      return Fail(static_cast<int64_t>(i),
                  "the deal payload is not a JSON object", "",
                  Clip(g.events[i].payload));
    }
    const std::string* text = obj_.String("deck");
    if (text == nullptr) return MissingField(i, "deck", "a string");
    absl::StatusOr<Deck> deck = ParseDeck(*text);
    if (!deck.ok()) {
      return Fail(
          static_cast<int64_t>(i),
          absl::StrCat("the deck is malformed: ", deck.status().message()), "",
          Clip(*text));
    }
    decks.push_back(*std::move(deck));
  }
  if (decks.empty()) decks.push_back(CanonicalDeck());
  decks_ = DeckSource::Explicit(std::move(decks));
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::ParseFlat(size_t i) {
  if (obj_.Parse(game_->events[i].payload)) return std::nullopt;
  return Fail(
      static_cast<int64_t>(i),
      absl::StrCat("the ", kind_names_[i], " payload is not a JSON object"), "",
      Clip(game_->events[i].payload));
}

std::optional<Failure> GameVerifier::Impl::ComparePayload(
    int64_t seq, absl::string_view what, const std::string& expected,
    const std::string& recorded) {
  if (expected == recorded) return std::nullopt;
  const Json e = Json::parse(expected, nullptr, false);
  const Json r = Json::parse(recorded, nullptr, false);
  if (r.is_discarded() || !r.is_object()) {
    return Fail(seq,
                absl::StrCat("the ", what, " payload is not a JSON object"), "",
                Clip(recorded));
  }
  if (std::optional<JsonDiff> d = FirstDifference(e, r)) {
    return Fail(
        seq, absl::StrCat(what, " differs from the engine's on '", d->key, "'"),
        Clip(d->expected), Clip(d->recorded));
  }
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::Replay() {
  const StoredGame& g = *game_;
  absl::StatusOr<Game> created = Game::Create(*rules_, *std::move(decks_));
  if (!created.ok()) {
    return Fail(0, absl::StrCat("the engine refuses the game: ",
                                created.status().message()));
  }
  game_state_.emplace(*std::move(created));
  Game& game = *game_state_;
  engine_ = &game;
  const int players = rules_->players;
  std::vector<int64_t> rejects(players, 0);
  tally_ = recorder::GameTally();
  tally_.events = static_cast<int64_t>(g.events.size());
  tally_.seats.resize(players);
  tally_.sides.resize(rules_->Sides());
  move_ms_.resize(players);
  for (std::vector<int64_t>& v : move_ms_) v.clear();
  int pending_forfeit = -1;  // a seat that used up its illegal submissions
  int deals = 0;             // deal events so far
  size_t rounds = 0;         // round events so far
  bool closed = false;       // end or abort seen

  // Events that happen within a round's play need its deal and the previous
  // round's result recorded first.
  auto check_in_play = [&](size_t i) -> std::optional<Failure> {
    if (game.over()) {
      return Fail(
          static_cast<int64_t>(i),
          absl::StrCat("a ", kind_names_[i], " after the game is over"));
    }
    if (rounds < game.rounds().size()) {
      return Fail(static_cast<int64_t>(i),
                  absl::StrCat("the round event of round ", rounds + 1,
                               " is missing before this ", kind_names_[i]),
                  "round", std::string(kind_names_[i]));
    }
    if (deals != game.round()) {
      return Fail(static_cast<int64_t>(i),
                  absl::StrCat("the deal event of round ", game.round(),
                               " is missing before this ", kind_names_[i]),
                  "deal", std::string(kind_names_[i]));
    }
    return std::nullopt;
  };
  auto check_int = [&](size_t i, const char* name, int64_t expected,
                       absl::string_view what) -> std::optional<Failure> {
    const int64_t* v = obj_.Int(name);
    if (v == nullptr) return MissingField(i, name, "an integer");
    if (*v != expected) {
      return Fail(static_cast<int64_t>(i), std::string(what),
                  absl::StrCat(expected), absl::StrCat(*v));
    }
    return std::nullopt;
  };

  for (size_t i = 1; i < g.events.size(); ++i) {
    const int64_t seq = static_cast<int64_t>(i);
    const StoredEvent& e = g.events[i];
    const EventKind kind = kinds_[i];
    if (closed) {
      return Fail(seq, "an event after the game ended", "no event",
                  std::string(kind_names_[i]));
    }
    if (pending_forfeit >= 0 && kind != EventKind::kForfeit) {
      return Fail(
          seq,
          absl::StrCat("seat ", pending_forfeit, " made ", g.max_illegal,
                       " illegal submissions but did not forfeit"),
          "forfeit", std::string(kind_names_[i]));
    }
    MoveFields move_fields;
    const bool canonical_move =
        kind == EventKind::kMove && CanonicalMove(e.payload, &move_fields);
    if (kind != EventKind::kRound && !canonical_move) {
      if (auto f = ParseFlat(i)) return f;
    }
    switch (kind) {
      case EventKind::kCreate:
        break;  // excluded by CheckChain
      case EventKind::kDeal: {
        if (game.over()) return Fail(seq, "a deal after the game is over");
        if (rounds < game.rounds().size()) {
          return Fail(seq,
                      absl::StrCat("the round event of round ", rounds + 1,
                                   " is missing before this deal"),
                      "round", "deal");
        }
        if (deals >= game.round()) {
          return Fail(seq,
                      absl::StrCat("a second deal for round ", game.round()));
        }
        if (auto f = check_int(i, "round", game.round(),
                               "the deal is for the wrong round")) {
          return f;
        }
        const std::string* deck = obj_.String("deck");
        if (deck == nullptr) return MissingField(i, "deck", "a string");
        expected_ = DeckToString(game.deck());
        if (*deck != expected_) {
          return Fail(seq,
                      absl::StrCat("the deck of round ", game.round(),
                                   g.explicit_decks.empty()
                                       ? (seed_hex_.empty()
                                              ? " differs from the deck played"
                                              : " differs from the seed's "
                                                "deck (RULES.md §2)")
                                       : " differs from the explicit deck"),
                      expected_, Clip(*deck));
        }
        ++deals;
        break;
      }
      case EventKind::kMove: {
        if (auto f = check_in_play(i)) return f;
        // Each field as check_int checks it; from the canonical layout
        // without a lookup (and without a call: this runs for every move).
        const struct {
          const char* name;
          int64_t canonical;
          int64_t expected;
          const char* what;
        } fields[] = {
            {"turn", move_fields.turn, game.turn(),
             "the move is numbered for another turn"},
            {"round", move_fields.round, game.round(),
             "the move names another round"},
            {"seat", move_fields.seat, game.to_move(),
             "a move by a seat not to move"},
        };
        for (const auto& field : fields) {
          if (!canonical_move) {
            if (auto f = check_int(i, field.name, field.expected, field.what)) {
              return f;
            }
          } else if (field.canonical != field.expected) {
            return Fail(seq, field.what, absl::StrCat(field.expected),
                        absl::StrCat(field.canonical));
          }
        }
        const int64_t* elapsed = &move_fields.elapsed_ms;
        absl::string_view text = move_fields.move;
        if (!canonical_move) {
          elapsed = obj_.Int("elapsed_ms");
          if (elapsed == nullptr) {
            return MissingField(i, "elapsed_ms", "an integer");
          }
          const std::string* stored = obj_.String("move");
          if (stored == nullptr) return MissingField(i, "move", "a string");
          text = *stored;
        }
        absl::StatusOr<Move> move = Move::Parse(text);
        if (!move.ok()) {
          return Fail(seq,
                      absl::StrCat("the move does not parse: ",
                                   move.status().message()),
                      "a move in notation", Clip(text, 80));
        }
        if (absl::Status s = game.Validate(*move); !s.ok()) {
          return Fail(seq, absl::StrCat("an illegal move: ", s.message()),
                      "a legal move", Clip(text, 80));
        }
        ++tally_.seats[game.to_move()].moves;
        move_ms_[game.to_move()].push_back(*elapsed);
        ++tally_.moves;
        game.PlayUnchecked(*move);
        break;
      }
      case EventKind::kReject: {
        if (auto f = check_in_play(i)) return f;
        if (auto f = check_int(i, "turn", game.turn(),
                               "the reject is numbered for another turn")) {
          return f;
        }
        if (auto f = check_int(i, "seat", game.to_move(),
                               "a reject for a seat not to move")) {
          return f;
        }
        if (obj_.Int("elapsed_ms") == nullptr) {
          return MissingField(i, "elapsed_ms", "an integer");
        }
        if (obj_.String("reason") == nullptr) {
          return MissingField(i, "reason", "a string");
        }
        const std::string* text = obj_.String("submitted");
        if (text == nullptr) return MissingField(i, "submitted", "a string");
        absl::StatusOr<Move> move = Move::Parse(*text);
        if (move.ok() && game.Validate(*move).ok()) {
          return Fail(seq, "a legal move was rejected", "an illegal move",
                      Clip(*text, 80));
        }
        const int seat = game.to_move();
        ++tally_.seats[seat].rejects;
        if (++rejects[seat] >= g.max_illegal) pending_forfeit = seat;
        break;
      }
      case EventKind::kRound: {
        if (rounds >= game.rounds().size()) {
          return Fail(seq,
                      absl::StrCat("a round event but round ", rounds + 1,
                                   " is not over"),
                      "no round event", "round");
        }
        FastRoundPayload(game.rounds()[rounds], &expected_);
        if (expected_ != e.payload) {  // (the message only when needed)
          if (auto f = ComparePayload(
                  seq, absl::StrCat("the score of round ", rounds + 1),
                  expected_, e.payload)) {
            return f;
          }
        }
        for (const ScoreItem& item : game.rounds()[rounds].score.items) {
          auto& side = tally_.sides[item.side];
          switch (item.kind) {
            case ScoreItemKind::kCards:
              side[recorder::kTallyCards] += item.points;
              break;
            case ScoreItemKind::kSpades:
              side[recorder::kTallySpades] += item.points;
              break;
            case ScoreItemKind::kBigCassino:
              side[recorder::kTallyBigCassino] += item.points;
              break;
            case ScoreItemKind::kLittleCassino:
              side[recorder::kTallyLittleCassino] += item.points;
              break;
            case ScoreItemKind::kAce:
              side[recorder::kTallyAces] += item.points;
              break;
            case ScoreItemKind::kSweep:
              side[recorder::kTallySweeps] += item.points;
              break;
            default:
              break;  // all_eleven and the variants' items: the total only
          }
          side[recorder::kTallyTotal] += item.points;
        }
        ++tally_.rounds;
        ++rounds;
        break;
      }
      case EventKind::kForfeit: {
        if (game.over()) return Fail(seq, "a forfeit after the game is over");
        const int64_t* seat = obj_.Int("seat");
        if (seat == nullptr) return MissingField(i, "seat", "an integer");
        if (*seat < 0 || *seat >= players) {
          return Fail(seq, "the forfeiting seat is out of range",
                      absl::StrCat("0..", players - 1), absl::StrCat(*seat));
        }
        const std::string* reason = obj_.String("reason");
        if (reason == nullptr) return MissingField(i, "reason", "a string");
        const std::string* detail = obj_.String("detail");
        if (detail == nullptr) return MissingField(i, "detail", "a string");
        if (pending_forfeit >= 0 && *seat != pending_forfeit) {
          return Fail(seq, "the wrong seat forfeits after illegal submissions",
                      absl::StrCat(pending_forfeit), absl::StrCat(*seat));
        }
        if (*reason == "illegal" && rejects[*seat] < g.max_illegal) {
          return Fail(seq, "a forfeit for illegal submissions before the limit",
                      absl::StrCat(g.max_illegal, " rejects"),
                      absl::StrCat(rejects[*seat], " rejects"));
        }
        pending_forfeit = -1;
        ++tally_.seats[*seat].forfeits;
        if (*reason == "time") ++tally_.seats[*seat].timeouts;
        game.Forfeit(static_cast<int>(*seat), *detail);
        break;
      }
      case EventKind::kEnd: {
        if (!game.over()) {
          return Fail(seq, "an end event but the game is not over", "no end",
                      "end");
        }
        if (rounds < game.rounds().size()) {
          return Fail(seq,
                      absl::StrCat("the round event of round ", rounds + 1,
                                   " is missing before the end"),
                      "round", "end");
        }
        if (!FastEndPayload(*game.result(), seed_hex_, &expected_)) {
          expected_ = recorder::EndPayload(*game.result(), seed_hex_);
        }
        if (auto f =
                ComparePayload(seq, "the game result", expected_, e.payload)) {
          return f;
        }
        closed = true;
        break;
      }
      case EventKind::kAbort: {
        if (game.over()) return Fail(seq, "an abort after the game is over");
        const std::string* detail = obj_.String("detail");
        if (detail == nullptr) return MissingField(i, "detail", "a string");
        game.Abort(*detail);
        closed = true;
        break;
      }
    }
  }
  if (pending_forfeit >= 0 && g.status != "running") {
    return Fail(static_cast<int64_t>(g.events.size() - 1),
                absl::StrCat("seat ", pending_forfeit,
                             " made too many illegal submissions but the "
                             "record has no forfeit"));
  }
  if (!closed && game.over() && g.status != "running") {
    return Fail(static_cast<int64_t>(g.events.size() - 1),
                "the game is over but the record has no end event", "end",
                "nothing");
  }
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::CheckSummary() {
  const StoredGame& g = *game_;
  const EventKind last = kinds_.back();
  const std::string expected_status = last == EventKind::kEnd     ? "finished"
                                      : last == EventKind::kAbort ? "aborted"
                                                                  : "running";
  if (g.status != expected_status) {
    return Fail(-1, "the status column disagrees with the events",
                expected_status, Clip(g.status, 80));
  }
  if (!g.has_summary) return std::nullopt;
  auto opt_int = [](const std::optional<int64_t>& v) {
    return v.has_value() ? absl::StrCat(*v) : std::string("NULL");
  };
  auto opt_text = [](const std::optional<std::string>& v) {
    return v.has_value() ? absl::StrCat("'", Clip(*v, 80), "'")
                         : std::string("NULL");
  };
  std::optional<int64_t> winner, finished;
  std::optional<std::string> reason, totals;
  if (last == EventKind::kEnd) {
    const GameResult& r = *engine_->result();
    winner = r.winner;
    reason = std::string(GameEndReasonName(r.reason));
    totals = Json(r.totals).dump();
    finished = g.events.back().at_us;
  } else if (last == EventKind::kAbort) {
    winner = -1;
    reason = "aborted";
    finished = g.events.back().at_us;
  }
  if (g.winner != winner) {
    return Fail(-1, "the winner column disagrees with the events",
                opt_int(winner), opt_int(g.winner));
  }
  if (g.end_reason != reason) {
    return Fail(-1, "the end_reason column disagrees with the events",
                opt_text(reason), opt_text(g.end_reason));
  }
  if (g.totals != totals) {
    // Allow another spelling of the same array.
    bool same = false;
    if (g.totals.has_value() && totals.has_value()) {
      const Json a = Json::parse(*g.totals, nullptr, false);
      same = !a.is_discarded() && a == Json::parse(*totals);
    }
    if (!same) {
      return Fail(-1, "the totals column disagrees with the events",
                  opt_text(totals), opt_text(g.totals));
    }
  }
  if (g.finished_us != finished) {
    return Fail(-1, "the finished_us column disagrees with the events",
                opt_int(finished), opt_int(g.finished_us));
  }
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::CheckTally() {
  const StoredGame& g = *game_;
  if (!g.tally.has_value()) return std::nullopt;
  const StoredGame::Tally& t = *g.tally;
  if (g.status == "running") {
    return Fail(-1, "a running game has a game_tallies row", "no tally row",
                "a tally row");
  }
  auto fail = [&](absl::string_view column, std::string expected,
                  std::string recorded) {
    return Fail(
        -1,
        absl::StrCat("the tally column ", column, " disagrees with the events"),
        std::move(expected), Clip(recorded, 200));
  };
  const std::pair<const char*, std::pair<int64_t, int64_t>> counts[] = {
      {"events", {tally_.events, t.events}},
      {"rounds", {tally_.rounds, t.rounds}},
      {"moves", {tally_.moves, t.moves}},
      {"bad_moves", {0, t.bad_moves}},
      {"bad_events", {0, t.bad_events}},
  };
  for (const auto& [column, values] : counts) {
    if (values.first != values.second) {
      return fail(column, absl::StrCat(values.first),
                  absl::StrCat(values.second));
    }
  }
  if (std::string e = tally_.PointsText(); e != t.points) {
    return fail("points", e, t.points);
  }
  if (std::string e = tally_.ConductText(); e != t.conduct) {
    return fail("conduct", e, t.conduct);
  }
  // move_ms as GameTally::MoveMsText writes it: per seat, [ms, count, ...]
  // in ascending ms.
  std::string& e = expected_;
  e.assign("[");
  for (size_t seat = 0; seat < move_ms_.size(); ++seat) {
    std::vector<int64_t>& v = move_ms_[seat];
    std::sort(v.begin(), v.end());
    e += seat > 0 ? ",[" : "[";
    for (size_t i = 0; i < v.size();) {
      size_t j = i;
      while (j < v.size() && v[j] == v[i]) ++j;
      Append(&e, i > 0 ? "," : "", v[i], ",", j - i);
      i = j;
    }
    e += "]";
  }
  e += "]";
  if (e != t.move_ms) return fail("move_ms", Clip(e, 200), t.move_ms);
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::Verify(const StoredGame& g) {
  game_ = &g;
  engine_ = nullptr;
  rules_ = nullptr;
  decks_.reset();
  if (g.missing_game_row) {
    if (g.events.empty() && g.bots.empty() && !g.tally.has_value()) {
      return Fail(-1, "no such game");
    }
    return Fail(-1,
                "events, seats or a tally are stored for a game with no games "
                "row");
  }
  if (!g.storage_error.empty()) {
    return Fail(g.storage_error_seq, g.storage_error);
  }
  if (g.packed && g.status == "running") {
    // The referee packs a game's events when it ends; a running game's
    // next event would have nowhere to go.
    return Fail(-1, "the events of a running game are packed", "event rows",
                "an event pack");
  }
  if (g.events.empty()) {
    return Fail(-1, "the game has no events (the create event is missing)");
  }
  std::optional<Failure> f = CheckChain();
  if (!f) f = CheckHeader();
  if (!f) f = Replay();
  if (!f) f = CheckSummary();
  if (!f) f = CheckTally();
  engine_ = nullptr;
  return f;
}

GameVerifier::GameVerifier() : impl_(std::make_unique<Impl>()) {}
GameVerifier::~GameVerifier() = default;

std::optional<Failure> GameVerifier::Verify(const StoredGame& game) {
  return impl_->Verify(game);
}

std::optional<Failure> VerifyRecord(const recorder::GameRecord& record) {
  GameVerifier verifier;
  return verifier.Verify(FromRecord(record));
}

// ---------------------------------------------------------------------------
// Reading a database.

namespace {

absl::Status SqlError(sqlite3* db, int rc, absl::string_view what) {
  const std::string message = absl::StrCat(
      what, ": ", db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  switch (rc & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return absl::DataLossError(message);
    case SQLITE_CANTOPEN:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
      return absl::UnavailableError(message);
    default:
      return absl::InternalError(message);
  }
}

absl::string_view ColumnText(sqlite3_stmt* stmt, int col) {
  const unsigned char* text = sqlite3_column_text(stmt, col);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text),
          static_cast<size_t>(sqlite3_column_bytes(stmt, col))};
}

void Assign(std::string* out, absl::string_view text) {
  out->assign(text.data(), text.size());
}

// Lower-case hex of `bytes` into `out`, reusing its buffer.
void AssignHex(absl::string_view bytes, std::string* out) {
  out->resize(2 * bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::memcpy(out->data() + 2 * i,
                &kHexPairs[2 * static_cast<uint8_t>(bytes[i])], 2);
  }
}

}  // namespace

constexpr char kGamesCols[] =
    "SELECT game_id, label, rules, commitment, seed, explicit_decks, "
    "per_move_ms, bank_ms, max_illegal, created_us, status, winner, "
    "end_reason, totals, finished_us FROM games ";
// Schema 3 added seats.account; older databases read NULL in its place.
constexpr char kSeatsCols[] =
    "SELECT game_id, seat, bot_name, account FROM seats ";
constexpr char kSeatsColsBefore3[] =
    "SELECT game_id, seat, bot_name, NULL FROM seats ";
constexpr char kEventsCols[] =
    "SELECT game_id, seq, kind, at_us, payload, hash FROM events ";
constexpr char kPacksCols[] = "SELECT game_id, events, pack FROM event_packs ";
constexpr char kTalliesCols[] =
    "SELECT game_id, events, rounds, moves, bad_moves, bad_events, points, "
    "conduct, move_ms FROM game_tallies ";

class DatabaseReader::Impl {
 public:
  ~Impl() {
    for (sqlite3_stmt* s : {games_all_, seats_all_, events_all_, tallies_all_,
                            packs_all_, games_one_, seats_one_, events_one_,
                            tallies_one_, packs_one_, count_}) {
      sqlite3_finalize(s);
    }
    sqlite3_close_v2(db_);
  }

  absl::Status Open(const std::string& path) {
    int rc =
        sqlite3_open_v2(path.c_str(), &db_,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK)
      return SqlError(db_, rc, absl::StrCat("opening ", path));
    sqlite3_busy_timeout(db_, 10000);
    sqlite3_extended_result_codes(db_, 1);
    // Reading through a memory map saves a copy of every page.
    sqlite3_exec(db_, "PRAGMA mmap_size=1099511627776", nullptr, nullptr,
                 nullptr);
    // Schema version 2 added game_tallies and version 3 seats.account;
    // older databases lack them.
    absl::StatusOr<bool> tallies = CountIsOne(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
        "'game_tallies'",
        path);
    if (!tallies.ok()) return tallies.status();
    has_tallies_ = *tallies;
    absl::StatusOr<bool> has_accounts = CountIsOne(
        "SELECT count(*) FROM pragma_table_info('seats') WHERE name = "
        "'account'",
        path);
    if (!has_accounts.ok()) return has_accounts.status();
    // Schema version 5 added event_packs.
    absl::StatusOr<bool> packs = CountIsOne(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
        "'event_packs'",
        path);
    if (!packs.ok()) return packs.status();
    has_packs_ = *packs;
    const std::string games_cols = kGamesCols;
    seats_cols_ = *has_accounts ? kSeatsCols : kSeatsColsBefore3;
    const std::string& seats_cols = seats_cols_;
    const std::string events_cols = kEventsCols;
    const std::pair<sqlite3_stmt**, std::string> statements[] = {
        {&games_all_, games_cols + "ORDER BY game_id"},
        {&seats_all_, seats_cols + "ORDER BY game_id, seat"},
        {&events_all_, events_cols + "ORDER BY game_id, seq"},
        {&games_one_, games_cols + "WHERE game_id = ?1"},
        {&seats_one_, seats_cols + "WHERE game_id = ?1 ORDER BY seat"},
        {&events_one_, events_cols + "WHERE game_id = ?1 ORDER BY seq"},
        {&count_, "SELECT count(*) FROM games"},
        {&tallies_all_, has_tallies_
                            ? std::string(kTalliesCols) + "ORDER BY game_id"
                            : std::string()},
        {&tallies_one_, has_tallies_
                            ? std::string(kTalliesCols) + "WHERE game_id = ?1"
                            : std::string()},
        {&packs_all_, has_packs_ ? std::string(kPacksCols) + "ORDER BY game_id"
                                 : std::string()},
        {&packs_one_, has_packs_
                          ? std::string(kPacksCols) + "WHERE game_id = ?1"
                          : std::string()},
    };
    for (const auto& [slot, sql] : statements) {
      if (sql.empty()) continue;
      rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, slot, nullptr);
      if (rc != SQLITE_OK) {
        return SqlError(db_, rc,
                        absl::StrCat(path, " is not a game record database"));
      }
    }
    return absl::OkStatus();
  }

  // Whether the count query `sql` (one row, one column) gives 1.
  absl::StatusOr<bool> CountIsOne(const char* sql, const std::string& path) {
    sqlite3_stmt* q = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql, -1, &q, nullptr);
    if (rc != SQLITE_OK) {
      return SqlError(db_, rc, absl::StrCat("reading ", path));
    }
    rc = sqlite3_step(q);
    const bool one = rc == SQLITE_ROW && sqlite3_column_int(q, 0) == 1;
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW) {
      return SqlError(db_, rc, absl::StrCat("reading ", path));
    }
    return one;
  }

  absl::StatusOr<int64_t> Count() {
    sqlite3_reset(count_);
    int rc = sqlite3_step(count_);
    if (rc != SQLITE_ROW) return SqlError(db_, rc, "counting games");
    const int64_t n = sqlite3_column_int64(count_, 0);
    sqlite3_reset(count_);
    return n;
  }

  absl::StatusOr<std::vector<std::string>> GameIdsEvery(int64_t step) {
    std::vector<std::string> ids;
    if (step < 1) return ids;
    sqlite3_stmt* q = nullptr;
    int rc = sqlite3_prepare_v2(
        db_, "SELECT game_id FROM games ORDER BY game_id", -1, &q, nullptr);
    if (rc != SQLITE_OK) return SqlError(db_, rc, "preparing");
    int64_t position = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
      if (position > 0 && position % step == 0) {
        ids.emplace_back(ColumnText(q, 0));
      }
      ++position;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) return SqlError(db_, rc, "reading game ids");
    return ids;
  }

  absl::Status ForEachInRange(const std::string& from, const std::string& to,
                              const std::function<void(StoredGame&)>& fn) {
    // Only the lower bound is in SQL (one seek); the merge stops at `to`,
    // which costs a comparison per game rather than one per event row.
    const std::string where = from.empty() ? "" : "WHERE game_id >= ?1 ";
    const std::string sql[] = {
        absl::StrCat(kGamesCols, where, "ORDER BY game_id"),
        absl::StrCat(seats_cols_, where, "ORDER BY game_id, seat"),
        absl::StrCat(kEventsCols, where, "ORDER BY game_id, seq"),
        has_tallies_ ? absl::StrCat(kTalliesCols, where, "ORDER BY game_id")
                     : "",
        has_packs_ ? absl::StrCat(kPacksCols, where, "ORDER BY game_id") : ""};
    sqlite3_stmt* stmts[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
    absl::Status status;
    for (int i = 0; i < 5 && status.ok(); ++i) {
      if (sql[i].empty()) continue;
      int rc = sqlite3_prepare_v2(db_, sql[i].c_str(), -1, &stmts[i], nullptr);
      if (rc != SQLITE_OK) {
        status = SqlError(db_, rc, "preparing");
        break;
      }
      if (!from.empty()) {
        sqlite3_bind_text(stmts[i], 1, from.data(),
                          static_cast<int>(from.size()), SQLITE_TRANSIENT);
      }
    }
    if (status.ok()) {
      int rc = sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr);
      if (rc != SQLITE_OK) {
        status = SqlError(db_, rc, "beginning a read");
      } else {
        status =
            Merge(stmts[0], stmts[1], stmts[2], stmts[3], stmts[4], to, fn);
        for (sqlite3_stmt* st : stmts) sqlite3_reset(st);
        sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
      }
    }
    for (sqlite3_stmt* st : stmts) sqlite3_finalize(st);
    return status;
  }

  absl::Status ForEach(const std::vector<std::string>& ids,
                       const std::function<void(StoredGame&)>& fn) {
    int rc = sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return SqlError(db_, rc, "beginning a read");
    absl::Status status = ids.empty() ? ForEachAll(fn) : ForEachNamed(ids, fn);
    for (sqlite3_stmt* s :
         {games_all_, seats_all_, events_all_, tallies_all_, packs_all_,
          games_one_, seats_one_, events_one_, tallies_one_, packs_one_}) {
      sqlite3_reset(s);
    }
    sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
    return status;
  }

 private:
  // A statement being stepped: its current row's game id, or done.
  struct Cursor {
    sqlite3_stmt* stmt;
    bool done = false;
    absl::string_view id;
    absl::Status Step(sqlite3* db) {
      int rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) {
        id = ColumnText(stmt, 0);
        return absl::OkStatus();
      }
      done = true;
      id = {};
      if (rc == SQLITE_DONE) return absl::OkStatus();
      return SqlError(db, rc, "reading the database");
    }
  };

  static void ResetGame(StoredGame& g) {
    g.label.clear();
    g.rules.clear();
    g.commitment.clear();
    g.seed.clear();
    g.explicit_decks.clear();
    g.per_move_ms = g.bank_ms = g.max_illegal = g.created_us = 0;
    g.bots.clear();
    g.seat_numbers.clear();
    g.accounts.clear();
    g.status.clear();
    g.has_summary = true;
    g.winner.reset();
    g.end_reason.reset();
    g.totals.reset();
    g.finished_us.reset();
    g.tally.reset();
    g.missing_game_row = false;
    g.packed = false;
    g.storage_error.clear();
    g.storage_error_seq = -1;
  }

  static void ReadTallyRow(sqlite3_stmt* s, StoredGame& g) {
    StoredGame::Tally& t = g.tally.emplace();
    t.events = sqlite3_column_int64(s, 1);
    t.rounds = sqlite3_column_int64(s, 2);
    t.moves = sqlite3_column_int64(s, 3);
    t.bad_moves = sqlite3_column_int64(s, 4);
    t.bad_events = sqlite3_column_int64(s, 5);
    Assign(&t.points, ColumnText(s, 6));
    Assign(&t.conduct, ColumnText(s, 7));
    Assign(&t.move_ms, ColumnText(s, 8));
  }

  static void ReadGameRow(sqlite3_stmt* s, StoredGame& g) {
    Assign(&g.label, ColumnText(s, 1));
    Assign(&g.rules, ColumnText(s, 2));
    Assign(&g.commitment, ColumnText(s, 3));
    Assign(&g.seed, ColumnText(s, 4));
    for (absl::string_view deck :
         absl::StrSplit(ColumnText(s, 5), '\n', absl::SkipEmpty())) {
      g.explicit_decks.emplace_back(deck);
    }
    g.per_move_ms = sqlite3_column_int64(s, 6);
    g.bank_ms = sqlite3_column_int64(s, 7);
    g.max_illegal = sqlite3_column_int64(s, 8);
    g.created_us = sqlite3_column_int64(s, 9);
    Assign(&g.status, ColumnText(s, 10));
    auto opt_int = [&](int col, std::optional<int64_t>* out) {
      if (sqlite3_column_type(s, col) != SQLITE_NULL) {
        *out = sqlite3_column_int64(s, col);
      }
    };
    auto opt_text = [&](int col, std::optional<std::string>* out) {
      if (sqlite3_column_type(s, col) != SQLITE_NULL) {
        *out = std::string(ColumnText(s, col));
      }
    };
    opt_int(11, &g.winner);
    opt_text(12, &g.end_reason);
    opt_text(13, &g.totals);
    opt_int(14, &g.finished_us);
  }

  static void ReadSeatRow(sqlite3_stmt* s, StoredGame& g) {
    g.seat_numbers.push_back(sqlite3_column_int64(s, 1));
    g.bots.emplace_back(ColumnText(s, 2));
    g.accounts.emplace_back(ColumnText(s, 3));  // "" for NULL
  }

  // Reads the event row into events[*count], reusing its buffers.
  static void ReadEventRow(sqlite3_stmt* s, StoredGame& g, size_t* count) {
    if (*count == g.events.size()) g.events.emplace_back();
    StoredEvent& e = g.events[(*count)++];
    e.seq = sqlite3_column_int64(s, 1);
    Assign(&e.kind, ColumnText(s, 2));
    e.at_us = sqlite3_column_int64(s, 3);
    Assign(&e.payload, ColumnText(s, 4));
    Assign(&e.hash, ColumnText(s, 5));
  }

  // Decodes the game's event pack into events[*count ...], reusing their
  // buffers; a defect, or a pack beside event rows, goes to storage_error.
  static void ReadPackRow(sqlite3_stmt* s, StoredGame& g, size_t* count) {
    if (*count > 0 || g.packed) {
      g.storage_error = "the game has both event rows and an event pack";
      return;
    }
    g.packed = true;
    const int64_t declared = sqlite3_column_int64(s, 1);
    const void* blob = sqlite3_column_blob(s, 2);
    recorder::EventPackReader reader(
        blob == nullptr ? absl::string_view()
                        : absl::string_view(
                              static_cast<const char*>(blob),
                              static_cast<size_t>(sqlite3_column_bytes(s, 2))));
    recorder::PackedEvent packed;
    while (reader.Next(&packed)) {
      if (*count == g.events.size()) g.events.emplace_back();
      StoredEvent& e = g.events[(*count)++];
      e.seq = packed.seq;
      Assign(&e.kind, recorder::EventKindName(packed.kind));
      e.at_us = packed.at_us;
      Assign(&e.payload, packed.payload);
      AssignHex(packed.hash, &e.hash);
    }
    if (!reader.status().ok()) {
      g.storage_error = std::string(reader.status().message());
      g.storage_error_seq = static_cast<int64_t>(*count);
    } else if (declared != static_cast<int64_t>(*count)) {
      g.storage_error =
          absl::StrCat("the event pack's events column says ", declared,
                       " events but the pack holds ", *count);
    }
  }

  absl::Status ForEachAll(const std::function<void(StoredGame&)>& fn) {
    return Merge(games_all_, seats_all_, events_all_, tallies_all_, packs_all_,
                 "", fn);
  }

  // Merges the id-ordered row streams into games, up to (not including)
  // the id `to` ("" for no bound; ids compare as SQLite's BINARY collation
  // does). `tallies_stmt` and `packs_stmt` may be null (a database older
  // than schema version 2 or 5).
  absl::Status Merge(sqlite3_stmt* games_stmt, sqlite3_stmt* seats_stmt,
                     sqlite3_stmt* events_stmt, sqlite3_stmt* tallies_stmt,
                     sqlite3_stmt* packs_stmt, absl::string_view to,
                     const std::function<void(StoredGame&)>& fn) {
    Cursor games{games_stmt, false, {}}, seats{seats_stmt, false, {}},
        events{events_stmt, false, {}},
        tallies{tallies_stmt, tallies_stmt == nullptr, {}},
        packs{packs_stmt, packs_stmt == nullptr, {}};
    for (Cursor* c : {&games, &seats, &events, &tallies, &packs}) {
      if (c->done) continue;
      if (absl::Status s = c->Step(db_); !s.ok()) return s;
    }
    StoredGame g;
    std::string id;
    while (!games.done || !seats.done || !events.done || !tallies.done ||
           !packs.done) {
      // The smallest id among the cursors.
      bool first = true;
      for (Cursor* c : {&games, &seats, &events, &tallies, &packs}) {
        if (c->done) continue;
        if (first || c->id < id) Assign(&id, c->id);
        first = false;
      }
      if (!to.empty() && absl::string_view(id) >= to) break;
      ResetGame(g);
      g.game_id = id;
      if (!games.done && games.id == id) {
        ReadGameRow(games.stmt, g);
        if (absl::Status s = games.Step(db_); !s.ok()) return s;
      } else {
        g.missing_game_row = true;
      }
      while (!seats.done && seats.id == id) {
        ReadSeatRow(seats.stmt, g);
        if (absl::Status s = seats.Step(db_); !s.ok()) return s;
      }
      size_t count = 0;
      while (!events.done && events.id == id) {
        ReadEventRow(events.stmt, g, &count);
        if (absl::Status s = events.Step(db_); !s.ok()) return s;
      }
      while (!packs.done && packs.id == id) {
        ReadPackRow(packs.stmt, g, &count);
        if (absl::Status s = packs.Step(db_); !s.ok()) return s;
      }
      g.events.resize(count);
      while (!tallies.done && tallies.id == id) {
        ReadTallyRow(tallies.stmt, g);
        if (absl::Status s = tallies.Step(db_); !s.ok()) return s;
      }
      fn(g);
    }
    return absl::OkStatus();
  }

  absl::Status ForEachNamed(const std::vector<std::string>& ids,
                            const std::function<void(StoredGame&)>& fn) {
    StoredGame g;
    for (const std::string& id : ids) {
      ResetGame(g);
      g.game_id = id;
      for (sqlite3_stmt* s : {games_one_, seats_one_, events_one_}) {
        sqlite3_reset(s);
        sqlite3_bind_text(s, 1, id.data(), static_cast<int>(id.size()),
                          SQLITE_TRANSIENT);
      }
      int rc = sqlite3_step(games_one_);
      if (rc == SQLITE_ROW) {
        ReadGameRow(games_one_, g);
      } else if (rc == SQLITE_DONE) {
        g.missing_game_row = true;
      } else {
        return SqlError(db_, rc, "reading a game");
      }
      while ((rc = sqlite3_step(seats_one_)) == SQLITE_ROW) {
        ReadSeatRow(seats_one_, g);
      }
      if (rc != SQLITE_DONE) return SqlError(db_, rc, "reading seats");
      size_t count = 0;
      while ((rc = sqlite3_step(events_one_)) == SQLITE_ROW) {
        ReadEventRow(events_one_, g, &count);
      }
      if (rc != SQLITE_DONE) return SqlError(db_, rc, "reading events");
      if (packs_one_ != nullptr) {
        sqlite3_reset(packs_one_);
        sqlite3_bind_text(packs_one_, 1, id.data(), static_cast<int>(id.size()),
                          SQLITE_TRANSIENT);
        rc = sqlite3_step(packs_one_);
        if (rc == SQLITE_ROW) {
          ReadPackRow(packs_one_, g, &count);
        } else if (rc != SQLITE_DONE) {
          return SqlError(db_, rc, "reading an event pack");
        }
      }
      g.events.resize(count);
      if (tallies_one_ != nullptr) {
        sqlite3_reset(tallies_one_);
        sqlite3_bind_text(tallies_one_, 1, id.data(),
                          static_cast<int>(id.size()), SQLITE_TRANSIENT);
        rc = sqlite3_step(tallies_one_);
        if (rc == SQLITE_ROW) {
          ReadTallyRow(tallies_one_, g);
        } else if (rc != SQLITE_DONE) {
          return SqlError(db_, rc, "reading a tally");
        }
      }
      fn(g);
    }
    return absl::OkStatus();
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* games_all_ = nullptr;
  sqlite3_stmt* seats_all_ = nullptr;
  sqlite3_stmt* events_all_ = nullptr;
  sqlite3_stmt* games_one_ = nullptr;
  sqlite3_stmt* seats_one_ = nullptr;
  sqlite3_stmt* events_one_ = nullptr;
  sqlite3_stmt* tallies_all_ = nullptr;  // null without game_tallies
  sqlite3_stmt* tallies_one_ = nullptr;
  sqlite3_stmt* packs_all_ = nullptr;  // null without event_packs
  sqlite3_stmt* packs_one_ = nullptr;
  sqlite3_stmt* count_ = nullptr;
  bool has_tallies_ = false;
  bool has_packs_ = false;
  std::string seats_cols_;  // the seats query for this schema
};

DatabaseReader::DatabaseReader(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
DatabaseReader::~DatabaseReader() = default;

absl::StatusOr<std::unique_ptr<DatabaseReader>> DatabaseReader::Open(
    const std::string& path) {
  auto impl = std::make_unique<Impl>();
  if (absl::Status s = impl->Open(path); !s.ok()) return s;
  return std::unique_ptr<DatabaseReader>(new DatabaseReader(std::move(impl)));
}

absl::Status DatabaseReader::ForEach(
    const std::vector<std::string>& ids,
    const std::function<void(StoredGame&)>& fn) {
  return impl_->ForEach(ids, fn);
}

absl::StatusOr<int64_t> DatabaseReader::CountGames() { return impl_->Count(); }

absl::StatusOr<std::vector<std::string>> DatabaseReader::GameIdsEvery(
    int64_t step) {
  return impl_->GameIdsEvery(step);
}

absl::Status DatabaseReader::ForEachInRange(
    const std::string& from, const std::string& to,
    const std::function<void(StoredGame&)>& fn) {
  return impl_->ForEachInRange(from, to, fn);
}

// ---------------------------------------------------------------------------
// Verifying a database with several threads.

namespace {

constexpr size_t kBatchSize = 64;

struct Batch {
  std::vector<StoredGame> games = std::vector<StoredGame>(kBatchSize);
  size_t size = 0;
  int64_t first_index = 0;  // of games[0] in the reading order
};

// Batches travel reader -> workers (full) -> reader (free, reused).
class BatchQueue {
 public:
  void Push(std::unique_ptr<Batch> b) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      q_.push_back(std::move(b));
    }
    cv_.notify_one();
  }
  // nullptr once closed and empty.
  std::unique_ptr<Batch> Pop() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return closed_ || !q_.empty(); });
    if (q_.empty()) return nullptr;
    std::unique_ptr<Batch> b = std::move(q_.front());
    q_.pop_front();
    return b;
  }
  void Close() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      closed_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Batch>> q_;
  bool closed_ = false;
};

// Every game: the ids are cut into ranges of about the same number of
// games, several per thread, and each thread takes the next range not yet
// taken and reads it through its own connection (reading costs about as
// much as verifying, so it is split too). Ranges rather than one half per
// thread keep both threads busy to the end even when one is slowed (a busy
// machine, or the part of a large file beyond SQLite's 2 GB memory map,
// which is read by copying pages). Failures are reported in range order,
// i.e. in game id order, whatever the thread count.
absl::StatusOr<VerifyReport> VerifyRanges(
    const std::string& path, DatabaseReader& first, int64_t total, int threads,
    const std::function<void(int64_t, int64_t)>& progress) {
  if (total < 2 * threads) threads = 1;
  constexpr int64_t kRangesPerThread = 16;
  constexpr int64_t kMinRange = 256;
  // At least one range per thread; more, of at least kMinRange games, up to
  // kRangesPerThread per thread.
  const int64_t ranges = std::clamp<int64_t>(total / kMinRange, threads,
                                             kRangesPerThread * threads);
  std::vector<std::string> bounds = {""};
  if (ranges > 1) {
    absl::StatusOr<std::vector<std::string>> ids =
        first.GameIdsEvery((total + ranges - 1) / ranges);
    if (!ids.ok()) return ids.status();
    bounds.insert(bounds.end(), ids->begin(), ids->end());
  }
  bounds.push_back("");
  struct Part {
    std::vector<Failure> failures;
    int64_t games = 0;
    absl::Status status;
  };
  std::vector<Part> parts(bounds.size() - 1);
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};  // stop handing out ranges
  std::atomic<int64_t> done{0};
  std::atomic<int> running{threads};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      absl::StatusOr<std::unique_ptr<DatabaseReader>> reader =
          DatabaseReader::Open(path);
      GameVerifier verifier;
      for (size_t r;
           !failed.load() && (r = next.fetch_add(1)) < parts.size();) {
        Part& part = parts[r];
        if (!reader.ok()) {
          part.status = reader.status();
        } else {
          part.status = (*reader)->ForEachInRange(
              bounds[r], bounds[r + 1], [&](StoredGame& g) {
                if (std::optional<Failure> f = verifier.Verify(g)) {
                  part.failures.push_back(*std::move(f));
                }
                ++part.games;
                done.fetch_add(1, std::memory_order_relaxed);
              });
        }
        if (!part.status.ok()) failed.store(true);
      }
      running.fetch_sub(1);
    });
  }
  if (progress) {
    while (running.load() > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      progress(done.load(), total);
    }
  }
  for (std::thread& w : workers) w.join();
  if (progress) progress(done.load(), total);
  VerifyReport report;
  absl::Status status;
  for (Part& part : parts) {
    report.games += part.games;
    for (Failure& f : part.failures) report.failures.push_back(std::move(f));
    if (status.ok() && !part.status.ok()) status = part.status;
  }
  report.ok = report.games - static_cast<int64_t>(report.failures.size());
  if (!status.ok()) {
    Failure f;
    f.game_id = path;
    f.what = absl::StrCat("the database cannot be read (", report.games,
                          " games read): ", status.message());
    report.failures.push_back(std::move(f));
  }
  return report;
}

}  // namespace

absl::StatusOr<VerifyReport> VerifyDatabase(const std::string& path,
                                            const VerifyOptions& options) {
  absl::StatusOr<std::unique_ptr<DatabaseReader>> reader =
      DatabaseReader::Open(path);
  if (!reader.ok()) return reader.status();
  int64_t total = static_cast<int64_t>(options.games.size());
  if (options.games.empty()) {
    absl::StatusOr<int64_t> n = (*reader)->CountGames();
    if (!n.ok()) return n.status();
    total = *n;
  }

  const int threads = std::max(1, options.threads);
  if (options.games.empty()) {
    return VerifyRanges(path, **reader, total, threads, options.progress);
  }
  BatchQueue work, free_batches;
  for (int i = 0; i < threads * 3; ++i) {
    free_batches.Push(std::make_unique<Batch>());
  }
  std::mutex results_mu;
  std::vector<std::pair<int64_t, Failure>> failures;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      GameVerifier verifier;
      while (std::unique_ptr<Batch> b = work.Pop()) {
        for (size_t i = 0; i < b->size; ++i) {
          if (std::optional<Failure> f = verifier.Verify(b->games[i])) {
            std::lock_guard<std::mutex> lock(results_mu);
            failures.emplace_back(b->first_index + static_cast<int64_t>(i),
                                  *std::move(f));
          }
        }
        b->size = 0;
        free_batches.Push(std::move(b));
      }
    });
  }

  int64_t read = 0;
  std::unique_ptr<Batch> batch;
  absl::Status status = (*reader)->ForEach(options.games, [&](StoredGame& g) {
    if (batch == nullptr) {
      batch = free_batches.Pop();
      batch->first_index = read;
    }
    std::swap(batch->games[batch->size++], g);
    ++read;
    if (batch->size == kBatchSize) work.Push(std::move(batch));
    if (options.progress && read % 256 == 0) options.progress(read, total);
  });
  if (batch != nullptr) work.Push(std::move(batch));
  work.Close();
  for (std::thread& t : workers) t.join();
  if (options.progress) options.progress(read, total);

  VerifyReport report;
  report.games = read;
  std::sort(failures.begin(), failures.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [index, f] : failures) report.failures.push_back(std::move(f));
  report.ok = read - static_cast<int64_t>(report.failures.size());
  if (!status.ok()) {
    // A read error part-way (a corrupt or truncated file): what was read is
    // reported, and the error becomes a failure of its own.
    Failure f;
    f.game_id = path;
    f.what = absl::StrCat("the database cannot be read past game ", read, ": ",
                          status.message());
    report.failures.push_back(std::move(f));
  }
  return report;
}

}  // namespace cassino::verify
