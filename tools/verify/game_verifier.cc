#include "tools/verify/game_verifier.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "recorder/canonical_json.h"
#include "recorder/hex_pairs.h"
#include "recorder/payload.h"
#include "recorder/signature.h"
#include "recorder/submission_text.h"
#include "recorder/tally.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "rules/submission.h"

namespace cassino::verify {
namespace {

using recorder::EventKind;
using recorder::StoredEvent;
using recorder::StoredGame;

using recorder::kHexPairs;

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
  return absl::EqualsIgnoreCase(ToHex(digest), hex);
}

// Shortens very long texts in messages (payloads may be anything).
std::string Clip(absl::string_view text, size_t limit = 400) {
  if (text.size() <= limit) return std::string(text);
  return absl::StrCat(text.substr(0, limit), "... (", text.size(), " bytes)");
}

}  // namespace

std::string Failure::ToString() const {
  std::string out = absl::StrCat("FAIL ", game_id);
  if (in_play) absl::StrAppend(&out, " round ", round, " turn ", turn);
  absl::StrAppend(&out, " (");
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

class GameVerifier::Impl {
 public:
  explicit Impl(SignaturePolicy policy) : policy_(std::move(policy)) {}
  std::optional<Failure> Verify(const StoredGame& g);
  const SignatureState& signature() const { return signature_; }

 private:
  // Context of the failure being built.
  Failure Fail(int64_t seq, std::string what, std::string expected = "",
               std::string recorded = "") const {
    Failure f;
    f.game_id = game_->game_id;
    if (engine_ != nullptr) {
      f.round = engine_->round();
      f.turn = engine_->turn();
      f.in_play = true;
    }
    f.seq = seq;
    f.what = std::move(what);
    f.expected = std::move(expected);
    f.recorded = std::move(recorded);
    return f;
  }
  // A payload its reader refused (not in the canonical form).
  Failure Unreadable(size_t i, const absl::Status& status) const {
    return Fail(static_cast<int64_t>(i), std::string(status.message()), "",
                Clip(game_->events[i].payload));
  }
  std::optional<Failure> CheckChain();
  // The last event's signature; `previous` is the hash before it.
  std::optional<Failure> CheckSignature(const Digest& previous);
  std::optional<Failure> CheckHeader();
  std::optional<Failure> CheckCreatePayload();
  // The decks: from the revealed seed, the seed column or the deals.
  std::optional<Failure> FindDecks();
  std::optional<Failure> Replay();
  // One event of the replay; the state it needs is in replay_.
  std::optional<Failure> ReplayEvent(size_t i);
  std::optional<Failure> ReplayMove(size_t i);
  std::optional<Failure> ReplayReject(size_t i);
  std::optional<Failure> ReplayRound(size_t i);
  std::optional<Failure> ReplayForfeit(size_t i);
  std::optional<Failure> CheckSummary();
  std::optional<Failure> CheckTally();
  // A stored payload that is not the `expected` bytes: named as not
  // canonical if its reader refuses it (`readable`), else by its first key
  // whose value differs.
  Failure PayloadMismatch(int64_t seq, absl::string_view what,
                          const absl::Status& readable,
                          const std::string& expected,
                          const std::string& recorded) const;

  const SignaturePolicy policy_;
  SignatureState signature_;
  // The last event's payload without its signature (the payload itself
  // when unsigned): what the replay compares.
  std::string unsigned_last_;
  const StoredGame* game_ = nullptr;
  std::vector<EventKind> kinds_;
  std::vector<absl::string_view> kind_names_;
  std::string expected_;
  const RuleSet* rules_ = nullptr;  // *last_rules_ once the header checks
  // The last rules text that parsed and validated, and its RuleSet.
  std::string last_rules_text_;
  std::optional<RuleSet> last_rules_;
  std::optional<DeckSource> decks_;
  std::string seed_hex_;  // the seed as EndPayload writes it ("" explicit)
  // The end event withholds the seed (a game dealt from it was unfinished
  // when this one ended: a duplicate twin); its payload has "seed":"".
  bool seed_withheld_ = false;
  Game* engine_ = nullptr;
  std::optional<Game> game_state_;
  // Where the replay stands.
  struct ReplayState {
    std::vector<int64_t> rejects;  // per seat
    int pending_forfeit = -1;  // a seat that used up its illegal submissions
    int deals = 0;             // deal events so far
    size_t rounds = 0;         // round events so far
    bool closed = false;       // end or abort seen
  } replay_;
  // The tally of the events replayed so far; the move times are kept apart
  // (in move_ms_, per seat) and only ordered when there is a tally to check.
  recorder::GameTally tally_;
  std::vector<std::vector<int64_t>> move_ms_;
  // The payload readers' fields, reused.
  recorder::GameHeader header_;
  recorder::DealFields deal_;
  recorder::MoveFields move_;
  recorder::RejectFields reject_;
  recorder::RoundFields round_;
  recorder::ForfeitFields forfeit_;
  recorder::EndFields end_;
  recorder::AbortFields abort_;
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
  Digest previous{};  // the hash before the last event
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
    if (i + 1 == g.events.size()) previous = prev;
    static constexpr uint8_t kZero[1] = {0};
    prev = Sha256({prev, TextBytes(e.kind), kZero, TextBytes(e.payload)});
    if (!HexEquals(prev, e.hash)) {
      return Fail(index,
                  absl::StrCat("hash chain broken at this ", e.kind, " event"),
                  ToHex(prev), Clip(e.hash, 80));
    }
  }
  return CheckSignature(previous);
}

