// Event payloads: for each event kind, the writer and the reader side by
// side. This is the one statement of the payload format in C++
// (docs/record_format.md, "Event payloads", is the normative text for other
// languages); the referee writes with these writers, and every tool that
// reads a payload (verify, replay, stats' tallies, export) reads with these
// readers.
//
// A payload is a JSON object in canonical form (canonical_json.h): compact,
// keys in byte order, as below. A reader accepts exactly the bytes its
// writer produces for the values it returns and refuses anything else with
// InvalidArgument naming the byte where the text leaves the form (a
// payload with a space, keys in another order, a missing or extra key, an
// integer out of range...). So a payload that reads is the payload the
// writer would write: `cassino verify` relies on this to refuse, by event,
// any record whose bytes are not what the referee writes.
//
//   create   {"clock":{"bank_ms":N,"max_illegal":N,"per_move_ms":N},
//             "commitment":S,"created_us":N,"explicit_decks":[S...],
//             "game_id":S,"label":S,"rules":S,
//             "seats":[{"bot_name":S[,"human":true]}...]}
//   deal     {"deck":S,"round":N}
//   move     {"elapsed_ms":N,"move":S,"round":N,"seat":N,"turn":N}
//   reject   {"elapsed_ms":N,"reason":S,"seat":N,"submitted":S,"turn":N}
//   round    {"all_eleven_side":N,"builds_left":N,"dealer":N,
//             "items":[{"card":S?,"kind":S,"points":N,"side":N}...],
//             "leftover_side":N,"leftovers":S,"round":N,
//             "sides":[{"aces":N,"big_cassino":B,"cards":N,
//                       "little_cassino":B,"points":N,"spades":N,
//                       "sweeps":N}...],
//             "totals_after":[N...],"totals_before":[N...]}
//   forfeit  {"detail":S,"reason":S,"seat":N}
//   end      {"detail":S,"forfeiting_seat":N,"reason":S,"seed":S,
//             ["signature":{"key":S,"sig":S},]"totals":[N...],"winner":N}
//   abort    {"detail":S[,"signature":{"key":S,"sig":S}]}
//
// The signature of end and abort is optional (records from before
// signatures, or written without a key): recorder/signature.h. The writers
// here write unsigned payloads; the recorder signs them.
//
// A round item has "card" exactly when its kind names a card
// (ScoreItemHasCard). The readers check the JSON form and the types; what
// the values mean (a legal move, the right deck) is for the caller.
//
// Lifetimes: values in, values out; the Fields structs may be reused
// between calls (their buffers are kept).

#ifndef CASSINO_RECORDER_PAYLOAD_H_
#define CASSINO_RECORDER_PAYLOAD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "recorder/record.h"
#include "recorder/signature.h"
#include "rules/deal.h"
#include "rules/game.h"

namespace cassino::recorder {

// create: the header, without the seed and without token hashes (seats
// carry only their bot names). The reader fills those fields of `header`
// and clears the others (seed, token hashes, accounts).
std::string CreatePayload(const GameHeader& header);
void AppendCreatePayload(const GameHeader& header, std::string* out);
absl::Status ParseCreatePayload(absl::string_view payload, GameHeader* header);

// deal
struct DealFields {
  std::string deck;  // DeckToString: "6D 8C ..."
  int round = 0;
};
std::string DealPayload(int round, const Deck& deck);
absl::Status ParseDealPayload(absl::string_view payload, DealFields* out);

// move
struct MoveFields {
  int64_t elapsed_ms = 0;
  std::string move;  // as written: Move::ToString()
  int round = 0;
  int seat = 0;
  int turn = 0;
};
std::string MovePayload(const PlayedMove& move, int64_t elapsed_ms);
absl::Status ParseMovePayload(absl::string_view payload, MoveFields* out);

// reject
struct RejectFields {
  int64_t elapsed_ms = 0;
  std::string reason;
  int seat = 0;
  std::string submitted;  // as received (invalid UTF-8 replaced)
  int turn = 0;
};
std::string RejectPayload(int turn, int seat, absl::string_view submitted,
                          absl::string_view reason, int64_t elapsed_ms);
absl::Status ParseRejectPayload(absl::string_view payload, RejectFields* out);

// round
struct RoundFields {
  struct Item {
    std::string card;  // empty for kinds without a card
    std::string kind;  // ScoreItemName
    int points = 0;
    int side = 0;
  };
  struct Side {
    int aces = 0;
    bool big_cassino = false;
    int cards = 0;
    bool little_cassino = false;
    int points = 0;
    int spades = 0;
    int sweeps = 0;
  };
  int all_eleven_side = -1;
  int builds_left = 0;
  int dealer = 0;
  std::vector<Item> items;
  int leftover_side = -1;
  std::string leftovers;  // CardSet::ToString: "7S 4H" or "-"
  int round = 0;
  std::vector<Side> sides;
  std::vector<int> totals_after;
  std::vector<int> totals_before;
};
std::string RoundPayload(const RoundResult& round);
void AppendRoundPayload(const RoundResult& round, std::string* out);
absl::Status ParseRoundPayload(absl::string_view payload, RoundFields* out);

// forfeit
struct ForfeitFields {
  std::string detail;
  std::string reason;  // "time", "illegal", "absent", ...
  int seat = 0;
};
std::string ForfeitPayload(int seat, absl::string_view reason,
                           absl::string_view detail);
absl::Status ParseForfeitPayload(absl::string_view payload, ForfeitFields* out);

// end
struct EndFields {
  std::string detail;
  int forfeiting_seat = -1;
  std::string reason;  // GameEndReasonName
  std::string seed;    // hex; empty with explicit decks
  std::vector<int> totals;
  int winner = -1;
  std::optional<RecordSignature> signature;  // nullopt: unsigned
};
std::string EndPayload(const GameResult& result, absl::string_view seed_hex);
void AppendEndPayload(const GameResult& result, absl::string_view seed_hex,
                      std::string* out);
absl::Status ParseEndPayload(absl::string_view payload, EndFields* out);

// abort
struct AbortFields {
  std::string detail;
  std::optional<RecordSignature> signature;  // nullopt: unsigned
};
std::string AbortPayload(absl::string_view detail);
absl::Status ParseAbortPayload(absl::string_view payload, AbortFields* out);

// For messages about a payload that is not the one expected: the first key
// of `expected` (a JSON object) whose value differs in `recorded`, with both
// values as compact JSON ("nothing" for a missing key). nullopt when every
// key of `expected` has the same value in `recorded`, or when `recorded` is
// not a JSON object (`recorded_is_object` tells which). Slow: for errors.
struct PayloadDifference {
  std::string key;
  std::string expected;
  std::string recorded;
};
std::optional<PayloadDifference> FirstPayloadDifference(
    absl::string_view expected, absl::string_view recorded,
    bool* recorded_is_object = nullptr);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_PAYLOAD_H_
