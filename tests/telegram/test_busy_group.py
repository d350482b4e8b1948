"""A busy Telegram group: its minute (sends and edits together) spent, a press is still answered
at once, a command that must wait shows the bot typing, a 429 elsewhere holds no press's answer,
and the 📋 Sheet costs the group nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.dice import ScriptedRoller
from tests.fakes.telegram import FakeChat, FakeTelegram, FakeUser
from tests.fakes.telegram.limits import Limits
from tests.telegram.kit import RunningBot, bot_settings, holding, live_board, open_table, press


def said_since(fake: FakeTelegram, start: int, method: str) -> list[int]:
    """Where in the requests since `start` the bot called `method`."""
    return [i for i, (m, _) in enumerate(fake.requests) if i >= start and m == method]


async def spend_the_minute(fake: FakeTelegram, user: FakeUser, group: FakeChat) -> None:
    """Commands whose answers take the group's whole window (and more)."""
    for _ in range(24):
        await fake.send_message(user, group, "/general rules")


async def alice_and_bob(tg: RunningBot, chat_id: int) -> tuple[FakeUser, FakeUser, FakeChat]:
    """A game of Alice and Bob started in a new group, Alice to throw first."""
    fake = tg.fake
    alice, bob = fake.user(1001, "Alice"), fake.user(1002, "Bob")
    group = fake.chat(chat_id, title="Busy")
    await open_table(tg, group, alice, bob)
    tg.roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])  # the lot: Alice first
    await press(fake, alice, live_board(fake, group), "Start")
    return alice, bob, group


@pytest.mark.slow
async def test_a_press_is_answered_while_the_last_actions_message_waits_its_slot(
    tg: RunningBot,
) -> None:
    fake = tg.fake
    alice, bob, group = await alice_and_bob(tg, -100700)
    board = live_board(fake, group)
    tg.roller.push([2, 3, 3, 5, 6])
    await press(fake, alice, board, "Roll")
    board = fake.message(group, board.message_id)
    box = next(b.text for b in board.buttons if "·" in b.text)
    await spend_the_minute(fake, bob, group)
    await fake.wait_for(holding)  # the rules' answers wait for the group's slots
    start = len(fake.requests)
    scored = await fake.press(alice, board, box)  # the turn ends: Bob's board must wait too
    await fake.wait_answer(scored)
    late = await fake.press(bob, board, "Roll")  # a press on the board just closed
    text, _ = await fake.wait_answer(late)
    answered = len(fake.requests)
    await fake.settle(timeout=20)
    assert text  # told why (the turn is over), not left without an answer
    new_boards = [i for i in said_since(fake, start, "sendMessage") if i >= answered]
    assert new_boards, "the next player's board came after the press was answered"
    assert "Bob" in live_board(fake, group).plain_text


@pytest.mark.slow
async def test_a_command_that_must_wait_for_the_group_shows_the_bot_typing(
    tg: RunningBot,
) -> None:
    fake = tg.fake
    ann = fake.user(1001, "Ann")
    group = fake.chat(-100701, title="Chatty")
    await spend_the_minute(fake, ann, group)
    await fake.settle(timeout=20)
    typing = [a for a in fake.chat_actions if a[0] == group.id and a[1] == "typing"]
    assert typing, "a command held back by the group's minute is shown to be heard"
    rules = [m for m in fake.bot_messages(group) if "General" in m.plain_text]
    assert len(rules) == 24, fake.rate_limited  # and every one is answered in the end


@pytest.fixture
async def stormy() -> AsyncIterator[FakeTelegram]:
    """The fake under the whole-game limits, where the test raises a storm itself."""
    async with FakeTelegram(limits=Limits.GAME) as server:
        server.bot_holding = holding
        yield server


@pytest.mark.slow
async def test_a_press_is_answered_while_another_call_waits_out_a_429(
    stormy: FakeTelegram, tmp_path: Path
) -> None:
    """PTB's limiter holds every call for a 429's retry: a press's answer does not wait."""
    from tests.telegram.kit import running

    fake = stormy
    roller = ScriptedRoller()
    ann = fake.user(1001, "Ann")
    group = fake.chat(-100702, title="Storm")
    async with running(bot_settings(fake, tmp_path / "general.db"), roller):
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        await press(fake, ann, live_board(fake, group), "Start")
        board = live_board(fake, group)
        roller.push([2, 3, 3, 5, 6])
        await press(fake, ann, board, "Roll")
        board = fake.message(group, board.message_id)
        fake.storm(group, 6)
        ends = fake.limit_clock() + 6
        await fake.wait_answer(await fake.press(ann, board, data=payload(board, "h0")))
        await fake.wait_for(lambda: fake.rate_limited != [])  # its edit met the storm
        query = await fake.press(ann, board, data=payload(board, "h1"))
        await fake.wait_answer(query, timeout=3)
        assert fake.limit_clock() < ends  # answered while the storm still held the chat
        await fake.settle(timeout=20)


@pytest.mark.slow
async def test_after_a_429_the_writes_that_queued_meanwhile_do_not_go_at_once(
    stormy: FakeTelegram, tmp_path: Path
) -> None:
    """PTB's limiter holds every call for a 429's delay and then lets them all go: the pace,
    told of the 429, holds the chat's other writes as long, and each refused call tries again
    at a slot of its own, so no burst meets the limits and every answer arrives (none lost
    after three refused tries)."""
    from tests.telegram.kit import running

    fake = stormy
    ann = fake.user(1001, "Ann")
    group = fake.chat(-100704, title="After the storm")
    async with running(bot_settings(fake, tmp_path / "general.db"), ScriptedRoller()):
        fake.storm(group, 0.5)  # Telegram refuses the chat's writes for a moment
        await spend_the_minute(fake, ann, group)
        await fake.settle(timeout=30)
    writes = [r for r in fake.rate_limited if r.method != "sendChatAction"]
    assert writes and {r.reason for r in writes} == {"storm"}  # none for the limits themselves
    rules = [m for m in fake.bot_messages(group) if "General" in m.plain_text]
    assert len(rules) == 24


def payload(board: object, code: str) -> str:
    (data,) = [
        b.callback_data
        for b in getattr(board, "buttons", [])
        if (b.callback_data or "").endswith(f"|{code}")
    ]
    return str(data)


async def test_the_sheet_button_answers_in_private_and_costs_the_group_nothing(
    tg: RunningBot,
) -> None:
    fake = tg.fake
    alice, bob, group = await alice_and_bob(tg, -100703)
    board = live_board(fake, group)
    fake.private_chat(bob)  # Bob opened a chat with the bot
    before = len(fake.bot_messages(group))
    for _ in range(3):
        await press(fake, bob, board, "Sheet")
    assert len(fake.bot_messages(group)) == before  # nothing posted in the group
    mine = fake.bot_messages(fake.private_chat(bob))
    assert len(mine) == 3 and "Alice" in mine[-1].plain_text
    first = await press(fake, alice, board, "Sheet")  # no private chat: posted once a turn
    assert first == "" and len(fake.bot_messages(group)) == before + 1
    again = await press(fake, alice, board, "Sheet")
    assert "Nothing has changed" in again and len(fake.bot_messages(group)) == before + 1