std::optional<Failure> GameVerifier::Impl::CheckSignature(
    const Digest& previous) {
  const StoredGame& g = *game_;
  const size_t last = g.events.size() - 1;
  const int64_t seq = static_cast<int64_t>(last);
  const EventKind kind = kinds_[last];
  if (kind != EventKind::kEnd && kind != EventKind::kAbort) {
    unsigned_last_ = g.events[last].payload;
    signature_.kind = SignatureState::kRunning;
    return std::nullopt;
  }
  absl::StatusOr<recorder::SplitPayload> split =
      recorder::SplitSignature(g.events[last].payload);
  if (!split.ok()) return Unreadable(last, split.status());
  unsigned_last_ = std::move(split->unsigned_payload);
  if (!split->signature.has_value()) {
    if (policy_.require_signed) {
      return Fail(seq, "the record is unsigned (--require-signed)",
                  "a signature", "none");
    }
    signature_.kind = SignatureState::kUnsigned;
    return std::nullopt;
  }
  const recorder::RecordSignature& s = *split->signature;
  if (absl::Status st = recorder::CheckSignature(s, g.game_id, previous, kind,
                                                 unsigned_last_);
      !st.ok()) {
    return Fail(seq, absl::StrCat(st.message(), " ", s.key));
  }
  if (!policy_.trusted_keys.empty() &&
      std::find(policy_.trusted_keys.begin(), policy_.trusted_keys.end(),
                s.key) == policy_.trusted_keys.end()) {
    return Fail(seq, "signed by a key that is not trusted", "a trusted key",
                s.key);
  }
  signature_.kind = SignatureState::kSigned;
  signature_.key = s.key;
  return std::nullopt;
}

Failure GameVerifier::Impl::PayloadMismatch(int64_t seq, absl::string_view what,
                                            const absl::Status& readable,
                                            const std::string& expected,
                                            const std::string& recorded) const {
  if (!readable.ok()) {
    return Fail(seq, std::string(readable.message()), "", Clip(recorded));
  }
  std::optional<recorder::PayloadDifference> d =
      recorder::FirstPayloadDifference(expected, recorded);
  if (!d.has_value()) {  // (equal values in another spelling: not canonical)
    return Fail(seq, absl::StrCat(what, " is not as the recorder writes it"),
                Clip(expected), Clip(recorded));
  }
  return Fail(
      seq, absl::StrCat(what, " differs from the engine's on '", d->key, "'"),
      Clip(d->expected), Clip(d->recorded));
}

