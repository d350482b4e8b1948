"""A 16-person Swiss tournament of 4 rounds with duplicate dice, played to its end on the fake
Telegram by the real bot process: three scripted people and thirteen computers, the rounds'
tables in forum topics, the bot SIGKILLed in the middle and started again."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from core.ports import EventRecord
from core.tournament import EventPhase, advanced
from core.tournament_snapshot import event_from_record
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.limits import Limits
from tests.fakes.telegram.model import FakeChat, FakeMessage, FakeUser
from tests.process import Bot, on_telegram, text

ROUND_STARTS = "🏆 Round {n} of 4 begins"
FINAL = "🏆 The tournament is over: the final table"


# Telegram's limits 120 times faster for a group (20 writes in half a second, not a minute), and
# the bot's pace with them: sixteen games' writes in one group, paced as a real group's, in a
# test's time.
FAST = Limits(chat_burst=3, chat_refill=30.0, global_per_second=900, group_window=0.5)
FAST_PACE = {"TELEGRAM_GROUP_WINDOW": "0.5"}


def settings(fake: FakeTelegram, database: Path) -> dict[str, str]:
    # The production dice (committed to a seed per round), not the tests' seeded ones.
    return {
        **on_telegram(fake),
        **FAST_PACE,
        "GENERAL_DATABASE": str(database),
        "GENERAL_DICE_SEED": "",
    }


async def press(fake: FakeTelegram, user: FakeUser, message: FakeMessage, label: str) -> str:
    """Press a button; its answer (the group around it never falls quiet: no settling)."""
    query = await fake.press(user, message, label)
    text_, _ = await fake.wait_answer(query, timeout=30)  # a loaded machine's bot is slower
    return text_ or ""


def said(fake: FakeTelegram, group: FakeChat) -> list[str]:
    return [m.plain_text or "" for m in fake.bot_messages(group)]


RECENT = 150  # the messages a live board can be among: a round's tables post fewer since it began


def turn_of(fake: FakeTelegram, group: FakeChat, user: FakeUser) -> FakeMessage | None:
    """The newest board with buttons that is `user`'s turn, in any topic (a turn's first board
    mentions them; one shown again at their asking names them). Only the recent messages are
    read: reading every one, 20 times a second, would load the machine the suite shares."""
    boards = [
        m
        for m in fake.bot_messages(group)[-RECENT:]
        if m.reply_markup and not m.deleted
        and any(b.text.startswith("🎲") or "·" in b.text for b in m.buttons)
        and f"{user.first_name}'s turn" in m.plain_text
    ]  # fmt: skip
    return boards[-1] if boards else None


async def play_turn(fake: FakeTelegram, group: FakeChat, user: FakeUser) -> bool:
    """If it is `user`'s turn somewhere: throw once, then write the first box offered."""
    board = turn_of(fake, group, user)
    if board is None:
        return False
    boxes = [b.text for b in board.buttons if "·" in b.text]
    if not boxes:
        await press(fake, user, board, "Roll")
        mid = board.message_id
        try:
            await fake.wait_for(
                lambda: any("·" in b.text for b in fake.message(group, mid).buttons), timeout=60
            )
        except AssertionError:  # not redrawn yet (the bot restarting, say): look again
            return True
        board = fake.message(group, mid)
        boxes = [b.text for b in board.buttons if "·" in b.text]
    if boxes:
        await press(fake, user, board, boxes[0])
    return True


async def play_until(
    fake: FakeTelegram, group: FakeChat, people: list[FakeUser], done: str, timeout: float
) -> None:
    """The people play their turns wherever they are due until the chat says `done`; where
    it never does, what each person saw last is the failure's message."""
    read = 0  # the chat's messages already looked through for `done` (it comes as a new one)
    try:
        async with asyncio.timeout(timeout):
            while True:
                messages = fake.bot_messages(group)
                if any(done in (m.plain_text or "") for m in messages[read:]):
                    return
                read = len(messages)
                moved = False
                for user in people:
                    moved = await play_turn(fake, group, user) or moved
                if not moved:
                    await asyncio.sleep(0.2)
    except TimeoutError:
        seen = {user.first_name: turn_of(fake, group, user) for user in people}
        last = fake.bot_messages(group)[-6:]
        raise AssertionError(
            f"never {done!r}: {seen}; last {last}; 429s {fake.rate_limited}"
        ) from None


