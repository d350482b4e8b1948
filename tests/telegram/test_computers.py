"""Computer opponents, hints and the review, played through Telegram."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from core.dice import SeededRoller
from tests.fakes.telegram import FakeTelegram
from tests.telegram.kit import SeededBot, bot_settings, live_board, press, running


@pytest.mark.slow
async def test_a_person_against_two_computers_with_hints_and_review(tg_seeded: SeededBot) -> None:
    fake: FakeTelegram = tg_seeded.fake
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
    group = fake.chat(-100800, title="Versus")
    await fake.send_message(ann, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    assert await press(fake, bob, lobby, "+ Master") == "You are not playing at this table."
    await press(fake, ann, lobby, "+ Master")
    await press(fake, ann, fake.message(group, lobby.message_id), "+ Novice")
    assert (
        "Seated (3): Ann, 🤖 Master, 🤖 Novice" in fake.message(group, lobby.message_id).plain_text
    )
    await press(fake, ann, fake.message(group, lobby.message_id), "Start")
    hinted = False
    for _ in range(200):
        await fake.wait_for(
            lambda: (
                any(f"tg://user?id={ann.id}" in m.text for m in fake.bot_messages(group)[-1:])
                or "Score sheet" in fake.bot_messages(group)[-1].plain_text
            ),
            timeout=20,
        )
        await fake.settle()
        last = fake.bot_messages(group)[-1]
        if "Score sheet" in last.plain_text:
            break
        board = live_board(fake, group)
        await press(fake, ann, board, "Roll")
        board = fake.message(group, board.message_id)
        if not hinted:
            query = await fake.press(ann, board, "Hint")
            text, alert = await fake.wait_answer(query)
            assert alert and text is not None and text.startswith("Best play now")
            assert len(text) <= 200 and "→" in text
            hinted = True
        box = next(b.text for b in board.buttons if "·" in b.text)
        await press(fake, ann, board, box)
    final = fake.bot_messages(group)[-1].plain_text
    assert "Score sheet" in final and "🤖 Master" in final
    # Computers played their own turns: every one of their boards ended written, without buttons.
    assert not any(m.reply_markup for m in fake.bot_messages(group)[:-1] if "🤖" in m.plain_text)
    with sqlite3.connect(tg_seeded.database) as db:
        scored = db.execute(
            "SELECT json_extract(data, '$.player_id'), COUNT(*) FROM events"
            " WHERE kind = 'box_scored' GROUP BY 1"
        ).fetchall()
        ((phase, reason),) = db.execute("SELECT phase, end_reason FROM games").fetchall()
    assert phase == "finished"
    if reason == "completed":
        assert sorted(n for _, n in scored) == [10, 10, 10]
        assert "How everyone played" in final and "Ann:" in final
    await fake.send_message(ann, group, "/general review")
    await fake.settle()
    assert fake.bot_messages(group)[-1].plain_text.startswith(
        ("How everyone played", "There is nothing to review")
    )


async def test_hint_refusals(tg_seeded: SeededBot) -> None:
    fake = tg_seeded.fake
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
    group = fake.chat(-100801, title="Hints")
    await fake.send_message(ann, group, "/general hint")
    await fake.settle()
    assert "There is no game at this table" in fake.bot_messages(group)[-1].plain_text
    await fake.send_message(ann, group, "/general start")
    await fake.settle()
    await press(fake, bob, live_board(fake, group), "Join")
    await press(fake, ann, live_board(fake, group), "Start")
    board = live_board(fake, group)
    current, other = (ann, bob) if f"id={ann.id}" in board.text else (bob, ann)
    assert "Hint" not in str([b.text for b in board.buttons])  # nothing to advise before a throw
    await fake.send_message(current, group, "/general hint")
    await fake.settle()
    assert "Throw the dice first." in fake.bot_messages(group)[-1].plain_text
    await press(fake, current, board, "Roll")
    board = fake.message(group, board.message_id)
    assert await press(fake, other, board, "Hint") == f"It's {current.first_name}'s turn."
    fake.private_chat(current)  # the player has a chat with the bot: the hint goes there
    await fake.send_message(current, group, "/general hint")
    await fake.settle()
    assert "Best play now" not in fake.bot_messages(group)[-1].plain_text
    assert "Best play now" in fake.bot_messages(fake.private_chat(current))[-1].plain_text


async def test_a_computer_turn_cut_short_by_a_restart_is_played_after_it(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    ann = fake.user(1001, "Ann")
    group = fake.chat(-100802, title="Restart")
    database = tmp_path / "general.db"
    slow = bot_settings(fake, database).model_copy(update={"general_computer_pause": 30.0})
    async with running(slow, SeededRoller(7)):
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        await press(fake, ann, live_board(fake, group), "+ Club")
        await press(fake, ann, live_board(fake, group), "Start")
        board = live_board(fake, group)
        if f"id={ann.id}" in board.text:  # Ann starts: her turn first, then the computer's
            await press(fake, ann, board, "Roll")
            box = next(
                b.text for b in fake.message(group, board.message_id).buttons if "·" in b.text
            )
            await press(fake, ann, fake.message(group, board.message_id), box)
        assert "🤖 Club" in live_board(fake, group).plain_text  # the computer is to play, slowly
    # Stopped during the computer's pause; the new process plays its turn at once.
    async with running(bot_settings(fake, database), SeededRoller(8)):
        await fake.wait_for(
            lambda: f"tg://user?id={ann.id}" in fake.bot_messages(group)[-1].text, timeout=10
        )
        await fake.settle()
    with sqlite3.connect(database) as db:
        by_computer = db.execute(
            "SELECT COUNT(*) FROM events WHERE kind = 'box_scored'"
            " AND json_extract(data, '$.player_id') LIKE 'cpu-%'"
        ).fetchone()[0]
    assert by_computer == 1
