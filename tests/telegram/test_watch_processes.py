"""A table watched from another process (PostgreSQL): a bot process plays a Telegram game, with
a computer and a turn whose time runs out while the bot is down, and a watcher in this process,
on its own connection to the same database, sees every outcome the bot saved, in order."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from adapters.postgres import PostgresRepository
from adapters.telegram.calls import PLATFORM
from core.events import DiceRolled, TurnReminder, TurnTimedOut, event_to_dict
from core.identity import ChannelKey
from core.outcome import Outcome
from core.service import GameService
from tests.conftest import needs_postgres
from tests.fakes.telegram import FakeTelegram
from tests.process import Bot, on_telegram
from tests.telegram.kit import board_showing, live_board, press, to_move

pytestmark = [needs_postgres, pytest.mark.slow]


async def stored(url: str) -> list[tuple[int, str]]:
    """Every event the bot stored: its game's version and its kind, in order."""
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch("SELECT version, kind FROM events ORDER BY game_id, seq")
    finally:
        await connection.close()
    return [(row["version"], row["kind"]) for row in rows]


async def computer_rolled(url: str) -> bool:
    connection = await asyncpg.connect(url)
    try:
        return bool(
            await connection.fetchval(
                "SELECT count(*) FROM events WHERE kind = 'dice_rolled'"
                " AND data->>'player_id' LIKE 'cpu-%'"
            )
        )
    finally:
        await connection.close()


async def age_the_turn(url: str, seconds: float) -> None:
    """As if the bot had been down while the current turn's clock ran."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(
            "UPDATE games SET snapshot = jsonb_set(snapshot, '{turn_started}',"
            " to_jsonb((snapshot->>'turn_started')::float8 - $1)) WHERE phase = 'playing'",
            seconds,
        )
    finally:
        await connection.close()


async def test_a_watcher_in_another_process_sees_presses_computers_and_the_clock(
    fake: FakeTelegram, postgres_url: str, tmp_path: Path
) -> None:
    settings = {**on_telegram(fake), "GENERAL_DATABASE_URL": postgres_url}
    log = tmp_path / "bot.log"
    ann = fake.user(1001, "Ann")
    group = fake.chat(-100901, title="Watched from afar")
    bot = await Bot.start(settings, log)  # it makes the schema before the watcher opens it
    repository = await PostgresRepository.open(postgres_url)
    watcher = GameService(repository)
    await watcher.listen()
    watch = watcher.watch(ChannelKey(PLATFORM, str(group.id)))
    try:
        await fake.send_message(ann, group, "/general start")
        await fake.wait_for(lambda: board_showing(fake, group, "Seated") is not None, timeout=20)
        await press(fake, ann, live_board(fake, group), "+ Novice")
        await press(fake, ann, live_board(fake, group), "Start")
        for _ in range(3):  # Ann plays until the computer has played a turn
            await fake.wait_for(lambda: to_move(fake, group, ann), timeout=20)
            await fake.settle()
            if await computer_rolled(postgres_url):
                break
            await press(fake, ann, live_board(fake, group), "Roll")
            board = live_board(fake, group)
            await press(fake, ann, board, next(b.text for b in board.buttons if "·" in b.text))
        await press(fake, ann, live_board(fake, group), "Roll")
        await bot.stop()
        await age_the_turn(postgres_url, 601)  # her ten minutes ran out while it was down
        bot = await Bot.start(settings, log)
        await fake.wait_for(
            lambda: any("Time is up for Ann" in m.plain_text for m in fake.bot_messages(group)),
            timeout=20,
        )
        await fake.settle()
        await bot.stop()  # nothing saved after this (the computer may be playing on)
        log_stored = await stored(postgres_url)
        heard: list[Outcome] = []
        async with asyncio.timeout(10):
            while len([e for o in heard for e in o.events]) < len(log_stored):
                heard.append(await watch.next())
        await asyncio.sleep(0.2)  # anything more would be heard by now
    finally:
        bot.kill()
        await watcher.close()
        await repository.close()
    bot.clean()
    # Each save heard once, in order: its events as stored, the game as stored when heard
    # (never older than the save).
    assert [event_to_dict(e)["kind"] for o in heard for e in o.events] == [
        kind for _, kind in log_stored
    ]
    versions = [outcome.game.version for outcome in heard]
    assert versions == sorted(versions) and versions[-1] == log_stored[-1][0]
    events = [e for o in heard for e in o.events]
    assert any(isinstance(e, TurnReminder) for e in events)
    assert any(isinstance(e, TurnTimedOut) for e in events)
    assert any(isinstance(e, DiceRolled) and e.player_id.startswith("cpu-") for e in events)
    assert watch.missed == 0 and watch.pending() == []
