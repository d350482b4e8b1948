"""Floods and races: many presses at once on one game, many games at once, one person flooding."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from core.dice import ScriptedRoller
from tests.fakes.telegram import FakeMessage, FakeTelegram, FakeUser
from tests.telegram.kit import (
    RunningBot,
    SeededBot,
    board_showing,
    bot_settings,
    live_board,
    press,
    running,
)


async def test_200_presses_at_once_apply_once_and_are_all_answered(tg: RunningBot) -> None:
    fake = tg.fake
    ann = fake.user(1001, "Ann")
    others = [fake.user(3000 + n, f"P{n}") for n in range(20)]
    group = fake.chat(-101300, title="Flood")
    await fake.send_message(ann, group, "/general start")
    await fake.settle()
    await press(fake, ann, live_board(fake, group), "Start")
    board = live_board(fake, group)
    tg.roller.push([1, 2, 3, 4, 6] * 3)
    queries = [await fake.press(ann, board, "Roll") for _ in range(100)]
    queries += [await fake.press(others[n % 20], board, "Roll") for n in range(100)]
    answers = await asyncio.gather(*(fake.wait_answer(q, timeout=30) for q in queries))
    await fake.settle()
    texts = [text for text, _ in answers]
    assert len(answers) == 200  # every press answered
    assert texts.count("🎲 1-2-3-4-6") == 1  # exactly one throw, told at once
    assert texts.count("The dice have been thrown since — here they are: 1-2-3-4-6.") == 99
    assert texts.count("It's Ann's turn.") == 100
    with sqlite3.connect(tg.database) as db:
        rolls = db.execute("SELECT COUNT(*) FROM events WHERE kind = 'dice_rolled'").fetchone()[0]
    assert rolls == 1
    edits = len(fake.calls("editMessageText"))
    assert edits <= 5, edits  # the stale presses did not each redraw the board


async def test_100_games_at_once(tg_seeded: SeededBot) -> None:
    fake = tg_seeded.fake
    people = [fake.user(5000 + n, f"Solo{n}") for n in range(100)]

    async def tap(person: FakeUser, message: FakeMessage, label: str) -> None:
        await fake.wait_answer(await fake.press(person, message, label), timeout=60)

    async def one_game(n: int) -> None:
        person = people[n]
        chat = fake.private_chat(person)
        await fake.send_message(person, chat, "/general start")
        lobby = await fake.wait_for(lambda: board_showing(fake, chat, ""), timeout=60)
        await tap(person, lobby, "Start")
        board = await fake.wait_for(lambda: board_showing(fake, chat, "throw 0/3"), timeout=60)
        await tap(person, board, "Roll")  # answered at once; the board's edit follows
        await fake.wait_for(
            lambda: "throw 0/3" not in fake.message(chat, board.message_id).plain_text,
            timeout=60,
        )
        board = fake.message(chat, board.message_id)
        if "BIG GENERAL" in board.plain_text:
            return
        box = next(b.text for b in board.buttons if "·" in b.text)
        await tap(person, board, box)

    await asyncio.gather(*(one_game(n) for n in range(100)))
    with sqlite3.connect(tg_seeded.database) as db:
        games = db.execute("SELECT snapshot FROM games").fetchall()
        scored = db.execute("SELECT COUNT(*) FROM events WHERE kind = 'box_scored'").fetchone()[0]
    assert len(games) == 100
    generals = sum(json.loads(s)["end_reason"] == "big_general" for (s,) in games)
    assert scored == 100 - generals


async def test_one_person_flooding_is_asked_to_slow_down(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    settings = bot_settings(fake, tmp_path / "general.db").model_copy(
        update={"general_flood_burst": 5, "general_flood_rate": 0.5}
    )
    async with running(settings, ScriptedRoller()):
        ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
        group = fake.chat(-101301, title="Slow")
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        lobby = live_board(fake, group)
        queries = [await fake.press(ann, lobby, "Join") for _ in range(12)]
        answers = [
            text for text, _ in await asyncio.gather(*(fake.wait_answer(q) for q in queries))
        ]
        slow = "Slow down a little, please: too many presses at once."
        assert answers.count(slow) >= 6 and len(answers) == 12
        assert await press(fake, bob, lobby, "Join") == ""  # others are not held back
