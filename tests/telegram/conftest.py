"""The real bot entry (`bot.app.serve`) against the fake Telegram Bot API on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app import serve
from bot.settings import Settings
from core.dice import Roller, ScriptedRoller, SeededRoller
from tests.fakes.telegram import FakeTelegram


@dataclass
class RunningBot:
    fake: FakeTelegram
    roller: ScriptedRoller
    database: Path
    settings: Settings


@dataclass
class SeededBot:
    fake: FakeTelegram
    database: Path


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server
    assert server.unhandled == [], server.unhandled


def bot_settings(fake: FakeTelegram, database: Path) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=fake.token,
        telegram_base_url=fake.base_url,
        general_database=str(database),
        general_computer_pause=0,
        general_flood_burst=10_000,  # tests press far faster than people
        general_flood_rate=10_000,
        discord_token=None,
    )


@contextlib.asynccontextmanager
async def running(settings: Settings, roller: Roller) -> AsyncIterator[None]:
    """`bot.app.serve` as production runs it, until the block ends."""
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(serve(settings, stop, ready, roller))
    waiter = asyncio.create_task(ready.wait())
    done, _ = await asyncio.wait({task, waiter}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()
    assert ready.is_set(), "the bot did not become ready"
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


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