@pytest.mark.slow
@pytest.mark.timeout(450)  # about 80 s alone: 16 games' writes at a group's (quickened) pace
async def test_a_swiss_event_of_sixteen_survives_a_sigkill_and_plays_to_its_end(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    database, log = tmp_path / "general.db", tmp_path / "bot.log"
    fake.limits = FAST
    alice = fake.user(1001, "Alice")
    bob, carol = fake.user(1002, "Bob"), fake.user(1003, "Carol", language_code="ru")
    people = [alice, bob, carol]
    group = fake.forum(-100800, title="Club", creator=alice)
    bot = await Bot.start(settings(fake, database), log)
    try:
        await fake.send_message(alice, group, "/general tournament")
        await fake.wait_for(lambda: any("🏆 Tournament" in line for line in said(fake, group)))
        card = next(m for m in fake.bot_messages(group) if "🏆 Tournament" in m.plain_text)
        for user in (bob, carol):
            await press(fake, user, card, "Enter")
        assert await press(fake, bob, card, "Rounds") == (
            "Only the tournament's host (Alice) can do that."
        )
        await press(fake, alice, card, "Rounds")  # 3 → 4
        for _ in range(13):
            await press(fake, alice, card, "+ 🤖 Master")
        mid = card.message_id
        await fake.wait_for(lambda: "Entered (16)" in fake.message(group, mid).plain_text)
        card = fake.message(group, mid)
        assert "Swiss · 4 rounds · tables of 4" in card.plain_text
        assert "Entered (16)" in card.plain_text and "duplicate dice" in card.plain_text
        await press(fake, alice, card, "Start")

        await play_until(fake, group, people, ROUND_STARTS.format(n=2), timeout=150)
        bot.process.send_signal(signal.SIGKILL)
        assert await bot.process.wait() == -signal.SIGKILL
        bot = await Bot.start(settings(fake, database), log)
        await play_until(fake, group, people, FINAL, timeout=240)
        await bot.stop()
    finally:
        bot.kill()

    lines = said(fake, group)
    for n in range(1, 5):
        assert any(ROUND_STARTS.format(n=n) in line for line in lines), n
        assert any(f"🏁 Round {n} is over." in line for line in lines), n
    assert sum(FINAL in line for line in lines) == 1
    assert any(line.startswith("🥇 ") for line in lines)
    assert len(fake.topics(group)) == 16  # four tables a round, each in a topic of its own
    with sqlite3.connect(database) as db:
        (data,) = db.execute("SELECT data FROM tournaments").fetchone()
        event = json.loads(data)
        tags = {
            tag: seed
            for tag, seed in db.execute("SELECT json_extract(snapshot, '$.event'), "
                                        "json_extract(snapshot, '$.seed') FROM games")
        }  # fmt: skip
        firsts: dict[str, list[str]] = {}
        games = "SELECT id, json_extract(snapshot, '$.event') FROM games"
        for game_id, tag in db.execute(games):
            (first,) = db.execute(
                "SELECT data FROM events WHERE game_id = ? AND kind = 'dice_rolled' "
                "ORDER BY seq LIMIT 1",
                (game_id,),
            ).fetchone()
            firsts.setdefault(tag.split(":")[1], []).append(first)
    assert event["phase"] == "finished" and len(event["rounds"]) == 4
    assert len(tags) == 16 and all(tag for tag in tags)
    for round_ in event["rounds"]:
        assert len(round_["tables"]) == 4 and round_["byes"] == []
        scores = [p[2] for table in round_["tables"] for p in table["placings"]]
        assert len(scores) == 16 and sum(scores) == pytest.approx(8)  # 2 a table of four
        # Duplicate dice: every table of the round threw the same seed's dice.
        assert (
            len({seed for tag, seed in tags.items() if tag.split(":")[1] == str(round_["number"])})
            == 1
        )
    for first_throws in firsts.values():  # the first throw of every table of a round alike
        assert len({json.dumps(json.loads(f)["dice"]) for f in first_throws}) == 1
    # No two people met twice in the first three rounds (the fourth may need to: 16 at tables of
    # four), and each round is the one the standings before it give, whichever process paired it.
    pairs = [frozenset((a, b)) for r in event["rounds"][:3] for t in r["tables"]
             for i, a in enumerate(t["players"]) for b in t["players"][i + 1:]]  # fmt: skip
    assert len(pairs) == len(set(pairs)) == 3 * 4 * 6
    whole = event_from_record(EventRecord(event["id"], "tg", str(group.id), 1, True, event))
    for n in range(1, 4):
        before = replace(whole, phase=EventPhase.PLAYING, rounds=whole.rounds[:n])
        paired = advanced(before, whole.rounds[n].seed, 0.0).rounds[n]
        assert [t.players for t in paired.tables] == [t.players for t in whole.rounds[n].tables]
    output = text(log)
    assert " ERROR " not in output and "Traceback" not in output, output
