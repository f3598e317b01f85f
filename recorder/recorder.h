// The SQLite store of game records.
//
// One database file holds every game (schemas/NNN_*.sql, applied in order at
// open; a database whose schema version is newer than this build knows is
// refused with a clear message). The file is opened in WAL mode.
//
// Writes go through one writer thread that commits in groups: every Append
// and CreateGame queued while a transaction commits (or while its callbacks
// run) is written by the next one. `done` callbacks run on the writer thread
// (or on the caller's, below; in submission order either way) after the
// transaction holding the write has committed (or failed); a caller may
// acknowledge the write to anyone at that point. The next transaction starts
// when the callbacks have returned, so they must be short, must not block, and
// must not call the synchronous Recorder methods (that would wait for their own
// thread; debug builds assert). Reads are fine, but a long one belongs on
// another thread.
//
// Durability:
//   kNormal  synchronous=NORMAL: a committed write survives a crash of the
//            process (not necessarily of the machine).
//   kFull    synchronous=FULL: a committed write survives power loss too.
//
// Committing on the caller's thread (CommitHere, below): while the
// recorder is quiet, one write at a time (a single game in play, say), a
// thread that holds a CommitHere scope and queues a write commits it itself
// when the scope closes, and its `done` callback runs there: no hand-off to
// the writer thread and back. A write queued by another thread meanwhile is
// committed by it next, up to eight transactions in a row, if it comes
// alone. Only in kNormal durability (a commit then syncs nothing); at any
// load above one write at a time the writer thread commits, in groups, as
// above. Either way one transaction runs at a time and callbacks keep their
// submission order.
//
// Reads use their own connection and may run on any thread concurrently
// with writing. The Recorder is thread-safe. Destroying it drains the queue.
//
// Storage faults (docs/crash_safety.md): a `done` callback gets OK only when
// its transaction committed into the database file the recorder opened. A
// transaction that fails for a reason of the storage (a full disk, an I/O
// error, a file that cannot be written), or that committed into a database
// file or WAL that has since been deleted or replaced, fails every write it
// held, and the recorder becomes unhealthy (health()). While unhealthy it
// still attempts every write and, when idle, probes with a one-page write
// every `probe_interval`: the first transaction that commits with both files
// in place makes it healthy again. A deleted or replaced file is permanent:
// nothing is acknowledged until the referee restarts.

#ifndef CASSINO_RECORDER_RECORDER_H_
#define CASSINO_RECORDER_RECORDER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "recorder/ladder_rows.h"
#include "recorder/record.h"
#include "recorder/signature.h"

