"""A whole Russian game on the fake Discord with the production dice: the seal in the lobby
(the whole of it behind a spoiler), the seed in the final message, `/general verify` said to
the channel, and a tampered log named."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from core.dice import SecureRoller
from core.fairdice import short
from tests.dice_checks import tampered_copy
from tests.discord.kit import bot_messages, first_box, live_board, press, running_bot, slash
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMember


@pytest.mark.slow
async def test_a_whole_game_is_sealed_revealed_and_verified_in_russian(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake.guild("Клуб", locale="ru")
    channel = fake.text_channel(guild, "kosti")
    ann = fake.member(guild, "Аня", locale="ru")
    boris = fake.member(guild, "Борис", locale="ru")
    database = tmp_path / "general.db"
    async with running_bot(fake, database, monkeypatch, roller=SecureRoller()):
        lobby = (await slash(fake, ann, channel, "start")).original
        assert lobby is not None
        await press(fake, boris, lobby, "j")
        with sqlite3.connect(database) as db:
            ((snapshot,),) = db.execute("SELECT snapshot FROM games").fetchall()
        seal = json.loads(snapshot)["commitment"]
        lobby = live_board(fake, channel)
        assert f"🔐 Кости запечатаны: {short(seal)} · полностью: ||{seal}||" in lobby.content
        await press(fake, ann, lobby, "b")
        people = {f"<@{ann.id}>": ann, f"<@{boris.id}>": boris}

        def next_up() -> FakeMember | bool | None:
            """Whoever the live board calls on, or True once the final message is out."""
            if any("Таблица очков" in m.content for m in bot_messages(fake, channel)):
                return True
            board = live_board(fake, channel)
            return next((p for mention, p in people.items() if mention in board.content), None)

        for _ in range(40):
            mover = await fake.wait_for(next_up, timeout=20)  # the next board may be on its way
            if mover is True:
                break
            assert isinstance(mover, FakeMember)
            board = live_board(fake, channel)
            await press(fake, mover, board, "r")
            board = live_board(fake, channel)
            await press(fake, mover, board, custom_id=first_box(board))
        text = "\n".join(m.content for m in bot_messages(fake, channel)[-3:])
        seed = text.split("🔓 Зерно костей: ", 1)[1][:64]
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == seal
        answer = await said(fake, boris, channel)
        assert answer.startswith("✅ Каждый бросок последней игры совпадает с зерном")
        assert seal in answer and seed in answer
        tampered = tampered_copy(database, tmp_path)
        with sqlite3.connect(tampered) as source, sqlite3.connect(database) as live:
            source.backup(live)
        answer = await said(fake, ann, channel)
        assert answer.startswith("❌ Бросок ") and "а зерно даёт" in answer


async def said(fake: FakeDiscord, member: FakeMember, channel: FakeChannel) -> str:
    """`/general verify`, answered to the whole channel."""
    asked = await slash(fake, member, channel, "verify")
    assert asked.original is not None and not asked.original.ephemeral
    return "\n".join(asked.texts())
