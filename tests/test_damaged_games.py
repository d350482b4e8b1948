"""Damaged data never takes a table or the bot down: a stored game damaged in any field is
either a game the bot can play or set aside at load, on SQLite and PostgreSQL alike; the
start-up goes on, the damaged chat can start a new game at once, the other tables play."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.actions import Cancel, Open, Roll
from core.dice import ScriptedRoller, SeededRoller
from core.identity import ChannelKey
from core.invariants import check_game
from core.outcome import Outcome
from core.service import GameService
from tests.core.test_snapshot import damaged
from tests.fakes.telegram import FakeTelegram
from tests.kit import LOT_ALICE_LOW
from tests.storage.conftest import Backend, PostgresBackend, SqliteBackend, postgres_url
from tests.storage.tables import ALICE, CHANNEL, started_pair
from tests.telegram.kit import ask, bot_settings, live_board, press, running

OTHER = ChannelKey("telegram", "-999")


async def stored_snapshot(backend: Backend, game_id: str) -> dict[str, Any]:
    (row,) = await backend.raw(f"SELECT snapshot FROM games WHERE id = '{game_id}'")
    snapshot = row[0]
    return json.loads(snapshot) if isinstance(snapshot, str) else dict(snapshot)


async def store_snapshot(backend: Backend, game_id: str, data: dict[str, Any]) -> None:
    """Write `data` over the game's snapshot, past the repository (as damage on disk would)."""
    text = json.dumps(data)
    if isinstance(backend, SqliteBackend):
        with sqlite3.connect(backend.path) as db:
            db.execute("UPDATE games SET snapshot = ? WHERE id = ?", (text, game_id))
    else:
        assert isinstance(backend, PostgresBackend)
        await backend.raw("UPDATE games SET snapshot = $1::jsonb WHERE id = $2", text, game_id)


async def start_up_on_damage(backend: Backend, damage: Any) -> None:
    """Two running tables, one of them damaged; then a start-up as the bot's, and both chats."""
    first = await backend.open()
    await started_pair(first, "g-bad")
    good = await started_pair(first, "g-good", OTHER)
    await store_snapshot(backend, "g-bad", damage(await stored_snapshot(backend, "g-bad")))
    # The tables' clock stands where they were played (time 0): every deadline is armed, from
    # each game as loaded, and none falls due while the test acts.
    service = GameService(
        await backend.open(), SeededRoller(1), id_factory=lambda: "g-new", clock=lambda: 0.0
    )
    service.on_deadline("telegram", never_due)
    try:
        await service.resume_deadlines("telegram")  # the start-up: nothing escapes it
        rolled = await service.act(OTHER, good.current(), Roll())  # the other table plays
        assert rolled.game.turn.throws == 1
        game = await service.game(CHANNEL)
        if game is not None:  # the damage left a game the rules could have reached: it plays
            check_game(game)
            host = game.host
            assert host is not None
            await service.act(CHANNEL, host, Cancel())
        opened = await service.act(CHANNEL, ALICE, Open())  # a new game, at once
        assert opened.game.id == "g-new"
    finally:
        await service.close()


async def never_due(channel: ChannelKey, outcome: Outcome) -> None:
    raise AssertionError(f"no deadline is due: {outcome.events}")


def only_quarantines(caplog: pytest.LogCaptureFixture) -> None:
    """Every ERROR logged is the quarantine's one line; cleared for the next example."""
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert all("quarantined" in message for message in errors), errors
    assert len(errors) <= 1, errors
    caplog.clear()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
@pytest.mark.slow
def test_random_damage_stops_neither_the_start_up_nor_the_tables(
    store: str,
    data: st.DataObject,
    tmp_path_factory: pytest.TempPathFactory,
    caplog: pytest.LogCaptureFixture,
) -> None:
    url = postgres_url() if store == "postgres" else ""

    async def scenario() -> None:
        backend: Backend
        if url:
            backend = await PostgresBackend.create(url)
        else:
            backend = SqliteBackend(tmp_path_factory.mktemp("damaged") / "general.db")
        try:
            await start_up_on_damage(backend, lambda snapshot: data.draw(damaged(snapshot)))
        finally:
            await backend.close()

    with caplog.at_level(logging.INFO):
        asyncio.run(scenario())
    only_quarantines(caplog)


# Damage the bot met: the first stopped every start, the second left its table stuck.
E2E_DAMAGE = {
    "current seat out of range": ("$.current", "7"),
    "scores of a wrong type": ("$.seats[0].scores", "'abcdefghij'"),
}


@pytest.mark.parametrize("kind", E2E_DAMAGE)
async def test_the_bot_starts_on_a_damaged_game_and_every_chat_plays(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The real bot on a SQLite file holding the damaged game, against the fake Telegram."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    async with FakeTelegram() as fake:
        await damaged_and_restarted(fake, tmp_path / "general.db", E2E_DAMAGE[kind])
    assert fake.unhandled == [], fake.unhandled
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(logged) == 1 and "quarantined" in logged[0], logged  # once, for the one game
    caplog.clear()


async def damaged_and_restarted(
    fake: FakeTelegram, database: Path, damage: tuple[str, str]
) -> None:
    ann, bob, cid, dan = (fake.user(1001 + n, name) for n, name in enumerate(PEOPLE))
    damaged_chat, other_chat = fake.chat(-101300, title="Damaged"), fake.chat(-101301, title="Fine")
    async with running(bot_settings(fake, database), ScriptedRoller(LOT_ALICE_LOW * 2)):
        for chat, host, guest in ((damaged_chat, ann, bob), (other_chat, cid, dan)):
            await ask(fake, host, chat, "/general start")
            await press(fake, guest, live_board(fake, chat), "Join")
            await press(fake, host, live_board(fake, chat), "Start")
    path, value = damage
    with sqlite3.connect(database) as db:
        db.execute(
            f"UPDATE games SET snapshot = json_set(snapshot, '{path}', {value})"
            f" WHERE channel LIKE 'tg:{damaged_chat.id}:%'"
        )
    roller = ScriptedRoller([2, 3, 4, 5, 6])
    async with running(bot_settings(fake, database), roller):  # ready: the start-up went on
        said = await ask(fake, ann, damaged_chat, "/general start")
        assert "A table of General is open" in said, said
        assert "Seated (1): Ann" in live_board(fake, damaged_chat).plain_text
        await press(fake, cid, live_board(fake, other_chat), "Roll")
        assert roller.remaining == 0  # Cid's throw was thrown: the other table plays
        assert "throw 1/3" in live_board(fake, other_chat).plain_text
    with sqlite3.connect(database) as db:
        phases = db.execute("SELECT phase FROM games ORDER BY created_at").fetchall()
    assert phases == [("quarantined",), ("playing",), ("lobby",)]


PEOPLE = ("Ann", "Bob", "Cid", "Dan")
