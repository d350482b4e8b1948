"""One action at a time per table: an action that waits a moment for another's is answered by
what it does; one that waits longer is acknowledged first."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import order
from tests.chat.kit import ALICE, BOB, VOICES, RecordingExchange, World, opened


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def waits_its_turn(world: World, exchange: RecordingExchange) -> None:
    async with world.tables.serial(world.channel, exchange, VOICES):
        pass


async def test_a_short_wait_is_not_acknowledged_a_long_one_is(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    holder, brief, long = world.asking(ALICE), world.asking(BOB), world.asking(BOB)
    async with world.tables.serial(world.channel, holder, VOICES):
        waiting = asyncio.create_task(waits_its_turn(world, brief))
        await asyncio.sleep(order.QUIET_WAIT / 5)
    await waiting
    assert (holder.acks, brief.acks) == (0, 0)
    monkeypatch.setattr(order, "QUIET_WAIT", 0.01)
    async with world.tables.serial(world.channel, holder, VOICES):
        waiting = asyncio.create_task(waits_its_turn(world, long))
        await asyncio.sleep(0.1)
        assert long.acks == 1 and not waiting.done()  # acknowledged, still waiting its turn
    await waiting
    assert long.acks == 1
