"""The schema as numbered migrations; `PRAGMA user_version` records how far a file has come."""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: games with their snapshot, the append-only event log, per-player results.
    """
    CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        channel     TEXT NOT NULL,
        phase       TEXT NOT NULL,
        version     INTEGER NOT NULL,
        snapshot    TEXT NOT NULL,
        created_at  REAL NOT NULL,
        updated_at  REAL NOT NULL,
        finished_at REAL,
        end_reason  TEXT
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel) WHERE phase != 'finished';
    CREATE INDEX games_by_channel ON games(channel, finished_at);
    CREATE TABLE events (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq     INTEGER NOT NULL,
        version INTEGER NOT NULL,
        kind    TEXT NOT NULL,
        data    TEXT NOT NULL,
        at      REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE results (
        game_id     TEXT NOT NULL REFERENCES games(id),
        player_id   TEXT NOT NULL,
        platform    TEXT NOT NULL,
        channel     TEXT NOT NULL,
        name        TEXT NOT NULL,
        seat        INTEGER NOT NULL,
        total       INTEGER NOT NULL,
        boxes       TEXT NOT NULL,
        winner      INTEGER NOT NULL,
        left_table  INTEGER NOT NULL,
        big_general INTEGER NOT NULL,
        end_reason  TEXT NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, player_id)
    ) WITHOUT ROWID;
    CREATE INDEX results_by_channel ON results(channel, finished_at);
    CREATE INDEX results_by_player ON results(platform, player_id, finished_at);
    """,
    # 2: where each front end drew a game's live board (a chat message), to edit it later.
    """
    CREATE TABLE boards (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        ref     TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
    # 3: each player's accuracy from the post-game review; per-chat settings.
    """
    ALTER TABLE results ADD COLUMN accuracy REAL;
    CREATE TABLE chat_settings (
        chat       TEXT PRIMARY KEY,
        data       TEXT NOT NULL,
        updated_at REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX results_by_platform ON results(platform, finished_at);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
