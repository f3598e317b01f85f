-- Schema version 6: ladders, competitions the referee runs around the clock
-- among the bots connected to it (docs/ladder.md).
--
-- Applied once, inside a transaction, by the recorder when a database's
-- PRAGMA user_version is below 6 (see schemas/README.md). Never edit this
-- file once released. docs/record_format.md describes every column.
--
-- A ladder's games are ordinary games labelled with its name; their seats
-- name bot accounts and their bot names are ACCOUNT@VERSION. The ratings
-- are not stored: they are recomputed from those games' records
-- (competition/ladder_table.h), by the referee at start and by `cassino
-- stats --ladder`.

-- One row per ladder: what it plays, its matchmaking settings and whether
-- it is open, paused or closed.
CREATE TABLE ladders (
  name         TEXT    NOT NULL PRIMARY KEY,  -- also every game's games.label
  rules        TEXT    NOT NULL,              -- RuleSet::ToString()
  per_move_ms  INTEGER NOT NULL,
  bank_ms      INTEGER NOT NULL,
  max_illegal  INTEGER NOT NULL,
  duplicate    INTEGER NOT NULL,              -- 0 or 1: games come in pairs sharing a deal
  settings     TEXT    NOT NULL,              -- JSON object: matchmaking, rate limits, probation
  status       TEXT    NOT NULL DEFAULT 'open'
               CHECK (status IN ('open', 'paused', 'closed')),
  reason       TEXT    NOT NULL DEFAULT '',   -- why it was paused or closed
  created_us   INTEGER NOT NULL,
  changed_us   INTEGER NOT NULL               -- the last change of status (created_us at first)
) WITHOUT ROWID;

-- Every version an account joined a ladder with: its history. A version
-- is rated from scratch, under the bot name ACCOUNT@VERSION.
CREATE TABLE ladder_versions (
  ladder    TEXT    NOT NULL REFERENCES ladders (name),
  account   TEXT    NOT NULL,
  version   TEXT    NOT NULL,
  first_us  INTEGER NOT NULL,                 -- when it first joined with it
  PRIMARY KEY (ladder, account, version)
) WITHOUT ROWID;

-- Each account's health in a ladder: games in a row ended by its fault,
-- and its probation (docs/ladder.md, *Probation*).
CREATE TABLE ladder_bots (
  ladder        TEXT    NOT NULL REFERENCES ladders (name),
  account       TEXT    NOT NULL,
  faults        INTEGER NOT NULL DEFAULT 0,   -- games in a row ended by its fault
  probations    INTEGER NOT NULL DEFAULT 0,   -- times put on probation so far
  probation_us  INTEGER,                      -- when the current probation began; NULL: none
  until_us      INTEGER,                      -- its earliest end
  reason        TEXT    NOT NULL DEFAULT '',  -- why (the current or last probation)
  PRIMARY KEY (ladder, account)
) WITHOUT ROWID;

-- The ladder's games, each written before the game itself (so it may name
-- a game that does not exist: the referee stopped in between, or the
-- creation failed). With duplicate, the second game of a pair is written
-- with the first, `twin_of` naming the first, and created once the first
-- has ended (dealt from the first's seed, the seats swapped).
CREATE TABLE ladder_games (
  ladder      TEXT    NOT NULL REFERENCES ladders (name),
  game_id     TEXT    NOT NULL,
  created_us  INTEGER NOT NULL,               -- when it was scheduled
  twin_of     TEXT,                           -- the first game of its duplicate pair
  PRIMARY KEY (ladder, game_id)
) WITHOUT ROWID;
