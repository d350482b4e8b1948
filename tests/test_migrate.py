"""`python -m bot migrate --to postgresql://…` against the real PostgreSQL server: a SQLite
database with finished, running and quarantined games on Telegram and Discord (the running ones
left mid-turn by the real bot on the fakes) is copied; the bot started on PostgreSQL takes the
running games up from their old buttons. The refusals: a target that is not empty, a URL that
is no PostgreSQL one or cannot be reached, a running bot; a copy PostgreSQL refuses halfway
writes nothing. No password is ever printed."""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from adapters.postgres import PostgresRepository
from adapters.sqlite import SqliteRepository
from bot.migrate import TABLES, TARGET_ONLY
from core.chat_settings import ChatSettings
from core.dice import ScriptedRoller
from core.identity import ChannelKey
from core.ports import EventRecord
from core.service import GameService
from tests.conftest import POSTGRES, needs_postgres
from tests.discord.kit import TOKEN
from tests.discord.test_resilience import board_or_end, current_member, remote_press, remote_slash
from tests.fakes.discord import UPDATE_MESSAGE, FakeDiscord
from tests.fakes.telegram import FakeTelegram
from tests.process import Bot, on_discord, on_telegram, tool
from tests.storage.test_ratings import STRAIGHT, play
from tests.telegram.kit import live_board, press

pytestmark = needs_postgres
PASSWORD = (
    "s3cret-Pw"  # the server trusts the test user: any password is accepted, and shown nowhere
)
STRONG = [6, 6, 6, 5, 5]


@pytest.fixture
async def target() -> AsyncIterator[str]:
    """A URL (with a password) whose tables go to a fresh schema of the test database."""
    assert POSTGRES is not None
    schema = f"m_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(POSTGRES)
    await admin.execute(f"CREATE SCHEMA {schema}")
    base = POSTGRES.replace("postgresql://postgres@", f"postgresql://postgres:{PASSWORD}@", 1)
    assert PASSWORD in base, "GENERAL_TEST_POSTGRES_URL is expected as postgresql://postgres@…"
    try:
        yield f"{base}{'&' if '?' in base else '?'}search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def counts(url: str) -> dict[str, int]:
    connection = await asyncpg.connect(url)
    try:
        names = [t.name for t in TABLES]
        return {n: await connection.fetchval(f"SELECT count(*) FROM {n}") for n in names}
    finally:
        await connection.close()


def sqlite_counts(database: Path) -> dict[str, int]:
    with sqlite3.connect(database) as db:
        return {t.name: db.execute(f"SELECT count(*) FROM {t.name}").fetchone()[0] for t in TABLES}


async def recorded_games(database: Path, telegram: str, discord: str) -> None:
    """Finished games on both platforms (rated), a chat's settings, a tournament that is over,
    and a quarantined game."""
    repository = await SqliteRepository.open(database)
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await play(service, roller, ChannelKey("tg", telegram), [STRONG, STRAIGHT])
    await play(service, roller, ChannelKey("tg", telegram), [STRAIGHT, STRONG, STRAIGHT])
    await play(service, roller, ChannelKey("dc", discord), [STRONG, STRAIGHT])
    await repository.save_chat_settings("tg", telegram, ChatSettings(hints=False))
    await repository.subscribe("tg", telegram, "77", "ru")
    cup = {"name": "Кубок 🎲", "scores": [1.5, -0.0, 1e20], "big": 2**70, "none": None}
    await repository.save_tournament(EventRecord("cup1", "tg", telegram, 4, True, cup), None)
    await repository.close()
    with sqlite3.connect(database) as db:  # as the bot sets aside a game it cannot read
        db.execute(
            "INSERT INTO games (id, channel, phase, version, snapshot, created_at, updated_at,"
            " quarantined_from, quarantine_reason) VALUES ('brokenaa', 'tg:-5:', 'quarantined',"
            " 3, '{\"id\": \"brokenaa\", trunc', 1700000000.25, 1700000001.5, 'playing',"
            " 'JSONDecodeError: cut short')"
        )


