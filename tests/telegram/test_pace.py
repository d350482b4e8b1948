"""Under Telegram's real limits (the fake's strict flood control): a table pressed as fast as
people press is answered at once, never sees a 429, and its board catches up with the newest
state in one or two edits."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from core.dice import SeededRoller
from tests.fakes.telegram import FakeMessage, FakeTelegram
from tests.fakes.telegram.limits import Limits
from tests.kit import game_rows
from tests.telegram.kit import board_showing, bot_settings, holding, live_board, press, running


@pytest.fixture
async def strict() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(limits=Limits.STRICT) as server:
        server.bot_holding = holding  # as every fake the bot runs against: settled is settled
        yield server


@pytest.mark.slow
async def test_a_game_pressed_fast_under_strict_limits_meets_no_429(
    strict: FakeTelegram, tmp_path: Path
) -> None:
    fake = strict
    settings = bot_settings(fake, tmp_path / "general.db").model_copy(
        update={"telegram_chat_rate": 1.0, "telegram_chat_burst": 3}
    )
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
    group = fake.chat(-100660, title="Strict")
    slowest = 0.0
    async with running(settings, SeededRoller(3)):
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        lobby = live_board(fake, group)
        await press(fake, bob, lobby, "Join")
        await press(fake, ann, lobby, "Start")
        for _ in range(4):  # two turns each, every press as soon as the last was answered
            board = await fake.wait_for(lambda: board_showing(fake, group, "throw 0/3"), 10)
            player = ann if f"id={ann.id}" in board.text else bob
            began = time.monotonic()
            await fake.wait_answer(await fake.press(player, board, "Roll"), timeout=5)
            slowest = max(slowest, time.monotonic() - began)
            mid = board.message_id
            await fake.wait_for(lambda: "throw 1/3" in fake.message(group, mid).text)  # noqa: B023
            shown = fake.message(group, mid)  # the dice the player now sees
            for die in range(3):  # three holds in a burst, all on the board as shown
                began = time.monotonic()
                data = payload_of(shown, f"h{die}")
                await fake.wait_answer(await fake.press(player, shown, data=data), timeout=5)
                slowest = max(slowest, time.monotonic() - began)
            await fake.wait_for(
                lambda: fake.message(group, mid).text.count("🔒") == 3,  # noqa: B023
                10,
            )
            board = fake.message(group, mid)
            box = next(b.text for b in board.buttons if "·" in b.text)
            began = time.monotonic()  # a box passes the turn: answered before the next board
            await fake.wait_answer(await fake.press(player, board, box), timeout=5)
            slowest = max(slowest, time.monotonic() - began)
        await fake.settle(timeout=30)
    assert fake.rate_limited == []  # the bot kept inside the limits
    assert slowest < 1.0  # every press answered at once
    edits = [p for m, p in fake.requests if m == "editMessageText"]
    presses = [p for m, p in fake.requests if m == "answerCallbackQuery"]
    assert len(edits) < len(presses)  # bursts coalesced
    assert game_rows(tmp_path / "general.db")[0][1] == "playing"


def payload_of(board: FakeMessage, code: str) -> str:
    """The callback data of the board's button `code` (h0…h4 the dice)."""
    (data,) = [b.callback_data for b in board.buttons if (b.callback_data or "").endswith(code)]
    return str(data)


@pytest.mark.slow
async def test_a_storm_keeps_the_game_and_one_edit_brings_the_board_back(
    strict: FakeTelegram, tmp_path: Path
) -> None:
    """A group held back for seconds: presses go on being saved and answered; once the storm
    lifts, the board shows the present."""
    fake = strict
    settings = bot_settings(fake, tmp_path / "general.db").model_copy(
        update={"telegram_chat_rate": 1.0}
    )
    ann = fake.user(1001, "Ann")
    group = fake.chat(-100661, title="Storm")
    async with running(settings, SeededRoller(4)):
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        await press(fake, ann, live_board(fake, group), "Start")
        board = live_board(fake, group)
        await press(fake, ann, board, "Roll")
        await fake.wait_for(lambda: "throw 1/3" in fake.message(group, board.message_id).text)
        shown = fake.message(group, board.message_id)
        edits_before = len([m for m, _ in fake.requests if m == "editMessageText"])
        fake.storm(group, 4)
        lifted = time.monotonic() + 4
        for die in range(4):  # pressed during the storm, on the board as it shows
            query = await fake.press(ann, shown, data=payload_of(shown, f"h{die}"))
            await fake.wait_answer(query, timeout=2)  # answered at once all the same
        held = (await stored(tmp_path))["turn"]["held"]
        assert held == [True, True, True, True, False]  # saved while the chat was held
        await fake.wait_for(
            lambda: fake.message(group, board.message_id).text.count("🔒") == 4, timeout=15
        )
        caught_up = time.monotonic() - lifted
    storm = [r for r in fake.rate_limited if r.reason == "storm"]
    assert storm, "the storm was met"
    edits = [m for m, _ in fake.requests if m == "editMessageText"][edits_before:]
    assert len(edits) <= 3  # the four presses' states came to one or two edits (and retries)
    assert caught_up < 5


async def stored(directory: Path) -> Any:
    ((_, _, snapshot),) = game_rows(directory / "general.db")
    return json.loads(snapshot)
