"""The chat layer's pace and its redraws: inside the limits without making a table wait."""

from __future__ import annotations

import asyncio

import pytest

from adapters.chat import cards
from adapters.chat.boards import BoardRef
from adapters.chat.pacing import Limits, Pace, Redraws, unshown
from core.identity import ChannelKey

TELEGRAM = Limits(
    burst=3, per_second=1.0, group_writes=20, group=lambda c: c.startswith("-"), slack=0
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_one_a_second_in_each_chat() -> None:
    clock = Clock()
    pace = Pace(TELEGRAM, clock)
    waits = [pace.reserve("42") for _ in range(6)]
    assert waits == [0, 0, 0, 1, 2, 3]  # three at once, then one a second
    assert pace.reserve("43") == 0  # another chat has its own
    clock.now += 10  # quiet for a while: a full burst again
    assert [pace.reserve("42") for _ in range(3)] == [0, 0, 0]


def test_a_group_gets_twenty_sends_and_edits_a_minute() -> None:
    clock = Clock()
    limits = Limits(burst=100, per_second=100.0, group=TELEGRAM.group, slack=0, group_burst=20)
    pace = Pace(limits, clock)
    assert max(pace.reserve("-100") for _ in range(20)) < 1
    assert pace.reserve("-100") >= 59  # the 21st waits for the first to age out
    assert max(pace.reserve("7") for _ in range(30)) < 1  # a private chat: no cap


def test_a_groups_minute_is_spent_evenly_after_a_short_burst() -> None:
    """Spent at once, a minute would leave a busy table's board a minute behind; spread, a
    slot comes every three seconds."""
    clock = Clock()
    limits = Limits(burst=100, per_second=100.0, group=TELEGRAM.group, slack=0, group_burst=4)
    pace = Pace(limits, clock)
    waits = [pace.reserve("-100") for _ in range(7)]
    assert waits == pytest.approx([0, 0, 0, 0, 3, 6, 9])
    clock.now += 60  # quiet for a minute: a burst again
    assert pace.reserve("-100") == 0


async def test_an_edit_waits_for_the_groups_slot_that_a_send_took() -> None:
    """A board's drawer (`ready`) waits for the group's window as much as a send does."""
    loop = Loop()
    limits = Limits(burst=100, per_second=100.0, group=TELEGRAM.group, slack=0, group_burst=1)
    pace = Pace(limits, loop.clock, loop.sleep)
    assert pace.reserve("-100") == 0
    ready = asyncio.create_task(pace.ready("-100"))
    await loop.run([1.0, 1.0])
    assert not ready.done() and unshown() == 1  # two seconds of the three
    await loop.run([1.0, 0.1])
    await ready
    assert unshown() == 0


def test_a_long_message_costs_two_slots() -> None:
    pace = Pace(Limits(burst=1, per_second=1.0, slack=0), Clock())
    assert pace.reserve("5", cost=2) == 0
    assert pace.reserve("5") == 2  # the long one took two seconds' worth
    pace = Pace(Limits(burst=3, per_second=1.0, slack=0), Clock())
    assert pace.reserve("6", cost=2) == 0
    assert pace.reserve("6", cost=2) == 1  # two of a burst of three are free a second later


def test_all_chats_together_keep_the_overall_budget() -> None:
    pace = Pace(Limits(burst=3, per_second=1.0, overall_per_second=30.0, slack=0), Clock())
    waits = [pace.reserve(str(chat)) for chat in range(90)]  # 90 chats at once
    assert waits[0] == 0 and 2.9 < waits[-1] < 3.1  # 30 a second in all


def test_every_limit_is_kept_with_its_slack_to_spare() -> None:
    """A call reaches the platform a little after it leaves: exactly the platform's rate
    would bounce off it whenever an earlier call took longer on the way than a later one."""
    limits = Limits(burst=3, per_second=1.0, group_writes=2, group=TELEGRAM.group, group_burst=2)
    pace = Pace(limits, Clock())
    waits = [pace.reserve("42") for _ in range(5)]
    assert waits == pytest.approx([0, 0, 0, 1.1, 2.2])  # the default slack: 0.1 s
    assert pace.reserve("-5") == pace.reserve("-6") == 0
    assert pace.reserve("-5") == 0  # the second of its minute
    assert pace.reserve("-5") == pytest.approx(60.1)  # the minute and its slack
    pace = Pace(Limits(burst=3, per_second=1.0, overall_per_second=30.0), Clock())
    overall = [pace.reserve(str(chat)) for chat in range(31)]
    assert overall[30] == pytest.approx(1.1)  # 30 in every 1.1 s


class Loop:
    """A clock that the test moves on, and a sleep that waits for it."""

    def __init__(self) -> None:
        self.clock = Clock()
        self.ticked = asyncio.Condition()

    async def sleep(self, seconds: float) -> None:
        until = self.clock.now + seconds
        async with self.ticked:
            await self.ticked.wait_for(lambda: self.clock.now >= until)

    async def run(self, steps: list[float]) -> None:
        for step in steps:
            self.clock.now += step
            async with self.ticked:
                self.ticked.notify_all()
            await asyncio.sleep(0)


async def test_a_late_wake_up_never_sends_a_burst() -> None:
    """The event loop, busy, wakes the waiting calls late and all at once: what really went
    judges, and they still go out no faster than the limits."""
    loop = Loop()
    limits = Limits(burst=3, per_second=1.0, overall_per_second=10.0, slack=0)
    pace = Pace(limits, loop.clock, loop.sleep)
    went: list[float] = []

    async def write(chat: str) -> None:
        async with pace.turn(chat):
            went.append(loop.clock.now)

    stall = [0.01] * 10 + [1.0] + [0.01] * 400  # one long stall of the loop
    await asyncio.gather(loop.run(stall), *(write(str(chat)) for chat in range(20)))
    assert len(went) == 20
    assert max(sum(1 for t in went if start <= t < start + 1) for start in went) <= 10


async def test_a_call_counts_until_it_is_answered() -> None:
    """A call slow on its way may reach the platform late: the overall window (one a second
    here) holds it until its answer, so the calls after it cannot crowd into its second."""
    loop = Loop()
    pace = Pace(
        Limits(burst=3, per_second=1.0, overall_per_second=1.0, slack=0), loop.clock, loop.sleep
    )
    went: dict[str, float] = {}
    answered = asyncio.Event()

    async def write(chat: str, slow: bool) -> None:
        async with pace.turn(chat):
            went[chat] = loop.clock.now
            if slow:
                await answered.wait()

    async def later() -> None:
        await loop.run([0.1] * 50)  # 5 s on the way
        answered.set()
        await loop.run([0.1] * 30)

    await asyncio.gather(later(), write("a", True), write("b", False))
    assert went["b"] >= went["a"] + 5 + 1  # a second after the slow one was answered


async def test_a_burst_of_states_costs_one_or_two_draws_and_the_newest_wins() -> None:
    drawn: list[int] = []
    gate = asyncio.Event()

    async def draw(
        channel: ChannelKey, game_id: str, ref: BoardRef, card: cards.Card, version: int
    ) -> None:
        await gate.wait()  # the platform holds the edit back
        drawn.append(version)

    redraws = Redraws(draw)
    ref, channel = BoardRef("1", "7"), ChannelKey("tc", "1")
    redraws.request(channel, "g", ref, cards.Stripped(), 1)
    await asyncio.sleep(0)  # its edit is under way, and held back
    for version in range(2, 11):
        redraws.request(channel, "g", ref, cards.Stripped(), version)
    redraws.request(channel, "g", ref, cards.Stripped(), 4)  # a late, older state: dropped
    await asyncio.sleep(0)
    gate.set()
    await redraws.idle()
    assert drawn == [1, 10]
    other = BoardRef("1", "8")
    redraws.request(channel, "g", other, cards.Stripped(), 3)
    await redraws.settled("1")
    assert drawn == [1, 10, 3]


async def test_a_drawer_picks_the_state_to_draw_only_when_the_chat_may_be_written() -> None:
    drawn: list[int] = []
    turn = asyncio.Event()

    async def draw(
        channel: ChannelKey, game_id: str, ref: BoardRef, card: cards.Card, version: int
    ) -> None:
        drawn.append(version)

    async def ready(ref: BoardRef) -> None:
        await turn.wait()  # the chat's pace holds every edit back for now

    redraws = Redraws(draw, ready)
    ref, channel = BoardRef("1", "7"), ChannelKey("tc", "1")
    for version in range(1, 6):  # presses while the chat waits
        redraws.request(channel, "g", ref, cards.Stripped(), version)
        await asyncio.sleep(0)
    turn.set()
    await redraws.idle()
    assert drawn == [5]  # one edit, of the newest state


async def test_a_state_asked_for_as_the_last_drawer_ends_is_drawn() -> None:
    """Asked for after the board's drawer finished its last edit but before the loop forgot
    the drawer (its done callbacks come a turn later): a new drawer draws it. It was left
    waiting for good, the board showing a state the table had left (a deadline's closing edit
    after a restart, once in a full run of the suite)."""
    drawn: list[int] = []
    redraws: Redraws[cards.Card]
    ref, channel = BoardRef("1", "7"), ChannelKey("tc", "1")

    async def draw(
        channel: ChannelKey, game_id: str, ref: BoardRef, card: cards.Card, version: int
    ) -> None:
        drawn.append(version)
        if version == 1:  # runs once this drawer has ended, before its done callbacks
            loop = asyncio.get_running_loop()
            loop.call_soon(redraws.request, channel, "g", ref, cards.Stripped(), 2)

    redraws = Redraws(draw)
    redraws.request(channel, "g", ref, cards.Stripped(), 1)
    for _ in range(5):
        await asyncio.sleep(0)
    await redraws.idle()
    assert drawn == [1, 2]


def test_after_a_429_nothing_goes_until_the_delay_has_passed_then_one_at_a_time() -> None:
    """The platform refused a write for 5 s: the writes reserved after it wait those seconds,
    and then do not go as a burst (each would be refused in turn while PTB retries)."""
    clock = Clock()
    pace = Pace(TELEGRAM, clock)
    assert pace.reserve("42") == 0
    pace.hold("42", 5.0)
    waits = [pace.reserve("42") for _ in range(3)]
    assert waits == pytest.approx([6.0, 7.0, 8.0])  # a slot after the retry, one a second
    assert pace.reserve("43") == 0  # another chat was not refused


def test_a_groups_window_is_held_after_a_429_too() -> None:
    clock = Clock()
    limits = Limits(burst=100, per_second=100.0, group=TELEGRAM.group, slack=0, group_burst=4)
    pace = Pace(limits, clock)
    pace.hold("-100", 2.0)
    assert [pace.reserve("-100") for _ in range(2)] == pytest.approx([5.0, 8.0])


async def test_a_chats_next_call_waits_from_when_the_last_one_was_answered() -> None:
    """The platform's bucket counts a call when it arrives: one slow on its way may arrive
    just before the next, which must then still find a token. So the next goes a slot after
    the slow one was answered, not a slot after it left."""
    loop = Loop()
    pace = Pace(Limits(burst=1, per_second=1.0, slack=0), loop.clock, loop.sleep)
    went: dict[str, float] = {}
    answered = asyncio.Event()

    async def write(name: str, slow: bool) -> None:
        async with pace.turn("42"):
            went[name] = loop.clock.now
            if slow:
                await answered.wait()

    async def later() -> None:
        await loop.run([0.1] * 30)  # 3 s on the way
        answered.set()
        await loop.run([0.1] * 30)

    await asyncio.gather(later(), write("a", True), write("b", False))
    assert went["b"] >= went["a"] + 3 + 1 - 1e-9
