"""Fixtures: the fake Telegram Bot API on 127.0.0.1 and the real bot entry against it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.dice import ScriptedRoller, SeededRoller
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.limits import Limits
from tests.telegram.kit import RunningBot, SeededBot, bot_settings, holding, running


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    """The fake under Telegram's limits (a group's sends and edits sharing one window), its
    clock 20 times faster: a 429 fails the test."""
    async with FakeTelegram(limits=Limits.GAME) as server:
        server.bot_holding = holding
        yield server
    assert server.unhandled == [], server.unhandled
    assert server.rate_limited == [], server.rate_limited


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture
async def tg(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[RunningBot]:
    settings = bot_settings(fake, tmp_path / "general.db")
    roller = ScriptedRoller()
    async with running(settings, roller):
        yield RunningBot(fake, roller, tmp_path / "general.db", settings)


@pytest.fixture
async def tg_seeded(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[SeededBot]:
    """The bot with seeded dice, for games whose throws a test does not script (computers)."""
    settings = bot_settings(fake, tmp_path / "general.db")
    async with running(settings, SeededRoller(2024)):
        yield SeededBot(fake, tmp_path / "general.db")
