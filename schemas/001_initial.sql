-- Schema version 1: games, their seats and their event chains.
--
-- Applied once, inside a transaction, by the recorder when a database's
-- PRAGMA user_version is below 1 (see schemas/README.md). Never edit this
-- file once released: add 002_*.sql instead.
--
-- Times are Unix microseconds (INTEGER). Hashes and seeds are lower-case hex
-- TEXT. docs/record_format.md describes every column and payload.

-- One row per game: the header (fixed when the game is created) and a
-- summary (filled in by the `end` or `abort` event; NULL while running).
CREATE TABLE games (
  game_id        TEXT    NOT NULL PRIMARY KEY,
  label          TEXT    NOT NULL DEFAULT '',  -- match/tournament label
  rules          TEXT    NOT NULL,             -- RuleSet::ToString()
  commitment     TEXT    NOT NULL DEFAULT '',  -- hex SHA-256(seed); '' with explicit decks
  seed           TEXT    NOT NULL DEFAULT '',  -- hex seed; secret until the game ends
  explicit_decks TEXT    NOT NULL DEFAULT '',  -- one deck per line ("6D 8C ..."); '' with a seed
  per_move_ms    INTEGER NOT NULL,             -- free time per move
  bank_ms        INTEGER NOT NULL,             -- overage bank per seat
  max_illegal    INTEGER NOT NULL,             -- rejected submissions before a forfeit
  created_us     INTEGER NOT NULL,
  status         TEXT    NOT NULL DEFAULT 'running'
                 CHECK (status IN ('running', 'finished', 'aborted')),
  winner         INTEGER,                      -- winning side; -1 none; NULL while running
  end_reason     TEXT,                         -- GameEndReasonName; NULL while running
  totals         TEXT,                         -- JSON array of totals per side; NULL while running
  finished_us    INTEGER                       -- at_us of the end/abort event; NULL while running
);

-- Listings: by status (Unfinished() at start-up), by label, by time.
CREATE INDEX games_by_status ON games (status, created_us);
CREATE INDEX games_by_label ON games (label, created_us);
CREATE INDEX games_by_created ON games (created_us);

-- One row per seat of a game, seat 0..players-1.
CREATE TABLE seats (
  game_id    TEXT    NOT NULL REFERENCES games (game_id),
  seat       INTEGER NOT NULL,
  bot_name   TEXT    NOT NULL,
  token_hash TEXT    NOT NULL DEFAULT '',  -- hex SHA-256 of the seat's token; never exported
  PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- "Games played by bot X".
CREATE INDEX seats_by_bot ON seats (bot_name, game_id);

-- The event chain of each game, seq 0, 1, 2, ... with no gaps; seq 0 is
-- always `create`. `payload` is the JSON text exactly as hashed; `hash` is
-- hex SHA-256(previous hash || kind || 0x00 || payload), where the previous
-- hash of seq 0 is the commitment (32 zero bytes with explicit decks).
-- Clustered by (game_id, seq) so that loading a game is one range scan.
CREATE TABLE events (
  game_id TEXT    NOT NULL REFERENCES games (game_id),
  seq     INTEGER NOT NULL CHECK (seq >= 0),
  kind    TEXT    NOT NULL
          CHECK (kind IN ('create', 'deal', 'move', 'reject', 'round',
                          'forfeit', 'end', 'abort')),
  at_us   INTEGER NOT NULL,
  payload TEXT    NOT NULL,
  hash    TEXT    NOT NULL,
  PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
