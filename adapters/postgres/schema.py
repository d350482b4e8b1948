"""The PostgreSQL schema as numbered migrations, recorded in the table `general_migrations`.

The same ideas as the SQLite schema: each game's latest snapshot (jsonb) beside its append-only
event log, and one results row per player of a completed game. Times are timestamptz; the
repository speaks Unix seconds (floats) to its callers, as SQLite does.

Each migration runs in one transaction with its row in `general_migrations`, under an advisory
lock, so that several processes starting at once apply each step exactly once. Tables are created
unqualified: they go to the first schema of the connection's `search_path`.
"""

from __future__ import annotations

# The table that records how far a database has come; created before the first migration.
MIGRATIONS_TABLE = """
CREATE TABLE general_migrations (
    version    integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
)
"""

MIGRATIONS: tuple[str, ...] = (
    # 1: games with their snapshot, the append-only event log, per-player results (with the
    #    post-game review's accuracy), the front ends' board messages, per-chat settings.
    """
    CREATE TABLE games (
        id          text PRIMARY KEY,
        channel     text NOT NULL,
        phase       text NOT NULL,
        version     integer NOT NULL,
        snapshot    jsonb NOT NULL,
        created_at  timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        finished_at timestamptz,
        end_reason  text
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel)
        WHERE phase <> 'finished';
    CREATE INDEX games_by_channel ON games (channel, finished_at);
    CREATE TABLE events (
        game_id text NOT NULL REFERENCES games (id),
        seq     integer NOT NULL,
        version integer NOT NULL,
        kind    text NOT NULL,
        data    jsonb NOT NULL,
        at      timestamptz NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE results (
        game_id     text NOT NULL REFERENCES games (id),
        player_id   text NOT NULL,
        platform    text NOT NULL,
        channel     text NOT NULL,
        name        text NOT NULL,
        seat        integer NOT NULL,
        total       integer NOT NULL,
        boxes       integer[] NOT NULL,
        winner      boolean NOT NULL,
        left_table  boolean NOT NULL,
        big_general boolean NOT NULL,
        end_reason  text NOT NULL,
        finished_at timestamptz NOT NULL,
        accuracy    double precision,
        PRIMARY KEY (game_id, player_id)
    );
    CREATE INDEX results_by_channel ON results (channel, finished_at);
    CREATE INDEX results_by_player ON results (platform, player_id, finished_at);
    CREATE INDEX results_by_platform ON results (platform, finished_at);
    CREATE TABLE boards (
        game_id text PRIMARY KEY REFERENCES games (id),
        ref     text NOT NULL
    );
    CREATE TABLE chat_settings (
        chat       text PRIMARY KEY,
        data       jsonb NOT NULL,
        updated_at timestamptz NOT NULL
    );
    """,
    # 2: turn-timer leases: the one process that may fire a game's deadline, until expires_at.
    """
    CREATE TABLE deadline_leases (
        game_id    text PRIMARY KEY,
        owner      text NOT NULL,
        expires_at timestamptz NOT NULL
    );
    """,
    # 3: a game whose snapshot cannot be read is set aside (phase 'quarantined', the phase it had
    #    kept beside it, and why) and no longer holds its channel.
    """
    DROP INDEX games_one_active_per_channel;
    CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel)
        WHERE phase NOT IN ('finished', 'quarantined');
    ALTER TABLE games ADD COLUMN quarantined_from text, ADD COLUMN quarantine_reason text;
    """,
    # 4: skill ratings (see core.ratings) per scope: a channel, or '' for a platform's every
    #    chat. Every recorded game waits in `unrated` (queued in the order it is to be rated:
    #    its end) until it is rated; `seq` is the order games were rated in, which a rebuild
    #    replays.
    """
    CREATE TABLE ratings (
        platform   text NOT NULL,
        scope      text NOT NULL,
        player_id  text NOT NULL,
        mu         double precision NOT NULL,
        sigma      double precision NOT NULL,
        games      integer NOT NULL,
        best       integer NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (platform, scope, player_id)
    );
    CREATE TABLE rated_games (
        game_id text PRIMARY KEY,
        seq     integer NOT NULL UNIQUE
    );
    CREATE TABLE rating_changes (
        game_id      text NOT NULL,
        platform     text NOT NULL,
        scope        text NOT NULL,
        player_id    text NOT NULL,
        seq          integer NOT NULL,
        mu_before    double precision,
        sigma_before double precision,
        mu           double precision NOT NULL,
        sigma        double precision NOT NULL,
        games        integer NOT NULL,
        PRIMARY KEY (game_id, scope, player_id)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes (platform, scope, player_id, seq);
    CREATE TABLE unrated (
        game_id text PRIMARY KEY,
        queued  double precision NOT NULL
    );
    CREATE INDEX unrated_in_order ON unrated (queued, game_id);
    INSERT INTO unrated (game_id, queued)
        SELECT game_id, extract(epoch FROM MAX(finished_at)) FROM results GROUP BY game_id;
    """,
    # 5: an ended game's board reference says its final message is out ('final', see
    #    adapters/chat/boards.py); the games that ended before this version had theirs.
    """
    UPDATE boards SET ref = 'final'
        WHERE game_id IN (SELECT id FROM games WHERE phase = 'finished');
    """,
    # 6: each person's dice and decisions from the post-game review, in expected points
    #    (core.luck), beside their accuracy; the games reviewed before this version have none.
    """
    ALTER TABLE results ADD COLUMN luck_dice double precision,
        ADD COLUMN luck_decisions double precision;
    """,
    # 7: who hears privately of a table opening in a chat (`/general notify`; the chat's key is
    #    "platform:chat", as the settings'); moves and forgetting see to them (moves.py,
    #    forget.py).
    """
    CREATE TABLE subscriptions (
        chat      text NOT NULL,
        player_id text NOT NULL,
        locale    text NOT NULL,
        since     timestamptz NOT NULL,
        PRIMARY KEY (chat, player_id)
    );
    """,
    # 8: a season's end told once per table (core.seasons): the first process to claim it says
    #    it; a chat's move takes its claims along (moves.py).
    """
    CREATE TABLE season_ends (
        channel    text NOT NULL,
        season     text NOT NULL,
        claimed_at timestamptz NOT NULL,
        PRIMARY KEY (channel, season)
    );
    """,
    # 9: the chats' tournaments (core.tournament), each saved whole with a version check;
    #    `opened` orders a chat's events, and a chat's move takes them along (moves.py). `data`
    #    is json, not jsonb: kept as written, so it reads back exactly (jsonb would turn a
    #    float such as 1e20 into an integer, and reorder the keys).
    """
    CREATE TABLE tournaments (
        id       text PRIMARY KEY,
        platform text NOT NULL,
        chat     text NOT NULL,
        version  integer NOT NULL,
        finished boolean NOT NULL,
        opened   timestamptz NOT NULL,
        data     json NOT NULL
    );
    CREATE INDEX tournaments_by_chat ON tournaments (platform, chat, finished);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
