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
    # 4: a save as one INSERT into a view: the stale check, the snapshot, the events and (at a
    # game's end) the results in one statement, so one transaction and one trip to the
    # database's thread. Events and results come as JSON arrays of objects.
    """
    CREATE VIEW game_saves (
        id, channel, phase, version, previous, snapshot, saved_at, finished_at, end_reason,
        events, results
    ) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;
    CREATE TRIGGER game_saves_apply INSTEAD OF INSERT ON game_saves
    BEGIN
        SELECT RAISE(ABORT, 'stale') WHERE NEW.previous IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM games WHERE id = NEW.id AND version = NEW.previous
        );
        INSERT INTO games (id, channel, phase, version, snapshot, created_at, updated_at,
                           finished_at, end_reason)
            SELECT NEW.id, NEW.channel, NEW.phase, NEW.version, NEW.snapshot, NEW.saved_at,
                   NEW.saved_at, NEW.finished_at, NEW.end_reason
            WHERE NEW.previous IS NULL;
        UPDATE games SET phase = NEW.phase, version = NEW.version, snapshot = NEW.snapshot,
                         updated_at = NEW.saved_at, finished_at = NEW.finished_at,
                         end_reason = NEW.end_reason
            WHERE NEW.previous IS NOT NULL AND id = NEW.id;
        INSERT INTO events (game_id, seq, version, kind, data, at)
            SELECT NEW.id, last.seq + event.key + 1, NEW.version,
                   json_extract(event.value, '$.kind'), event.value, NEW.saved_at
            FROM json_each(NEW.events) AS event,
                 (SELECT COALESCE(MAX(seq), 0) AS seq FROM events WHERE game_id = NEW.id) AS last;
        INSERT INTO results (game_id, player_id, platform, channel, name, seat, total, boxes,
                             winner, left_table, big_general, end_reason, finished_at)
            SELECT NEW.id, json_extract(r.value, '$.player_id'),
                   json_extract(r.value, '$.platform'), NEW.channel,
                   json_extract(r.value, '$.name'), r.key,
                   json_extract(r.value, '$.total'), json_extract(r.value, '$.boxes'),
                   json_extract(r.value, '$.winner'), json_extract(r.value, '$.left_table'),
                   json_extract(r.value, '$.big_general'), NEW.end_reason, NEW.saved_at
            FROM json_each(NEW.results) AS r;
    END;
    """,
    # 5: a game whose snapshot cannot be read is set aside (phase 'quarantined', the phase it had
    # kept beside it) and no longer holds its channel; and a chat's move to a new id (a Telegram
    # group become a supergroup) as one INSERT into chat_moves, so one transaction. The prefixes
    # are "platform:chat:" (games' and results' channels), the keys "platform:chat" (settings).
    # An active game does not move onto a thread of the new chat that has an active game.
    """
    DROP INDEX games_one_active_per_channel;
    CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel)
        WHERE phase NOT IN ('finished', 'quarantined');
    ALTER TABLE games ADD COLUMN quarantined_from TEXT;
    ALTER TABLE games ADD COLUMN quarantine_reason TEXT;
    CREATE VIEW chat_moves (old_prefix, new_prefix, old_key, new_key, old_chat, new_chat)
        AS SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;
    CREATE TRIGGER chat_moves_apply INSTEAD OF INSERT ON chat_moves
    BEGIN
        UPDATE boards SET ref = json_set(ref, '$.chat', CASE
                WHEN json_type(ref, '$.chat') = 'integer'
                     AND CAST(CAST(NEW.new_chat AS INTEGER) AS TEXT) = NEW.new_chat
                THEN CAST(NEW.new_chat AS INTEGER) ELSE NEW.new_chat END)
            WHERE CASE WHEN json_valid(ref)
                       THEN CAST(json_extract(ref, '$.chat') AS TEXT) = NEW.old_chat END
              AND game_id IN (
                SELECT id FROM games AS g
                WHERE substr(g.channel, 1, length(NEW.old_prefix)) = NEW.old_prefix
                  AND NOT (g.phase NOT IN ('finished', 'quarantined') AND EXISTS (
                    SELECT 1 FROM games AS t WHERE t.phase NOT IN ('finished', 'quarantined')
                      AND t.channel
                          = NEW.new_prefix || substr(g.channel, length(NEW.old_prefix) + 1)
                  ))
              );
        UPDATE games SET
                channel = NEW.new_prefix || substr(channel, length(NEW.old_prefix) + 1),
                snapshot = CASE WHEN json_valid(snapshot) THEN CASE
                    WHEN json_type(snapshot, '$.channel') = 'object'
                    THEN json_set(snapshot, '$.channel.chat', NEW.new_chat) ELSE snapshot END
                    ELSE snapshot END
            WHERE substr(channel, 1, length(NEW.old_prefix)) = NEW.old_prefix
              AND NOT (phase NOT IN ('finished', 'quarantined') AND EXISTS (
                SELECT 1 FROM games AS t WHERE t.phase NOT IN ('finished', 'quarantined')
                  AND t.channel
                      = NEW.new_prefix || substr(games.channel, length(NEW.old_prefix) + 1)
              ));
        UPDATE results SET channel = NEW.new_prefix || substr(channel, length(NEW.old_prefix) + 1)
            WHERE substr(channel, 1, length(NEW.old_prefix)) = NEW.old_prefix;
        UPDATE chat_settings SET chat = NEW.new_key WHERE chat = NEW.old_key
            AND NOT EXISTS (SELECT 1 FROM chat_settings WHERE chat = NEW.new_key);
    END;
    """,
    # 6: skill ratings (see core.ratings) per scope: a channel, or '' for a platform's every
    # chat. Every recorded game waits in `unrated` (queued in the order it is to be rated: its
    # end) until its changes are written, each game as one INSERT into rating_saves. `seq` is
    # the order games were rated in, which a rebuild replays. A chat's move takes its ratings.
    """
    CREATE TABLE ratings (
        platform   TEXT NOT NULL,
        scope      TEXT NOT NULL,
        player_id  TEXT NOT NULL,
        mu         REAL NOT NULL,
        sigma      REAL NOT NULL,
        games      INTEGER NOT NULL,
        best       INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (platform, scope, player_id)
    ) WITHOUT ROWID;
    CREATE TABLE rated_games (
        game_id TEXT PRIMARY KEY,
        seq     INTEGER NOT NULL UNIQUE
    ) WITHOUT ROWID;
    CREATE TABLE rating_changes (
        game_id      TEXT NOT NULL,
        platform     TEXT NOT NULL,
        scope        TEXT NOT NULL,
        player_id    TEXT NOT NULL,
        seq          INTEGER NOT NULL,
        mu_before    REAL,
        sigma_before REAL,
        mu           REAL NOT NULL,
        sigma        REAL NOT NULL,
        games        INTEGER NOT NULL,
        PRIMARY KEY (game_id, scope, player_id)
    ) WITHOUT ROWID;
    CREATE INDEX rating_changes_by_player ON rating_changes(platform, scope, player_id, seq);
    CREATE TABLE unrated (
        game_id TEXT PRIMARY KEY,
        queued  REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX unrated_in_order ON unrated(queued, game_id);
    INSERT INTO unrated (game_id, queued) SELECT game_id, MAX(finished_at) FROM results
        GROUP BY game_id;
    CREATE TRIGGER results_unrated AFTER INSERT ON results
    BEGIN
        INSERT OR IGNORE INTO unrated (game_id, queued) VALUES (NEW.game_id, NEW.finished_at);
    END;
    CREATE VIEW rating_saves (game_id, changes, saved_at)
        AS SELECT NULL, NULL, NULL WHERE 0;
    CREATE TRIGGER rating_saves_apply INSTEAD OF INSERT ON rating_saves
    BEGIN
        SELECT RAISE(ABORT, 'rated') WHERE NOT EXISTS (
            SELECT 1 FROM unrated WHERE game_id = NEW.game_id
        );
        INSERT INTO rated_games (game_id, seq)
            SELECT NEW.game_id, COALESCE(MAX(seq), 0) + 1 FROM rated_games;
        INSERT INTO rating_changes (game_id, platform, scope, player_id, seq, mu_before,
                                    sigma_before, mu, sigma, games)
            SELECT NEW.game_id, json_extract(c.value, '$.platform'),
                   json_extract(c.value, '$.scope'), json_extract(c.value, '$.player_id'),
                   (SELECT seq FROM rated_games WHERE game_id = NEW.game_id),
                   json_extract(c.value, '$.mu_before'), json_extract(c.value, '$.sigma_before'),
                   json_extract(c.value, '$.mu'), json_extract(c.value, '$.sigma'),
                   json_extract(c.value, '$.games')
            FROM json_each(NEW.changes) AS c;
        INSERT INTO ratings (platform, scope, player_id, mu, sigma, games, best, updated_at)
            SELECT json_extract(c.value, '$.platform'), json_extract(c.value, '$.scope'),
                   json_extract(c.value, '$.player_id'), json_extract(c.value, '$.mu'),
                   json_extract(c.value, '$.sigma'), json_extract(c.value, '$.games'),
                   json_extract(c.value, '$.best'), NEW.saved_at
            FROM json_each(NEW.changes) AS c WHERE true
            ON CONFLICT (platform, scope, player_id) DO UPDATE SET mu = excluded.mu,
                sigma = excluded.sigma, games = excluded.games, best = excluded.best,
                updated_at = excluded.updated_at;
        DELETE FROM unrated WHERE game_id = NEW.game_id;
    END;
    CREATE TRIGGER chat_moves_ratings INSTEAD OF INSERT ON chat_moves
    BEGIN
        UPDATE OR IGNORE ratings
            SET scope = NEW.new_prefix || substr(scope, length(NEW.old_prefix) + 1)
            WHERE substr(scope, 1, length(NEW.old_prefix)) = NEW.old_prefix;
        UPDATE OR IGNORE rating_changes
            SET scope = NEW.new_prefix || substr(scope, length(NEW.old_prefix) + 1)
            WHERE substr(scope, 1, length(NEW.old_prefix)) = NEW.old_prefix;
    END;
    """,
    # 7: forgetting a person (see core.forget) as one INSERT into forgets, so one transaction:
    # the games that name them rewritten (`games`: id, the version it was read at, the new
    # version and snapshot; an active one's version moves on, so that a save made from what it
    # was is stale), their events rewritten (`events`: game_id, seq, data), their results,
    # ratings and rating changes moved to the anonymous id, and a chat whose id is theirs (a
    # private chat) moved to the anonymous id too, through chat_moves.
    """
    CREATE VIEW forgets (platform, player_id, alias, name, own_prefix, alias_prefix, games,
                         events)
        AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;
    CREATE TRIGGER forgets_apply INSTEAD OF INSERT ON forgets
    BEGIN
        SELECT RAISE(ABORT, 'stale') WHERE EXISTS (
            SELECT 1 FROM json_each(NEW.games) AS g
            JOIN games ON games.id = json_extract(g.value, '$.id')
            WHERE games.version != json_extract(g.value, '$.was')
        );
        UPDATE games SET snapshot = src.snapshot, version = src.version
            FROM (SELECT json_extract(value, '$.id') AS id,
                         json_extract(value, '$.version') AS version,
                         json_extract(value, '$.snapshot') AS snapshot
                  FROM json_each(NEW.games)) AS src
            WHERE games.id = src.id;
        UPDATE events SET data = src.data
            FROM (SELECT json_extract(value, '$.game_id') AS game_id,
                         json_extract(value, '$.seq') AS seq,
                         json_extract(value, '$.data') AS data
                  FROM json_each(NEW.events)) AS src
            WHERE events.game_id = src.game_id AND events.seq = src.seq;
        UPDATE results SET player_id = NEW.alias, name = NEW.name
            WHERE platform = NEW.platform AND player_id = NEW.player_id;
        UPDATE ratings SET player_id = NEW.alias
            WHERE platform = NEW.platform AND player_id = NEW.player_id;
        UPDATE rating_changes SET player_id = NEW.alias
            WHERE platform = NEW.platform AND player_id = NEW.player_id;
        INSERT INTO chat_moves (old_prefix, new_prefix, old_key, new_key, old_chat, new_chat)
            SELECT NEW.own_prefix, NEW.alias_prefix, substr(NEW.own_prefix, 1,
                   length(NEW.own_prefix) - 1), substr(NEW.alias_prefix, 1,
                   length(NEW.alias_prefix) - 1), NEW.player_id, NEW.alias
            WHERE NEW.own_prefix IS NOT NULL;
    END;
    """,
    # 8: an ended game's board reference says its final message is out ('final', see
    #    adapters/chat/boards.py); the games that ended before this version had theirs.
    """
    UPDATE boards SET ref = 'final'
        WHERE game_id IN (SELECT id FROM games WHERE phase = 'finished');
    """,
    # 9: each person's dice and decisions from the post-game review, in expected points
    #    (core.luck), beside their accuracy; the games reviewed before this version have none.
    """
    ALTER TABLE results ADD COLUMN luck_dice REAL;
    ALTER TABLE results ADD COLUMN luck_decisions REAL;
    """,
    # 10: who hears privately of a table opening in a chat (`/general notify`; the chat's key is
    #     "platform:chat", as the settings'); a chat's move takes them along (one who asked in
    #     both chats keeps the new chat's), and a person forgotten is no longer told.
    """
    CREATE TABLE subscriptions (
        chat      TEXT NOT NULL,
        player_id TEXT NOT NULL,
        locale    TEXT NOT NULL,
        since     REAL NOT NULL,
        PRIMARY KEY (chat, player_id)
    ) WITHOUT ROWID;
    CREATE TRIGGER chat_moves_subscriptions INSTEAD OF INSERT ON chat_moves
    BEGIN
        UPDATE OR IGNORE subscriptions SET chat = NEW.new_key WHERE chat = NEW.old_key;
        DELETE FROM subscriptions WHERE chat = NEW.old_key;
    END;
    CREATE TRIGGER forgets_subscriptions INSTEAD OF INSERT ON forgets
    BEGIN
        DELETE FROM subscriptions WHERE player_id = NEW.player_id
            AND substr(chat, 1, length(NEW.platform) + 1) = NEW.platform || ':';
    END;
    """,
    # 11: a season's end told once per table (core.seasons): the first process to claim it says
    #     it; a chat's move takes its claims along.
    """
    CREATE TABLE season_ends (
        channel    TEXT NOT NULL,
        season     TEXT NOT NULL,
        claimed_at REAL NOT NULL,
        PRIMARY KEY (channel, season)
    ) WITHOUT ROWID;
    CREATE TRIGGER chat_moves_season_ends INSTEAD OF INSERT ON chat_moves
    BEGIN
        UPDATE OR IGNORE season_ends
            SET channel = NEW.new_prefix || substr(channel, length(NEW.old_prefix) + 1)
            WHERE substr(channel, 1, length(NEW.old_prefix)) = NEW.old_prefix;
    END;
    """,
    # 12: the chats' tournaments (core.tournament), each saved whole (`data`, JSON the storage
    #     reads nothing of) with a version check; `opened` orders a chat's events. A chat's move
    #     takes them along, and a "chat" in their data that names the old chat names the new.
    """
    CREATE TABLE tournaments (
        id       TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        chat     TEXT NOT NULL,
        version  INTEGER NOT NULL,
        finished INTEGER NOT NULL,
        opened   REAL NOT NULL,
        data     TEXT NOT NULL
    );
    CREATE INDEX tournaments_by_chat ON tournaments(platform, chat, finished);
    CREATE TRIGGER chat_moves_tournaments INSTEAD OF INSERT ON chat_moves
    BEGIN
        UPDATE tournaments SET chat = NEW.new_chat,
                data = CASE WHEN json_valid(data) THEN CASE
                    WHEN json_type(data, '$.chat') = 'text'
                         AND json_extract(data, '$.chat') = NEW.old_chat
                    THEN json_set(data, '$.chat', NEW.new_chat) ELSE data END
                    ELSE data END
            WHERE platform = substr(NEW.old_key, 1, length(NEW.old_key) - length(NEW.old_chat) - 1)
              AND chat = NEW.old_chat;
    END;
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
