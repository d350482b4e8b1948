"""A whole game on the fake Telegram with the production dice: the seal in the lobby (the whole
of it behind a spoiler), the seed in the final message, `/general verify` in the group, and the
operator's tools and the stand-alone verifier beside the running bot."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.dice import SecureRoller
from core.fairdice import short
from tests.dice_checks import check_beside_the_bot, tampered_copy
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.world import FakeChat, FakeUser
from tests.telegram.kit import bot_settings, live_board, press, running


@pytest.fixture
async def database(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[Path]:
    """The bot as production runs it, its dice the committed ones."""
    path = tmp_path / "general.db"
    async with running(bot_settings(fake, path), SecureRoller()):
        yield path


def stored(database: Path) -> tuple[str, str, str]:
    """The game's id, its seal and its seed, as the database holds them."""
    with sqlite3.connect(database) as db:
        ((game_id, snapshot),) = db.execute("SELECT id, snapshot FROM games").fetchall()
    data = json.loads(snapshot)
    return game_id, data["commitment"], data["seed"]


@pytest.mark.slow
async def test_a_whole_game_is_sealed_revealed_and_verified(
    fake: FakeTelegram, database: Path, tmp_path: Path
) -> None:
    alice, bob = fake.user(1001, "Alice"), fake.user(1002, "Bob")
    group = fake.chat(-100600, type="supergroup", title="Fair dice")
    await open_table_with(fake, group, alice, bob)
    game_id, seal, seed = stored(database)
    lobby = live_board(fake, group)
    assert f"🔐 Dice sealed: {short(seal)} · in full: {seal}" in lobby.plain_text
    assert f"<tg-spoiler>{seal}</tg-spoiler>" in lobby.text  # a tap shows the whole seal
    assert any(e["type"] == "spoiler" and e["length"] == 64 for e in lobby.entities)
    await press(fake, alice, lobby, "Start")
    assert seal in live_board(fake, group).plain_text  # the first board keeps it in sight
    players = (alice, bob)
    for _ in range(200):  # each turn: one throw, then the first open box
        if "Score sheet" in fake.bot_messages(group)[-1].plain_text:
            break
        board = live_board(fake, group)
        movers = [u for u in players if f"{u.first_name}'s turn" in board.plain_text]
        assert movers, board.plain_text
        mover = movers[0]
        labels = [b.text for b in board.buttons]
        roll = next((x for x in labels if x.startswith("🎲")), None)
        await press(fake, mover, board, roll or next(x for x in labels if "·" in x))
    final = fake.bot_messages(group)[-1]
    assert "Score sheet" in final.plain_text
    assert f"🔓 The dice's seed: {seed}" in final.plain_text
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == seal
    answer = await said(fake, alice, group, "/general verify")
    assert answer.startswith("✅ Every throw of the last game matches the seed")
    assert seal in answer and seed in answer and f"export {game_id}" in answer
    throws = int(re.search(r"\((\d+) checked\)", answer).group(1))  # type: ignore[union-attr]
    await check_beside_the_bot(database, game_id, throws, tmp_path)
    # The live database changed under the bot: the group is told which throw.
    tampered = tampered_copy(database, tmp_path)
    with sqlite3.connect(tampered) as source, sqlite3.connect(database) as live:
        source.backup(live)
    answer = await said(fake, bob, group, "/general verify")
    assert answer.startswith("❌ Throw ") and "but its seed gives" in answer


async def open_table_with(
    fake: FakeTelegram, group: FakeChat, host: FakeUser, other: FakeUser
) -> None:
    await fake.send_message(host, group, "/general start")
    await fake.settle()
    await press(fake, other, live_board(fake, group), "Join")


async def said(fake: FakeTelegram, user: FakeUser, chat: FakeChat, text: str) -> str:
    await fake.send_message(user, chat, text)
    await fake.settle()
    return fake.bot_messages(chat)[-1].plain_text
