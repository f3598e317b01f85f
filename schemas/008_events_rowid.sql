-- Schema version 8: `events` becomes an ordinary (rowid) table, with its key
-- (game_id, seq) kept by a unique index, events_by_game. Same columns, rows
-- and meaning as version 7; a game's events are read as before.
--
-- Applied once, inside a transaction, by the recorder when a database's
-- PRAGMA user_version is below 8 (see schemas/README.md). Never edit this
-- file once released.
--
-- Why: version 1 made `events` a WITHOUT ROWID table, which stores whole
-- rows in its b-tree, interior pages included. A `create` row (the game's
-- header, about a kilobyte) is longer than such a page keeps in place, so
-- each game spilled a few hundred bytes onto an overflow page of its own,
-- and interior pages held only a handful of rows: 20,000 open games took
-- 126 MB instead of 53, and a restart read each page about eight times
-- (docs/performance.md, "The events table as a rowid table"). A rowid
-- table keeps rows whole in its leaves and only keys in the index.
--
-- The rows are copied unchanged, byte for byte (their payloads and hashes
-- are the record, schemas/README.md), in (game_id, seq) order, so that the
-- rows of games that ended before version 5 (never packed) are read in
-- the table's order.
CREATE TABLE events_v8 (
  game_id TEXT    NOT NULL REFERENCES games (game_id),
  seq     INTEGER NOT NULL CHECK (seq >= 0),
  kind    TEXT    NOT NULL
          CHECK (kind = 'create' OR kind = 'deal' OR kind = 'move' OR
                 kind = 'reject' OR kind = 'round' OR kind = 'forfeit' OR
                 kind = 'end' OR kind = 'abort'),
  at_us   INTEGER NOT NULL,
  payload TEXT    NOT NULL,
  hash    TEXT    NOT NULL
);

INSERT INTO events_v8 (game_id, seq, kind, at_us, payload, hash)
  SELECT game_id, seq, kind, at_us, payload, hash FROM events
  ORDER BY game_id, seq;
DROP TABLE events;
ALTER TABLE events_v8 RENAME TO events;
CREATE UNIQUE INDEX events_by_game ON events (game_id, seq);