std::optional<Failure> GameVerifier::Impl::CheckCreatePayload() {
  const StoredGame& g = *game_;
  // The header the games and seats rows describe, written as the recorder
  // writes it; the create event is hashed, so it is what they must equal.
  recorder::GameHeader& h = header_;
  h.game_id = g.game_id;
  h.rules = g.rules;
  h.seats.resize(g.bots.size());
  for (size_t i = 0; i < g.bots.size(); ++i) {
    h.seats[i].bot_name = g.bots[i];
    h.seats[i].human = false;
  }
  h.commitment = g.commitment;
  h.explicit_decks = g.explicit_decks;
  h.clock.per_move_ms = g.per_move_ms;
  h.clock.bank_ms = g.bank_ms;
  h.clock.max_illegal = static_cast<int>(g.max_illegal);
  h.label = g.label;
  h.created_us = g.created_us;
  const std::string& stored = g.events[0].payload;
  // Which seats a person played is said by the create event alone (no row
  // holds it): take it from there.
  if (stored.find("\"human\":true") != std::string::npos) {
    recorder::GameHeader marked;
    if (recorder::ParseCreatePayload(stored, &marked).ok() &&
        marked.seats.size() == h.seats.size()) {
      for (size_t i = 0; i < h.seats.size(); ++i) {
        h.seats[i].human = marked.seats[i].human;
      }
    }
  }
  expected_.clear();
  recorder::AppendCreatePayload(h, &expected_);
  if (expected_ == stored) return std::nullopt;
  recorder::GameHeader parsed;
  if (absl::Status s = recorder::ParseCreatePayload(stored, &parsed); !s.ok()) {
    return Unreadable(0, s);
  }
  std::optional<recorder::PayloadDifference> d =
      recorder::FirstPayloadDifference(expected_, stored);
  return Fail(-1,
              absl::StrCat("the games/seats rows disagree with the create "
                           "event on '",
                           d.has_value() ? d->key : "?", "'"),
              d.has_value() ? Clip(d->recorded) : Clip(stored),
              d.has_value() ? Clip(d->expected) : Clip(expected_));
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
  if (auto f = CheckCreatePayload()) return f;
  if (g.events[0].at_us != g.created_us) {
    return Fail(0, "created_us differs from the create event's time",
                absl::StrCat(g.events[0].at_us), absl::StrCat(g.created_us));
  }

  // Most games of a database share their rules: the last valid rules text
  // and its RuleSet are kept.
  if (!last_rules_.has_value() || g.rules != last_rules_text_) {
    last_rules_.reset();
    absl::StatusOr<RuleSet> rules = RuleSet::ParseRecorded(g.rules);
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
  return FindDecks();
}

std::optional<Failure> GameVerifier::Impl::FindDecks() {
  const StoredGame& g = *game_;
  seed_hex_.clear();
  seed_withheld_ = false;
  if (!g.explicit_decks.empty()) {
    if (!g.commitment.empty()) {
      return Fail(0, "the game has both a commitment and explicit decks");
    }
    std::vector<Deck> decks;
    for (size_t i = 0; i < g.explicit_decks.size(); ++i) {
      absl::StatusOr<Deck> deck =
          ParseDeck(g.explicit_decks[i], rules_->Pack());
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
    if (absl::Status s =
            recorder::ParseEndPayload(g.events[last].payload, &end_);
        !s.ok()) {
      return Unreadable(last, s);
    }
    // An empty seed is withheld (another game dealt from it was still
    // unfinished): the seed column, once revealed, or the deals serve.
    seed_withheld_ = end_.seed.empty();
  }
  if (kinds_[last] == EventKind::kEnd && !seed_withheld_) {
    const std::string& seed_text = end_.seed;
    absl::StatusOr<Seed> seed = ParseSeed(seed_text);
    if (!seed.ok()) {
      return Fail(static_cast<int64_t>(last),
                  "the revealed seed is not 64 hex digits", "",
                  Clip(seed_text, 80));
    }
    const std::string hashed = ToHex(SeedCommitment(*seed));
    if (!absl::EqualsIgnoreCase(hashed, g.commitment)) {
      return Fail(static_cast<int64_t>(last),
                  "the revealed seed does not hash to the commitment",
                  absl::AsciiStrToLower(g.commitment),
                  absl::StrCat("SHA-256(seed) = ", hashed));
    }
    if (!g.seed.empty() && !absl::EqualsIgnoreCase(g.seed, seed_text)) {
      return Fail(-1, "the seed column differs from the revealed seed",
                  seed_text, Clip(g.seed, 80));
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
    if (absl::Status s =
            recorder::ParseDealPayload(g.events[i].payload, &deal_);
        !s.ok()) {
      return Unreadable(i, s);
    }
    absl::StatusOr<Deck> deck = ParseDeck(deal_.deck, rules_->Pack());
    if (!deck.ok()) {
      return Fail(
          static_cast<int64_t>(i),
          absl::StrCat("the deck is malformed: ", deck.status().message()), "",
          Clip(deal_.deck));
    }
    decks.push_back(*std::move(deck));
  }
  if (decks.empty()) decks.push_back(CanonicalDeck());
  decks_ = DeckSource::Explicit(std::move(decks));
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
  engine_ = &*game_state_;
  const int players = rules_->players;
  replay_ = ReplayState();
  replay_.rejects.assign(players, 0);
  tally_ = recorder::GameTally();
  tally_.events = static_cast<int64_t>(g.events.size());
  tally_.seats.resize(players);
  tally_.sides.resize(rules_->Sides());
  move_ms_.resize(players);
  for (std::vector<int64_t>& v : move_ms_) v.clear();

  for (size_t i = 1; i < g.events.size(); ++i) {
    if (replay_.closed) {
      return Fail(static_cast<int64_t>(i), "an event after the game ended",
                  "no event", std::string(kind_names_[i]));
    }
    if (replay_.pending_forfeit >= 0 && kinds_[i] != EventKind::kForfeit) {
      return Fail(static_cast<int64_t>(i),
                  absl::StrCat("seat ", replay_.pending_forfeit, " made ",
                               g.max_illegal,
                               " illegal submissions but did not forfeit"),
                  "forfeit", std::string(kind_names_[i]));
    }
    if (auto f = ReplayEvent(i)) return f;
  }
  const Game& game = *engine_;
  if (replay_.pending_forfeit >= 0 && g.status != "running") {
    return Fail(static_cast<int64_t>(g.events.size() - 1),
                absl::StrCat("seat ", replay_.pending_forfeit,
                             " made too many illegal submissions but the "
                             "record has no forfeit"));
  }
  if (!replay_.closed && game.over() && g.status != "running") {
    return Fail(static_cast<int64_t>(g.events.size() - 1),
                "the game is over but the record has no end event", "end",
                "nothing");
  }
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::ReplayEvent(size_t i) {
  const int64_t seq = static_cast<int64_t>(i);
  Game& game = *engine_;
  // Events that happen within a round's play need its deal and the previous
  // round's result recorded first.
  auto check_in_play = [&]() -> std::optional<Failure> {
    if (game.over()) {
      return Fail(
          seq, absl::StrCat("a ", kind_names_[i], " after the game is over"));
    }
    if (replay_.rounds < game.rounds().size()) {
      return Fail(seq,
                  absl::StrCat("the round event of round ", replay_.rounds + 1,
                               " is missing before this ", kind_names_[i]),
                  "round", std::string(kind_names_[i]));
    }
    if (replay_.deals != game.round()) {
      return Fail(seq,
                  absl::StrCat("the deal event of round ", game.round(),
                               " is missing before this ", kind_names_[i]),
                  "deal", std::string(kind_names_[i]));
    }
    return std::nullopt;
  };
  const std::string& payload = game_->events[i].payload;
  switch (kinds_[i]) {
    case EventKind::kCreate:
      return std::nullopt;  // excluded by CheckChain
    case EventKind::kMove:
      if (auto f = check_in_play()) return f;
      return ReplayMove(i);
    case EventKind::kReject:
      if (auto f = check_in_play()) return f;
      return ReplayReject(i);
    case EventKind::kRound:
      return ReplayRound(i);
    case EventKind::kForfeit:
      return ReplayForfeit(i);
    case EventKind::kDeal: {
      if (absl::Status s = recorder::ParseDealPayload(payload, &deal_);
          !s.ok()) {
        return Unreadable(i, s);
      }
      if (game.over()) return Fail(seq, "a deal after the game is over");
      if (replay_.rounds < game.rounds().size()) {
        return Fail(
            seq,
            absl::StrCat("the round event of round ", replay_.rounds + 1,
                         " is missing before this deal"),
            "round", "deal");
      }
      if (replay_.deals >= game.round()) {
        return Fail(seq,
                    absl::StrCat("a second deal for round ", game.round()));
      }
      if (deal_.round != game.round()) {
        return Fail(seq, "the deal is for the wrong round",
                    absl::StrCat(game.round()), absl::StrCat(deal_.round));
      }
      expected_ = DeckToString(game.deck());
      if (deal_.deck != expected_) {
        const char* source =
            !game_->explicit_decks.empty() ? " differs from the explicit deck"
            : seed_hex_.empty()            ? " differs from the deck played"
                                           : " differs from the seed's deck";
        return Fail(seq,
                    absl::StrCat("the deck of round ", game.round(), source),
                    expected_, Clip(deal_.deck));
      }
      ++replay_.deals;
      return std::nullopt;
    }
    case EventKind::kEnd: {
      if (!game.over()) {
        return Fail(seq, "an end event but the game is not over", "no end",
                    "end");
      }
      if (replay_.rounds < game.rounds().size()) {
        return Fail(
            seq,
            absl::StrCat("the round event of round ", replay_.rounds + 1,
                         " is missing before the end"),
            "round", "end");
      }
      recorder::AppendEndPayload(*game.result(),
                                 seed_withheld_ ? "" : seed_hex_, &expected_);
      // The last event's signature is checked and set apart (CheckChain).
      if (expected_ !=
          (i + 1 == game_->events.size() ? unsigned_last_ : payload)) {
        return PayloadMismatch(seq, "the game result",
                               recorder::ParseEndPayload(payload, &end_),
                               expected_, payload);
      }
      replay_.closed = true;
      return std::nullopt;
    }
    case EventKind::kAbort: {
      if (absl::Status s = recorder::ParseAbortPayload(payload, &abort_);
          !s.ok()) {
        return Unreadable(i, s);
      }
      if (game.over()) return Fail(seq, "an abort after the game is over");
      game.Abort(abort_.detail);
      replay_.closed = true;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::ReplayMove(size_t i) {
  const int64_t seq = static_cast<int64_t>(i);
  Game& game = *engine_;
  if (absl::Status s =
          recorder::ParseMovePayload(game_->events[i].payload, &move_);
      !s.ok()) {
    return Unreadable(i, s);
  }
  if (move_.turn != game.turn()) {
    return Fail(seq, "the move is numbered for another turn",
                absl::StrCat(game.turn()), absl::StrCat(move_.turn));
  }
  if (move_.round != game.round()) {
    return Fail(seq, "the move names another round", absl::StrCat(game.round()),
                absl::StrCat(move_.round));
  }
  if (move_.seat != game.to_move()) {
    return Fail(seq, "a move by a seat not to move",
                absl::StrCat(game.to_move()), absl::StrCat(move_.seat));
  }
  absl::StatusOr<Move> move = Move::Parse(move_.move);
  if (!move.ok()) {
    return Fail(
        seq, absl::StrCat("the move does not parse: ", move.status().message()),
        "a move in notation", Clip(move_.move, 80));
  }
  if (absl::Status s = game.Validate(*move); !s.ok()) {
    return Fail(seq, absl::StrCat("an illegal move: ", s.message()),
                "a legal move", Clip(move_.move, 80));
  }
  ++tally_.seats[game.to_move()].moves;
  move_ms_[game.to_move()].push_back(move_.elapsed_ms);
  ++tally_.moves;
  game.PlayUnchecked(*move);
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::ReplayReject(size_t i) {
  const int64_t seq = static_cast<int64_t>(i);
  Game& game = *engine_;
  if (absl::Status s =
          recorder::ParseRejectPayload(game_->events[i].payload, &reject_);
      !s.ok()) {
    return Unreadable(i, s);
  }
  if (reject_.turn != game.turn()) {
    return Fail(seq, "the reject is numbered for another turn",
                absl::StrCat(game.turn()), absl::StrCat(reject_.turn));
  }
  if (reject_.seat != game.to_move()) {
    return Fail(seq, "a reject for a seat not to move",
                absl::StrCat(game.to_move()), absl::StrCat(reject_.seat));
  }
  // Interpreted as the referee interpreted the submission: refused if
  // malformed (fields that disagree, too long, unparsable) or illegal.
  absl::StatusOr<Move> move =
      Interpret(recorder::ParseSubmissionText(reject_.submitted));
  if (move.ok() && game.Validate(*move).ok()) {
    return Fail(seq, "a legal move was rejected", "an illegal move",
                Clip(reject_.submitted, 80));
  }
  const int seat = game.to_move();
  ++tally_.seats[seat].rejects;
  if (++replay_.rejects[seat] >= game_->max_illegal) {
    replay_.pending_forfeit = seat;
  }
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::ReplayRound(size_t i) {
  const int64_t seq = static_cast<int64_t>(i);
  const Game& game = *engine_;
  const size_t rounds = replay_.rounds;
  if (rounds >= game.rounds().size()) {
    return Fail(
        seq,
        absl::StrCat("a round event but round ", rounds + 1, " is not over"),
        "no round event", "round");
  }
  const std::string& payload = game_->events[i].payload;
  recorder::AppendRoundPayload(game.rounds()[rounds], &expected_);
  if (expected_ != payload) {  // (the message only when needed)
    return PayloadMismatch(seq, absl::StrCat("the score of round ", rounds + 1),
                           recorder::ParseRoundPayload(payload, &round_),
                           expected_, payload);
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
  ++replay_.rounds;
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::ReplayForfeit(size_t i) {
  const int64_t seq = static_cast<int64_t>(i);
  Game& game = *engine_;
  if (absl::Status s =
          recorder::ParseForfeitPayload(game_->events[i].payload, &forfeit_);
      !s.ok()) {
    return Unreadable(i, s);
  }
  if (game.over()) return Fail(seq, "a forfeit after the game is over");
  const int players = rules_->players;
  const int seat = forfeit_.seat;
  if (seat < 0 || seat >= players) {
    return Fail(seq, "the forfeiting seat is out of range",
                absl::StrCat("0..", players - 1), absl::StrCat(seat));
  }
  if (replay_.pending_forfeit >= 0 && seat != replay_.pending_forfeit) {
    return Fail(seq, "the wrong seat forfeits after illegal submissions",
                absl::StrCat(replay_.pending_forfeit), absl::StrCat(seat));
  }
  if (forfeit_.reason == "illegal" &&
      replay_.rejects[seat] < game_->max_illegal) {
    return Fail(seq, "a forfeit for illegal submissions before the limit",
                absl::StrCat(game_->max_illegal, " rejects"),
                absl::StrCat(replay_.rejects[seat], " rejects"));
  }
  replay_.pending_forfeit = -1;
  ++tally_.seats[seat].forfeits;
  if (forfeit_.reason == "time") ++tally_.seats[seat].timeouts;
  game.Forfeit(seat, forfeit_.detail);
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
  // What the recorder writes for the end or abort event.
  std::optional<int64_t> winner, finished;
  std::optional<std::string> reason, totals;
  if (last == EventKind::kEnd) {
    const GameResult& r = *engine_->result();
    winner = r.winner;
    reason = std::string(GameEndReasonName(r.reason));
    recorder::JsonWriter(&totals.emplace()).IntArray(r.totals);
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
    return Fail(-1, "the totals column disagrees with the events",
                opt_text(totals), opt_text(g.totals));
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
  const recorder::StoredTally& t = *g.tally;
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
  recorder::JsonWriter w(&e);
  for (size_t seat = 0; seat < move_ms_.size(); ++seat) {
    std::vector<int64_t>& v = move_ms_[seat];
    std::sort(v.begin(), v.end());
    w.Raw(seat > 0 ? ",[" : "[");
    for (size_t i = 0; i < v.size();) {
      size_t j = i;
      while (j < v.size() && v[j] == v[i]) ++j;
      if (i > 0) w.Raw(",");
      w.Int(v[i]).Raw(",").Int(j - i);
      i = j;
    }
    w.Raw("]");
  }
  w.Raw("]");
  if (e != t.move_ms) return fail("move_ms", Clip(e, 200), t.move_ms);
  return std::nullopt;
}

std::optional<Failure> GameVerifier::Impl::Verify(const StoredGame& g) {
  game_ = &g;
  engine_ = nullptr;
  rules_ = nullptr;
  decks_.reset();
  signature_ = {};
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

GameVerifier::GameVerifier(SignaturePolicy policy)
    : impl_(std::make_unique<Impl>(std::move(policy))) {}
GameVerifier::~GameVerifier() = default;

std::optional<Failure> GameVerifier::Verify(const StoredGame& game) {
  return impl_->Verify(game);
}

const SignatureState& GameVerifier::signature() const {
  return impl_->signature();
}

std::optional<Failure> VerifyRecord(const recorder::GameRecord& record,
                                    const SignaturePolicy& policy) {
  GameVerifier verifier(policy);
  return verifier.Verify(recorder::FromRecord(record));
}

}  // namespace cassino::verify
