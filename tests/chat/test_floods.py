"""The per-person flood limit: past it a person is told to slow down once (again only where
saying so costs nothing), then only acknowledged, and nothing they asked is done."""

from __future__ import annotations

from pathlib import Path

from adapters.chat import cards
from adapters.ratelimit import RateLimiter
from tests.chat.kit import ALICE, BOB, T, opened

SLOW = cards.Lines((T("error-slow-down"),))


def tight() -> RateLimiter:
    """One action, then (practically) no more for the rest of the test."""
    return RateLimiter(1, 0.001)


async def test_past_the_limit_a_person_is_warned_once_then_only_acknowledged(
    tmp_path: Path,
) -> None:
    """In a chat, a second "slow down" would be one more message: the third is silent."""
    async with opened(tmp_path, tight()) as world:
        allowed = await world.command(ALICE, "help")
        warned = await world.command(ALICE, "start")
        dropped = await world.command(ALICE, "start")
        assert allowed.privately == [cards.Help()]
        assert (warned.privately, warned.acks) == ([SLOW], 0)
        assert (dropped.privately, dropped.acks) == ([], 1)
        assert await world.service.game(world.channel) is None
        assert world.platform.messages == []


async def test_where_answers_are_private_the_warning_is_repeated(tmp_path: Path) -> None:
    """A callback answer is seen by the presser alone: every dropped press may say why."""
    async with opened(tmp_path, tight()) as world:
        await world.command(ALICE, "help")
        answers = [await world.command(ALICE, "start", quiet=True) for _ in range(3)]
        assert [a.privately for a in answers] == [[SLOW]] * 3


async def test_presses_are_limited_like_commands(tmp_path: Path) -> None:
    """A board's buttons count against the same limit, and a dropped press plays nothing."""
    async with opened(tmp_path, tight()) as world:
        await world.command(ALICE, "start")
        lobby = await world.board()
        warned = await world.press(lobby, ALICE, "b")
        dropped = await world.press(lobby, ALICE, "b")
        assert warned.said() == [T("error-slow-down")] and dropped.acks == 1
        assert dropped.privately == [] and lobby.edits == 0
        assert (await world.game()).round == 0


async def test_the_limit_is_per_person(tmp_path: Path) -> None:
    """Alice flooding does not slow Bob down."""
    async with opened(tmp_path, tight()) as world:
        await world.command(ALICE, "help")
        await world.command(ALICE, "help")
        bob = await world.command(BOB, "help")
        assert bob.privately == [cards.Help()]