@pytest.mark.slow
async def test_everything_moves_to_postgresql_and_the_running_games_go_on(
    tmp_path: Path, target: str
) -> None:
    database, log = tmp_path / "general.db", tmp_path / "bot.log"
    async with FakeTelegram() as tg, FakeDiscord(token=TOKEN) as dc:
        group = tg.chat(-100960, title="Moving")
        alice, bob = tg.user(1001, "Alice"), tg.user(1002, "Bob")
        guild = dc.guild("Dice club")
        channel = dc.text_channel(guild, "general")
        ann, ben = dc.member(guild, "Ann"), dc.member(guild, "Ben")
        await recorded_games(database, str(group.id), channel.id)
        fakes = {**on_telegram(tg), **on_discord(dc)}
        bot = await Bot.start({**fakes, "GENERAL_DATABASE": str(database)}, log)
        try:  # a game left mid-turn on each platform: thrown, its box not yet chosen
            await tg.send_message(alice, group, "/general start")
            await tg.settle()
            await press(tg, bob, live_board(tg, group), "Join")
            await press(tg, alice, live_board(tg, group), "Start")
            tg_board = live_board(tg, group)
            starter = alice if f"id={alice.id}" in tg_board.text else bob
            await press(tg, starter, tg_board, "Roll")
            await tg.wait_for(lambda: "throw 1/3" in tg.message(group, tg_board.message_id).text)
            tg_board = tg.message(group, tg_board.message_id)
            lobby = (await remote_slash(dc, ann, channel, "start")).original
            assert lobby is not None
            await remote_press(dc, ben, lobby, "j")
            await remote_press(dc, ann, lobby, "b")
            dc_board = await dc.wait_for(lambda: board_or_end(dc, channel))
            player = current_member(dc_board.content, [ann, ben])
            await remote_press(dc, player, dc_board, "r")
            assert "throw 1/3" in dc_board.content
            await bot.stop()
        finally:
            bot.kill()
        bot.clean()
        before = sqlite_counts(database)
        assert before["games"] == 6 and before["ratings"] > 0 and before["boards"] >= 2
        assert before["tournaments"] == 1

        code, out, err = await tool(database, "migrate", "--to", target)
        assert (code, err) == (0, ""), err
        assert out.count("\n") == 1 and PASSWORD not in out and ":[redacted]@" in out, out
        assert "6 games" in out and "(2 games not finished, 1 quarantined)" in out, out
        assert "every count equal, 6 games checked row by row" in out, out
        assert "1 unreadable snapshots kept as JSON strings" in out, out
        assert await counts(target) == before
        await same_games(database, target)

        on_postgres = {
            "GENERAL_DATABASE": str(tmp_path / "unused.db"),
            "GENERAL_DATABASE_URL": target,
        }
        bot = await Bot.start({**fakes, **on_postgres}, log)
        try:  # the old boards' buttons, pressed in the new process on PostgreSQL
            box = next(b.text for b in tg_board.buttons if "·" in b.text)
            assert (await press(tg, starter, tg_board, box)).startswith("✍️ ")
            await tg.wait_for(lambda: tg.message(group, tg_board.message_id).reply_markup == [])
            other = bob if starter is alice else alice
            assert f"{other.first_name}'s turn" in live_board(tg, group).plain_text
            first_box = next(b for b in dc_board.buttons if " · " in (b.label or ""))
            scored = await remote_press(dc, player, dc_board, custom_id=first_box.custom_id)
            assert scored.response is not None and scored.response.type == UPDATE_MESSAGE
            following = await dc.wait_for(lambda: board_or_end(dc, channel))
            assert following is not dc_board and dc_board.buttons == []
            # The migrated results count: Ann of the service's games leads the wins board.
            await tg.send_message(alice, group, "/general leaderboard wins")
            await tg.settle()
            assert "1. Ann — 1 · 2 · 50%" in tg.bot_messages(group)[-1].plain_text
            await bot.stop()
        finally:
            bot.kill()
        bot.clean()
    assert PASSWORD not in log.read_text()
    assert not (tmp_path / "unused.db").exists()
    after = await counts(target)
    assert after["events"] > before["events"] and after["games"] == before["games"]


