-- Schema version 4: tournaments the referee schedules itself.
--
-- Applied once, inside a transaction, by the recorder when a database's
-- PRAGMA user_version is below 4 (see schemas/README.md). Never edit this
-- file once released. docs/record_format.md describes every column and
-- docs/tournaments.md the scheduling.

-- One row per tournament: its spec (defaults filled in), its seed and the
-- seed's commitment, and where it stands.
CREATE TABLE tournaments (
  name               TEXT    NOT NULL PRIMARY KEY,  -- also every game's games.label
  participants       TEXT    NOT NULL,              -- JSON array of bot account names
  format             TEXT    NOT NULL CHECK (format IN ('round_robin', 'gauntlet')),
  games_per_pairing  INTEGER NOT NULL,              -- even when duplicate
  duplicate          INTEGER NOT NULL,              -- 0 or 1
  rules              TEXT    NOT NULL,              -- RuleSet::ToString()
  per_move_ms        INTEGER NOT NULL,
  bank_ms            INTEGER NOT NULL,
  max_illegal        INTEGER NOT NULL,
  max_concurrent     INTEGER NOT NULL,              -- games running at once
  grace_ms           INTEGER NOT NULL,              -- wait for an absent bot
  seed               TEXT    NOT NULL,              -- hex; secret until the tournament is over
  commitment         TEXT    NOT NULL,              -- hex SHA-256(seed)
  status             TEXT    NOT NULL DEFAULT 'running'
                     CHECK (status IN ('running', 'finished', 'cancelled')),
  reason             TEXT    NOT NULL DEFAULT '',   -- why it was cancelled
  created_us         INTEGER NOT NULL,
  ended_us           INTEGER                        -- finished or cancelled; NULL while running
) WITHOUT ROWID;

-- The schedule: one row per game of a tournament, index 0, 1, 2, ...
-- game_id is written (in an earlier or the same transaction) before the
-- game itself, so it may name a game that does not exist (the referee
-- stopped in between, or the creation failed): such a row is pending.
CREATE TABLE tournament_games (
  tournament TEXT    NOT NULL REFERENCES tournaments (name),
  idx        INTEGER NOT NULL CHECK (idx >= 0),
  seat0      TEXT    NOT NULL,              -- bot account of seat 0
  seat1      TEXT    NOT NULL,              -- bot account of seat 1
  seed       TEXT    NOT NULL,              -- hex; derived from the tournament seed
  game_id    TEXT,                          -- NULL while pending
  PRIMARY KEY (tournament, idx)
) WITHOUT ROWID;
