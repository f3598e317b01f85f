-- Schema version 7: `events` rebuilt with its `kind` check written as
-- comparisons. Same columns, key, rows and meaning as version 1.
--
-- Applied once, inside a transaction, by the recorder when a database's
-- PRAGMA user_version is below 7 (see schemas/README.md). Never edit this
-- file once released.
--
-- Why: SQLite evaluates `kind IN ('create', ...)` in a CHECK by building a
-- temporary index of the eight names for every row it inserts (EXPLAIN
-- shows OpenEphemeral and eight IdxInserts), and a move inserts one row.
-- The same check as eight comparisons costs none of that
-- (docs/performance.md, "The events table's kind check").
--
-- The table holds the rows of the games still running, and of games that
-- ended before version 5 (never packed): the copy is one pass over them,
-- once. The rows are copied unchanged, byte for byte: their payloads and
-- hashes are the record (schemas/README.md).
CREATE TABLE events_v7 (
  game_id TEXT    NOT NULL REFERENCES games (game_id),
  seq     INTEGER NOT NULL CHECK (seq >= 0),
  kind    TEXT    NOT NULL
          CHECK (kind = 'create' OR kind = 'deal' OR kind = 'move' OR
                 kind = 'reject' OR kind = 'round' OR kind = 'forfeit' OR
                 kind = 'end' OR kind = 'abort'),
  at_us   INTEGER NOT NULL,
  payload TEXT    NOT NULL,
  hash    TEXT    NOT NULL,
  PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

INSERT INTO events_v7 (game_id, seq, kind, at_us, payload, hash)
  SELECT game_id, seq, kind, at_us, payload, hash FROM events;
DROP TABLE events;
ALTER TABLE events_v7 RENAME TO events;
