-- Schema version 5: event packs, one row per ended game holding its whole
-- event chain.
--
-- Applied once, inside a transaction, by the recorder when a database's
-- PRAGMA user_version is below 5 (see schemas/README.md). Never edit this
-- file once released. docs/record_format.md ("Event packs") describes the
-- encoding of `pack` completely; recorder/event_pack.h implements it.
--
-- While a game runs its events are rows of `events`. When it ends, the
-- recorder moves them here in the same transaction as the `end` or `abort`
-- event, unchanged (same kinds, times, payload bytes and hashes), and
-- deletes the rows. A game's events are therefore either all rows or one
-- pack. The SQL only creates the table; the recorder packs the rows of games
-- that ended before it at open (docs/record_format.md).
CREATE TABLE event_packs (
  game_id TEXT    NOT NULL PRIMARY KEY REFERENCES games (game_id),
  events  INTEGER NOT NULL CHECK (events >= 1),  -- events packed: seq 0 .. events - 1
  pack    BLOB    NOT NULL                       -- docs/record_format.md, "Event packs"
);
