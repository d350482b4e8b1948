"""One language per table, end to end: a Telegram group of Russian speakers with a computer and
a turn timer, on a bot whose own language is English, hears nothing but Russian."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from adapters.i18n import translator
from core.dice import SeededRoller
from tests.fakes.telegram import FakeChat, FakeTelegram, FakeUser
from tests.kit import Rigged, age_the_turn, foreign_words, game_rows
from tests.telegram.kit import bot_settings, live_board, press, running

RU = translator("ru")


def said(fake: FakeTelegram) -> list[str]:
    """Every text and button label the bot sent, edited in or answered, in order."""
    texts: list[str] = []
    for method, params in fake.requests:
        for key in ("text", "caption"):
            if method != "getUpdates" and isinstance(params.get(key), str):
                texts.append(params[key])
        markup: Any = params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        if isinstance(markup, dict):
            texts += [b["text"] for row in markup.get("inline_keyboard", []) for b in row]
    return texts


def human_board(fake: FakeTelegram, group: FakeChat, users: dict[int, FakeUser]) -> Any:
    """The live board, if it is one of the people's turns."""
    boards = [m for m in fake.bot_messages(group) if m.reply_markup and not m.deleted]
    if boards and any(f"id={u}" in boards[-1].text for u in users):
        return boards[-1]
    return None


def over(database: Path) -> bool:
    return [phase for _, phase, _ in game_rows(database)] == ["finished"]


async def play_turn(
    fake: FakeTelegram, group: FakeChat, users: dict[int, FakeUser], database: Path
) -> bool:
    """Once the computer has played, the player whose board is live throws once and writes
    the first box offered; False once the game is over."""
    await fake.wait_for(
        lambda: human_board(fake, group, users) is not None or over(database), timeout=30
    )
    board = human_board(fake, group, users)
    if board is None:
        return False
    user = next(users[u] for u in users if f"id={u}" in board.text)
    await press(fake, user, board, RU("btn-roll-first"))
    thrown = board.message_id  # answered at once; its edit follows at the chat's pace
    await fake.wait_for(
        lambda: any(" · " in b.text for b in fake.message(group, thrown).buttons) or over(database),
        timeout=20,
    )
    if over(database):  # a big general
        return False
    board = fake.message(group, thrown)
    box = next(b.text for b in board.buttons if " · " in b.text)
    await press(fake, user, board, box)
    return True


@pytest.mark.slow
async def test_a_russian_table_with_a_computer_and_a_timer_speaks_only_russian(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    ann = fake.user(1001, "Аня", language_code="ru")
    bob = fake.user(1002, "Борис", language_code="ru")
    users = {ann.id: ann, bob.id: bob}
    group = fake.chat(-100990, title="Дом")
    database = tmp_path / "general.db"
    settings = bot_settings(fake, database)  # the whole game under the fake's flood control
    assert settings.general_language == "en"
    async with running(settings, SeededRoller(5)):
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        lobby = live_board(fake, group)
        await press(fake, bob, lobby, RU("btn-join"))
        await press(fake, ann, lobby, RU("btn-add-master"))
        await press(fake, ann, lobby, RU("btn-start"))
        for _ in range(3):
            await play_turn(fake, group, users, database)
        await fake.wait_for(lambda: human_board(fake, group, users) is not None)
    age_the_turn(database, 3600)  # down while the turn's clock ran out
    await asyncio.sleep(3)  # as long as a restart takes: the chat's allowance refills
    roller = Rigged()
    async with running(settings, roller):
        await fake.wait_for(lambda: any("⏰" in text for text in said(fake)), timeout=10)
        await fake.settle()
        for turn in range(40):
            if turn == 3:  # the rest of a whole game says nothing new: a big general ends it
                roller.pushed.append((3, 3, 3, 3, 3))
            if not await play_turn(fake, group, users, database):
                break
        await fake.send_message(bob, group, "/general review")
        await fake.send_message(bob, group, "/general leaderboard")
        await fake.settle()
    assert over(database)
    texts = said(fake)
    assert any(RU("computer-master") in text for text in texts)
    assert any(text.startswith("⚡ ") or "\n⚡ " in text for text in texts)  # it ended early
    assert any("📈 Рейтинг здесь: " in text for text in texts)
    assert foreign_words(texts, "ru", names=["Аня", "Борис", "Дом"]) == []
    assert fake.rate_limited == []
