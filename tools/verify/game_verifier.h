// Independent re-adjudication of one game record: the heart of `cassino
// verify` and `cassino import`.
//
// The verifier trusts nothing the referee stored. For each game it checks,
// in this order, and reports the first discrepancy it meets:
//
//   0. storage: the events can be read (an ended game's event pack decodes
//      and holds as many events as its row says; no game has both event
//      rows and a pack; a running game's events are rows);
//   1. structure and hash chain: events numbered 0, 1, 2, ... with no gaps,
//      known kinds, event 0 `create` and only event 0; every stored hash
//      equals the chain hash recomputed from the stored payload bytes
//      (record.h: event 0 chained from the commitment, 32 zero bytes with
//      explicit decks);
//   1b. the signature: the last event of an ended game (`end` or `abort`)
//      that carries a signature (recorder/signature.h) is signed by its key
//      over the game's unsigned chain head; under a SignaturePolicy, the
//      key is a trusted one, and (require_signed) every ended game is
//      signed. A record without a signature (written before signatures, or
//      without a key) is "unsigned", which is no discrepancy unless
//      required;
//   2. the header: the `games` and `seats` rows equal the `create` payload
//      (which the chain covers), byte for byte as CreatePayload writes them;
//   3. the seed: a finished game's `end` event reveals a seed whose SHA-256
//      is the commitment (and equals the stored seed column, if any);
//   4. the play, replayed through the rules engine: every `deal` deck is the
//      deck of its round (docs/rules.md, *The seeded shuffle* from the seed, or
//      the explicit decks); every `move` was legal, by the seat to move, at its
//      turn and round; every `reject` was for the seat to move at that turn
//      and, when the submitted text parses as a move, the engine refuses it; a
//      seat forfeits for `illegal` only after max_illegal rejects; every
//      `round` payload equals RoundPayload() of the engine's round result and
//      every `end` payload EndPayload() of the engine's game result, byte for
//      byte; events come in the order the referee writes them
//      (record_format.md) and nothing follows `end` or `abort`;
//   5. the summary columns (status, winner, end_reason, totals, finished_us)
//      are what the recorder writes for the `end` or `abort` event;
//   6. the game's tally (the `game_tallies` row, schema version 2; see
//      recorder/tally.h), when there is one, equals the tally of the events
//      as replayed here: every column, compared exactly (the tally is
//      rebuilt from the replay, not by the recorder's code). A running game
//      must have none; an ended game may lack one (a database the recorder
//      has not opened since migration 002: readers fall back to the
//      events), which is not a discrepancy.
//
// A running game verifies if everything recorded so far does (its seed is
// still secret: its deals are checked against the seed column when the
// database holds it). Nothing here throws or crashes on corrupt input:
// every defect becomes a Failure.
//
// Payloads are read with the readers of recorder/payload.h, which accept
// only the canonical bytes the referee writes: a payload that differs from
// them (even as equal JSON) is a discrepancy named by its event. Round and
// end payloads are compared byte for byte with what the writers make of the
// engine's own results. verify thus shares the byte format with the
// recorder, never its conclusions: every verdict comes from this replay.
//
// Thread-safety: a GameVerifier is not thread-safe (it reuses buffers); use
// one per thread. VerifyDatabase (verifier.h) runs its own threads.

#ifndef CASSINO_TOOLS_VERIFY_GAME_VERIFIER_H_
#define CASSINO_TOOLS_VERIFY_GAME_VERIFIER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "recorder/record.h"
#include "recorder/stored_game.h"

namespace cassino::verify {

// The first discrepancy found in a game.
struct Failure {
  std::string game_id;
  int round = 0;  // the engine's round when found (0: before play)
  int turn = 0;   // the engine's turn (moves accepted so far)
  // Whether round and turn say anything: false for a fault found before
  // the engine replays the game (the chain, the header, a pack).
  bool in_play = false;
  int64_t seq = -1;  // the event; -1 for the games row itself
  std::string what;
  std::string expected;  // both empty when there is nothing to compare
  std::string recorded;

  // `FAIL <game> round R turn T (event seq S): <what>: expected <x>,
  // recorded <y>` (round and turn only in play, the comparison only when
  // there is one).
  std::string ToString() const;
};

// What verify requires of signatures (all games verify alike otherwise).
struct SignaturePolicy {
  // Public keys (64 lower-case hex digits) a signature must be made with;
  // empty: any key.
  std::vector<std::string> trusted_keys;
  // An ended game without a signature fails (a running one has none yet).
  bool require_signed = false;
};

// How the last game verified was signed.
struct SignatureState {
  enum Kind {
    kNotChecked,  // the game failed before its signature was checked
    kRunning,     // not ended: no signature yet
    kUnsigned,    // ended without a signature
    kSigned,      // signed by `key`, and the signature verifies
  };
  Kind kind = kNotChecked;
  std::string key;  // kSigned: the public key, hex
};

// Verifies single games, reusing its buffers between calls.
class GameVerifier {
 public:
  explicit GameVerifier(SignaturePolicy policy = {});
  ~GameVerifier();
  GameVerifier(const GameVerifier&) = delete;
  GameVerifier& operator=(const GameVerifier&) = delete;

  // nullopt if the game verifies, else its first discrepancy.
  std::optional<Failure> Verify(const recorder::StoredGame& game);
  // The signature of the game of the last Verify call.
  const SignatureState& signature() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Convenience: verifies a record in memory.
std::optional<Failure> VerifyRecord(const recorder::GameRecord& record,
                                    const SignaturePolicy& policy = {});

}  // namespace cassino::verify

#endif  // CASSINO_TOOLS_VERIFY_GAME_VERIFIER_H_
