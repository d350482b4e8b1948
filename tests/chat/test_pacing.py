"""The chat layer's pace and its redraws: inside the limits without making a table wait."""

from __future__ import annotations

import asyncio

from adapters.chat import cards
from adapters.chat.boards import BoardRef
from adapters.chat.pacing import Limits, Pace, Redraws
from core.identity import ChannelKey

TELEGRAM = Limits(burst=3, per_second=1.0, new_per_minute=20, group=lambda c: c.startswith("-"))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_one_a_second_in_each_chat() -> None:
    clock = Clock()
    pace = Pace(TELEGRAM, clock)
    waits = [pace.reserve("42", new=False) for _ in range(6)]
    assert waits == [0, 0, 0, 1, 2, 3]  # three at once, then one a second
    assert pace.reserve("43", new=False) == 0  # another chat has its own
    clock.now += 10  # quiet for a while: a full burst again
    assert [pace.reserve("42", new=False) for _ in range(3)] == [0, 0, 0]


def test_a_group_gets_twenty_new_messages_a_minute() -> None:
    clock = Clock()
    pace = Pace(Limits(burst=100, per_second=100.0, new_per_minute=20, group=TELEGRAM.group), clock)
    assert max(pace.reserve("-100", new=True) for _ in range(20)) < 1
    assert pace.reserve("-100", new=True) >= 59  # the 21st waits for the first to age out
    assert pace.reserve("-100", new=False) < 1  # edits are not new messages
    assert max(pace.reserve("7", new=True) for _ in range(30)) < 1  # a private chat: no cap


def test_a_long_message_costs_two_slots() -> None:
    pace = Pace(Limits(burst=1, per_second=1.0), Clock())
    assert pace.reserve("5", new=True, cost=2) == 0
    assert pace.reserve("5", new=False) == 2  # the long one took two seconds' worth


def test_all_chats_together_keep_the_overall_budget() -> None:
    pace = Pace(Limits(burst=3, per_second=1.0, overall_per_second=30.0), Clock())
    waits = [pace.reserve(str(chat), new=False) for chat in range(90)]  # 90 chats at once
    assert waits[0] == 0 and 2.9 < waits[-1] < 3.1  # 30 a second in all


def test_without_limits_nothing_waits() -> None:
    pace = Pace(None)
    assert {pace.reserve("-1", new=True) for _ in range(100)} == {0}


async def test_a_burst_of_states_costs_one_or_two_draws_and_the_newest_wins() -> None:
    drawn: list[int] = []
    gate = asyncio.Event()

    async def draw(
        channel: ChannelKey, game_id: str, ref: BoardRef, card: cards.Card, version: int
    ) -> None:
        await gate.wait()  # the platform holds the edit back
        drawn.append(version)

    redraws = Redraws(draw)
    ref, channel = BoardRef(1, 7), ChannelKey("tc", "1")
    redraws.request(channel, "g", ref, cards.Stripped(), 1)
    await asyncio.sleep(0)  # its edit is under way, and held back
    for version in range(2, 11):
        redraws.request(channel, "g", ref, cards.Stripped(), version)
    redraws.request(channel, "g", ref, cards.Stripped(), 4)  # a late, older state: dropped
    await asyncio.sleep(0)
    gate.set()
    await redraws.idle()
    assert drawn == [1, 10]
    other = BoardRef(1, 8)
    redraws.request(channel, "g", other, cards.Stripped(), 3)
    await redraws.settled(1)
    assert drawn == [1, 10, 3]
