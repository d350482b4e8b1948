"""A whole Telegram game with everything kept in PostgreSQL (GENERAL_DATABASE_URL)."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from core.dice import ScriptedRoller
from tests.conftest import needs_postgres
from tests.fakes.telegram import FakeTelegram
from tests.kit import LOT_ALICE_LOW
from tests.telegram.kit import bot_settings, live_board, press, running
from tests.telegram.test_ratings import shown

pytestmark = needs_postgres


@pytest.mark.slow
async def test_a_two_player_game_on_postgres(
    fake: FakeTelegram, tmp_path: Path, postgres_url: str
) -> None:
    settings = bot_settings(fake, tmp_path / "unused.db").model_copy(
        update={"general_database_url": postgres_url}
    )
    roller = ScriptedRoller(LOT_ALICE_LOW)
    async with running(settings, roller):
        ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
        group = fake.chat(-103000, title="Postgres")
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        await press(fake, bob, live_board(fake, group), "Join")
        await press(fake, ann, live_board(fake, group), "Start")
        for turn in range(20):
            board = live_board(fake, group)
            roller.push([2, 3, 3, 5, 6])
            await press(fake, ann if turn % 2 == 0 else bob, board, "Roll")
            board = fake.message(group, board.message_id)
            box = next(b.text for b in board.buttons if "·" in b.text)
            await press(fake, ann if turn % 2 == 0 else bob, board, box)
        await fake.wait_for(lambda: "Shared win" in fake.bot_messages(group)[-1].plain_text)
        assert (
            "Shared win: Ann, Bob with 19 points each." in fake.bot_messages(group)[-1].plain_text
        )
        await fake.send_message(ann, group, "/general leaderboard wins")
        await fake.settle()
        assert "1. Ann — 1 · 1 · 100%" in fake.bot_messages(group)[-1].plain_text
        await fake.send_message(ann, group, "/general leaderboard")  # rated on PostgreSQL
        await fake.settle()
        rated, (level, _) = fake.bot_messages(group)[-1].plain_text, shown([1, 1])
        assert f"Ann — {level}? · 1" in rated and f"Bob — {level}? · 1" in rated
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT count(*) FROM results") == 2
        assert (
            await connection.fetchval("SELECT count(*) FROM events WHERE kind = 'box_scored'") == 20
        )
        assert not (tmp_path / "unused.db").exists()  # nothing went to SQLite
    finally:
        await connection.close()