async def same_games(database: Path, url: str) -> None:
    """The test's own look at what arrived: every game's snapshot and events, every result."""
    with sqlite3.connect(database) as db:
        games = {r[0]: r[1:] for r in db.execute("SELECT id, phase, snapshot FROM games")}
        events = db.execute("SELECT game_id, seq, data FROM events ORDER BY game_id, seq")
        old_events = [(g, s, json.loads(d)) for g, s, d in events]
        old_results = db.execute(
            "SELECT game_id, player_id, name, total, boxes, winner, finished_at, accuracy"
            " FROM results ORDER BY game_id, player_id"
        ).fetchall()
        old_tournaments = db.execute(
            "SELECT id, platform, chat, version, finished, opened, data FROM tournaments"
            " ORDER BY id"
        ).fetchall()
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch("SELECT id, phase, snapshot FROM games")
        new_events = await connection.fetch("SELECT game_id, seq, data FROM events")
        new_results = await connection.fetch(
            "SELECT game_id, player_id, name, total, boxes, winner,"
            " extract(epoch FROM finished_at)::float8, accuracy FROM results"
        )
        new_tournaments = await connection.fetch(
            "SELECT id, platform, chat, version, finished, extract(epoch FROM opened)::float8,"
            " data FROM tournaments ORDER BY id"
        )
    finally:
        await connection.close()
    for game_id, phase, snapshot in rows:
        old_phase, old_snapshot = games[game_id]
        assert phase == old_phase
        if phase == "quarantined":
            assert json.loads(snapshot) == old_snapshot  # the damaged text, kept as it was
        else:
            assert json.loads(snapshot) == json.loads(old_snapshot)
    assert sorted((g, s, json.loads(d)) for g, s, d in new_events) == old_events
    assert len(new_tournaments) == len(old_tournaments)
    for old_row, new_row in zip(old_tournaments, new_tournaments, strict=True):
        assert old_row[:4] == tuple(new_row[:4]) and bool(old_row[4]) is new_row[4]
        assert abs(old_row[5] - new_row[5]) < 1e-6 and old_row[6] == new_row[6]  # as written
    new: list[tuple[Any, ...]] = sorted(tuple(r) for r in new_results)
    assert len(new) == len(old_results)
    for old_row, new_row in zip(old_results, new, strict=True):
        assert old_row[:4] == new_row[:4] and json.loads(old_row[4]) == list(new_row[4])
        assert bool(old_row[5]) is new_row[5] and abs(old_row[6] - new_row[6]) < 1e-6
        assert old_row[7] == new_row[7]


@pytest.mark.slow
async def test_refusals_are_one_line_write_nothing_and_show_no_password(
    tmp_path: Path, target: str
) -> None:
    database = tmp_path / "general.db"
    await recorded_games(database, "-100", "555")
    code, out, err = await tool(database, "migrate", "--to", "mysql://root:pw@db/general")
    assert (code, out) == (2, "") and err == (
        "python -m bot migrate: --to must be a postgresql:// URL\n"
    )
    unreachable = f"postgresql://postgres:{PASSWORD}@127.0.0.1:1/test"
    code, out, err = await tool(database, "migrate", "--to", unreachable)
    assert (code, out) == (1, "") and err.count("\n") == 1, err
    assert "cannot use PostgreSQL at 127.0.0.1:1: Connection refused" in err
    assert PASSWORD not in err
    code, out, err = await tool(tmp_path / "none.db", "migrate", "--to", target)
    assert (code, out) == (2, "") and "there is no SQLite database" in err
    assert not (tmp_path / "none.db").exists()

    running = await SqliteRepository.open(database)  # the bot holds the file
    try:
        code, out, err = await tool(database, "migrate", "--to", target)
    finally:
        await running.close()
    assert (code, out) == (2, "") and "stop the other process first" in err, err

    # A value PostgreSQL refuses (jsonb has no \u0000), met after the games were copied: the
    # one transaction is undone, and the target stays empty.
    with sqlite3.connect(database) as db:
        db.execute("INSERT INTO chat_settings VALUES ('dc:9', '{\"x\": \"\\u0000\"}', 0)")
    code, out, err = await tool(database, "migrate", "--to", target)
    assert (code, out) == (1, "") and "PostgreSQL refused the copy" in err, err
    assert "nothing was written" in err and set((await counts(target)).values()) == {0}
    with sqlite3.connect(database) as db:
        db.execute("DELETE FROM chat_settings WHERE chat = 'dc:9'")

    code, out, err = await tool(database, "migrate", "--to", target)
    assert code == 0, err
    moved = await counts(target)
    code, out, err = await tool(database, "migrate", "--to", target)  # a second time
    assert (code, out) == (1, "") and err.count("\n") == 1, err
    assert "the target is not empty (games has 4 rows, events has" in err
    assert await counts(target) == moved
    for output in (out, err):
        assert PASSWORD not in output


async def test_the_tool_knows_every_table_and_column_of_both_schemas(
    tmp_path: Path, target: str
) -> None:
    """A table or column a later migration adds must be added to bot/migrate.py too."""
    repository = await SqliteRepository.open(tmp_path / "general.db")
    await repository.close()
    with sqlite3.connect(tmp_path / "general.db") as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
        sqlite = {n: {r[1] for r in db.execute(f"PRAGMA table_info({n})")} for n in names}
    postgres = await PostgresRepository.open(target, min_size=1, max_size=1)
    await postgres.close()
    connection = await asyncpg.connect(target)
    try:
        rows = await connection.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema()"
        )
    finally:
        await connection.close()
    target_columns: dict[str, set[str]] = {}
    for table, column in rows:
        target_columns.setdefault(table, set()).add(column)
    known = {t.name: set(t.columns) for t in TABLES}
    assert sqlite == known
    assert target_columns.keys() - {"general_migrations"} == known.keys() | set(TARGET_ONLY)
    assert {n: c for n, c in target_columns.items() if n in known} == known