namespace cassino::recorder {

enum class Durability { kNormal, kFull };
absl::StatusOr<Durability> ParseDurability(absl::string_view name);

using DoneCallback = std::function<void(absl::Status)>;

// Whether the recorder can write its database (see the storage faults
// above); `fault` says why not.
struct StorageHealth {
  bool writable = true;
  // Permanent: the database file or its WAL was deleted or replaced.
  bool lost = false;
  std::string fault;
};

struct RecorderOptions {
  Durability durability = Durability::kNormal;
  // How often an unhealthy recorder probes the storage with a write.
  std::chrono::milliseconds probe_interval = std::chrono::seconds(1);
  // Signs the last event of every game the writer ends
  // (recorder/signature.h); nullopt: records are unsigned.
  std::optional<SigningKey> signing_key;
  // WAL checkpoints (recorder/checkpointer.h): a thread of their own copies
  // the WAL into the database file from `checkpoint_pages` WAL pages on
  // (from `checkpoint_pages` * kQuietCheckpointFactor while the recorder is
  // quiet, as for commit_here_after); the writer itself does from
  // `checkpoint_pages` * kCheckpointLimitFactor on, which bounds the WAL
  // (4 KB pages).
  int checkpoint_pages = 1000;
  // Writes queued inside a CommitHere scope are committed on that thread
  // once this many transactions in a row each held one write (the recorder
  // is quiet); 0: never, every write goes to the writer thread. Only with
  // Durability::kNormal.
  int commit_here_after = 8;
  // Games whose tally the writer keeps as their events are written, so
  // that their end need not read the events back (a few hundred bytes to
  // a few KB each, by the number of different move times). Games created
  // beyond this many at once, and games resumed from the file, have their
  // events read back at their end instead.
  int running_tallies = 1024;
};
inline constexpr int kQuietCheckpointFactor = 3;
inline constexpr int kCheckpointLimitFactor = 4;

// A game's summary row, for listings and statistics.
struct GameSummary {
  std::string game_id;
  std::string label;
  std::string rules;
  std::vector<std::string> bots;      // per seat
  std::vector<std::string> accounts;  // per seat; '' for a seat by token
  GameStatus status = GameStatus::kRunning;
  int winner = -1;          // side; -1 none (or running)
  std::string end_reason;   // GameEndReasonName; empty while running
  std::vector<int> totals;  // per side; empty while running
  int64_t created_us = 0;
  int64_t finished_us = 0;  // 0 while running
};

// A registered bot account (table bot_accounts, schemas/003).
struct BotAccountRow {
  std::string name;
  std::string owner;
  std::string contact{};
  std::string key_hash;    // hex SHA-256 of the bot key; empty when revoked
  int64_t created_us = 0;  // Unix microseconds
  int64_t key_us = 0;      // when the current key was issued
  int64_t revoked_us = 0;  // 0 unless revoked
  friend bool operator==(const BotAccountRow&, const BotAccountRow&) = default;
};

// A tournament (table tournaments, schemas/004).
struct TournamentRow {
  std::string name;
  std::vector<std::string> participants;  // bot account names
  std::string format;                     // "round_robin" or "gauntlet"
  int games_per_pairing = 0;
  bool duplicate = false;
  std::string rules;
  TimeControl clock;
  int max_concurrent = 0;
  int64_t grace_ms = 0;
  std::string seed;                // hex; secret until the tournament is over
  std::string commitment;          // hex SHA-256(seed)
  std::string status = "running";  // "running", "finished" or "cancelled"
  std::string reason;              // why it was cancelled
  int64_t created_us = 0;
  int64_t ended_us = 0;  // 0 while running
  friend bool operator==(const TournamentRow&, const TournamentRow&) = default;
};

// One scheduled game of a tournament (table tournament_games).
struct TournamentGameRow {
  int index = 0;
  std::vector<std::string> seats;  // bot account per seat
  std::string seed;                // hex
  std::string game_id;             // empty while pending
  friend bool operator==(const TournamentGameRow&,
                         const TournamentGameRow&) = default;
};

struct ListFilter {
  std::string game_id;  // exactly this game; empty for any
  std::optional<GameStatus> status;
  std::string label;          // exact; empty for any
  std::string bot;            // a seat's bot name; empty for any
  int64_t from_us = 0;        // created at or after; 0 for any
  int64_t to_us = 0;          // created before; 0 for any
  int limit = 0;              // 0 for no limit
  bool newest_first = false;  // order by creation time, newest first
  // With newest_first and a non-empty `before_game_id`: only the games
  // after (created_us, game_id) = (before_created_us, before_game_id) in
  // that order (keyset pagination: the next page after that game).
  int64_t before_created_us = 0;
  std::string before_game_id{};
};

class Recorder {
 private:
  class Impl;  // recorder_impl.h

 public:
  // Opens (creating if missing) the database at `path`, applies pending
  // migrations and writes the tally (recorder/tally.h) of every ended game
  // that has none: a database from before schema version 2 is upgraded once,
  // about 0.2 ms of CPU per game. ":memory:" is not supported (two
  // connections are needed).
  //
  // With `options.signing_key`, the writer signs the last event of every
  // game it ends (`end` or `abort`, queued unsigned by Append) with it
  // (recorder/signature.h); without one, records are unsigned.
  //
  // Refuses (FailedPrecondition) a database it cannot write (a read-only or
  // immutable file, a read-only file system, a full disk): a probe write is
  // committed before Open returns.
  static absl::StatusOr<std::unique_ptr<Recorder>> Open(const std::string& path,
                                                        Durability durability);
  static absl::StatusOr<std::unique_ptr<Recorder>> Open(
      const std::string& path, const RecorderOptions& options);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Queues a new game: its header and its `create` event (seq 0), hashed
  // from the commitment. The game id must be new.
  void CreateGame(const GameHeader& header, DoneCallback done);
  // Queues one event; the recorder assigns seq (next for that game) and the
  // chain hash. `end` and `abort` also set the game's status and summary
  // columns and write its tally (game_tallies, computed from all its
  // events), in the same transaction, and move the game's event rows into
  // an event pack (event_pack.h): in that transaction too, or, while the
  // recorder is quiet (see CommitHere), in one of the writer thread's own
  // after `done` has run. Events of one game are written in the order they
  // were queued.
  void Append(const std::string& game_id, EventKind kind, int64_t at_us,
              std::string payload, DoneCallback done);

