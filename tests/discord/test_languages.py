"""One language per table, end to end: Russian speakers on a server whose locale is English,
with a computer and a turn timer, on a bot whose own language is English, hear nothing but
Russian; what one of them sees alone is in their language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adapters.i18n import translator
from core.dice import SeededRoller
from tests.discord.kit import live_board, press, running_bot, slash
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMember, FakeMessage
from tests.kit import age_the_turn, foreign_words, game_rows

RU = translator("ru")
TEXT_KEYS = {"content", "label", "title", "description", "value", "name", "text"}


def strings(body: Any) -> list[str]:
    """The words of a request's body: message contents, embeds, button labels."""
    if isinstance(body, dict):
        found = [v for k, v in body.items() if k in TEXT_KEYS and isinstance(v, str)]
        return found + [s for k, v in body.items() if k != "allowed_mentions" for s in strings(v)]
    if isinstance(body, list):
        return [s for item in body for s in strings(item)]
    return []


def said(fake: FakeDiscord) -> list[str]:
    """Everything the bot wrote or answered (the command tree it registers aside)."""
    return [
        s
        for r in fake.requests
        if r.method in ("POST", "PATCH") and "/commands" not in r.path
        for s in strings(r.body)
    ]


def human_board(fake: FakeDiscord, channel: FakeChannel, people: list[FakeMember]) -> Any:
    boards = [m for m in fake.channel_messages(channel) if m.buttons]
    if boards and any(f"<@{p.id}>" in boards[-1].content for p in people):
        return boards[-1]
    return None


def over(database: Path) -> bool:
    return [phase for _, phase, _ in game_rows(database)] == ["finished"]


async def play_turn(
    fake: FakeDiscord, channel: FakeChannel, people: list[FakeMember], database: Path
) -> bool:
    """Once the computer has played, the person whose board is live throws and writes the
    first box; False once the game is over."""
    await fake.wait_for(lambda: human_board(fake, channel, people) is not None or over(database))
    board: FakeMessage | None = human_board(fake, channel, people)
    if board is None:
        return False
    member = next(p for p in people if f"<@{p.id}>" in board.content)
    await press(fake, member, board, "r")
    board = live_board(fake, channel)
    box = next(b.custom_id for b in board.buttons if (b.custom_id or "").split("|")[-1][0] == "s")
    await press(fake, member, board, custom_id=box)
    return True


async def test_a_russian_table_with_a_computer_and_a_timer_speaks_only_russian(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake.guild("Dice club", locale="en-US")
    channel = fake.text_channel(guild, "kosti")
    ann = fake.member(guild, "Аня", locale="ru")
    bob = fake.member(guild, "Борис", locale="ru")
    eve = fake.member(guild, "Eve", locale="en-US")  # a passer-by with an English client
    database = tmp_path / "general.db"
    async with running_bot(fake, database, monkeypatch, roller=SeededRoller(5)):
        lobby = (await slash(fake, ann, channel, "start")).original
        assert lobby is not None
        await press(fake, bob, lobby, "j")
        await press(fake, ann, lobby, "am")
        await press(fake, ann, lobby, "b")
        for _ in range(3):
            await play_turn(fake, channel, [ann, bob], database)
        await fake.wait_for(lambda: human_board(fake, channel, [ann, bob]) is not None)
        before = len(said(fake))
        refused = await press(fake, eve, live_board(fake, channel), "r")
        (alone,) = refused.ephemeral_texts()  # what she alone sees: in her language
        assert alone and foreign_words([alone], "en", names=["Аня", "Борис"]) == []
        english = said(fake)[before:]
    age_the_turn(database, 3600)  # down while the turn's clock ran out
    async with running_bot(fake, database, monkeypatch, roller=SeededRoller(6)):
        await fake.wait_for(lambda: any("⏰" in text for text in said(fake)), timeout=10)
        await fake.settle()
        for _ in range(40):
            if not await play_turn(fake, channel, [ann, bob], database):
                break
        await slash(fake, bob, channel, "review")
        await slash(fake, bob, channel, "leaderboard")
    assert over(database)
    texts = [text for text in said(fake) if text not in english]
    assert any(RU("computer-master") in text for text in texts)
    assert foreign_words(texts, "ru", names=["Аня", "Борис", "Dice club", "kosti"]) == []
