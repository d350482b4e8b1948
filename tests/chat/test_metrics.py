"""The chat layer's counting, on the recording platform over the real service: each press and
command is counted once with its outcome (applied, refused with its code, stale, flood_limited),
and what the games did (finished, timers, computer turns) once each."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import metrics
from adapters.ratelimit import RateLimiter
from tests.chat.kit import ALICE, BOB, World, opened

PLATFORM = "testchat"
THROW = (1, 2, 3, 4, 6)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


def sample(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, {"platform": PLATFORM, **labels}) or 0.0


class Counts:
    """The samples named, now and once more later: by how much each moved."""

    def __init__(self, *names: tuple[str, dict[str, str]]) -> None:
        self.names = names
        self.before = [sample(name, **labels) for name, labels in names]

    def moved(self) -> list[float]:
        return [
            sample(name, **labels) - then
            for (name, labels), then in zip(self.names, self.before, strict=True)
        ]


def presses(outcome: str, code: str = "") -> tuple[str, dict[str, str]]:
    return "general_presses_total", {"outcome": outcome, "code": code}


def commands(command: str, outcome: str, code: str = "") -> tuple[str, dict[str, str]]:
    return "general_commands_total", {"command": command, "outcome": outcome, "code": code}


LOT_ALICE_FIRST = (1, 1, 1, 1, 2, 6, 6, 6, 6, 5)


async def test_each_outcome_is_counted_once(world: World) -> None:
    counts = Counts(
        commands("start", "applied"),
        commands("start", "refused", "game-exists"),
        commands("settings", "refused", "not-admin"),
        commands("unknown", "applied"),
        commands("stop", "applied"),
        presses("applied"),
        presses("refused", "not-your-turn"),
        presses("stale"),
        ("general_action_seconds_count", {"kind": "command"}),
        ("general_action_seconds_count", {"kind": "press"}),
        ("general_games_finished_total", {"reason": "cancelled"}),
    )
    await world.command(ALICE, "start")
    await world.command(BOB, "start")  # there is a table already
    await world.command(BOB, "settings")  # Bob does not manage the chat
    await world.command(BOB, "nonsense")  # an unknown word: answered with the help
    lobby = await world.board()
    await world.press(lobby, BOB, "j")
    world.roller.push(LOT_ALICE_FIRST)
    await world.press(lobby, ALICE, "b")
    board = await world.board()
    await world.press(board, BOB, "r")  # Alice's turn
    late = world.pressing(board, ALICE)  # her client shows the board before her throw
    world.roller.push(THROW)
    await world.press(board, ALICE, "r")
    await world.send(late, "h0")  # a throw since: the press is stale
    assert late.said()  # told so
    await world.command(ALICE, "stop")
    assert counts.moved() == [1, 1, 1, 1, 1, 3, 1, 1, 5, 5, 1]


async def test_flood_limited_presses_and_commands(tmp_path: Path) -> None:
    async with opened(tmp_path, limiter=RateLimiter(3, 0.001)) as world:
        counts = Counts(
            commands("start", "applied"),
            commands("sheet", "flood_limited"),
            presses("applied"),
            presses("flood_limited"),
        )
        await world.command(ALICE, "start")
        await world.press(await world.board(), ALICE, "b")
        board = await world.board()
        world.roller.push(THROW)
        await world.press(board, ALICE, "r")
        await world.command(ALICE, "sheet")  # beyond the burst of 3: "slow down"
        await world.press(board, ALICE, "h0")  # and then silence
        assert counts.moved() == [1, 1, 2, 1]


async def test_a_computers_turn_is_counted(world: World) -> None:
    counts = Counts(
        ("general_computer_turns_total", {"level": "novice"}),
        ("general_presses_total", {"outcome": "applied", "code": ""}),
        ("general_timers_fired_total", {"kind": "abandon"}),
    )
    await world.command(ALICE, "start")
    lobby = await world.board()
    await world.press(lobby, ALICE, "an")
    world.roller.push((1, 1, 1, 1, 2, 6, 6, 6, 6, 5))  # the lot: Alice begins
    await world.press(lobby, ALICE, "b")
    board = await world.board()
    world.roller.push(THROW * 4)
    await world.press(board, ALICE, "r")
    await world.press(board, ALICE, "s0")
    for _ in range(500):  # the Novice plays its turn by itself, and the bot shows it
        game = await world.game()  # (saved a moment before it is shown, and counted)
        if game.round == 2 and game.seats[game.current].player == ALICE and counts.moved()[0]:
            break
        await asyncio.sleep(0.01)
    await world.tables.redraws.idle()
    assert counts.moved() == [1, 4, 0]  # its moves are no presses


async def test_a_timer_the_bot_acts_on_is_counted(world: World) -> None:
    counts = Counts(
        ("general_timers_fired_total", {"kind": "abandon"}),
        ("general_games_finished_total", {"reason": "idle"}),
    )
    await world.tables.resume()  # the deadlines come to this platform's tables
    await world.command(ALICE, "start")
    # Nobody starts the lobby for days: the bot closes it by itself.
    world.service._clock = lambda: time.time() + 10**8
    await world.service._on_deadline(world.channel)
    assert counts.moved() == [1, 1]
    assert await world.service.game(world.channel) is None


def test_platform_answers_are_counted_by_kind() -> None:
    kinds = ("429", "5xx", "forbidden", "network")
    before = [sample("general_platform_errors_total", kind=kind) for kind in kinds]
    for status in (200, 400, 404, 429, 500, 502, 403, None):
        metrics.answered(PLATFORM, status)
    after = [sample("general_platform_errors_total", kind=kind) for kind in kinds]
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 2, 1, 1]


def test_a_link_is_down_until_connected_and_says_why() -> None:
    link = metrics.Link(PLATFORM, "gateway")
    assert not link.connected and link.reason == "not connected yet"
    assert sample("general_platform_connected") == 0
    link.up()
    assert link.connected and link.reason == ""
    assert sample("general_platform_connected") == 1
    link.lost("gateway disconnected", "1")  # one shard
    assert not link.connected and link.reason == "shard 1: gateway disconnected"
    link.up("1")
    assert link.connected
    link.received()
    assert link.last_update is not None
    assert sample("general_last_update_timestamp_seconds") == link.last_update
    link.close()
    link.up()  # a poll answered while it stops changes nothing
    assert not link.connected and link.reason == "stopped"