  // An event to append; see Append.
  struct NewEvent {
    EventKind kind;
    int64_t at_us = 0;
    std::string payload;
    // Set only for a payload made by this library's builders
    // (recorder/payload.h), which write nothing but JSON objects: the
    // writer does not parse it again (debug builds still check). Any other
    // payload is checked to be a JSON object before it is written.
    bool built = false;
  };
  // Queues several events of one game as one write: all of them are
  // committed, in order, or none is (a move and what it caused, e.g. the
  // round's result and the next deal, never land apart).
  void Append(const std::string& game_id, std::vector<NewEvent> events,
              DoneCallback done);

  // A scope in which the writes this thread queues through CreateGame and
  // Append may be committed by this thread, when the scope closes, instead
  // of by the writer thread (see "Committing on the caller's thread"
  // above); their `done` callbacks then run in the destructor. Open it
  // where the thread holds no lock that a callback takes (at the top of a
  // gRPC reaction, say). Scopes nest; the innermost one commits.
  class CommitHere {
   public:
    explicit CommitHere(Recorder& recorder);
    ~CommitHere();
    CommitHere(const CommitHere&) = delete;
    CommitHere& operator=(const CommitHere&) = delete;

   private:
    friend class Recorder;
    Impl* const impl_;
    CommitHere* const outer_;  // the scope this one is inside, if any
    bool owed_ = false;        // this thread queued a write to commit here
  };

  // Waits until nothing is queued, no ended game waits for its pack, and
  // no transaction or callback runs (the writer thread, or a CommitHere
  // caller, has handed its commit on). Not from a callback, nor inside a
  // CommitHere scope that has queued a write (the scope commits it as it
  // closes: this would wait for itself).
  void WaitIdle();

  // Synchronous helpers: queue and wait for the commit.
  absl::Status CreateGameSync(const GameHeader& header);
  absl::Status AppendSync(const std::string& game_id, EventKind kind,
                          int64_t at_us, std::string payload);

  // Bot accounts. Queued like the writes above; `done` runs once committed.
  // A new account: AlreadyExists if the name is taken.
  void InsertAccount(const BotAccountRow& account, DoneCallback done);
  // An existing account's owner, contact, key_hash, key_us and revoked_us:
  // NotFound if there is no such account.
  void UpdateAccount(const BotAccountRow& account, DoneCallback done);
  // The token hash of a seat (the lobby's seat tokens): NotFound if there is
  // no such seat.
  void SetSeatToken(const std::string& game_id, int seat,
                    const std::string& token_hash, DoneCallback done);
  // Every account, by name.
  absl::StatusOr<std::vector<BotAccountRow>> Accounts() const;

  // Tournaments. Queued like the writes above; `done` runs once committed.
  // A new tournament and its whole schedule, in one transaction:
  // AlreadyExists if the name is taken.
  void InsertTournament(const TournamentRow& tournament,
                        const std::vector<TournamentGameRow>& games,
                        DoneCallback done);
  // More of an existing tournament's schedule (rows not written yet):
  // InsertTournament may write a long schedule's first rows only and the
  // rest in later writes, so that no one transaction holds up the games'
  // moves. AlreadyExists for a row already written.
  void InsertTournamentGames(const std::string& tournament,
                             const std::vector<TournamentGameRow>& games,
                             DoneCallback done);
  // The game id of a scheduled game (written before the game is created);
  // NotFound if there is no such scheduled game.
  void SetTournamentGame(const std::string& tournament, int index,
                         const std::string& game_id, DoneCallback done);
  // A tournament is over: its status ("finished" or "cancelled"), the
  // reason and when. NotFound if there is no such tournament.
  void EndTournament(const std::string& tournament, const std::string& status,
                     const std::string& reason, int64_t ended_us,
                     DoneCallback done);
  // Every tournament, oldest first.
  absl::StatusOr<std::vector<TournamentRow>> Tournaments() const;
  // A tournament's schedule, by index.
  absl::StatusOr<std::vector<TournamentGameRow>> TournamentGames(
      const std::string& tournament) const;

