-- Schema version 2: per-game tallies of the events, for `cassino stats`.
--
-- Applied once, inside a transaction, by the recorder when a database's
-- PRAGMA user_version is 1 (see schemas/README.md). Never edit this file
-- once released: add 003_*.sql instead.
--
-- A tally is derived data: a pure function of a finished or aborted game's
-- events (recorder/tally.h), written in the same transaction as its `end`
-- or `abort` event, re-derived by `cassino import`, and never exported. The
-- recorder fills in the tallies of games that ended before this migration
-- (a backfill at open), so a row may be missing only for a running game or
-- until the recorder has opened the database once; readers then fall back
-- to the events. `cassino verify` checks every tally against the events.
-- docs/record_format.md describes every column.
CREATE TABLE game_tallies (
  game_id    TEXT    NOT NULL PRIMARY KEY REFERENCES games (game_id),
  events     INTEGER NOT NULL,  -- events tallied: seq 0 .. the end/abort event
  rounds     INTEGER NOT NULL,  -- readable `round` events
  moves      INTEGER NOT NULL,  -- readable `move` events
  bad_moves  INTEGER NOT NULL,  -- `move` payloads that could not be read
  bad_events INTEGER NOT NULL,  -- unreadable `reject`, `round`, `forfeit` payloads
  points     TEXT    NOT NULL,  -- per side: [cards, spades, big_cassino,
                                --   little_cassino, aces, sweeps, total]
  conduct    TEXT    NOT NULL,  -- per seat: [moves, rejects, forfeits, timeouts]
  move_ms    TEXT    NOT NULL   -- per seat: [ms, count, ms, count, ...], ms ascending
) WITHOUT ROWID;
