-- Schema version 3: bot accounts, and which account played each seat.
--
-- Applied once, inside a transaction, by the recorder when a database's
-- PRAGMA user_version is below 3 (see schemas/README.md). Never edit this
-- file once released. docs/record_format.md describes every column.

-- One row per registered bot. The key itself is never stored: only its
-- hex SHA-256, replaced on rotation and cleared ('') on revocation.
CREATE TABLE bot_accounts (
  name        TEXT    NOT NULL PRIMARY KEY,  -- unique account name
  owner       TEXT    NOT NULL DEFAULT '',
  contact     TEXT    NOT NULL DEFAULT '',
  key_hash    TEXT    NOT NULL DEFAULT '',   -- hex SHA-256 of the bot key; '' when revoked
  created_us  INTEGER NOT NULL,
  key_us      INTEGER NOT NULL,              -- when the current key was issued
  revoked_us  INTEGER                        -- NULL unless revoked
) WITHOUT ROWID;

-- The bot account that played a seat; NULL for a seat played by a plain
-- per-seat token. For such seats seats.token_hash holds the hash of the
-- seat token the lobby offered last ('' until the first offer).
ALTER TABLE seats ADD COLUMN account TEXT REFERENCES bot_accounts (name);

-- "Games played by account X" (the lobby at start-up, statistics).
CREATE INDEX seats_by_account ON seats (account, game_id) WHERE account IS NOT NULL;