  // Ladders (recorder_ladders.cc). Queued like the writes above; `done`
  // runs once committed.
  // A new ladder: AlreadyExists if the name is a ladder's or a
  // tournament's, or the label of a game.
  void InsertLadder(const LadderRow& ladder, DoneCallback done);
  // A ladder's status, reason and changed_us: NotFound if no such ladder.
  void SetLadderStatus(const LadderRow& ladder, DoneCallback done);
  // A version joined (nothing happens if it was recorded before).
  void InsertLadderVersion(const LadderVersionRow& version, DoneCallback done);
  // An account's health in a ladder (inserted or replaced).
  void SetLadderBot(const LadderBotRow& bot, DoneCallback done);
  // Games about to be created (a game labelled with a ladder's name must
  // have its row first): AlreadyExists if one is there already.
  void InsertLadderGames(const std::vector<LadderGameRow>& games,
                         DoneCallback done);
  // Forgets a row of a game that will never be created (the second game of
  // a duplicate pair given up); nothing happens if there is none.
  void DropLadderGame(const std::string& ladder, const std::string& game_id,
                      DoneCallback done);
  // Every ladder, oldest first; an account's versions, health and the
  // ladder's game rows (by creation).
  absl::StatusOr<std::vector<LadderRow>> Ladders() const;
  absl::StatusOr<std::vector<LadderVersionRow>> LadderVersions(
      const std::string& ladder) const;
  absl::StatusOr<std::vector<LadderBotRow>> LadderBots(
      const std::string& ladder) const;
  absl::StatusOr<std::vector<LadderGameRow>> LadderGames(
      const std::string& ladder) const;

  // Reads. NotFound for an unknown game.
  absl::StatusOr<GameRecord> Load(const std::string& game_id) const;
  absl::StatusOr<std::vector<GameSummary>> List(const ListFilter& filter) const;
  // The forfeits of the finished games labelled `label`: game id ->
  // forfeits per seat, as the games' tallies count them (recorder/tally.h:
  // a forfeit event with a seat of the game and a reason); read from the
  // tallies, or from the events in a database without them.
  absl::StatusOr<std::map<std::string, std::vector<int>>> ForfeitsByLabel(
      const std::string& label) const;
  // Ids of games whose status is running, oldest first.
  absl::StatusOr<std::vector<std::string>> Unfinished() const;
  // The seat tokens (hashes) of the games that ended (finished or aborted)
  // at or after `since_us`, for a restarted referee to keep honouring them.
  struct SeatTokenRow {
    std::string game_id;
    int seat = 0;
    std::string token_hash;
    int64_t finished_us = 0;
  };
  absl::StatusOr<std::vector<SeatTokenRow>> EndedSeatTokens(
      int64_t since_us) const;

  // Inserts a complete record as it is (hashes included, not recomputed),
  // for `cassino import`, with the tally of an ended game computed from its
  // events. AlreadyExists if the id is taken. A seat's account that the
  // database does not know is added as a revoked account with no key
  // (created, keyed and revoked at the game's creation time), so the seat
  // keeps naming it; an existing account of that name is left as it is.
  absl::Status Import(const GameRecord& record);

  // The public key the writer signs with (64 hex digits); empty without
  // one.
  std::string signing_public_key() const;

  // The storage's health now.
  StorageHealth health() const;
  // `listener` runs on the thread committing (the writer's, or a
  // CommitHere caller's) at each change of health (never
  // for the healthy state at open). It must not block or call the recorder.
  // Set it before the first write.
  void OnHealthChange(std::function<void(const StorageHealth&)> listener);

  // Number of transactions committed and writes they held, those of them
  // committed on a caller's thread (CommitHere), ended games packed, ended
  // games whose tally was computed from their events read back rather
  // than kept as they were written (a game resumed from the file, or one
  // whose transaction was rolled back), and WAL checkpoints run by the
  // checkpoint thread and by the writer itself (for benchmarks and tests).
  struct Stats {
    int64_t transactions = 0;
    int64_t writes = 0;
    int64_t caller_transactions = 0;
    int64_t packed_games = 0;
    int64_t tallies_read_back = 0;
    int64_t background_checkpoints = 0;
    int64_t writer_checkpoints = 0;
  };
  Stats stats() const;

 private:
  explicit Recorder(std::unique_ptr<Impl> impl);
  // Queues a write of CreateGame or Append, for the calling thread's
  // innermost CommitHere scope to commit if it is this recorder's and the
  // recorder is quiet.
  template <typename W>
  void EnqueueHere(W write, DoneCallback done);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_RECORDER_H_
